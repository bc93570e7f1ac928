// This file holds the bit-parallel placement generator the finder uses: the
// same moves as reach.go (shifts, SRS rotations with kicks, soft drop,
// inside the clear area plus headroom), computed on 128-bit boards of piece
// positions, one per orientation, until nothing new is reached. reach.go's
// breadth-first search stays as the slow reference it is tested against.

package pc

import (
	"math/bits"
	"sync"
)

// fastTabs returns the generator tables, built once (read-only afterwards).
var fastTabs = sync.OnceValue(newFastTables)

// b128 is a set of piece positions (or cells): bit 10*y+x, up to 12 rows.
type b128 struct{ lo, hi uint64 }

func (a b128) or(b b128) b128     { return b128{a.lo | b.lo, a.hi | b.hi} }
func (a b128) and(b b128) b128    { return b128{a.lo & b.lo, a.hi & b.hi} }
func (a b128) andNot(b b128) b128 { return b128{a.lo &^ b.lo, a.hi &^ b.hi} }
func (a b128) zero() bool         { return a.lo|a.hi == 0 }

// shl moves every bit s places up (0 <= s < 64).
func (a b128) shl(s uint) b128 { return b128{a.lo << s, a.hi<<s | a.lo>>(64-s)} }

// shr moves every bit s places down (0 <= s < 64).
func (a b128) shr(s uint) b128 { return b128{a.lo>>s | a.hi<<(64-s), a.hi >> s} }

// by moves every bit by d (|d| < 64; positive: up).
func (a b128) by(d int) b128 {
	if d >= 0 {
		return a.shl(uint(d))
	}
	return a.shr(uint(-d))
}

// shift moves every bit by s (positive: towards higher bits).
func (a b128) shift(s int) b128 {
	switch {
	case s == 0:
		return a
	case s >= 64:
		return b128{0, a.lo << uint(s-64)}
	case s > 0:
		return b128{a.lo << uint(s), a.hi<<uint(s) | a.lo>>uint(64-s)}
	case s <= -64:
		return b128{a.hi >> uint(-s-64), 0}
	default:
		s = -s
		return b128{a.lo>>uint(s) | a.hi<<uint(64-s), a.hi >> uint(s)}
	}
}

// shape is one orientation of a piece in bounding-box coordinates: its
// cells relative to the box's bottom-left corner (the anchor).
type shape struct {
	cells      [4]int // 10*dy+dx of each cell
	w, ht      int    // box width and height
	minX, minY int    // offset from the SRS origin to the anchor
	mask       uint64 // cells as a Field at anchor (0, 0)
	cols       b128   // anchors whose box lies inside the walls
}

// rotMove is one kick test of one rotation, in anchor coordinates.
type rotMove struct {
	to    int  // target orientation
	d     int  // bit shift from source anchor to target anchor
	cols  b128 // source anchors whose target stays inside the walls
	first bool // first test of its rotation (resets the remaining set)
}

// fastTables holds the per-piece shapes and rotation moves.
type fastTables struct {
	shapes [7][4]shape
	moves  [7][]rotMove // in test order, grouped by (from, direction)
	from   [7][]int     // source orientation of each move
	same   [7][4]int    // lowest orientation with the same cell shape
	colL   b128         // anchors not in column 0
	colR   b128         // anchors not in column 9
	low    [13]b128     // low[n]: rows 0..n-1
}

// rows returns t.low[n] with n clamped to 0..12.
func (t *fastTables) rows(n int) b128 { return t.low[max(0, min(n, 12))] }

// columns returns the positions of rows 0..11 whose column is in [x0, x1].
func columns(x0, x1 int) b128 {
	var b b128
	for y := 0; y < 12; y++ {
		for x := max(x0, 0); x <= min(x1, 9); x++ {
			i := 10*y + x
			if i < 64 {
				b.lo |= 1 << uint(i)
			} else {
				b.hi |= 1 << uint(i-64)
			}
		}
	}
	return b
}

func newFastTables() *fastTables {
	t := &fastTables{colL: columns(1, 9), colR: columns(0, 8)}
	for n := range t.low {
		t.low[n] = lowRows(n)
	}
	for p := Piece(0); p < 7; p++ {
		for r := 0; r < 4; r++ {
			c := cellsOf(p, r)
			mx, my, Mx, My := 9, 9, -9, -9
			for _, q := range c {
				mx, my = min(mx, q[0]), min(my, q[1])
				Mx, My = max(Mx, q[0]), max(My, q[1])
			}
			s := shape{w: Mx - mx + 1, ht: My - my + 1, minX: mx, minY: my}
			s.cols = columns(0, 10-s.w)
			for i, q := range c {
				s.cells[i] = 10*(q[1]-my) + q[0] - mx
				s.mask |= 1 << uint(s.cells[i])
			}
			t.shapes[p][r] = s
		}
		for r := 0; r < 4; r++ {
			t.same[p][r] = r
			for q := 0; q < r; q++ {
				if t.shapes[p][q].mask == t.shapes[p][r].mask {
					t.same[p][r] = q
					break
				}
			}
		}
		for a := 0; a < 4; a++ {
			for d := 0; d < 2; d++ {
				b := (a + 1) & 3
				if d == 1 {
					b = (a + 3) & 3
				}
				ks := kicks(p, a, b)
				sa, sb := t.shapes[p][a], t.shapes[p][b]
				for i, k := range ks {
					dx := k[0] + sb.minX - sa.minX
					dy := k[1] + sb.minY - sa.minY
					// source anchor columns ax with 0 <= ax+dx <= 10-w_b
					cols := columns(-dx, 10-sb.w-dx).and(columns(0, 10-sa.w))
					t.moves[p] = append(t.moves[p], rotMove{to: b, d: 10*dy + dx, cols: cols, first: i == 0})
					t.from[p] = append(t.from[p], a)
				}
			}
		}
	}
	return t
}

// fastPlacements appends to out the distinct fields (before line clears)
// that result from locking p anywhere it can rest inside the lowest h rows
// of f (the same set as reacher.placements).
func (t *fastTables) placements(f Field, h int, p Piece, out []Field) []Field {
	top := h + headroom
	all := t.rows(top)
	free := all.andNot(b128{lo: uint64(f)})
	var fits, reach [4]b128
	for r := 0; r < 4; r++ {
		s := &t.shapes[p][r]
		v := s.cols.and(t.rows(top - s.ht + 1))
		for _, c := range s.cells {
			v = v.and(free.shr(uint(c)))
		}
		fits[r] = v
		// seeds: every position with all cells at or above row h
		reach[r] = v.andNot(t.rows(h))
	}
	// Without overhangs (no empty cell under a filled one) every position
	// that fits can rise straight into the open air: all are reachable.
	overhang := uint64(f)>>10&^uint64(f)&(1<<(10*(h-1))-1) != 0
	if !overhang {
		reach = fits
	}
	// Flood with shifts and soft drop, then rotate the positions not rotated
	// before, until a pass adds nothing.
	var done, flooded [4]b128
	for changed := overhang; changed; {
		changed = false
		for r := 0; r < 4; r++ {
			x := reach[r]
			if x == flooded[r] {
				continue
			}
			for {
				n := x.or(x.and(t.colL).shr(1).and(fits[r])).
					or(x.and(t.colR).shl(1).and(fits[r])).
					or(x.shr(10).and(fits[r]))
				if n == x {
					break
				}
				x = n
			}
			reach[r], flooded[r] = x, x
		}
		snap := reach
		var rem b128
		ms := t.moves[p]
		for i := 0; i < len(ms); i++ {
			m := &ms[i]
			if m.first {
				a := t.from[p][i]
				rem = snap[a].andNot(done[a])
			}
			if rem.zero() {
				continue
			}
			src := rem.and(m.cols)
			hit := src.by(m.d).and(fits[m.to])
			if !hit.andNot(reach[m.to]).zero() {
				reach[m.to] = reach[m.to].or(hit)
				changed = true
			}
			rem = rem.andNot(src.and(fits[m.to].by(-m.d)))
		}
		done = snap
	}
	// Resting positions entirely inside the area, merged by cell shape.
	var rest [4]b128
	for r := 0; r < 4; r++ {
		s := &t.shapes[p][r]
		inside := t.rows(h - s.ht + 1)
		x := reach[r].andNot(fits[r].shl(10)).and(inside)
		q := t.same[p][r]
		rest[q] = rest[q].or(x)
	}
	for r := 0; r < 4; r++ {
		if t.same[p][r] != r {
			continue
		}
		m := t.shapes[p][r].mask
		for x := rest[r].lo; x != 0; x &= x - 1 {
			out = append(out, f|Field(m<<uint(bits.TrailingZeros64(x))))
		}
		for x := rest[r].hi; x != 0; x &= x - 1 {
			out = append(out, f|Field(m<<uint(64+bits.TrailingZeros64(x))))
		}
	}
	return out
}

// lowRows returns the positions of rows 0..n-1 (none if n <= 0).
func lowRows(n int) b128 {
	if n <= 0 {
		return b128{}
	}
	return b128{^uint64(0), ^uint64(0)}.andNot(b128{^uint64(0), ^uint64(0)}.shift(10 * n))
}
