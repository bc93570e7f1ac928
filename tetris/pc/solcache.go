// This file holds Percent's path beyond maxSeqPieces placements: the
// solutions found so far are shared by all sequences. Each solution is a
// set of placements in the frame of the starting field; a sequence is
// answered "yes" as soon as one known solution can be played in an order
// its queue and hold allow (checked by replaying the placements with the
// same generator as the search, so it is a proof). Only the sequences no
// known solution fits are searched depth-first, and each solution found
// that way joins the shared list. The answers are those of the search:
// "yes" is proved by a replay, "no" only ever comes from the search.

package pc

import (
	"context"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
)

// pcSol is one known solution: n placements of the starting field's frame.
type pcSol struct {
	n      int
	pieces [MaxHeight*10/4 + 1]Piece
	masks  [MaxHeight*10/4 + 1]uint64 // cells, bit 10*y+x of the starting field
	count  [7]uint8                   // how many of each piece it uses
}

// solCache is the list of solutions shared by the workers of one run.
type solCache struct {
	mu   sync.RWMutex
	sols []*pcSol
}

func (c *solCache) snapshot() []*pcSol {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.sols
}

func (c *solCache) add(s *pcSol) {
	c.mu.Lock()
	c.sols = append(c.sols, s)
	c.mu.Unlock()
}

// fitter checks known solutions against queues; one per worker.
type fitter struct {
	s      *solver // for its placement cache
	base   Field   // starting field (lines cleared)
	h      int     // its height
	hold   bool
	can    map[*pcSol][]uint32 // per solution and placed set: bit 31 known, low bits placeable
	seen   []uint32            // failed (set, hold) states of the current check, by stamp
	stamp  uint32
	q      []Piece
	sol    *pcSol
	canSol []uint32
	full   uint32
	direct bool    // generate placements afresh instead of caching them (bounded memory)
	buf    []Field // placements, when direct
}

func newFitter(s *solver, base Field, h int, hold bool) *fitter {
	return &fitter{s: s, base: base, h: h, hold: hold, can: map[*pcSol][]uint32{}}
}

// fits reports whether sol can be played from queue q (with hold if allowed).
func (ft *fitter) fits(sol *pcSol, q []Piece) bool {
	var c [7]uint8
	for _, p := range q {
		c[p]++
	}
	for p := range 7 {
		if sol.count[p] > c[p] {
			return false
		}
	}
	if len(q) < sol.n {
		return false
	}
	cs := ft.can[sol]
	if cs == nil {
		cs = make([]uint32, 1<<sol.n)
		ft.can[sol] = cs
	}
	if need := (1 << sol.n) * 8; len(ft.seen) < need {
		ft.seen = make([]uint32, need)
	}
	if ft.stamp++; ft.stamp == 0 {
		clear(ft.seen)
		ft.stamp = 1
	}
	ft.q, ft.sol, ft.canSol, ft.full = q, sol, cs, 1<<sol.n-1
	return ft.play(0, NoPiece)
}

// play is the search over (placed set, hold) of fits.
func (ft *fitter) play(set uint32, hold Piece) bool {
	if set == ft.full {
		return true
	}
	k := set<<3 | uint32(hold)
	if ft.seen[k] == ft.stamp {
		return false
	}
	ft.seen[k] = ft.stamp
	idx := bits.OnesCount32(set)
	if hold != NoPiece {
		idx++
	}
	q := ft.q
	if idx < len(q) && ft.place(set, q[idx], hold) {
		return true
	}
	if !ft.hold {
		return false
	}
	if hold != NoPiece {
		nh := NoPiece
		if idx < len(q) {
			nh = q[idx]
		}
		return ft.place(set, hold, nh)
	}
	return idx+1 < len(q) && ft.place(set, q[idx+1], q[idx])
}

// place tries every unplaced placement of piece p, then play on with hold nh.
func (ft *fitter) place(set uint32, p Piece, nh Piece) bool {
	ok := ft.placeable(set)
	for m := ok; m != 0; m &= m - 1 {
		j := bits.TrailingZeros32(m)
		if ft.sol.pieces[j] == p && ft.play(set|1<<j, nh) {
			return true
		}
	}
	return false
}

// placeable returns the placements of the solution that can lock next once
// those in set are down: every row a placement skips is already cleared,
// and the generator reaches it in the field with those rows removed.
func (ft *fitter) placeable(set uint32) uint32 {
	if v := ft.canSol[set]; v&(1<<31) != 0 {
		return v &^ (1 << 31)
	}
	sol := ft.sol
	f := uint64(ft.base)
	for m := set; m != 0; m &= m - 1 {
		f |= sol.masks[bits.TrailingZeros32(m)]
	}
	var cleared uint64 // rows full in f
	for y := 0; y < ft.h; y++ {
		if f>>(10*y)&fullRow == fullRow {
			cleared |= 1 << y
		}
	}
	cf, ch := compress(f, ft.h, cleared)
	var out uint32
	for j := 0; j < sol.n; j++ {
		if set>>j&1 != 0 {
			continue
		}
		m := sol.masks[j]
		var rows uint64
		for y := 0; y < ft.h; y++ {
			if m>>(10*y)&fullRow != 0 {
				rows |= 1 << y
			}
		}
		lo, hi := bits.TrailingZeros64(rows), 63-bits.LeadingZeros64(rows)
		span := uint64(1)<<(hi+1) - uint64(1)<<lo
		if span&^rows&^cleared != 0 {
			continue // a row it skips is still there
		}
		cm, _ := compress(m, ft.h, cleared)
		if ft.reachable(cf, ch, sol.pieces[j], uint64(cm)) {
			out |= 1 << j
		}
	}
	ft.canSol[set] = out | 1<<31
	return out
}

// reachable reports whether piece p can lock with cells m in f (height h).
// With nothing above its cells it can drop straight from the open air, so
// it locks there exactly when it rests; otherwise the generator decides
// (through the solver's cache, or without one when direct is set).
func (ft *fitter) reachable(f Field, h int, p Piece, m uint64) bool {
	var above uint64 // cells above m's cells in their columns
	for c := m << 10; c != 0; c = c << 10 & (uint64(1)<<(10*h) - 1) {
		above |= c
	}
	if above&uint64(f) == 0 {
		// It rests on the floor or on a filled cell under one of its cells.
		return m&fullRow != 0 || m>>10&uint64(f) != 0
	}
	g := f | Field(m)
	var pl []Field
	if ft.direct {
		ft.buf = ft.s.r.placements(f, h, p, ft.buf[:0])
		pl = ft.buf
	} else {
		pl = ft.s.placementsOf(f, h, p)
	}
	for _, x := range pl {
		if x == g {
			return true
		}
	}
	return false
}

// compress removes the rows in cleared from the lowest h rows of f.
func compress(f uint64, h int, cleared uint64) (Field, int) {
	var g Field
	n := 0
	for y := 0; y < h; y++ {
		if cleared>>y&1 != 0 {
			continue
		}
		g |= Field(f>>(10*y)&fullRow) << (10 * n)
		n++
	}
	return g, n
}

// solFromPath turns the search's steps (each in the frame of the field it
// locked in) into a solution in the frame of the starting field of height h.
func solFromPath(path []Step, h int) *pcSol {
	sol := &pcSol{n: len(path)}
	rows := make([]int, h)
	for i := range rows {
		rows[i] = i
	}
	for i, st := range path {
		cells := uint64(st.Cells)
		var orig uint64
		for y := 0; y < st.Height; y++ {
			orig |= (cells >> (10 * y) & fullRow) << (10 * rows[y])
		}
		var nrows []int
		for y := 0; y < st.Height; y++ {
			if st.Field.Row(y) != fullRow {
				nrows = append(nrows, rows[y])
			}
		}
		rows = nrows
		sol.pieces[i], sol.masks[i] = st.Piece, orig
		sol.count[st.Piece]++
	}
	return sol
}

// percentShared is Percent's path beyond maxSeqPieces placements (see the
// file comment): res[i] reports whether uniq[i] has a perfect clear.
func percentShared(ctx context.Context, g Field, h int, uniq [][]Piece, opt Options) ([]bool, error) {
	res := make([]bool, len(uniq))
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	var next, done atomic.Int64
	var shared sync.Map
	cache := &solCache{}
	const chunk = 4
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := newSolver(opt.Hold)
			s.shared = &shared
			s.ctx = ctx
			ft := newFitter(s, g, h, opt.Hold)
			var path []Step
			for {
				i := int(next.Add(chunk) - chunk)
				if i >= len(uniq) || ctx.Err() != nil {
					return
				}
				end := min(i+chunk, len(uniq))
				for j := i; j < end; j++ {
					q := uniq[j]
					for _, sol := range cache.snapshot() {
						if ft.fits(sol, q) {
							res[j] = true
							break
						}
					}
					if res[j] {
						continue
					}
					if !s.solve(g, h, NoPiece, q, nil) {
						continue
					}
					path = path[:0]
					if !s.solve(g, h, NoPiece, q, &path) {
						continue // stopped (s.err set)
					}
					res[j] = true
					cache.add(solFromPath(path, h))
				}
				if s.err != nil {
					return
				}
				if opt.Progress != nil {
					opt.Progress(int(done.Add(int64(end-i))), len(uniq))
				}
			}
		}()
	}
	wg.Wait()
	return res, ctx.Err()
}
