// This file holds the SRS placement generator used by the finder: a
// breadth-first search over (x, y, rotation) with shifts, SRS rotations and
// soft drop, inside the clear area plus open air above it.

package pc

// baseCells are the North cells of each piece, in Piece order (spec §2).
var baseCells = [7][4][2]int{
	T: {{-1, 0}, {0, 0}, {1, 0}, {0, 1}},
	I: {{-1, 0}, {0, 0}, {1, 0}, {2, 0}},
	L: {{-1, 0}, {0, 0}, {1, 0}, {1, 1}},
	J: {{-1, 0}, {0, 0}, {1, 0}, {-1, 1}},
	S: {{-1, 0}, {0, 0}, {0, 1}, {1, 1}},
	Z: {{-1, 1}, {0, 1}, {0, 0}, {1, 0}},
	O: {{0, 0}, {1, 0}, {0, 1}, {1, 1}},
}

// SRS offset data (spec §4.1): test k for a->b is offset[a][k] - offset[b][k].
var (
	offJLSTZ = [4][5][2]int{
		{{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}},
		{{0, 0}, {1, 0}, {1, -1}, {0, 2}, {1, 2}},
		{{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}},
		{{0, 0}, {-1, 0}, {-1, -1}, {0, 2}, {-1, 2}},
	}
	offI = [4][5][2]int{
		{{0, 0}, {-1, 0}, {2, 0}, {-1, 0}, {2, 0}},
		{{-1, 0}, {0, 0}, {0, 0}, {0, 1}, {0, -2}},
		{{-1, 1}, {1, 1}, {-2, 1}, {1, 0}, {-2, 0}},
		{{0, 1}, {0, 1}, {0, 1}, {0, -1}, {0, 2}},
	}
	offO = [4][2]int{{0, 0}, {0, -1}, {-1, -1}, {-1, 0}}
)

// cellsOf returns the cells of piece p in rotation r (0 N, 1 E, 2 S, 3 W).
func cellsOf(p Piece, r int) [4][2]int {
	c := baseCells[p]
	for k := 0; k < r; k++ {
		for i := range c {
			c[i] = [2]int{c[i][1], -c[i][0]}
		}
	}
	return c
}

// kicks returns the kick tests for piece p rotating from a to b.
func kicks(p Piece, a, b int) [][2]int {
	switch p {
	case O:
		return [][2]int{{offO[a][0] - offO[b][0], offO[a][1] - offO[b][1]}}
	case I:
		var t [][2]int
		for k := 0; k < 5; k++ {
			t = append(t, [2]int{offI[a][k][0] - offI[b][k][0], offI[a][k][1] - offI[b][k][1]})
		}
		return t
	default:
		var t [][2]int
		for k := 0; k < 5; k++ {
			t = append(t, [2]int{offJLSTZ[a][k][0] - offJLSTZ[b][k][0], offJLSTZ[a][k][1] - offJLSTZ[b][k][1]})
		}
		return t
	}
}

// Grid of origins searched: x in [gx0, gx0+gw), y in [gy0, gy0+gh).
const (
	gx0      = -3
	gw       = 16
	gy0      = -3
	gh       = MaxHeight + headroom + 6
	headroom = 4 // free rows above the clear area in which pieces may move (room for a vertical I)
)

type reacher struct {
	cells [7][4][4][2]int
	kick  [7][4][2][][2]int // [piece][from][0 cw,1 ccw]
	seen  [gw * gh * 4]uint32
	stamp uint32
	queue []int32
}

func newReacher() *reacher {
	r := &reacher{}
	for p := Piece(0); p < 7; p++ {
		for a := 0; a < 4; a++ {
			r.cells[p][a] = cellsOf(p, a)
			r.kick[p][a][0] = kicks(p, a, (a+1)&3)
			r.kick[p][a][1] = kicks(p, a, (a+3)&3)
		}
	}
	return r
}

// mask returns the cell mask of p at (x, y, rot) in field f of height h, and
// whether it fits: inside the walls, above the floor, below h+headroom, and
// not overlapping filled cells (rows >= h are empty).
func (r *reacher) mask(f Field, h int, p Piece, x, y, rot int) (uint64, bool) {
	var m uint64
	top := h + headroom
	for _, c := range r.cells[p][rot] {
		cx, cy := x+c[0], y+c[1]
		if cx < 0 || cx > 9 || cy < 0 || cy >= top {
			return 0, false
		}
		if cy < h {
			b := uint64(1) << (10*cy + cx)
			if uint64(f)&b != 0 {
				return 0, false
			}
			m |= b
		} else {
			m |= 1 << 63 // marks a cell above the area
		}
	}
	return m, true
}

// placements appends to out the distinct fields (before line clears) that
// result from locking p anywhere it can rest inside the area.
func (r *reacher) placements(f Field, h int, p Piece, out []Field) []Field {
	r.stamp++
	if r.stamp == 0 {
		r.seen = [len(r.seen)]uint32{}
		r.stamp = 1
	}
	r.queue = r.queue[:0]
	idx := func(x, y, rot int) int32 { return int32(((y-gy0)*gw+(x-gx0))*4 + rot) }
	// Seed with every position fully above the area: in open air they are all
	// mutually reachable.
	for rot := 0; rot < 4; rot++ {
		for y := h; y-gy0 < gh; y++ {
			for x := gx0; x < gx0+gw; x++ {
				m, ok := r.mask(f, h, p, x, y, rot)
				if !ok || m&((1<<60)-1) != 0 {
					continue
				}
				i := idx(x, y, rot)
				if r.seen[i] != r.stamp {
					r.seen[i] = r.stamp
					r.queue = append(r.queue, i)
				}
			}
		}
	}
	start := len(out)
	for qi := 0; qi < len(r.queue); qi++ {
		s := int(r.queue[qi])
		rot := s & 3
		cell := s >> 2
		x := cell%gw + gx0
		y := cell/gw + gy0
		try := func(nx, ny, nrot int) bool {
			if nx < gx0 || nx >= gx0+gw || ny < gy0 || ny-gy0 >= gh {
				return false
			}
			if _, ok := r.mask(f, h, p, nx, ny, nrot); !ok {
				return false
			}
			i := idx(nx, ny, nrot)
			if r.seen[i] != r.stamp {
				r.seen[i] = r.stamp
				r.queue = append(r.queue, i)
			}
			return true
		}
		try(x-1, y, rot)
		try(x+1, y, rot)
		if !try(x, y-1, rot) {
			// Resting: a placement if entirely inside the area.
			if m, _ := r.mask(f, h, p, x, y, rot); m>>63 == 0 {
				nf := f | Field(m)
				dup := false
				for _, g := range out[start:] {
					if g == nf {
						dup = true
						break
					}
				}
				if !dup {
					out = append(out, nf)
				}
			}
		}
		for d := 0; d < 2; d++ {
			nrot := (rot + 1) & 3
			if d == 1 {
				nrot = (rot + 3) & 3
			}
			for _, k := range r.kick[p][rot][d] {
				if _, ok := r.mask(f, h, p, x+k[0], y+k[1], nrot); ok {
					try(x+k[0], y+k[1], nrot)
					break
				}
			}
		}
	}
	return out
}

// clearLines removes full rows from the lowest h rows of f.
func clearLines(f Field, h int) (Field, int) {
	var g Field
	n := 0
	for y := 0; y < h; y++ {
		row := f.Row(y)
		if row == fullRow {
			continue
		}
		g |= Field(row) << (10 * n)
		n++
	}
	return g, n
}
