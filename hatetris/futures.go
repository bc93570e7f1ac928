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
	f.run(w, p)
	return f.appendLocks(dst, w, p)
}

// flood is the reachability table of one piece in one well.
type flood struct {
	fit   [4][nRows + 1]uint16
	reach [4][nRows]uint16
}

// fitMask returns the box columns X at which orientation sh fits with its box
// at row Y.
func fitMask(w *Well, sh *shape, Y int) uint16 {
	ya := Y - yBias + sh.yMin
	if ya < 0 || ya+sh.yDim > Height {
		return 0
	}
	r := w[ya:]
	blocked := r[sh.cellRow[0]]>>sh.cellCol[0] | r[sh.cellRow[1]]>>sh.cellCol[1] |
		r[sh.cellRow[2]]>>sh.cellCol[2] | r[sh.cellRow[3]]>>sh.cellCol[3]
	free := ^blocked & (1<<(Width+1-sh.xDim) - 1)
	return free << (xBias - sh.xMin)
}

func trailingZeros16(m uint16) int { return bits.TrailingZeros16(m) }

// wallFit[p][o] is the fit mask of a box row clear of the stack and the floor.
var wallFit = func() (m [NumPieces][4]uint16) {
	var empty Well
	for p := range m {
		for o := range m[p] {
			m[p][o] = fitMask(&empty, &shapes[p][o], yBias)
		}
	}
	return m
}()

// spread extends seeds r to every bit connected to them inside f by single
// left/right steps.
func spread(r, f uint16) uint16 {
	r &= f
	for {
		n := r | (r<<1|r>>1)&f
		if n == r {
			return r
		}
		r = n
	}
}

func (f *flood) run(w *Well, p Piece) {
	sh := &shapes[p]
	top := w.Top()
	// Rows whose whole 4×4 box is empty are free of the stack: every position
	// that fits between the walls is reachable there.
	Y := spawnY
	for ; Y-yBias+4 <= top && Y < nRows; Y++ {
		for o := 0; o < 4; o++ {
			m := wallFit[p][o]
			f.fit[o][Y] = m
			f.reach[o][Y] = m
		}
	}
	for ; Y < nRows; Y++ {
		for o := 0; o < 4; o++ {
			f.fit[o][Y] = fitMask(w, &sh[o], Y)
			if Y == spawnY {
				f.reach[o][Y] = 0
			} else {
				f.reach[o][Y] = f.reach[o][Y-1] & f.fit[o][Y]
			}
		}
		if Y == spawnY {
			f.reach[0][Y] = f.fit[0][Y] & (1 << spawnX)
		}
		f.close(Y)
	}
}

// close applies L, R and U at row Y until nothing new is reached.
func (f *flood) close(Y int) {
	for stable := 0; stable < 4; {
		stable = 0
		for o := 0; o < 4; o++ {
			r := spread(f.reach[o][Y], f.fit[o][Y])
			f.reach[o][Y] = r
			n := (o + 1) & 3
			add := r & f.fit[n][Y] &^ f.reach[n][Y]
			if add == 0 {
				stable++
				continue
			}
			f.reach[n][Y] |= add
		}
	}
}

// lockSet holds the lock positions of one piece, merged by shape class: an
// xa mask (box column of the cells) per ya (box row), for rows lo..hi-1.
type lockSet struct {
	m      [4][Height]uint16
	lo, hi int
}

// locks turns the positions where D is blocked into a lockSet.
func (f *flood) locks(ls *lockSet, p Piece) {
	sh := &shapes[p]
	ls.lo, ls.hi = Height, 0
	ls.m = [4][Height]uint16{}
	for o := 0; o < 4; o++ {
		s := &sh[o]
		for Y := spawnY; Y < nRows; Y++ {
			m := f.reach[o][Y] &^ f.fit[o][Y+1]
			if m == 0 {
				continue
			}
			ya := Y - yBias + s.yMin
			ls.m[s.class][ya] |= m >> (xBias - s.xMin)
			ls.lo, ls.hi = min(ls.lo, ya), max(ls.hi, ya+1)
		}
	}
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
		for ya := ls.lo; ya < ls.hi; ya++ {
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

// highestPeak returns the best rating (Top of the result) over a lockSet
// without building wells, except for locks that clear lines.
func (ls *lockSet) highestPeak(w *Well, top int, p Piece) int {
	sh := &shapes[p]
	hp := -1
	for o := 0; o < 4; o++ {
		s := &sh[o]
		if s.class != o {
			continue
		}
		for ya := ls.hi - 1; ya >= ls.lo; ya-- {
			m := ls.m[o][ya]
			if m == 0 {
				continue
			}
			// Without clears the result's top is min(top, ya).
			if min(top, ya) > hp {
				hp = max(hp, min(top, ya))
			}
			if ya < Bar {
				continue
			}
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
