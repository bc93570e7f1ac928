// Package ai plays the seigot/tetris contest game: a beam search over the
// current piece, the five previews and hold, on a bit-row copy of the board,
// with a tetris-oriented evaluation (edge well, no new holes, danger modes)
// and exact scoring near the 180-piece cap.
//
// This file holds the search's board (one uint16 per row) and placement
// generation that follows the game's own move rules: rotate in place at the
// spawn point, shift along row 1, hard drop, all without kicks.
package ai

import (
	"math/bits"

	"github.com/yomi-ai/yomi/seigot"
)

const (
	width   = seigot.Width
	height  = seigot.Height
	fullRow = 1<<width - 1
)

// field is a board as bit rows: bit x of rows[y] is cell (x, y).
type field struct {
	rows [height]uint16
}

func fieldOf(b *seigot.Board) field {
	var f field
	for y := range height {
		var r uint16
		for x := range width {
			if b[x+y*width] != 0 {
				r |= 1 << x
			}
		}
		f.rows[y] = r
	}
	return f
}

// pieceShape is one (shape, direction) as row masks relative to the reference point.
type pieceShape struct {
	minX, maxX, minY int
	n                int       // rows spanned
	mask             [4]uint16 // row minY+i, bit (cellX - minX)
	lo, hi           int       // valid reference x
}

var shapes = func() (t [8][4]pieceShape) {
	for s := 1; s < 8; s++ {
		for d := range 4 {
			offs := seigot.Offsets(s, d)
			p := pieceShape{minY: 99}
			for _, o := range offs {
				p.minX = min(p.minX, o.X)
				p.maxX = max(p.maxX, o.X)
				p.minY = min(p.minY, o.Y)
			}
			maxY := -99
			for _, o := range offs {
				p.mask[o.Y-p.minY] |= 1 << (o.X - p.minX)
				maxY = max(maxY, o.Y)
			}
			p.n = maxY - p.minY + 1
			p.lo, p.hi = seigot.XRange(s, d)
			t[s][d] = p
		}
	}
	return t
}()

// collides reports whether piece p with reference (x, y) overlaps or leaves the field.
func (f *field) collides(p *pieceShape, x, y int) bool {
	sx := x + p.minX
	if sx < 0 || x+p.maxX >= width {
		return true
	}
	top := y + p.minY
	if top < 0 || top+p.n > height {
		return true
	}
	for i := range p.n {
		if f.rows[top+i]&(p.mask[i]<<sx) != 0 {
			return true
		}
	}
	return false
}

// reachable reports whether rotate-at-spawn then shift-along-row-1 reaches
// (d, x) for shape s from (5, 1, direction 0), as the game applies a nextMove.
func (f *field) reachable(s, d, x int) bool {
	if f.collides(&shapes[s][0], 5, 1) {
		return false
	}
	for k := 1; k <= d; k++ {
		if f.collides(&shapes[s][k], 5, 1) {
			return false
		}
	}
	p := &shapes[s][d]
	step := 1
	if x < 5 {
		step = -1
	}
	for cx := 5; cx != x; {
		cx += step
		if f.collides(p, cx, 1) {
			return false
		}
	}
	return true
}

// drop hard-drops shape s direction d at x from row 1, locks it and clears
// lines. It returns the rows fallen and lines cleared.
func (f *field) drop(s, d, x int) (fallen, lines int) {
	p := &shapes[s][d]
	y := 1
	for !f.collides(p, x, y+1) {
		y++
	}
	fallen = y - 1
	sx := x + p.minX
	top := y + p.minY
	for i := range p.n {
		f.rows[top+i] |= p.mask[i] << sx
	}
	// Any full row clears, including garbage rows that came out full.
	full := false
	for _, r := range f.rows {
		if r == fullRow {
			full = true
			break
		}
	}
	if full {
		w := height - 1
		for r := height - 1; r >= 0; r-- {
			if f.rows[r] == fullRow {
				lines++
				continue
			}
			f.rows[w] = f.rows[r]
			w--
		}
		for ; w >= 0; w-- {
			f.rows[w] = 0
		}
	}
	return fallen, lines
}

// spawnOK reports whether a piece of shape s can appear at (5, 1).
func (f *field) spawnOK(s int) bool { return !f.collides(&shapes[s][0], 5, 1) }

// spawnFails counts the shapes (of the seven) that could not appear at (5, 1).
func (f *field) spawnFails() int {
	n := 0
	for s := 1; s <= 7; s++ {
		if !f.spawnOK(s) {
			n++
		}
	}
	return n
}

// cover counts, over the columns, the filled cells above each column's
// highest hole (an empty cell under the column's top).
func (f *field) cover() int {
	n := 0
	var above, counted uint16 // columns with a filled cell seen; columns whose highest hole was found
	var cells [width]int      // filled cells seen so far per column
	for y := range height {
		r := f.rows[y]
		holes := above &^ r &^ counted
		for h := holes; h != 0; h &= h - 1 {
			n += cells[bits.TrailingZeros16(h)]
		}
		counted |= holes
		for m := r; m != 0; m &= m - 1 {
			cells[bits.TrailingZeros16(m)]++
		}
		above |= r
	}
	return n
}

func (f *field) empty() bool { return f.rows == [height]uint16{} }

// features are the board measures the evaluation weighs.
type features struct {
	heights    [width]int
	maxH       int
	holes      int // empty cells under a column top
	holeRows   int // rows with at least one hole
	bump       int // sum of |h[c]-h[c+1]| over columns away from the well
	deepWells  int // sum of (depth-2) over non-well columns deeper than 2
	wellFilled int // filled cells in the well column above the lowest hole-free row
	ready      int // bottom rows full except the well cell (0..)
	minOther   int // lowest non-well column
}

func (f *field) features(well int) features {
	var ft features
	var seen uint16
	for y := range height {
		r := f.rows[y]
		newTop := r &^ seen
		for newTop != 0 {
			c := bits.TrailingZeros16(newTop)
			newTop &= newTop - 1
			ft.heights[c] = height - y
		}
		h := seen &^ r
		if h != 0 {
			ft.holes += bits.OnesCount16(h)
			ft.holeRows++
		}
		seen |= r
	}
	for c := range width {
		ft.maxH = max(ft.maxH, ft.heights[c])
	}
	ft.minOther = 99
	for c := range width {
		if c != well {
			ft.minOther = min(ft.minOther, ft.heights[c])
		}
	}
	// Bumpiness and deep wells away from the well column.
	for c := 0; c+1 < width; c++ {
		if c == well || c+1 == well {
			continue
		}
		d := ft.heights[c] - ft.heights[c+1]
		if d < 0 {
			d = -d
		}
		ft.bump += d
	}
	for c := range width {
		if c == well {
			continue
		}
		l, r := 99, 99
		if c > 0 && c-1 != well {
			l = ft.heights[c-1]
		}
		if c < width-1 && c+1 != well {
			r = ft.heights[c+1]
		}
		if d := min(l, r) - ft.heights[c]; d > 2 && d < 90 {
			ft.deepWells += d - 2
		}
	}
	// Rows ready for a tetris: from the bottom of the open well upward,
	// rows full except the well cell (an I dropped down the well lands there).
	wellBit := uint16(1) << well
	for y := height - 1 - ft.heights[well]; y >= 0; y-- {
		if f.rows[y] != fullRow&^wellBit {
			break
		}
		ft.ready++
	}
	ft.wellFilled = ft.heights[well]
	return ft
}
