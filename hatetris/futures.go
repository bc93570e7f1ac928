// This file holds the futures of a (well, piece): every lock reachable from
// the spawn by any sequence of L, R, D, U, found by a bit-parallel flood fill
// over rows, one 16-bit mask of box columns per (orientation, row).

package hatetris

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
type flood struct {
	fit   [nRows + 1]uint64
	reach [nRows]uint64
	// y0 is the first row computed from the stack; rows above it are clear
	// of the stack and hold the wall-only masks. Rows from end on are not
	// reachable (D is the only way down, so once a row is unreachable every
	// row below it is); fit[end] is valid.
	y0, end int
}

// runs is a well prepared for fit tests: runs[l][y] has bit xa set when a
// run of l+1 cells starting at column xa of row y hits a filled cell or the
// floor. Every row of a tetromino is one run, so an orientation's collision
// mask at a box row is one term per piece row. Rows Height..31 are floor;
// rows above top-3 are never read (see build).
type runs [4][32]uint16

// build fills the rows of w from max(0, top-3) down, and the floor.
func (rr *runs) build(w *Well, top int) {
	for y := max(0, top-3); y < Height; y++ {
		r := w[y]
		r2 := r | r>>1
		rr[0][y], rr[1][y], rr[2][y], rr[3][y] = r, r2, r2|r>>2, r2|r2>>2
	}
	for y := Height; y < 32; y++ {
		rr[0][y], rr[1][y], rr[2][y], rr[3][y] = 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF
	}
}

// fitMask returns the box columns X at which orientation sh fits with its box
// at row Y (Y >= spawnY).
func fitMask(rr *runs, sh *shape, Y int) uint16 {
	ya := Y + sh.yOff
	blocked := rr[sh.runLen[0]&3][ya&31] >> sh.runOff[0]
	if sh.yDim > 1 {
		blocked |= rr[sh.runLen[1]&3][(ya+1)&31] >> sh.runOff[1]
		if sh.yDim > 2 {
			blocked |= rr[sh.runLen[2]&3][(ya+2)&31] >> sh.runOff[2]
			if sh.yDim > 3 {
				blocked |= rr[sh.runLen[3]&3][(ya+3)&31] >> sh.runOff[3]
			}
		}
	}
	return (^blocked & sh.free) << sh.xShift
}

// fitRow returns the packed fit masks of the four orientations at row Y.
func fitRow(rr *runs, sh *[4]shape, Y int) uint64 {
	return uint64(fitMask(rr, &sh[0], Y)) | uint64(fitMask(rr, &sh[1], Y))<<16 |
		uint64(fitMask(rr, &sh[2], Y))<<32 | uint64(fitMask(rr, &sh[3], Y))<<48
}

func trailingZeros16(m uint16) int { return bits.TrailingZeros16(m) }

// wallFit[p] is the packed fit mask of a box row clear of the stack and the floor.
var wallFit = func() (m [NumPieces]uint64) {
	var empty Well
	var rr runs
	rr.build(&empty, 0)
	for p := range m {
		m[p] = fitRow(&rr, &shapes[p], yBias)
	}
	return m
}()

// oneClass[p] reports whether all four orientations of p are the same box
// (the O): one fit mask serves all four lanes.
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

func (f *flood) run(rr *runs, top int, p Piece) {
	sh := &shapes[p]
	// Rows whose whole 4×4 box is empty are free of the stack: every position
	// that fits between the walls is reachable there.
	Y := spawnY
	wf := wallFit[p]
	for ; Y-yBias+4 <= top && Y < nRows; Y++ {
		f.fit[Y] = wf
		f.reach[Y] = wf
	}
	f.y0 = Y
	f.end = Y
	same := oneClass[p]
	for ; Y < nRows; Y++ {
		var fit uint64
		if same {
			fit = uint64(fitMask(rr, &sh[0], Y)) * 0x0001_0001_0001_0001
		} else {
			fit = fitRow(rr, sh, Y)
		}
		f.fit[Y] = fit
		var r uint64
		if Y == spawnY {
			r = fit & (1 << spawnX)
		} else {
			r = f.reach[Y-1] & fit
		}
		// Apply L, R and U at row Y until nothing new is reached.
		for r != 0 {
			r = spread(r, fit)
			add := bits.RotateLeft64(r, 16) & fit &^ r
			if add == 0 {
				break
			}
			r |= add
		}
		f.reach[Y] = r
		if r == 0 {
			f.end = Y
			return
		}
	}
	f.fit[nRows] = 0
	f.end = nRows
}

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

// wellInfo is what the enemy's ratings need of one well besides its fit
// masks: its top, the rows where a lock may complete a line, and each row's
// gap when the gap is one run of one to four cells.
type wellInfo struct {
	top int
	// nf has bit ya set when one of rows ya..ya+3 (below the bar, ya >= Bar)
	// misses exactly one run of one to four cells: every row of a
	// tetromino is one run, so only a lock whose box starts at such a row
	// can complete a line.
	nf uint32
	// gapLen[y] is the length of row y's gap when it is one run of 1..4
	// cells and y >= Bar, else 0; gapAt[y] is the gap's first column.
	gapLen, gapAt [Height + 4]int8
	// solid reports that no empty row lies below the top.
	solid bool
}

func (wi *wellInfo) build(w *Well) {
	wi.top = w.Top()
	var nf uint32
	for y := Bar; y < Height; y++ {
		need := FullRow ^ w[y]
		tz := bits.TrailingZeros16(need)
		n := int8(0)
		switch need >> tz {
		case 1:
			n = 1
		case 3:
			n = 2
		case 7:
			n = 3
		case 15:
			n = 4
		}
		wi.gapLen[y], wi.gapAt[y] = n, int8(tz)
		if n != 0 {
			nf |= 1 << y
		}
	}
	wi.nf = (nf | nf>>1 | nf>>2 | nf>>3) &^ (1<<Bar - 1)
	wi.solid = true
	for y := wi.top; y < Height; y++ {
		if w[y] == 0 {
			wi.solid = false
		}
	}
}

// lockRows returns the box rows Y in which the flood may hold locks: a lock
// is a reachable position whose row below does not fit, reach[Y] &^ fit[Y+1];
// above y0-1 a row's successor is a wall-only row too.
func (f *flood) lockRows() (lo, hi int) { return max(spawnY, f.y0-1), f.end }

// peakNoClear returns the best rating over the flood's locks as if none
// cleared a line (-1 without locks): a lower bound of highestPeak, since a
// clear only moves rows down. Without clears a result's top is min(top, ya),
// largest at the deepest lock; every reachable position of the last
// reachable row is a lock, and orientations' box rows differ by at most 2,
// so the deepest lock lies in the last three rows.
func (f *flood) peakNoClear(top int, p Piece) int {
	sh := &shapes[p]
	lo, hi := f.lockRows()
	best := -1
	for Y := max(lo, hi-3); Y < hi; Y++ {
		m := f.reach[Y] &^ f.fit[Y+1]
		for o := 0; o < 4; o++ {
			if uint16(m>>(16*o)) != 0 {
				best = max(best, Y+sh[o].yOff)
			}
		}
	}
	return min(top, best)
}

// mayClear reports whether some lock row of the flood is in wi.nf (a cheap
// test on the range of box rows over all orientations).
func (f *flood) mayClear(wi *wellInfo) bool {
	lo, hi := f.lockRows()
	if lo >= hi {
		return false
	}
	// yOff is in -2..0: box rows ya run from lo-2 to hi-1.
	rows := uint32(1)<<(hi&31) - 1
	if lo-2 > 0 {
		rows &^= uint32(1)<<(lo-2) - 1
	}
	return wi.nf&rows != 0
}

// highestPeak returns the best rating (Top of the result) over the flood's
// locks: peakNoClear, raised by the locks that complete a line.
func (f *flood) highestPeak(w *Well, wi *wellInfo, p Piece) int {
	hp := f.peakNoClear(wi.top, p)
	if f.mayClear(wi) {
		hp = max(hp, f.clearScan(w, wi, p, hp, true))
	}
	return hp
}

// exceeds returns the rating of some lock of the flood that rates above t,
// or -1 when the piece's rating is at most t. t must be at least
// peakNoClear: only locks that complete a line can rate above it.
func (f *flood) exceeds(w *Well, wi *wellInfo, p Piece, t int) int {
	if !f.mayClear(wi) {
		return -1
	}
	return f.clearScan(w, wi, p, t, false)
}

// clearEntry is one way for a piece to complete a row: row i of orientation
// o (a run of cells runOff columns into the box) fills a gap of its length.
type clearEntry struct {
	o, i, off int8
	// The lock's box row is Y = y + dY for the gap's row y, its lane bit is
	// base + gap column.
	dY   int8
	base int8
}

// clearEntries[p][g-1] lists the rows of p's orientations that are runs of
// g cells (the O's four orientations are one: its lanes are equal).
var clearEntries = func() (t [NumPieces][4][]clearEntry) {
	for p := range t {
		for o := range 4 {
			if oneClass[p] && o > 0 {
				break
			}
			s := &shapes[p][o]
			for i := 0; i < s.yDim; i++ {
				g := s.runLen[i]
				t[p][g] = append(t[p][g], clearEntry{
					o: int8(o), i: int8(i), off: int8(s.runOff[i]),
					dY: int8(-i - s.yOff), base: int8(16*o + int(s.xShift) - int(s.runOff[i])),
				})
			}
		}
	}
	return t
}()

// clearScan returns the highest rating above t of the flood's locks that
// complete a line (-1 if none rates above t); with all false it returns the
// first one found. Locks are found from the rows with a one-run gap: each
// piece row of the gap's length fixes the lock's column.
func (f *flood) clearScan(w *Well, wi *wellInfo, p Piece, t int, all bool) int {
	sh := &shapes[p]
	lo, hi := f.lockRows()
	top := wi.top
	best := -1
	// A lock's rating is min(top, ya) + lines when no empty row lies below
	// the top, and ya >= y-3 for the gap row y: rows above yMin cannot help.
	yMin := Bar
	if wi.solid {
		yMin = max(yMin, t-3)
	}
	for y := yMin; y < Height; y++ {
		g := wi.gapLen[y]
		if g == 0 {
			continue
		}
		at := int(wi.gapAt[y])
		for _, ce := range clearEntries[p][g-1] {
			Y := y + int(ce.dY)
			if Y < lo || Y >= hi || at < int(ce.off) {
				continue
			}
			if (f.reach[Y]&^f.fit[Y+1])>>(int(ce.base)+at)&1 == 0 {
				continue
			}
			s := &sh[ce.o]
			ya := y - int(ce.i)
			if ya < Bar {
				continue
			}
			xa := at - int(ce.off)
			var cl uint // bit r: row ya+r is completed
			for r := 0; r < s.yDim; r++ {
				if wi.gapLen[ya+r] == int8(s.runLen[r])+1 && int(wi.gapAt[ya+r])-int(s.runOff[r]) == xa {
					cl |= 1 << r
				}
			}
			if v := clearedTop(w, top, s.yDim, ya, cl); v > t && v > best {
				if !all {
					return v
				}
				best = v
			}
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
