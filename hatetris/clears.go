// This file holds Clearer, a generator of only the line-clearing locks of a
// piece: the quiescence lookahead's step, which needs those and nothing else.

package hatetris

import "math/bits"

// Clearer finds the locks of a piece that clear at least one line. It
// floods like Futures but stops below the deepest row the piece can
// complete, and materialises only the locks that complete a row. It owns
// its buffers (no allocation per call); the zero value is ready to use, one
// per goroutine.
type Clearer struct {
	f     flood
	rr    runs
	ls    lockSet
	floor bool // rr's floor rows are filled (they never change)
}

// runSets[p] has bit n set when some row of some orientation of p is a run
// of n cells: a row can be completed by p only if it misses exactly such a
// run.
var runSets = func() (m [NumPieces]uint8) {
	for p := range m {
		for _, s := range shapes[p] {
			for i := 0; i < s.yDim; i++ {
				m[p] |= 1 << (s.runLen[i] + 1)
			}
		}
	}
	return m
}()

// deepestFillable returns the lowest row below the bar that misses exactly
// one run of cells whose length is in set (bit n = a run of n cells), or -1.
func deepestFillable(w *Well, set uint8) int {
	for y := Height - 1; y >= Bar; y-- {
		need := FullRow ^ w[y]
		if need == 0 || need == FullRow {
			continue
		}
		tz := bits.TrailingZeros16(need)
		run := need >> tz
		if run&(run+1) == 0 && run <= 15 && set>>bits.OnesCount16(run)&1 != 0 {
			return y
		}
	}
	return -1
}

// Clears appends to dst the futures of piece p in well w that clear one
// line or more and returns the extended slice: exactly the futures of
// Futures(nil, w, p) with Lines >= 1, in the same order.
func (c *Clearer) Clears(dst []Future, w *Well, p Piece) []Future {
	yMax := deepestFillable(w, runSets[p])
	if yMax < 0 {
		return dst
	}
	f := &c.f
	top := w.Top()
	// The flood stops at box row yMax+yBias+1, whose step reads well rows
	// up to one below it: yMax+4. Rows below that are left as they were.
	c.rr.buildRows(w, top, min(Height, yMax+yBias+3))
	if !c.floor {
		c.rr.buildFloor()
		c.floor = true
	}
	f.start(top, p)
	// A lock whose cells start at row ya <= yMax sits in box row
	// Y = ya - yOff <= yMax + 2, and is known once row Y+1 is flooded.
	for !f.done && f.y <= yMax+yBias+1 {
		f.step(&c.rr, p)
	}
	ls := &c.ls
	sh := &shapes[p]
	ls.rows = [4]uint32{}
	// The loop below is flood.locks with two filters (rows the piece fills,
	// nothing above the bar). It stays written out: a shared per-row helper
	// (not inlined) measured ~4 % slower in BenchmarkQuiesce.
	// Locks of box row Y need reach[Y] and fit[Y+1]: rows below f.y-1
	// (f.y-1 = f.end once the flood is done).
	for Y := max(spawnY, f.y0-1); Y < f.y-1; Y++ {
		m := f.reach[Y] &^ f.fit[Y+1] & f.fill[Y]
		for m != 0 {
			o := bits.TrailingZeros64(m) >> 4
			lane := uint16(m >> (16 * o))
			m &^= 0xFFFF << (16 * o)
			s := &sh[o]
			ya := Y + s.yOff
			if ya < Bar {
				continue // nothing clears when the piece reaches above the bar
			}
			cl := s.class
			v := lane >> s.xShift
			if ls.rows[cl]>>ya&1 == 0 {
				ls.rows[cl] |= 1 << ya
				ls.m[cl][ya] = v
			} else {
				ls.m[cl][ya] |= v
			}
		}
	}
	ls.all = ls.rows[0] | ls.rows[1] | ls.rows[2] | ls.rows[3]
	return ls.appendFutures(dst, w, p)
}
