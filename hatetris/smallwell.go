// This file holds the exact solver of small wells: HATETRIS with only h rows
// below the bar (knewjade's initial net learns from these; spec §7.1).

package hatetris

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// SmallWell returns the empty well of h rows below the bar (1 ≤ h ≤ 16): a
// 20-row well whose bottom 16−h rows are full. Pieces cannot enter full rows
// and clears only test the rows a piece covers, so play in it is exactly
// HATETRIS with the floor raised (the enemy's rating, the first non-empty
// row, is shifted by the same constant for every well).
func SmallWell(h int) Well {
	var w Well
	for y := Bar + h; y < Height; y++ {
		w[y] = FullRow
	}
	return w
}

// SmallKey is a small well's h rows below the bar, packed 10 bits a row
// (up to 7 rows: 70 bits).
type SmallKey struct {
	Lo uint64
	Hi uint16
}

// smallKey packs the h rows below the bar of w (rows above the bar are
// not part of it: only wells without game over are keyed).
func smallKey(w *Well, h int) SmallKey {
	var k SmallKey
	for y := 0; y < h; y++ {
		r := uint64(w[Bar+y])
		if b := 10 * y; b < 60 {
			k.Lo |= r << b
		} else {
			k.Hi |= uint16(r << (b - 60))
		}
	}
	return k
}

// Well unpacks the key into a small well of h rows.
func (k SmallKey) Well(h int) Well {
	w := SmallWell(h)
	for y := 0; y < h; y++ {
		var r uint64
		if b := 10 * y; b < 60 {
			r = k.Lo >> b
		} else {
			r = uint64(k.Hi) >> (b - 60)
		}
		w[Bar+y] = uint16(r & FullRow)
	}
	return w
}

// SmallSolution is the exact value of every well reachable from the root
// (the empty small well, or SolveSmallFrom's) under the enemy's play: Value[k] is the most lines the player
// can guarantee from that well on (the enemy chooses the piece, the player
// its placement; a lock above the bar ends the game).
type SmallSolution struct {
	H    int
	Kind AIKind
	Best int // lines from the root (the first spawn's well)
	// Value holds every well reached at a spawn. A well on a cycle of
	// futures can have several values (by the path that led to it, see
	// SolveSmall); Value keeps the one of its first visit in search order.
	Value map[SmallKey]int8
	// Cyclic is the number of reached wells on a cycle of futures (the
	// only ones where the loop rule can act), States the (well, relevant
	// path) states solved for them, Rounds the solves until the cycles no
	// longer changed, Fired the states where the loop rule changed the
	// enemy's piece and Revisits the locks that re-entered a well of their
	// own path (possible only when every piece loops).
	Cyclic, States, Rounds, Fired, Revisits int
	// Edges counts the futures of every piece between reached wells (the
	// graph searched for cycles).
	Edges int
}

// ErrSmallLimit is returned when a solve reaches its well limit.
var ErrSmallLimit = errors.New("hatetris: small-well solve reached its well limit")

// maxSmallDepth bounds a line of play; only an endless loop reaches it.
const maxSmallDepth = 1 << 16

// SolveSmall solves the well of h rows below the bar (1 ≤ h ≤ 7) against
// the enemy kind by depth-first search over the placements of the enemy's
// piece, memoised.
//
// The loop rule makes HATETRIS's choice depend on the path: the wells at
// the earlier spawns of the line of play. It can act at a well W only
// through a future F (of any piece) of W that was seen before W; F then
// leads to W, so F and W lie on one cycle of the graph whose nodes are the
// reached wells and whose edges are the futures of every piece. So a state
// is the well plus the wells of its path in its own strongly connected
// component of that graph (with their counts): for the many wells on no
// cycle, the well alone. The components are found from the wells reached
// (Tarjan), and the solve is repeated with them until they no longer
// change; the first solve uses none. Mild has no loop rule: its states are
// wells, and a lock that re-enters its own path is an endless loop
// (an error). limit caps the states (0 = none).
func SolveSmall(ctx context.Context, h int, kind AIKind, limit int) (*SmallSolution, error) {
	if h < 1 || h > 7 {
		return nil, fmt.Errorf("hatetris: small well height %d, want 1..7", h)
	}
	return SolveSmallFrom(ctx, h, SmallWell(h), kind, limit)
}

// SolveSmallFrom is SolveSmall from the well root (a small well of h rows,
// the first spawn of the game) instead of the empty one.
func SolveSmallFrom(ctx context.Context, h int, root Well, kind AIKind, limit int) (*SmallSolution, error) {
	if h < 1 || h > 7 {
		return nil, fmt.Errorf("hatetris: small well height %d, want 1..7", h)
	}
	if root.Over() || smallKey(&root, h).Well(h) != root {
		return nil, fmt.Errorf("hatetris: not a small well of height %d:\n%v", h, root)
	}
	for y := Bar; y < Bar+h; y++ {
		if root[y] == FullRow {
			return nil, fmt.Errorf("hatetris: small well with a full row:\n%v", root)
		}
	}
	comp := map[SmallKey]int32{}
	var prev map[SmallKey]int8
	var edges int
	for round := 1; ; round++ {
		s := &smallSolver{h: h, kind: kind, limit: limit, ctx: ctx, comp: comp,
			sol:   &SmallSolution{H: h, Kind: kind, Value: map[SmallKey]int8{}, Rounds: round},
			plain: map[SmallKey]int8{}, rel: map[string]int8{}, path: map[SmallKey]int{}}
		v, err := s.solve(&root, 0)
		if err != nil {
			return nil, err
		}
		s.sol.Best = int(v)
		s.sol.States = len(s.plain) + len(s.rel)
		if kind == Mild {
			return s.sol, nil
		}
		// The components depend only on the set of wells reached.
		if prev != nil && sameKeys(prev, s.sol.Value) {
			s.sol.Edges, s.sol.Cyclic = edges, len(comp)
			return s.sol, nil
		}
		if round == 20 {
			return nil, errors.New("hatetris: small-well cycles still changing after 20 solves")
		}
		next, e, err := smallComponents(ctx, h, s.sol.Value)
		if err != nil {
			return nil, err
		}
		if round > 1 && sameComponents(comp, next) {
			s.sol.Edges, s.sol.Cyclic = e, len(next)
			return s.sol, nil
		}
		comp, prev, edges = next, s.sol.Value, e
	}
}

// sameKeys reports whether a and b hold the same wells.
func sameKeys(a, b map[SmallKey]int8) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			return false
		}
	}
	return true
}

type smallSolver struct {
	h, limit int
	kind     AIKind
	ctx      context.Context
	sol      *SmallSolution
	comp     map[SmallKey]int32 // component of every well on a cycle
	plain    map[SmallKey]int8  // states of wells on no cycle
	rel      map[string]int8    // states of wells on a cycle: well + relevant path
	path     map[SmallKey]int   // wells at the spawns of the current line of play
	cyc      []SmallKey         // the path's wells that lie on a cycle, in order
	exps     []*Expander        // one per depth: Choose's futures live until its next call
	buf      []byte
}

// relKey is the state key of well k on a cycle: k, then the path's wells
// of k's component, sorted (repeats give the counts).
func (s *smallSolver) relKey(k SmallKey, c int32) string {
	var ks []SmallKey
	for _, p := range s.cyc {
		if s.comp[p] == c {
			ks = append(ks, p)
		}
	}
	slices.SortFunc(ks, func(a, b SmallKey) int {
		if a.Hi != b.Hi {
			return cmp.Compare(a.Hi, b.Hi)
		}
		return cmp.Compare(a.Lo, b.Lo)
	})
	b := s.buf[:0]
	for _, x := range append([]SmallKey{k}, ks...) {
		b = binary.LittleEndian.AppendUint64(b, x.Lo)
		b = binary.LittleEndian.AppendUint16(b, x.Hi)
	}
	s.buf = b
	return string(b)
}

func (s *smallSolver) solve(w *Well, depth int) (int8, error) {
	k := smallKey(w, s.h)
	c, onCycle := s.comp[k]
	var rk string
	if onCycle {
		rk = s.relKey(k, c)
		if v, ok := s.rel[rk]; ok {
			return v, nil
		}
	} else if v, ok := s.plain[k]; ok {
		return v, nil
	}
	if s.limit > 0 && len(s.plain)+len(s.rel) >= s.limit {
		return 0, ErrSmallLimit
	}
	if (len(s.plain)+len(s.rel))&0xffff == 0 {
		if err := s.ctx.Err(); err != nil {
			return 0, err
		}
	}
	if depth >= maxSmallDepth {
		return 0, errors.New("hatetris: small-well line of play too long (an endless loop?)")
	}
	if depth == len(s.exps) {
		s.exps = append(s.exps, new(Expander))
	}
	e := s.exps[depth]
	s.path[k]++
	if onCycle {
		s.cyc = append(s.cyc, k)
	}
	var futs []Future
	if s.kind == Mild {
		_, futs = e.Choose(w, nil)
	} else {
		fired := false
		_, futs = e.Choose(w, func(f *Well) int {
			if f.Over() {
				return 0 // cells above the bar: never a spawn's well
			}
			n := s.path[smallKey(f, s.h)]
			fired = fired || n > 0
			return n
		})
		if fired {
			s.sol.Fired++
		}
	}
	best := int8(0)
	for i := range futs {
		f := &futs[i]
		v := f.Lines
		if !f.Well.Over() {
			if s.path[smallKey(&f.Well, s.h)] > 0 {
				if s.kind == Mild {
					return 0, fmt.Errorf("hatetris: mild small well of height %d loops forever (unbounded lines)", s.h)
				}
				s.sol.Revisits++
			}
			r, err := s.solve(&f.Well, depth+1)
			if err != nil {
				return 0, err
			}
			v += r
		}
		best = max(best, v)
	}
	if s.path[k]--; s.path[k] == 0 {
		delete(s.path, k)
	}
	if onCycle {
		s.cyc = s.cyc[:len(s.cyc)-1]
		s.rel[rk] = best
	} else {
		s.plain[k] = best
	}
	if _, ok := s.sol.Value[k]; !ok {
		s.sol.Value[k] = best
	}
	return best, nil
}

// sameComponents reports whether two component maps partition the same
// wells the same way.
func sameComponents(a, b map[SmallKey]int32) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[[2]int32]bool{}
	for k, ca := range a {
		cb, ok := b[k]
		if !ok {
			return false
		}
		m[[2]int32{ca, cb}] = true
	}
	// A bijection between component ids: as many pairs as ids on each side.
	ia, ib := map[int32]bool{}, map[int32]bool{}
	for p := range m {
		ia[p[0]], ib[p[1]] = true, true
	}
	return len(m) == len(ia) && len(m) == len(ib)
}

// smallComponents returns the component of every well of vals that lies on
// a cycle of the graph of futures of every piece between the wells of vals
// (Tarjan's strongly connected components, iterative), and the edge count.
func smallComponents(ctx context.Context, h int, vals map[SmallKey]int8) (map[SmallKey]int32, int, error) {
	keys := make([]SmallKey, 0, len(vals))
	for k := range vals {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b SmallKey) int {
		if a.Hi != b.Hi {
			return cmp.Compare(a.Hi, b.Hi)
		}
		return cmp.Compare(a.Lo, b.Lo)
	})
	id := make(map[SmallKey]int32, len(keys))
	for i, k := range keys {
		id[k] = int32(i)
	}
	n := len(keys)
	// The edges, computed in parallel chunks into one CSR array.
	const chunk = 4096
	parts := make([][]int32, (n+chunk-1)/chunk)
	lens := make([]int32, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			var futs []Future
			for {
				c := int(next.Add(1) - 1)
				if c >= len(parts) || ctx.Err() != nil {
					return
				}
				var o []int32
				for i := c * chunk; i < min(n, (c+1)*chunk); i++ {
					w := keys[i].Well(h)
					before := len(o)
					for p := Piece(0); p < NumPieces; p++ {
						futs = Futures(futs[:0], &w, p)
						for j := range futs {
							if futs[j].Well.Over() {
								continue
							}
							if t, ok := id[smallKey(&futs[j].Well, h)]; ok {
								o = append(o, t)
							}
						}
					}
					lens[i] = int32(len(o) - before)
				}
				parts[c] = o
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	start := make([]int64, n+1)
	for i, l := range lens {
		start[i+1] = start[i] + int64(l)
	}
	adj := make([]int32, 0, start[n])
	for _, p := range parts {
		adj = append(adj, p...)
	}
	parts = nil
	edges := len(adj)
	out := func(i int32) []int32 { return adj[start[i]:start[i+1]] }
	index := make([]int32, n) // 0 = unvisited, else visit order + 1
	low := make([]int32, n)
	onStack := make([]bool, n)
	var stack []int32
	comp := map[SmallKey]int32{}
	type frame struct {
		v    int32
		out  []int32
		next int
	}
	var order, ncomp int32
	for root := int32(0); root < int32(n); root++ {
		if index[root] != 0 {
			continue
		}
		order++
		index[root], low[root] = order, order
		stack = append(stack, root)
		onStack[root] = true
		call := []frame{{v: root, out: out(root)}}
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.next < len(f.out) {
				t := f.out[f.next]
				f.next++
				if index[t] == 0 {
					order++
					index[t], low[t] = order, order
					stack = append(stack, t)
					onStack[t] = true
					call = append(call, frame{v: t, out: out(t)})
				} else if onStack[t] {
					low[f.v] = min(low[f.v], index[t])
				}
				continue
			}
			v := f.v
			self := slices.Contains(f.out, v)
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] != index[v] {
				continue
			}
			i := len(stack) - 1
			for stack[i] != v {
				i--
			}
			members := stack[i:]
			if len(members) > 1 || self {
				for _, t := range members {
					comp[keys[t]] = ncomp
				}
				ncomp++
			}
			for _, t := range members {
				onStack[t] = false
			}
			stack = stack[:i]
		}
	}
	return comp, edges, nil
}
