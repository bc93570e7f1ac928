// This file holds the futures of a (well, piece): every lock reachable from
// the spawn by any sequence of L, R, D, U, found by a bit-parallel flood fill
// over rows, one 16-bit mask of box columns per (orientation, row).

package hatetris

//go:generate go test -run FitGenerated -update-fitgen

import (
	"math/bits"
	"slices"
)

// Box coordinates are biased so they fit unsigned masks: X = x+2, Y = y+2,
// where (x, y) is the top-left corner of the piece's 4×4 box.
const (
	xBias  = 2
	yBias  = 2
	nRows  = Height + yBias + 1 // Y runs over 0..Height+yBias
	spawnX = (Width-4)/2 + xBias
	spawnY = yBias
)

// Future is one locked result of a piece: the well after clears, the lines
// the lock cleared, and where the piece locked (orientation and box corner in
// the original's coordinates).
type Future struct {
	Well  Well
	Lines int8
	O     int8 // orientation 0..3
	X, Y  int8 // top-left corner of the 4×4 box
}

// Futures appends to dst every distinct locked result of piece p in well w
// (distinct by the cells the piece fills; results that cause game over are
// included) and returns the extended slice. It allocates nothing when dst has
// room; the order is deterministic.
func Futures(dst []Future, w *Well, p Piece) []Future {
	var f flood
	var rr runs
	top := w.Top()
	rr.build(w, top)
	f.run(&rr, top, p)
	return f.appendLocks(dst, w, p)
}

// flood is the reachability table of one piece in one well. The four
// orientations are packed in one uint64 per row, orientation o in bits
// 16o..16o+15, so shifts, spreads and rotations work on all four at once.
// Box columns use bits 0..12 of a lane only, so nothing leaks across lanes.
// A flood is computed row by row (start, then step until done), so the enemy
// can stop flooding a piece as soon as it knows enough about its rating.
type flood struct {
	fit   [nRows + 1]uint64
	reach [nRows]uint64
	// fill[Y] marks the positions of row Y where a lock completes a row
	// (whether or not they are locks).
	fill [nRows]uint64
	// y0 is the first row computed from the stack; rows above it are clear
	// of the stack and hold the wall-only masks. y is the next row to
	// compute. Once done, rows from end on are not reachable (D is the only
	// way down, so once a row is unreachable every row below it is) and
	// fit[end] is valid.
	y0, y, end int
	done       bool
}

// runs is a well prepared for fit tests. The low half of runs[l][y] has bit
// xa set when a run of l+1 cells starting at column xa of row y hits a
// filled cell or the floor; every row of a tetromino is one run, so an
// orientation's collision mask at a box row is one term per piece row. The
// high half has bit 16+xa set when row y (below the bar) misses exactly those
// l+1 cells, so that the same terms also tell which locks complete a row.
// Rows Height..31 are floor; rows above top-3 are never read (see build).
type runs [4][32]uint32

// build fills the rows of w from max(0, top-3) down, and the floor.
func (rr *runs) build(w *Well, top int) {
	rr.buildFrom(w, top, Height)
	rr.buildFloor()
}

// buildFloor fills rows Height..31, the floor.
func (rr *runs) buildFloor() {
	for y := Height; y < 32; y++ {
		rr[0][y], rr[1][y], rr[2][y], rr[3][y] = 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF
	}
}

// runRows[r] is runs' entry of a row r below the bar (build's loop body
// for every row, looked up by buildRows).
var runRows = func() (m [1 << Width][4]uint32) {
	for r := range m {
		var w Well
		w[Height-1] = uint16(r)
		var rr runs
		rr.build(&w, Height-1)
		for l := range 4 {
			m[r][l] = rr[l][Height-1]
		}
	}
	return m
}()

// buildRows fills the rows of w from max(0, top-3) to end-1, those below
// the bar from runRows.
func (rr *runs) buildRows(w *Well, top, end int) {
	y := max(Bar, top-3)
	for ; y < end; y++ {
		b := &runRows[w[y]&(1<<Width-1)]
		rr[0][y&31], rr[1][y&31], rr[2][y&31], rr[3][y&31] = b[0], b[1], b[2], b[3]
	}
	rr.buildFrom(w, top, min(Bar, end))
}

// buildFrom fills the rows of w from max(0, top-3) to end-1, computed.
func (rr *runs) buildFrom(w *Well, top, end int) {
	for y := max(0, top-3); y < end; y++ {
		r := uint32(w[y])
		r2 := r | r>>1
		b := [4]uint32{r, r2, r2 | r>>2, r2 | r2>>2}
		if need := FullRow ^ w[y]; y >= Bar && need != 0 {
			tz := bits.TrailingZeros16(need)
			switch need >> tz {
			case 1:
				b[0] |= 1 << (16 + tz)
			case 3:
				b[1] |= 1 << (16 + tz)
			case 7:
				b[2] |= 1 << (16 + tz)
			case 15:
				b[3] |= 1 << (16 + tz)
			}
		}
		rr[0][y], rr[1][y], rr[2][y], rr[3][y] = b[0], b[1], b[2], b[3]
	}
}

// fitMask returns the box columns X at which orientation sh fits with its box
// at row Y (Y >= spawnY), and those at which a lock would complete a row.
func fitMask(rr *runs, sh *shape, Y int) (fit, fill uint16) {
	ya := Y + sh.yOff
	var b uint32
	for i := 0; i < sh.yDim; i++ {
		b |= rr[sh.runLen[i]&3][(ya+i)&31] >> sh.runOff[i]
	}
	return (^uint16(b) & sh.free) << sh.xShift, uint16(b>>16) << sh.xShift
}

// fitRow returns the packed fitMask results of the four orientations at
// row Y (the generated steps in fit_gen.go unroll it per piece).
func fitRow(rr *runs, sh *[4]shape, Y int) (fit, fill uint64) {
	for o := 3; o >= 0; o-- {
		a, b := fitMask(rr, &sh[o], Y)
		fit, fill = fit<<16|uint64(a), fill<<16|uint64(b)
	}
	return fit, fill
}

func trailingZeros16(m uint16) int { return bits.TrailingZeros16(m) }

// wallFit[p] is the packed fit mask of a box row clear of the stack and the floor.
var wallFit = func() (m [NumPieces]uint64) {
	var empty Well
	var rr runs
	rr.build(&empty, 0)
	for p := range m {
		m[p], _ = fitRow(&rr, &shapes[p], yBias)
	}
	return m
}()

// oneClass[p] reports whether all four orientations of p are the same box
// (the O): its four lanes are always equal, so one serves for all.
var oneClass = func() (m [NumPieces]bool) {
	for p := range m {
		s := &shapes[p]
		m[p] = s[0].class == 0 && s[1].class == 0 && s[2].class == 0 && s[3].class == 0
	}
	return m
}()

// spread extends seeds r to every bit connected to them inside f by single
// left/right steps, in all four lanes at once (occluded fills, both ways).
func spread(r, f uint64) uint64 {
	r &= f
	// Towards higher bits: a carry runs from each seed to the end of its run.
	up := ((f+r)^f)&f | r
	// Towards lower bits: Kogge-Stone occluded fill.
	g, p := r, f
	g |= p & (g >> 1)
	p &= p >> 1
	g |= p & (g >> 2)
	p &= p >> 2
	g |= p & (g >> 4)
	p &= p >> 4
	g |= p & (g >> 8)
	return up | g
}

// run computes the whole flood of piece p.
func (f *flood) run(rr *runs, top int, p Piece) {
	f.start(top, p)
	for !f.done {
		f.step(rr, p)
	}
}

// start fills the rows whose whole 4×4 box is clear of the stack: every
// position that fits between the walls is reachable there.
func (f *flood) start(top int, p Piece) {
	Y := spawnY
	wf := wallFit[p]
	for ; Y-yBias+4 <= top; Y++ {
		f.fit[Y] = wf
		f.reach[Y] = wf
		f.fill[Y] = 0 // the box is above the stack
	}
	f.y0, f.y, f.end, f.done = Y, Y, nRows, false
}

// step computes row f.y: its fit and fill masks, and the positions reached
// from the row above by D and then by L, R and U until nothing new is
// reached. The locks of row f.y-1 are final afterwards. A piece's box cannot
// lie in the floor, so some row before nRows is unreachable and ends the
// flood. The code is generated per piece (fit_gen.go).
func (f *flood) step(rr *runs, p Piece) { stepOf[p](f, rr) }

// lockSet holds the lock positions of one piece, merged by shape class: an
// xa mask (box column of the cells) per ya (box row). Only rows whose bit is
// set in rows[class] are valid, so a lockSet is reused without clearing.
type lockSet struct {
	m    [4][Height]uint16
	rows [4]uint32
	all  uint32 // union of rows
}

// locks turns the positions where D is blocked into a lockSet.
func (f *flood) locks(ls *lockSet, p Piece) {
	sh := &shapes[p]
	ls.rows = [4]uint32{}
	lo, hi := f.lockRows()
	for Y := lo; Y < hi; Y++ {
		m := f.reach[Y] &^ f.fit[Y+1]
		for m != 0 {
			o := bits.TrailingZeros64(m) >> 4
			lane := uint16(m >> (16 * o))
			m &^= 0xFFFF << (16 * o)
			s := &sh[o]
			ya := Y + s.yOff
			c := s.class
			v := lane >> s.xShift
			if ls.rows[c]>>ya&1 == 0 {
				ls.rows[c] |= 1 << ya
				ls.m[c][ya] = v
			} else {
				ls.m[c][ya] |= v
			}
		}
	}
	ls.all = ls.rows[0] | ls.rows[1] | ls.rows[2] | ls.rows[3]
}

// appendLocks appends the results of a flood's locks.
func (f *flood) appendLocks(dst []Future, w *Well, p Piece) []Future {
	var ls lockSet
	f.locks(&ls, p)
	return ls.appendFutures(dst, w, p)
}

// appendFutures materialises the results of a lockSet.
func (ls *lockSet) appendFutures(dst []Future, w *Well, p Piece) []Future {
	sh := &shapes[p]
	n := 0
	for o := 0; o < 4; o++ {
		if sh[o].class != o {
			continue
		}
		for rs := ls.rows[o]; rs != 0; rs &= rs - 1 {
			n += bits.OnesCount16(ls.m[o][bits.TrailingZeros32(rs)])
		}
	}
	k := len(dst)
	dst = slices.Grow(dst, n)[:k+n]
	for o := 0; o < 4; o++ {
		s := &sh[o]
		if s.class != o {
			continue
		}
		for rs := ls.rows[o]; rs != 0; rs &= rs - 1 {
			ya := bits.TrailingZeros32(rs)
			for m := ls.m[o][ya]; m != 0; m &= m - 1 {
				xa := trailingZeros16(m)
				fu := &dst[k]
				k++
				fu.Well = *w
				fu.O, fu.X, fu.Y = int8(o), int8(xa-s.xMin), int8(ya-s.yMin)
				fu.Lines = int8(fu.Well.place(s, xa, ya))
			}
		}
	}
	return dst
}

// lockRows returns the box rows Y in which a complete flood may hold locks:
// a lock is a reachable position whose row below does not fit,
// reach[Y] &^ fit[Y+1]; above y0-1 a row's successor is a wall-only row too.
func (f *flood) lockRows() (lo, hi int) { return max(spawnY, f.y0-1), f.end }

// yOffLanes[p] are the lanes (bit 15 of each) of p's orientations whose box
// row offset yOff is 0 (index 0) and -1 (index 1); the others have -2.
var yOffLanes = func() (m [NumPieces][2]uint64) {
	for p := range m {
		for o, s := range shapes[p] {
			if s.yOff >= -1 {
				m[p][-s.yOff] |= 0x8000 << (16 * o)
			}
		}
	}
	return m
}()

// rateRow returns the best rating (Top of the result) over the locks lk of
// piece p in box row Y (lk = reach[Y] &^ fit[Y+1], non-zero) of well w,
// whose Top is top. Without a clear a result's top is min(top, ya), largest
// in the lowest lane; the locks that complete rows (lk & fill[Y]) are rated
// from the rows they clear.
func (f *flood) rateRow(rr *runs, w *Well, top int, p Piece, Y int, lk uint64) int {
	best := min(top, lowestLock(p, Y, lk))
	if hits := lk & f.fill[Y]; hits != 0 {
		best = max(best, rateClears(rr, w, top, p, Y, hits))
	}
	return best
}

// lowestLock returns the largest box corner row ya over the locks lk of
// piece p in box row Y (lk non-zero).
func lowestLock(p Piece, Y int, lk uint64) int {
	// Bit 15 of each lane: the lane holds a lock (lanes use bits 0..12).
	nz := (lk + 0x7FFF_7FFF_7FFF_7FFF) & 0x8000_8000_8000_8000
	if nz&yOffLanes[p][0] != 0 {
		return Y
	}
	if nz&yOffLanes[p][1] != 0 {
		return Y - 1
	}
	return Y - 2
}

// rateClears returns the best rating over the locks hits of piece p in box
// row Y that complete a row (hits = locks & fill[Y], non-zero).
func rateClears(rr *runs, w *Well, top int, p Piece, Y int, hits uint64) int {
	best := -1
	if oneClass[p] {
		hits &= 0xFFFF // the O's four lanes are equal
	}
	sh := &shapes[p]
	for hits != 0 {
		o := bits.TrailingZeros64(hits) >> 4
		lane := uint16(hits >> (16 * o))
		hits &^= 0xFFFF << (16 * o)
		s := &sh[o]
		ya := Y + s.yOff
		if ya < Bar {
			continue // nothing clears above the bar
		}
		for c := lane >> s.xShift; c != 0; c &= c - 1 {
			xa := trailingZeros16(c)
			var cl uint // bit i: row ya+i is completed
			for i := 0; i < s.yDim; i++ {
				cl |= uint(rr[s.runLen[i]&3][(ya+i)&31]>>16>>s.runOff[i]>>xa&1) << i
			}
			best = max(best, clearedTop(w, top, s.yDim, ya, cl))
		}
	}
	return best
}

// clearedTop returns the Top of well w (whose Top is top) after a piece
// whose box rows are ya..ya+yDim-1 (ya >= Bar) locks there and clears the
// rows in cl (bit i = row ya+i). Rows above a cleared row move down one.
func clearedTop(w *Well, top, yDim, ya int, cl uint) int {
	k := bits.OnesCount(cl)
	if top < ya {
		// The stack's top row is above the piece and every cleared row.
		return top + k
	}
	// The piece's first row is the top; the first row not cleared moves
	// down by the cleared rows below it.
	for i := 0; i < yDim; i++ {
		if cl>>i&1 == 0 {
			return ya + i + bits.OnesCount(cl>>(i+1))
		}
	}
	// Every box row cleared: the first filled row below them stays.
	for y := ya + yDim; y < Height; y++ {
		if w[y] != 0 {
			return y
		}
	}
	return Height
}
