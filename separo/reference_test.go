// This file holds slow, obviously correct references for the tests: a board
// kept as a list of root segments, a legal-move generator that measures
// angles with atan2, and a geometric scorer that flood-fills a fine grid of
// sample points and measures region areas.

package separo

import (
	"math"
)

type refSeg struct {
	a, b Point
	c    Color
}

// refBoard is the reference position: stones and root segments.
type refBoard struct {
	w      int
	stones map[Point]Color
	segs   []refSeg
}

func newRef(w int) *refBoard {
	u := int8(w - 1)
	return &refBoard{w: w, stones: map[Point]Color{{0, 0}: Red, {u, u}: Red, {u, 0}: Blue, {0, u}: Blue}}
}

func (r *refBoard) on(p Point) bool {
	return p.X >= 0 && p.Y >= 0 && int(p.X) < r.w && int(p.Y) < r.w
}

// angleOK reports whether a new root from p in direction (dx,dy) makes more
// than 45° with every root already touching p.
func (r *refBoard) angleOK(p Point, dx, dy int8) bool {
	a := math.Atan2(float64(dy), float64(dx))
	for _, s := range r.segs {
		var o Point
		switch p {
		case s.a:
			o = s.b
		case s.b:
			o = s.a
		default:
			continue
		}
		e := math.Atan2(float64(o.Y-p.Y), float64(o.X-p.X))
		diff := math.Abs(a - e)
		if diff > math.Pi {
			diff = 2*math.Pi - diff
		}
		if diff < math.Pi/4+1e-9 {
			return false
		}
	}
	return true
}

func (r *refBoard) moves(c Color) []Move {
	var out []Move
	for x := int8(0); int(x) < r.w; x++ {
		for y := int8(0); int(y) < r.w; y++ {
			s1 := Point{x, y}
			if col, ok := r.stones[s1]; !ok || col != c {
				continue
			}
			for _, d := range [][2]int8{{1, 1}, {-1, 1}, {-1, -1}, {1, -1}} {
				s2 := Point{x + d[0], y + d[1]}
				if !r.on(s2) {
					continue
				}
				if _, occ := r.stones[s2]; occ {
					continue
				}
				if !r.angleOK(s1, d[0], d[1]) {
					continue
				}
				for _, e := range [][2]int8{{d[0], 0}, {0, d[1]}} {
					s3 := Point{s2.X + e[0], s2.Y + e[1]}
					if !r.on(s3) {
						continue
					}
					if col, occ := r.stones[s3]; occ && col != c {
						continue
					}
					if !r.angleOK(s3, -e[0], -e[1]) {
						continue
					}
					out = append(out, Move{s1, s2, s3})
				}
			}
		}
	}
	return out
}

func (r *refBoard) apply(c Color, m Move) {
	r.stones[m.S2] = c
	r.stones[m.S3] = c
	r.segs = append(r.segs, refSeg{m.S1, m.S2, c}, refSeg{m.S2, m.S3, c})
}

// score counts c's regions of area more than one unit cell: sample points
// at ((i+0.3)/S, (j+0.6)/S) never lie on a lattice line or diagonal; two
// neighbouring samples are joined unless the segment between them crosses
// one of c's roots. Each component's area is its sample count / S².
func (r *refBoard) score(c Color) int {
	const S = 16
	n := (r.w - 1) * S
	var segs []refSeg
	for _, s := range r.segs {
		if s.c == c {
			segs = append(segs, s)
		}
	}
	pos := func(i int, off float64) float64 { return (float64(i) + off) / S }
	blocked := func(x1, y1, x2, y2 float64) bool {
		for _, s := range segs {
			if segmentsCross(x1, y1, x2, y2, float64(s.a.X), float64(s.a.Y), float64(s.b.X), float64(s.b.Y)) {
				return true
			}
		}
		return false
	}
	label := make([]int, n*n)
	for i := range label {
		label[i] = -1
	}
	score := 0
	var stack []int
	for start := range label {
		if label[start] >= 0 {
			continue
		}
		label[start] = start
		stack = append(stack[:0], start)
		count := 0
		for len(stack) > 0 {
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			count++
			i, j := k/n, k%n
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				i2, j2 := i+d[0], j+d[1]
				if i2 < 0 || j2 < 0 || i2 >= n || j2 >= n || label[i2*n+j2] >= 0 {
					continue
				}
				if blocked(pos(i, 0.3), pos(j, 0.6), pos(i2, 0.3), pos(j2, 0.6)) {
					continue
				}
				label[i2*n+j2] = start
				stack = append(stack, i2*n+j2)
			}
		}
		// A triangle is S²/4 samples; more than four triangles is an area
		// above one cell. Areas are multiples of a quarter cell, so the
		// threshold sits half a triangle above one cell.
		if float64(count) > 1.125*S*S {
			score++
		}
	}
	return score
}

// segmentsCross reports whether segments p1p2 and q1q2 properly intersect.
func segmentsCross(x1, y1, x2, y2, x3, y3, x4, y4 float64) bool {
	cross := func(ax, ay, bx, by, cx, cy float64) float64 {
		return (bx-ax)*(cy-ay) - (by-ay)*(cx-ax)
	}
	d1 := cross(x3, y3, x4, y4, x1, y1)
	d2 := cross(x3, y3, x4, y4, x2, y2)
	d3 := cross(x1, y1, x2, y2, x3, y3)
	d4 := cross(x1, y1, x2, y2, x4, y4)
	return ((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0)) && d1 != 0 && d2 != 0 && d3 != 0 && d4 != 0
}
