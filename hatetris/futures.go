// This file holds the futures of a (well, piece): every lock reachable from
// the spawn by any sequence of L, R, D, U, found by a bit-parallel flood fill
// over rows, one 16-bit mask of box columns per (orientation, row).

package hatetris

import "math/bits"

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
	pw := pad(w)
	f.run(&pw, w.Top(), p)
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

// padded is a well with floor rows below it, so fit tests need no bounds
// checks: rows 0..Height-1 are the well, the rest are full.
type padded [32]uint16

func pad(w *Well) (p padded) {
	copy(p[:], w[:])
	for i := Height; i < len(p); i++ {
		p[i] = 0xFFFF
	}
	return p
}

// fitMask returns the box columns X at which orientation sh fits with its box
// at row Y (Y >= spawnY).
func fitMask(w *padded, sh *shape, Y int) uint16 {
	ya := Y + sh.yOff
	blocked := w[(ya+int(sh.cellRow[0]))&31]>>sh.cellCol[0] | w[(ya+int(sh.cellRow[1]))&31]>>sh.cellCol[1] |
		w[(ya+int(sh.cellRow[2]))&31]>>sh.cellCol[2] | w[(ya+int(sh.cellRow[3]))&31]>>sh.cellCol[3]
	return (^blocked & sh.free) << sh.xShift
}

// fitRow returns the packed fit masks of the four orientations at row Y.
func fitRow(w *padded, sh *[4]shape, Y int) uint64 {
	return uint64(fitMask(w, &sh[0], Y)) | uint64(fitMask(w, &sh[1], Y))<<16 |
		uint64(fitMask(w, &sh[2], Y))<<32 | uint64(fitMask(w, &sh[3], Y))<<48
}

func trailingZeros16(m uint16) int { return bits.TrailingZeros16(m) }

// wallFit[p] is the packed fit mask of a box row clear of the stack and the floor.
var wallFit = func() (m [NumPieces]uint64) {
	var empty Well
	pw := pad(&empty)
	for p := range m {
		m[p] = fitRow(&pw, &shapes[p], yBias)
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

func (f *flood) run(w *padded, top int, p Piece) {
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
			fit = uint64(fitMask(w, &sh[0], Y)) * 0x0001_0001_0001_0001
		} else {
			fit = fitRow(w, sh, Y)
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
	// Above y0-1 a row's successor is a wall-only row too: no locks there.
	for Y := max(spawnY, f.y0-1); Y < f.end; Y++ {
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
	for o := 0; o < 4; o++ {
		s := &sh[o]
		if s.class != o {
			continue
		}
		for rs := ls.rows[o]; rs != 0; rs &= rs - 1 {
			ya := bits.TrailingZeros32(rs)
			for m := ls.m[o][ya]; m != 0; m &= m - 1 {
				xa := trailingZeros16(m)
				fu := Future{Well: *w, O: int8(o), X: int8(xa - s.xMin), Y: int8(ya - s.yMin)}
				fu.Lines = int8(fu.Well.place(s, xa, ya))
				dst = append(dst, fu)
			}
		}
	}
	return dst
}

// nearFull returns, as bit ya, the rows ya below the bar such that one of
// rows ya..ya+3 misses exactly one run of one to four cells: every row of a
// tetromino is one run, so only a lock whose box starts at such a row can
// complete a line.
func nearFull(w *Well) uint32 {
	var nf uint32
	for y := Bar; y < Height; y++ {
		need := FullRow ^ w[y]
		if need == 0 {
			continue
		}
		switch need >> bits.TrailingZeros16(need) {
		case 1, 3, 7, 15:
			nf |= 1 << y
		}
	}
	return (nf | nf>>1 | nf>>2 | nf>>3) &^ (1<<Bar - 1)
}

// peakNoClear returns the best rating over a lockSet's locks as if none
// cleared a line: a lower bound of highestPeak. Without clears a result's top
// is min(top, ya), largest at the deepest lock row.
func (ls *lockSet) peakNoClear(top int) int {
	if ls.all == 0 {
		return -1
	}
	return min(top, 31-bits.LeadingZeros32(ls.all))
}

// highestPeak returns the best rating (Top of the result) over a lockSet
// without building wells, except for locks that clear lines. nf is
// nearFull(w).
func (ls *lockSet) highestPeak(w *Well, top int, nf uint32, p Piece) int {
	hp := ls.peakNoClear(top)
	if nf&ls.all == 0 {
		return hp
	}
	sh := &shapes[p]
	for o := 0; o < 4; o++ {
		s := &sh[o]
		if s.class != o {
			continue
		}
		for c := nf & ls.rows[o]; c != 0; c &= c - 1 {
			ya := bits.TrailingZeros32(c)
			m := ls.m[o][ya]
			// Locks completing a row: compute the result exactly.
			var full uint16
			for i := 0; i < s.yDim; i++ {
				// The column xa where rows[i]<<xa fills exactly the missing cells.
				need := FullRow ^ w[ya+i]
				xa := trailingZeros16(need) - trailingZeros16(s.rows[i])
				if need != 0 && xa >= 0 && s.rows[i]<<xa == need {
					full |= 1 << xa
				}
			}
			for c := m & full; c != 0; c &= c - 1 {
				xa := trailingZeros16(c)
				r := *w
				r.place(s, xa, ya)
				hp = max(hp, r.Top())
			}
		}
	}
	return hp
}
