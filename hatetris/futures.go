// This file holds the futures of a (well, piece): every lock reachable from
// the spawn by any sequence of L, R, D, U, found by a bit-parallel flood fill
// over rows, one 16-bit mask of box columns per (orientation, row).

package hatetris

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
	var blocked uint16
	for i := 0; i < sh.yDim; i++ {
		r := w[ya+i]
		if r == 0 {
			continue
		}
		for m := sh.rows[i]; m != 0; m &= m - 1 {
			b := trailingZeros16(m)
			blocked |= r >> b
		}
	}
	free := ^blocked & (1<<(Width+1-sh.xDim) - 1)
	return free << (xBias - sh.xMin)
}

func trailingZeros16(m uint16) int {
	n := 0
	for m&1 == 0 {
		m >>= 1
		n++
	}
	return n
}

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
			m := fitMask(w, &sh[o], Y)
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

// appendLocks turns the positions where D is blocked into results, merging
// orientations that fill the same cells.
func (f *flood) appendLocks(dst []Future, w *Well, p Piece) []Future {
	sh := &shapes[p]
	var locks [4][Height]uint16 // per class: xa mask per ya
	for o := 0; o < 4; o++ {
		s := &sh[o]
		for Y := spawnY; Y < nRows; Y++ {
			m := f.reach[o][Y] &^ f.fit[o][Y+1]
			if m == 0 {
				continue
			}
			ya := Y - yBias + s.yMin
			locks[s.class][ya] |= m >> (xBias - s.xMin)
		}
	}
	for o := 0; o < 4; o++ {
		s := &sh[o]
		if s.class != o {
			continue
		}
		for ya := 0; ya < Height; ya++ {
			for m := locks[o][ya]; m != 0; m &= m - 1 {
				xa := trailingZeros16(m)
				fu := Future{Well: *w, O: int8(o), X: int8(xa - s.xMin), Y: int8(ya - s.yMin)}
				fu.Lines = int8(fu.Well.place(s, xa, ya))
				dst = append(dst, fu)
			}
		}
	}
	return dst
}
