// Chokudai builder: tanzaku's plan search (PEERS.md), written here from
// its description. One priority queue per ply; each round pops the best
// state of every ply in turn and pushes its children into the next ply's
// queue, until a node or time budget runs out. No width: the budget decides
// how deep the good lines go. States are ordered by the erase-one-block
// potential's ojama (capped) and shape terms; the best actual fire of each
// ply is kept apart, and the fastest-target rule picks among them as in the
// chain beam.

package ai

import (
	"context"
	"time"

	"github.com/yomi-ai/yomi/codevs/sim"
)

// ChokudaiConfig sets one chokudai search.
type ChokudaiConfig struct {
	Depth      int           // plies (queues); at most len(packs)
	Nodes      int64         // states expanded at most (0: no limit); alone it makes the search deterministic
	Budget     time.Duration // wall time at most (0: no limit)
	XMin, XMax int           // pack columns tried (0..8)
	// Target, Deadline and DeadlineMin choose among the per-ply best fires
	// as BeamConfig's do (the fastest-target rule; tanzaku's get_best with
	// a 60-ojama limit is Target 13).
	Target, Deadline, DeadlineMin int
	// Incoming is ojama joining the root's stock after ply 1, less what
	// that ply fires (BeamConfig.Incoming).
	Incoming int
	// IncomingPly, when above 1, is the ply after which Incoming joins
	// instead of ply 1 (Config.RaceCounter: the opponent's read fire).
	IncomingPly int
	// Threads, when 2 or more, evaluates half of each state's children on a
	// helper goroutine (results do not depend on it).
	Threads int
	// ByFirst also keeps the best fire of each ply per first move, for
	// Chokudai.byFirst (the anti-counter's grow candidates); the search
	// and its result are the same without it.
	ByFirst bool
	// RowW, 1..100, blends into the queue key the erase-one-block potential
	// left after one ojama row falls (rowPotential): the key's ojama is
	// (100−RowW)% of the potential's plus RowW% of the row potential's, so
	// lines whose ready chain survives the opponent's first row rank up.
	// 0: the potential alone (tanzaku's key). Only states whose potential
	// reaches RowMin chains pay for the second potential.
	RowW int
	// RowMin is the smallest potential (chains after the erase) whose row
	// potential is computed under RowW; below it the key is the potential's.
	RowMin int
	// RowPack makes RowW's term the longest chain a known pack fires after
	// one ojama row falls (rowFire) instead of the row potential (0): 1,
	// the state's next pack (the row falls before our fire); 2, the pack
	// after it (we wait a turn, the row falls, we fire: the anti-counter's
	// hold; the wait move's own blocks are not placed); 3, the lesser of
	// the two.
	RowPack int
	// OpenX, 1..9, makes the first ply from an empty field try only pack
	// column OpenX−1 (tanzaku: column 5, OpenX 6): the build then leans on
	// one side and leaves free columns together on the other, where a
	// ready chain has room to be extended under ojama (session
	// codevs-chain). 0: every column.
	OpenX int
	// FreeW adds FreeW to the queue key per empty column in the longer
	// run of empty columns at either wall (edgeFree): among states of
	// the same potential, builds that leave free room together on one
	// side rank up (the same 13-chain shifted two columns right held a
	// 16-chain under 60 ojama in tanzaku's field and none in ours, pack
	// seed 9007; session codevs-chain). A block is worth 2 000, a row
	// over Visible−2 −10 000. 0: off.
	FreeW int
	// ExtNodes, when positive, makes searchExt pick among the ready
	// fields of up to ExtK (0: 4) candidate fires by how far each grows
	// under an opponent's fire of its size (extension, ExtNodes states
	// each, and an eighth of Budget each when Budget is set).
	ExtNodes int64
	ExtK     int
	// ExtLater and ExtShorter widen ExtNodes's candidates to fires up to
	// ExtLater plies later or ExtShorter chains shorter than the choice
	// (up to ExtK more; searchExt). 0: as long and early only.
	ExtLater, ExtShorter int
}

// chokMaxOjama caps the ojama a state's potential or fire is scored by
// (tanzaku: 200, about 18 chains).
const chokMaxOjama = 200

// chokNode is an expanded state: its side, the move from its parent and
// the parent's index in the arena.
type chokNode struct {
	s      side
	parent int32
	mv     uint8
	ply    uint8
	first  uint8 // the root move this state descends from
}

// chokEntry is a queued child: its order key and how to rebuild it (the
// parent's arena index and the move), so a queue holds 16 bytes per state.
type chokEntry struct {
	key    int64
	parent int32
	mv     uint8
}

// before orders entries: higher key first, then parent and move (the order
// they were made in), so the search is deterministic.
func (a chokEntry) before(b chokEntry) bool {
	if a.key != b.key {
		return a.key > b.key
	}
	if a.parent != b.parent {
		return a.parent < b.parent
	}
	return a.mv < b.mv
}

// chokHeap is a binary max-heap of entries.
type chokHeap []chokEntry

func (h *chokHeap) push(e chokEntry) {
	*h = append(*h, e)
	q := *h
	i := len(q) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !q[i].before(q[p]) {
			break
		}
		q[i], q[p] = q[p], q[i]
		i = p
	}
}

func (h *chokHeap) pop() chokEntry {
	q := *h
	top := q[0]
	n := len(q) - 1
	q[0] = q[n]
	q = q[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		c := l
		if r := l + 1; r < n && q[r].before(q[l]) {
			c = r
		}
		if !q[c].before(q[i]) {
			break
		}
		q[i], q[c] = q[c], q[i]
		i = c
	}
	*h = q
	return top
}

// hashSet is an open-addressing set of 64-bit field hashes (0 stands for
// empty, so hash 0 is stored as 1).
type hashSet struct {
	slots []uint64
	n     int
}

func (s *hashSet) reset(capHint int) {
	size := 1 << 16
	for size < 2*capHint {
		size <<= 1
	}
	if cap(s.slots) >= size {
		// Only size slots: clearing the whole capacity a long search
		// left cost a short search (5 ms) its budget before it began.
		s.slots = s.slots[:size]
		clear(s.slots)
	} else {
		s.slots = make([]uint64, size)
	}
	s.n = 0
}

// has reports whether h is in the set.
func (s *hashSet) has(h uint64) bool {
	h = max(h, 1)
	mask := uint64(len(s.slots) - 1)
	for i := (h * 0x9e3779b97f4a7c15) >> 20 & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case h:
			return true
		case 0:
			return false
		}
	}
}

// insert adds h and reports whether it was new.
func (s *hashSet) insert(h uint64) bool {
	if 2*(s.n+1) > len(s.slots) {
		old := s.slots
		s.slots = make([]uint64, 2*len(old))
		s.n = 0
		for _, v := range old {
			if v != 0 {
				s.insert(v)
			}
		}
	}
	h = max(h, 1)
	mask := uint64(len(s.slots) - 1)
	for i := (h * 0x9e3779b97f4a7c15) >> 20 & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case h:
			return false
		case 0:
			s.slots[i] = h
			s.n++
			return true
		}
	}
}

// chokKid is one evaluated child of an expanded state.
type chokKid struct {
	hash   uint64
	key    int64 // queue order (0 when not queued)
	score  int64 // fire score when it fired
	chains int
	sent   int
	mv     uint8
	ok     bool // alive and not seen before the expansion
	queue  bool // goes into the next ply's queue
}

// chokFire is the best fire found at one ply.
type chokFire struct {
	score  int64
	parent int32
	mv     uint8
	chains int
	sent   int
	blocks int
}

// Chokudai holds a chokudai search's buffers; the zero value is ready and a
// Chokudai reused across searches allocates only when a search outgrows the
// last one. Not safe for concurrent use.
type Chokudai struct {
	nodes []chokNode
	heaps []chokHeap
	seen  hashSet
	kids  [numMoves]chokKid
	moves []int
	rots  []rotations
	fires []chokFire
	// first is the best fire per ply and first move (ply×numMoves+move)
	// when ChokudaiConfig.ByFirst is set (nil otherwise).
	first []chokFire
}

// shapeTerms returns tanzaku's shape features of a field: keima (a block
// and one summing to 10 one column to the right, two rows up or down),
// tate (the same column, two rows up), keima2 and tate2 (three rows), and
// the blocks on the field.
func shapeTerms(f *sim.Fast) (keima, tate, keima2, tate2, blocks int) {
	for x := 0; x < sim.Width; x++ {
		hx := f.Height(x)
		blocks += hx
		for h := 0; h < hx; h++ {
			v := f.At(x, h)
			if v == sim.Ojama {
				continue
			}
			t := 10 - v
			if f.At(x, h+2) == t {
				tate++
			}
			if f.At(x, h+3) == t {
				tate2++
			}
			if x+1 < sim.Width {
				if f.At(x+1, h+2) == t {
					keima++
				}
				if h >= 2 && f.At(x+1, h-2) == t {
					keima++
				}
				if f.At(x+1, h+3) == t {
					keima2++
				}
				if h >= 3 && f.At(x+1, h-3) == t {
					keima2++
				}
			}
		}
	}
	return
}

// chokScore is tanzaku's evaluation of a state (PEERS.md, best_ai.rs
// 304-321): ojama (capped) × 10^6, then the fire height × 1 000, −10 000
// per row the tallest column passes Visible−2, keima × 50, tate × 40, the
// three-row variants × 1 and blocks × 2 000.
func chokScore(f *sim.Fast, ojama, fireHeight int) int64 {
	k, t, k2, t2, b := shapeTerms(f)
	over := max(f.MaxHeight(), sim.Visible-2) - (sim.Visible - 2)
	feat := fireHeight*1000 - over*10000 + k*50 + t*40 + k2 + t2 + b*2000
	return int64(min(ojama, chokMaxOjama))*1_000_000 + int64(feat)
}

// edgeFree is the longer run of empty columns at the left or right wall.
func edgeFree(f *sim.Fast) int {
	l, r := 0, 0
	for l < sim.Width && f.Height(l) == 0 {
		l++
	}
	for r < sim.Width && f.Height(sim.Width-1-r) == 0 {
		r++
	}
	return max(l, r)
}

// potentialScore is the queue key of a state: chokScore of the chain the
// erase-one-block potential holds (ErasePotential counts the erase as the
// first chain; tanzaku counts only the chains after it).
func potentialScore(f *sim.Fast) int64 {
	er, _, _ := f.ErasePotential()
	return chokScore(f, ojamaOf(max(er-1, 0)), 0)
}

// rowPotential is the erase-one-block potential of f after one ojama row
// falls on it (chains after the erase, as potentialScore counts): where an
// opponent's first row leaves the chain ready.
func rowPotential(f *sim.Fast) int {
	g := *f
	g.DropOjamaRow()
	er, _, _ := g.ErasePotential()
	return max(er-1, 0)
}

// rowFire is the longest chain any drop of the rotated pack rot fires on f
// after one ojama row falls on it: a ready chain the opponent's first row
// does not break.
func rowFire(f *sim.Fast, rot *rotations) int {
	g := *f
	g.DropOjamaRow()
	best := 0
	for m := 0; m < 36; m++ {
		q := rot.q[m&3]
		if !rot.uniq[m&3] || !g.Triggers(q, m>>2) {
			continue
		}
		h := g
		if n := h.DropRotated(q, m>>2); n > best && !h.Dead() {
			best = n
		}
	}
	return best
}

// rowKey is the queue key under ChokudaiConfig.RowW: chokScore of the blend
// of the potential's and the row potential's ojama (each capped), rowW in
// percent; states whose potential is below rowMin chains keep the
// potential's key. With next or after (RowPack), the row term is rowFire
// with that pack (the lesser with both) instead of rowPotential.
func rowKey(f *sim.Fast, rowW, rowMin int, next, after *rotations) int64 {
	er, _, _ := f.ErasePotential()
	pot := max(er-1, 0)
	oj := min(ojamaOf(pot), chokMaxOjama)
	if pot >= rowMin {
		var rc int
		switch {
		case next != nil && after != nil:
			rc = min(rowFire(f, next), rowFire(f, after))
		case next != nil:
			rc = rowFire(f, next)
		case after != nil:
			rc = rowFire(f, after)
		default:
			rc = rowPotential(f)
		}
		rp := min(ojamaOf(rc), chokMaxOjama)
		oj = ((100-rowW)*oj + rowW*rp) / 100
	}
	return chokScore(f, oj, 0)
}

// search runs a chokudai search from root (whose next pack is packs[0]) and
// returns the per-ply best fires and the chosen one as a BeamResult
// (Line is left empty; Nodes counts expanded states, MaxWidth the longest
// queue).
func (c *Chokudai) search(ctx context.Context, root side, packs []sim.Pack, cfg ChokudaiConfig) BeamResult {
	start := time.Now()
	depth := min(cfg.Depth, len(packs))
	res := BeamResult{PerPly: make([]Fire, depth)}
	if depth <= 0 || ctx.Err() != nil {
		return res // an ended context costs no set-up either
	}
	c.rots = c.rots[:0]
	for i := 0; i < depth; i++ {
		c.rots = append(c.rots, rotate(packs[i]))
	}
	c.moves = c.moves[:0]
	for x := max(cfg.XMin, 0); x <= min(cfg.XMax, 8); x++ {
		for r := 0; r < 4; r++ {
			c.moves = append(c.moves, x*4+r)
		}
	}
	for len(c.heaps) < depth {
		c.heaps = append(c.heaps, nil)
	}
	for i := range c.heaps {
		c.heaps[i] = c.heaps[i][:0]
	}
	c.fires = append(c.fires[:0], make([]chokFire, depth)...)
	for i := range c.fires {
		c.fires[i].parent = -1
	}
	c.first = c.first[:0]
	if cfg.ByFirst {
		c.first = append(c.first, make([]chokFire, depth*numMoves)...)
		for i := range c.first {
			c.first[i].parent = -1
		}
	}
	c.nodes = append(c.nodes[:0], chokNode{s: root, parent: -1})
	c.seen.reset(len(c.nodes))
	c.seen.insert(stateHash(&root))
	c.heaps[0].push(chokEntry{parent: -1})

	var work chan [3]int
	var done chan struct{}
	if cfg.Threads >= 2 {
		work, done = make(chan [3]int), make(chan struct{})
		defer close(work)
		go func() {
			for j := range work {
				c.expand(int32(j[0]), j[1], j[2], &cfg)
				done <- struct{}{}
			}
		}()
	}
	maxWidth := 0
	for ctx.Err() == nil {
		popped := false
		for p := 0; p < depth; p++ {
			// The context is checked per state, not only per round: a state
			// costs about 0.2 ms (BENCHMARKS.md), a round of 13 plies 2.6 ms.
			if cfg.Nodes > 0 && res.Nodes >= cfg.Nodes || cfg.Budget > 0 && time.Since(start) >= cfg.Budget || ctx.Err() != nil {
				goto out
			}
			h := &c.heaps[p]
			if len(*h) == 0 {
				continue
			}
			maxWidth = max(maxWidth, len(*h))
			e := h.pop()
			idx := int32(0)
			if e.parent >= 0 {
				n := chokNode{s: c.nodes[e.parent].s, parent: e.parent, mv: e.mv, ply: uint8(p), first: c.nodes[e.parent].first}
				if e.parent == 0 {
					n.first = e.mv
				}
				o := n.s.act(int(e.mv), &c.rots[p-1])
				if p == max(cfg.IncomingPly, 1) && cfg.Incoming > 0 {
					n.s.stock += max(cfg.Incoming-o.net, 0)
				}
				c.nodes = append(c.nodes, n)
				idx = int32(len(c.nodes) - 1)
			}
			popped = true
			res.Nodes++
			res.Depth = max(res.Depth, p+1)
			nm := len(c.moves)
			if work != nil {
				work <- [3]int{int(idx), nm / 2, nm}
				c.expand(idx, 0, nm/2, &cfg)
				<-done
			} else {
				c.expand(idx, 0, nm, &cfg)
			}
			c.merge(idx, p, depth)
		}
		if !popped {
			break
		}
	}
out:
	res.MaxWidth, res.WidthCap = maxWidth, maxWidth
	chains := make([]int, depth)
	for d := range c.fires {
		f := &c.fires[d]
		res.PerPly[d] = Fire{Ply: d + 1, Chains: f.chains, Sent: f.sent, Blocks: f.blocks}
		chains[d] = f.chains
	}
	choose := chooseFire(chains, cfg.Target, cfg.Deadline, cfg.DeadlineMin)
	if choose >= 0 {
		res.Best = c.line(choose, &c.fires[choose])
	}
	return res
}

// line is the fire f at ply index d with its moves and fields rebuilt from
// the arena.
func (c *Chokudai) line(d int, f *chokFire) Fire {
	fire := Fire{Ply: d + 1, Chains: f.chains, Sent: f.sent, Blocks: f.blocks}
	fire.Moves = make([]int, d+1)
	fire.Fields = make([]sim.Fast, d+1)
	fire.Moves[d] = int(f.mv)
	for i := f.parent; d >= 0; d-- {
		n := &c.nodes[i]
		fire.Fields[d] = n.s.f
		if d > 0 {
			fire.Moves[d-1] = int(n.mv)
			i = n.parent
		}
	}
	return fire
}

// byFirst returns, after a search with ChokudaiConfig.ByFirst, the best
// fire of every ply and first move that has one, moves and fields filled,
// in ply then move order (nil after a search without it).
func (c *Chokudai) byFirst() []Fire {
	var out []Fire
	for i := range c.first {
		if f := &c.first[i]; f.parent >= 0 {
			out = append(out, c.line(i/numMoves, f))
		}
	}
	return out
}

// stateHash is the dedupe key of a side: its field, stock and gauge. The
// gauge keeps a pack that vanishes whole on an empty field from repeating
// the root (the gauge rose), which would leave the search nothing to expand.
func stateHash(s *side) uint64 {
	return s.f.Hash() ^ uint64(s.stock)<<56 ^ uint64(s.gauge)<<44
}

// expand evaluates the children of node idx for moves[lo:hi] into kids;
// it only reads shared state (the arena and the seen set).
func (c *Chokudai) expand(idx int32, lo, hi int, cfg *ChokudaiConfig) {
	incoming, inAt := cfg.Incoming, max(cfg.IncomingPly, 1)-1
	n := &c.nodes[idx]
	p := int(n.ply)
	rot := &c.rots[p]
	last := p+1 >= len(c.rots)
	openX := -1
	if idx == 0 && cfg.OpenX > 0 && n.s.f.MaxHeight() == 0 {
		openX = cfg.OpenX - 1
	}
	for i := lo; i < hi; i++ {
		m := c.moves[i]
		k := &c.kids[i]
		*k = chokKid{mv: uint8(m)}
		if !rot.uniq[m&3] || openX >= 0 && m>>2 != openX {
			continue
		}
		s := n.s
		o := s.act(m, rot)
		if o.dead {
			continue
		}
		if p == inAt && incoming > 0 {
			s.stock += max(incoming-o.net, 0)
		}
		k.hash = stateHash(&s)
		if c.seen.has(k.hash) {
			continue
		}
		k.ok = true
		k.chains, k.sent = o.chains, o.sent
		if o.chains > 0 {
			k.score = chokScore(&s.f, o.sent, n.s.f.FireHeight(rot.q[m&3], m>>2))
		}
		if !last && o.chains <= smallFire {
			k.queue = true
			if cfg.RowW > 0 {
				var next, after *rotations
				if cfg.RowPack&1 != 0 || cfg.RowPack == 2 && p+2 >= len(c.rots) {
					next = &c.rots[p+1]
				}
				if cfg.RowPack&2 != 0 && p+2 < len(c.rots) {
					after = &c.rots[p+2]
				}
				k.key = rowKey(&s.f, cfg.RowW, cfg.RowMin, next, after)
			} else {
				k.key = potentialScore(&s.f)
			}
			if cfg.FreeW > 0 {
				k.key += int64(cfg.FreeW) * int64(edgeFree(&s.f))
			}
			k.key = k.key<<8 | int64(k.hash&0xff)
		}
	}
}

// merge inserts the evaluated children of node idx (ply p) in move order:
// the seen set, the ply's best fire and the next ply's queue.
func (c *Chokudai) merge(idx int32, p, depth int) {
	for i := range c.moves {
		k := &c.kids[i]
		if !k.ok || !c.seen.insert(k.hash) {
			continue
		}
		if k.chains > 0 {
			f := &c.fires[p]
			var g *chokFire
			if len(c.first) > 0 { // a ByFirst search (the buffer outlives it, emptied)
				first := c.nodes[idx].first
				if idx == 0 {
					first = k.mv
				}
				g = &c.first[p*numMoves+int(first)]
				if g.parent >= 0 && k.score <= g.score {
					g = nil
				}
			}
			if f.parent < 0 || k.score > f.score || g != nil {
				s := c.nodes[idx].s
				s.act(int(k.mv), &c.rots[p])
				blocks, _ := s.f.Count()
				fire := chokFire{score: k.score, parent: idx, mv: k.mv, chains: k.chains, sent: k.sent, blocks: blocks}
				if f.parent < 0 || k.score > f.score {
					*f = fire
				}
				if g != nil {
					*g = fire
				}
			}
		}
		if k.queue && p+1 < depth {
			c.heaps[p+1].push(chokEntry{key: k.key, parent: idx, mv: k.mv})
		}
	}
}

// chooseFire is the chain beam's choice among per-ply best fires (chains,
// index 0 = ply 1): the first ply with target+ chains, else the longest
// (the earliest of equals); with a deadline, when that ply is past it, the
// longest of at least deadlineMin chains by the deadline. -1: none.
func chooseFire(chains []int, target, deadline, deadlineMin int) int {
	choose := -1
	for d, c := range chains {
		if c == 0 {
			continue
		}
		if target > 0 && c >= target {
			choose = d
			break
		}
		if choose < 0 || c > chains[choose] {
			choose = d
		}
	}
	if deadline > 0 && (choose < 0 || choose >= deadline) {
		alt := -1
		for d := 0; d < min(deadline, len(chains)); d++ {
			if c := chains[d]; c >= max(deadlineMin, 1) && (alt < 0 || c > chains[alt]) {
				alt = d
			}
		}
		if alt >= 0 {
			choose = alt
		}
	}
	return choose
}
