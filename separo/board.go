// Package separo implements the rules of SEPARO as separo-rs plays them: the
// board of roots and stones (board.go), scoring over the graph of four
// triangles per cell (score.go), incremental scores along a game
// (tracker.go), move notation (notation.go) and fast random playouts
// (playout.go).
//
// Start with New, Board.Moves, Board.Apply and Board.Score; ../shared/specs/separo.md
// describes the rules this package follows.
package separo

import (
	"errors"
	"fmt"
	"math/bits"
)

// Color is a side: Red (moves first) or Blue.
type Color uint8

// The two sides.
const (
	Red  Color = 0
	Blue Color = 1
)

// Opponent returns the other side.
func (c Color) Opponent() Color { return c ^ 1 }

// String returns "Red" or "Blue".
func (c Color) String() string {
	if c == Red {
		return "Red"
	}
	return "Blue"
}

// Board size limits; the original UI offers 5..19, its graph accepts 4..19.
const (
	MinSize     = 4
	MaxSize     = 19
	DefaultSize = 9
	maxPoints   = MaxSize * MaxSize
	maxCells    = (MaxSize - 1) * (MaxSize - 1)
	optWords    = (maxPoints*4 + 63) / 64
)

// Point is an intersection: x to the right, y downwards, origin top-left.
type Point struct{ X, Y int8 }

// Move draws a diagonal root S1→S2 and an orthogonal root S2→S3.
type Move struct{ S1, S2, S3 Point }

// The eight root directions, indexed 0..7.
var dirs = [8][2]int8{{1, 1}, {-1, 1}, {-1, -1}, {1, -1}, {1, 0}, {0, 1}, {-1, 0}, {0, -1}}

// dirIndex maps (dx+1)*3+(dy+1) to a direction index (-1 for (0,0)).
var dirIndex = [9]int8{2, 6, 1, 7, -1, 5, 3, 4, 0}

func dirOf(dx, dy int8) int {
	if dx < -1 || dx > 1 || dy < -1 || dy > 1 {
		return -1
	}
	return int(dirIndex[(dx+1)*3+dy+1])
}

// conflict[d] is the set of existing root directions that forbid a new root
// in direction d at the same stone: |d.x-r.x| + |d.y-r.y| <= 1, the check of
// separo-rs's Grid::is_valid_root (the same direction or 45° away).
var conflict [8]uint8

// opposite[d] is the index of -d.
var opposite [8]uint8

func init() {
	for d, dv := range dirs {
		for r, rv := range dirs {
			if abs8(dv[0]-rv[0])+abs8(dv[1]-rv[1]) <= 1 {
				conflict[d] |= 1 << r
			}
			if rv[0] == -dv[0] && rv[1] == -dv[1] {
				opposite[d] = uint8(r)
			}
		}
	}
}

func abs8(x int8) int8 {
	if x < 0 {
		return -x
	}
	return x
}

// Board is a SEPARO position: stones, roots and both scoring graphs. It is a
// value type; copying it copies the position. The zero Board is not valid:
// use New.
type Board struct {
	w     int8
	geo   *geometry
	color [maxPoints]uint8 // 0 empty, 1 Red, 2 Blue
	roots [maxPoints]uint8 // bit d set: a root leaves in direction d
	// opts[c] has bit 4·i+d1 set while c's stone at i may still start a
	// move along diagonal d1 (0..3). Every block in SEPARO is permanent
	// (occupied points, roots, the edge), so a bit once cleared stays clear.
	opts [2][optWords]uint64
	// cut[c][cell] holds the edges of c's scoring graph removed in a cell
	// (see score.go for the bit layout).
	cut   [2][maxCells]uint8
	plies int16
}

// New returns the start position on a width×width board (width lines).
func New(width int) (Board, error) {
	if width < MinSize || width > MaxSize {
		return Board{}, fmt.Errorf("separo: board size %d out of range %d..%d", width, MinSize, MaxSize)
	}
	var b Board
	b.w = int8(width)
	b.geo = geometries[width]
	u := int8(width - 1)
	b.put(Point{0, 0}, Red)
	b.put(Point{u, u}, Red)
	b.put(Point{u, 0}, Blue)
	b.put(Point{0, u}, Blue)
	return b, nil
}

// MustNew is New for sizes known to be valid; it panics otherwise.
func MustNew(width int) Board {
	b, err := New(width)
	if err != nil {
		panic(err)
	}
	return b
}

func (b *Board) put(p Point, c Color) {
	i := b.index(p)
	b.color[i] = uint8(c) + 1
	b.refreshOpts(c, i, true)
}

// Size returns the number of lines.
func (b *Board) Size() int { return int(b.w) }

// Plies returns the number of moves applied since the start.
func (b *Board) Plies() int { return int(b.plies) }

func (b *Board) index(p Point) int { return int(p.X)*int(b.w) + int(p.Y) }

func (b *Board) onBoard(p Point) bool {
	return p.X >= 0 && p.Y >= 0 && p.X < b.w && p.Y < b.w
}

// At returns the stone at p: its colour and whether there is one.
func (b *Board) At(p Point) (Color, bool) {
	if !b.onBoard(p) {
		return 0, false
	}
	v := b.color[b.index(p)]
	return Color(v - 1), v != 0
}

// Roots returns the directions of the roots leaving p (in the fixed order
// (1,1), (-1,1), (-1,-1), (1,-1), (1,0), (0,1), (-1,0), (0,-1)).
func (b *Board) Roots(p Point) []Point {
	if !b.onBoard(p) {
		return nil
	}
	m := b.roots[b.index(p)]
	var out []Point
	for d := range 8 {
		if m&(1<<d) != 0 {
			out = append(out, Point{dirs[d][0], dirs[d][1]})
		}
	}
	return out
}

// Equal reports whether two boards have the same size, stones and roots.
func (b *Board) Equal(o *Board) bool {
	if b.w != o.w {
		return false
	}
	n := int(b.w) * int(b.w)
	return equalBytes(b.color[:n], o.color[:n]) && equalBytes(b.roots[:n], o.roots[:n])
}

func equalBytes(a, b []uint8) bool { return string(a) == string(b) }

// geometry holds a board size's neighbour table: nb[i*8+d] is the point
// next to i in direction d, or -1 off the board; pt[i] is i's coordinates.
type geometry struct {
	nb [maxPoints * 8]int16
	pt [maxPoints]Point
}

// geometries[w] is the table of size w, built once at start-up and never
// changed afterwards.
var geometries [MaxSize + 1]*geometry

func init() {
	for w := MinSize; w <= MaxSize; w++ {
		g := new(geometry)
		for x := range w {
			for y := range w {
				i := x*w + y
				g.pt[i] = Point{int8(x), int8(y)}
				for d, dv := range dirs {
					x2, y2 := x+int(dv[0]), y+int(dv[1])
					g.nb[i*8+d] = -1
					if x2 >= 0 && y2 >= 0 && x2 < w && y2 < w {
						g.nb[i*8+d] = int16(x2*w + y2)
					}
				}
			}
		}
		geometries[w] = g
	}
}

// ortho[d1] lists the two orthogonal continuations of diagonal d1:
// (d1.x, 0) first, then (0, d1.y).
var ortho = [4][2]int{{4, 5}, {6, 5}, {6, 7}, {4, 7}}

// Moves appends c's legal moves to buf in separo-rs's enumeration order and
// returns it. It also forgets options that can never be played again (a
// cache; the position is unchanged).
func (b *Board) Moves(c Color, buf []Move) []Move {
	var tmp [64]uint32
	codes := b.genCodes(c, tmp[:0])
	buf = buf[:0]
	for _, code := range codes {
		buf = append(buf, b.codeMove(code))
	}
	return buf
}

// CanMove reports whether c has a legal move.
func (b *Board) CanMove(c Color) bool {
	own := uint8(c) + 1
	g := b.geo
	for wi := range optWords {
		word := b.opts[c][wi]
		for word != 0 {
			bit := word & -word
			k := wi<<6 + bits.TrailingZeros64(word)
			word ^= bit
			i, d1 := k>>2, k&3
			i2 := g.nb[i*8+d1]
			if i2 >= 0 && b.color[i2] == 0 {
				for _, d2 := range ortho[d1] {
					i3 := g.nb[int(i2)*8+d2]
					if i3 < 0 {
						continue
					}
					if s := b.color[i3]; s != 0 && s != own {
						continue
					}
					if b.roots[i3]&conflict[opposite[d2]] == 0 {
						return true
					}
				}
			}
			b.opts[c][wi] &^= bit
		}
	}
	return false
}

// GameOver reports whether neither side can move.
func (b *Board) GameOver() bool { return !b.CanMove(Red) && !b.CanMove(Blue) }

// ErrIllegal is wrapped by the error Play returns for a move that is not legal.
var ErrIllegal = errors.New("illegal move")

// Legal reports whether m is one of c's legal moves.
func (b *Board) Legal(c Color, m Move) bool {
	if !b.onBoard(m.S1) || !b.onBoard(m.S2) || !b.onBoard(m.S3) {
		return false
	}
	var tmp [64]Move
	for _, x := range b.Moves(c, tmp[:0]) {
		if x == m {
			return true
		}
	}
	return false
}

// Play applies m for c if it is legal and returns an error otherwise.
func (b *Board) Play(c Color, m Move) error {
	if !b.Legal(c, m) {
		return fmt.Errorf("separo: %v %v: %w", c, m, ErrIllegal)
	}
	b.Apply(c, m)
	return nil
}

// Apply plays m for c without checking legality; m must come from Moves.
func (b *Board) Apply(c Color, m Move) {
	w := int(b.w)
	i1 := int(m.S1.X)*w + int(m.S1.Y)
	i2 := int(m.S2.X)*w + int(m.S2.Y)
	i3 := int(m.S3.X)*w + int(m.S3.Y)
	d1 := dirOf(m.S2.X-m.S1.X, m.S2.Y-m.S1.Y)
	d2 := dirOf(m.S3.X-m.S2.X, m.S3.Y-m.S2.Y)
	b.place(c, i1, i2, i3, d1, d2)
	b.cutMove(c, m)
	b.plies++
}

// place colours s2 and s3, adds the four root ends and updates c's options
// at the three points.
func (b *Board) place(c Color, i1, i2, i3, d1, d2 int) {
	own := uint8(c) + 1
	b.color[i2] = own
	fresh3 := b.color[i3] == 0
	b.color[i3] = own
	b.roots[i1] |= 1 << d1
	b.roots[i2] |= 1<<opposite[d1] | 1<<d2
	b.roots[i3] |= 1 << opposite[d2]
	b.refreshOpts(c, i1, false)
	b.refreshOpts(c, i2, true)
	b.refreshOpts(c, i3, fresh3)
}

// diagBlocked[r] is the set of diagonals 0..3 that roots r forbid.
var diagBlocked [256]uint8

func init() {
	for r := range 256 {
		for d := range 4 {
			if uint8(r)&conflict[d] != 0 {
				diagBlocked[r] |= 1 << d
			}
		}
	}
}

// refreshOpts recomputes c's four option bits at point i: a new stone
// starts with all four, and the 45° rule removes those its roots forbid.
func (b *Board) refreshOpts(c Color, i int, fresh bool) {
	w, sh := i>>4, uint(i&15)*4
	cur := uint8(b.opts[c][w]>>sh) & 15
	if fresh {
		cur = 15
	}
	cur &^= diagBlocked[b.roots[i]]
	b.opts[c][w] = b.opts[c][w]&^(15<<sh) | uint64(cur)<<sh
}

// Next returns who moves after mover has moved: the opponent if he can,
// else mover again if he can; ok is false when the game is over.
func (b *Board) Next(mover Color) (next Color, ok bool) {
	if b.CanMove(mover.Opponent()) {
		return mover.Opponent(), true
	}
	if b.CanMove(mover) {
		return mover, true
	}
	return 0, false
}

// Result is a finished game's outcome.
type Result int8

// Outcomes of a game.
const (
	Draw    Result = 0
	RedWin  Result = 1
	BlueWin Result = 2
)

// String returns "red", "blue" or "draw".
func (r Result) String() string {
	switch r {
	case RedWin:
		return "red"
	case BlueWin:
		return "blue"
	}
	return "draw"
}

// Winner compares the scores: RedWin, BlueWin or Draw (whether or not the
// game is over).
func (b *Board) Winner() Result {
	var buf Scratch
	r, bl := b.ScoreWith(Red, &buf), b.ScoreWith(Blue, &buf)
	switch {
	case r > bl:
		return RedWin
	case bl > r:
		return BlueWin
	}
	return Draw
}

// A move code packs a move for the playout loop: i1 | i2<<9 | i3<<18 |
// d1<<27 | d2<<29 (point indices, the diagonal 0..3, the orthogonal 4..7
// minus 4).
func moveCode(i1, i2, i3 int, d1, d2 int) uint32 {
	return uint32(i1) | uint32(i2)<<9 | uint32(i3)<<18 | uint32(d1)<<27 | uint32(d2-4)<<29
}

// genCodes appends c's legal moves as move codes, in enumeration order
// (point index, then diagonal, then (d1.x,0) before (0,d1.y)), clearing the
// options found dead.
func (b *Board) genCodes(c Color, buf []uint32) []uint32 {
	buf = buf[:0]
	own := uint8(c) + 1
	g := b.geo
	for wi := range optWords {
		word := b.opts[c][wi]
		for word != 0 {
			bit := word & -word
			k := wi<<6 + bits.TrailingZeros64(word)
			word ^= bit
			i, d1 := k>>2, k&3
			i2 := g.nb[i*8+d1]
			if i2 < 0 || b.color[i2] != 0 {
				b.opts[c][wi] &^= bit
				continue
			}
			n0 := len(buf)
			nb2 := g.nb[int(i2)*8 : int(i2)*8+8 : int(i2)*8+8]
			for _, d2 := range ortho[d1] {
				i3 := nb2[d2]
				if i3 < 0 {
					continue
				}
				if s := b.color[i3]; s != 0 && s != own {
					continue
				}
				if b.roots[i3]&conflict[opposite[d2]] != 0 {
					continue
				}
				buf = append(buf, moveCode(i, int(i2), int(i3), d1, d2))
			}
			if len(buf) == n0 {
				b.opts[c][wi] &^= bit
			}
		}
	}
	return buf
}

// applyCode is Apply for a move code.
func (b *Board) applyCode(c Color, code uint32) {
	i1 := int(code & 511)
	i2 := int(code >> 9 & 511)
	i3 := int(code >> 18 & 511)
	d1 := int(code >> 27 & 3)
	d2 := int(code>>29&3) + 4
	b.place(c, i1, i2, i3, d1, d2)
	pt := &b.geo.pt
	b.cutMove(c, Move{pt[i1], pt[i2], pt[i3]})
	b.plies++
}

// codeMove converts a move code to a Move.
func (b *Board) codeMove(code uint32) Move {
	pt := &b.geo.pt
	return Move{pt[code&511], pt[code>>9&511], pt[code>>18&511]}
}

// codeKey is MoveKey for a move code.
func codeKey(code uint32) int {
	k2 := 0
	if d2 := code>>29&3 + 4; d2 == 5 || d2 == 7 {
		k2 = 1
	}
	return (int(code&511)*4+int(code>>27&3))*2 + k2
}
