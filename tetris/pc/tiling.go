// This file holds Paths' shared path: instead of a search per sequence,
// the tilings of the starting field by pieces are enumerated once (each
// exactly once: the lowest empty cell is always covered next), in the
// starting field's frame, where a piece locked after some lines cleared
// may skip those rows. Each tiling whose pieces some sequence holds is then
// checked against the sequences by replaying it (fitter, solcache.go): the
// sequences it fits are the ones the per-sequence search would find it for.

package pc

import (
	"context"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
)

// cand is one candidate placement in the starting field's frame.
type cand struct {
	p Piece
	m uint64
}

// tilingCands returns, for each cell, the candidate placements whose lowest
// cell (lowest row, then leftmost) it is, in a field of height h: every
// orientation of every piece, its rows mapped onto any increasing rows.
func tilingCands(h int) [][]cand {
	out := make([][]cand, 10*h)
	ft := fastTabs()
	for p := Piece(0); p < 7; p++ {
		for r := 0; r < 4; r++ {
			if ft.same[p][r] != r {
				continue
			}
			s := &ft.shapes[p][r]
			// every choice of s.ht increasing rows among h
			for rs := uint(0); rs < 1<<h; rs++ {
				if bits.OnesCount(rs) != s.ht {
					continue
				}
				var rowOf [4]int
				k := 0
				for y := 0; y < h; y++ {
					if rs>>y&1 != 0 {
						rowOf[k] = y
						k++
					}
				}
				for x := 0; x+s.w <= 10; x++ {
					var m uint64
					for _, c := range s.cells {
						dy, dx := c/10, c%10
						m |= 1 << (10*rowOf[dy] + x + dx)
					}
					low := bits.TrailingZeros64(m)
					out[low] = append(out[low], cand{p, m})
				}
			}
		}
	}
	return out
}

// tiler enumerates tilings; one per worker.
type tiler struct {
	cands   [][]cand
	area    uint64
	h       int
	allowed countSet // piece counts some sequence holds
	cur     []cand
	count   [7]int
	packed  uint32 // count, 4 bits per piece
	ctx     context.Context
	polls   int
	stopped bool
	emit    func([]cand)
}

// countSet is a set of piece counts packed 4 bits per piece, as a bitset.
type countSet []uint64

func newCountSet() countSet          { return make(countSet, 1<<28/64) }
func (s countSet) add(k uint32)      { s[k>>6] |= 1 << (k & 63) }
func (s countSet) has(k uint32) bool { return s[k>>6]>>(k&63)&1 != 0 }
func (t *tiler) push(c cand)         { t.count[c.p]++; t.packed += 1 << (4 * c.p); t.cur = append(t.cur, c) }
func (t *tiler) pop(c cand)          { t.count[c.p]--; t.packed -= 1 << (4 * c.p); t.cur = t.cur[:len(t.cur)-1] }

// run covers the lowest empty cell of f every possible way, recursively.
func (t *tiler) run(f uint64, left int) {
	if t.stopped {
		return
	}
	if t.polls++; t.polls&1023 == 0 && t.ctx.Err() != nil {
		t.stopped = true
		return
	}
	free := ^f & t.area
	if free == 0 {
		t.emit(t.cur)
		return
	}
	low := bits.TrailingZeros64(free)
	for _, c := range t.cands[low] {
		if c.m&f != 0 || !t.allowed.has(t.packed+1<<(4*c.p)) {
			continue
		}
		if g := f | c.m; feasible(Field(g), t.h, left-1) {
			t.push(c)
			t.run(g, left-1)
			t.pop(c)
		}
	}
}

// subCounts adds to set every sub-multiset of the piece counts c.
func subCounts(c [7]int, set countSet) {
	var rec func(p int, k uint32)
	rec = func(p int, k uint32) {
		if p == 7 {
			set.add(k)
			return
		}
		for n := 0; n <= c[p]; n++ {
			rec(p+1, k|uint32(n)<<(4*p))
		}
	}
	rec(0, 0)
}

// pathsShared computes, for the starting field g (height h, needing n
// pieces) and the distinct truncated queues uniq, every solution with the
// indices (into uniq) of the queues it fits, to found (called under a lock).
// opt.Progress, if set, is told how many of the ways to cover the two
// lowest empty cells are done.
func pathsShared(ctx context.Context, g Field, h, n int, uniq [][]Piece, opt Options, found func(sol []cand, fits []int)) error {
	allowed := newCountSet()
	seen := map[[7]int]bool{}
	for _, q := range uniq {
		var c [7]int
		for _, p := range q {
			c[p] = min(c[p]+1, 15) // a solution has at most 15 placements
		}
		if !seen[c] {
			seen[c] = true
			subCounts(c, allowed)
		}
	}
	area := uint64(1)<<(10*h) - 1
	if uint64(g) == area || h == 0 {
		return nil
	}
	cands := tilingCands(h)
	// Tasks: the ways to cover the first two lowest empty cells (finer
	// than the first cell alone, for the progress bar and the balance).
	type task struct{ c []cand }
	var tasks []task
	probe := &tiler{cands: cands, area: area, h: h, allowed: allowed, ctx: ctx}
	var split func(f uint64, left, depth int)
	split = func(f uint64, left, depth int) {
		free := ^f & area
		if depth == 2 || free == 0 {
			tasks = append(tasks, task{append([]cand(nil), probe.cur...)})
			return
		}
		for _, c := range cands[bits.TrailingZeros64(free)] {
			if c.m&f != 0 || !allowed.has(probe.packed+1<<(4*c.p)) {
				continue
			}
			if feasible(Field(f|c.m), h, left-1) {
				probe.push(c)
				split(f|c.m, left-1, depth+1)
				probe.pop(c)
			}
		}
	}
	split(uint64(g), n, 0)
	workers := runtime.GOMAXPROCS(0)
	var next, done atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	var shared sync.Map
	errs := make([]error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := newSolver(opt.Hold)
			s.shared = &shared
			ft := newFitter(s, g, h, opt.Hold)
			ft.direct = true
			canBuf := make([]uint32, 1<<n)
			byCount := map[uint32][]int{} // queues whose pieces include a count
			var sol pcSol
			var fitsBuf []int
			t := &tiler{cands: cands, area: area, h: h, allowed: allowed, ctx: ctx}
			t.emit = func(cs []cand) {
				sol = pcSol{n: len(cs)}
				for i, c := range cs {
					sol.pieces[i], sol.masks[i] = c.p, c.m
					sol.count[c.p]++
				}
				k := t.packed
				qs, ok := byCount[k]
				if !ok {
					for i, q := range uniq {
						var c [7]uint8
						for _, p := range q {
							c[p]++
						}
						if c[0] >= sol.count[0] && c[1] >= sol.count[1] && c[2] >= sol.count[2] && c[3] >= sol.count[3] &&
							c[4] >= sol.count[4] && c[5] >= sol.count[5] && c[6] >= sol.count[6] {
							qs = append(qs, i)
						}
					}
					byCount[k] = qs
				}
				fitsBuf = fitsBuf[:0]
				clear(canBuf)
				ft.can[&sol] = canBuf
				for _, i := range qs {
					if ft.fits(&sol, uniq[i]) {
						fitsBuf = append(fitsBuf, i)
					}
				}
				if len(fitsBuf) > 0 {
					mu.Lock()
					found(cs, fitsBuf)
					mu.Unlock()
				}
			}
			for {
				i := int(next.Add(1) - 1)
				if i >= len(tasks) || t.stopped {
					break
				}
				f := uint64(g)
				t.cur, t.count, t.packed = t.cur[:0], [7]int{}, 0
				for _, c := range tasks[i].c {
					f |= c.m
					t.push(c)
				}
				t.run(f, n-len(t.cur))
				if opt.Progress != nil && !t.stopped {
					opt.Progress(int(done.Add(1)), len(tasks))
				}
			}
			if t.stopped {
				errs[w] = ctx.Err()
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return ctx.Err()
}
