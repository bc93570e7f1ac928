// Exhaustive search: every sequence of drops and skills for one side up to a
// few plies, tabling the best fire at each ply per first move and how long
// each first move survives. Played for the own side (up to 4 plies) and the
// opponent (its worst case for us), as the seed's main search does.

package ai

import (
	"context"
	"sync"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/sim"
)

// MaxPly is the deepest exhaustive search.
const MaxPly = 5

// Best is the best fire found at one ply.
type Best struct {
	Sent   int // ojama produced (chains or skill)
	Chains int
	First  int // first move of the line (move code), -1 if none
	Skill  bool
}

// Table is what an exhaustive search found.
type Table struct {
	Depth   int
	Ply     [MaxPly]Best           // best over all first moves; Ply[0] = fire this turn
	ByFirst [numMoves][MaxPly]Best // best per first move
	Survive [numMoves]int          // plies the first move survives in its best line (0 = illegal or dies now; a line ending in a fire counts as surviving the whole depth)
	Nodes   int64
}

// BestUpTo returns the best fire at plies 1..d.
func (t *Table) BestUpTo(d int) Best {
	b := Best{First: -1}
	for i := 0; i < min(d, t.Depth); i++ {
		if t.Ply[i].Sent > b.Sent {
			b = t.Ply[i]
		}
	}
	return b
}

// exhaust searches every line of root's moves to depth plies (packs[0] is
// the next pack). A line stops at a fire of more than smallFire chains or a
// skill that sends ojama. Threads split the first moves; the table does not
// depend on the thread count.
func exhaust(ctx context.Context, root side, packs []sim.Pack, depth, threads int) Table {
	return exhaustIncoming(ctx, root, packs, depth, threads, &[MaxPly]int{})
}

// exhaustIncoming is exhaust with the opponent's ojama arriving: incoming[p]
// joins the stock at the end of ply p (0-based), less what that ply's own
// fire sends (the two offset). With the opponent's best fire placed at its
// ply, Survive is the worst case the seed's search plans against.
func exhaustIncoming(ctx context.Context, root side, packs []sim.Pack, depth, threads int, incoming *[MaxPly]int) Table {
	return exhaustWith(ctx, root, packs, depth, threads, incoming, true)
}

// exhaustWith is exhaustIncoming with the transposition table on or off
// (off only in tests, which check that both give the same table).
func exhaustWith(ctx context.Context, root side, packs []sim.Pack, depth, threads int, incoming *[MaxPly]int, useTT bool) Table {
	depth = min(depth, MaxPly, len(packs))
	var t Table
	t.Depth = depth
	if depth == 0 {
		return t
	}
	rots := make([]rotations, depth)
	for i := range rots {
		rots[i] = rotate(packs[i])
	}
	firsts := legalMoves(&root, &rots[0])
	type result struct {
		best  [MaxPly]Best
		surv  int
		nodes int64
	}
	results := make([]result, len(firsts))
	var wg sync.WaitGroup
	next := make(chan int, len(firsts))
	for i := range firsts {
		next <- i
	}
	close(next)
	for w := 0; w < max(threads, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var tt *transTable
			if useTT && depth > 2 {
				tt = newTransTable(depth)
			}
			for i := range next {
				if ctx.Err() != nil {
					return
				}
				r := &results[i]
				for p := range r.best {
					r.best[p].First = -1
				}
				s := root
				o := s.act(firsts[i], &rots[0])
				r.nodes++
				if o.dead {
					continue
				}
				s.stock += max(incoming[0]-o.net, 0)
				r.surv = 1
				if o.sent > 0 {
					r.best[0] = Best{Sent: o.sent, Chains: o.chains, First: firsts[i], Skill: firsts[i] == moveSkill}
				}
				if o.sent > 0 && (o.chains > smallFire || firsts[i] == moveSkill) {
					r.surv = depth // a fire ends the line alive
				} else if depth > 1 {
					var stack [MaxPly + 1]side // caller-owned buffer: one state per ply
					stack[1] = s
					d := searcher{rots: rots, incoming: incoming, depth: depth, tt: tt, ctx: ctx}
					d.dfs(&stack, 1, firsts[i], &r.best, &r.surv, &r.nodes)
				}
			}
		}()
	}
	wg.Wait()
	for p := range t.Ply {
		t.Ply[p].First = -1
	}
	for i, m := range firsts {
		r := &results[i]
		t.ByFirst[m] = r.best
		t.Survive[m] = r.surv
		t.Nodes += r.nodes
		for p := 0; p < depth; p++ {
			if r.best[p].Sent > t.Ply[p].Sent {
				t.Ply[p] = r.best[p]
			}
		}
	}
	return t
}

// legalMoves lists the distinct drops and, with a full enough gauge, the skill.
func legalMoves(s *side, rot *rotations) []int {
	ms := make([]int, 0, numMoves)
	for m := 0; m < 36; m++ {
		if rot.uniq[m&3] {
			ms = append(ms, m)
		}
	}
	if s.gauge >= codevs.SkillCost {
		ms = append(ms, moveSkill)
	}
	return ms
}

// searcher holds what stays fixed during one first move's depth-first search.
type searcher struct {
	rots     []rotations
	incoming *[MaxPly]int
	depth    int
	tt       *transTable // nil: no transposition table
	// ctx stops the search between the second ply's subtrees (at most
	// 1 406 states each at depth 4; a first move's is 37 times that).
	ctx context.Context
}

// dfs expands stack[ply] (the state before ply) into stack[ply+1], updating
// best (the first line in search order wins ties, as a strict > keeps the
// earliest) and surv.
func (d *searcher) dfs(stack *[MaxPly + 1]side, ply, first int, best *[MaxPly]Best, surv *int, nodes *int64) {
	rot := &d.rots[ply]
	s := &stack[ply]
	c := &stack[ply+1]
	depth := d.depth
	for m := 0; m < numMoves; m++ {
		if m == moveSkill {
			if s.gauge < codevs.SkillCost {
				continue
			}
		} else if !rot.uniq[m&3] {
			continue
		}
		*c = *s
		o := c.act(m, rot)
		*nodes++
		if o.dead {
			continue
		}
		*surv = max(*surv, ply+1)
		c.stock += max(d.incoming[ply]-o.net, 0)
		if o.sent > best[ply].Sent {
			best[ply] = Best{Sent: o.sent, Chains: o.chains, First: first, Skill: m == moveSkill}
		}
		if o.sent > 0 && (o.chains > smallFire || m == moveSkill) {
			*surv = depth // a fire ends the line alive
		} else if ply+1 < depth {
			if ply == 1 && d.ctx.Err() != nil {
				return
			}
			d.child(stack, ply+1, first, best, surv, nodes)
		}
	}
}

// child searches the subtree of stack[ply] and merges its result into best
// and surv. With a table, the subtree's result (which depends only on the
// state and the ply, not on the line that reached it) is looked up or
// stored; merging a subtree's own best with a strict > gives exactly what
// searching it in place gives.
func (d *searcher) child(stack *[MaxPly + 1]side, ply, first int, best *[MaxPly]Best, surv *int, nodes *int64) {
	if d.tt == nil {
		d.dfs(stack, ply, first, best, surv, nodes)
		return
	}
	key := stack[ply].key(ply)
	e := d.tt.slot(key)
	if e.key != key {
		var sub [MaxPly]Best
		subSurv := 0
		d.dfs(stack, ply, first, &sub, &subSurv, nodes)
		e.key = key
		e.surv = int8(subSurv)
		for p := ply; p < d.depth; p++ {
			e.best[p] = ttBest{sent: int32(sub[p].Sent), chains: int16(sub[p].Chains), skill: sub[p].Skill}
		}
	}
	*surv = max(*surv, int(e.surv))
	for p := ply; p < d.depth; p++ {
		if b := e.best[p]; int(b.sent) > best[p].Sent {
			best[p] = Best{Sent: int(b.sent), Chains: int(b.chains), First: first, Skill: b.skill}
		}
	}
}

// transTable is a direct-mapped table of subtree results, one per worker
// and search (so the search stays deterministic: entries are exact results,
// whatever thread found them first). The seed's search used one the same
// way, shared between threads; a private one needs no locking.
type transTable struct {
	e    []ttEntry
	mask uint64
}

// ttEntry is one subtree's result: the best fire at each ply below the
// entry's ply and the deepest ply its lines survive.
type ttEntry struct {
	key  uint64 // 0: empty
	surv int8
	best [MaxPly]ttBest
}

// ttBest is Best without First (the caller stamps its own first move).
type ttBest struct {
	sent   int32
	chains int16
	skill  bool
}

// newTransTable sizes the table for the internal nodes of a depth-ply
// search (about 37^(depth-2) of them at the deepest internal ply).
func newTransTable(depth int) *transTable {
	n, want := 1<<12, 2*pow37(depth-2)
	for n < want && n < 1<<16 {
		n <<= 1
	}
	return &transTable{e: make([]ttEntry, n), mask: uint64(n - 1)}
}

func pow37(k int) int {
	n := 1
	for range k {
		n *= 37
	}
	return n
}

// slot returns the entry key maps to.
func (t *transTable) slot(key uint64) *ttEntry {
	return &t.e[(key^key>>29)&t.mask]
}

// key hashes the state before ply: field, stock, gauge and the ply. A
// 64-bit key stands for the state; a collision (odds ~1e-10 per search)
// would only misjudge one subtree.
func (s *side) key(ply int) uint64 {
	h := s.f.Hash()
	h ^= uint64(s.stock)<<32 | uint64(s.gauge)<<8 | uint64(ply)
	h *= 0x9e3779b97f4a7c15
	h ^= h >> 31
	if h == 0 {
		h = 1
	}
	return h
}
