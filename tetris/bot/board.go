// board.go maps the bot's rules vocabulary onto the shared engine (package
// tetris): pieces, orientations, spins, placement kinds and lock results
// are the engine's types under the bot's historical names, and Board is the
// engine's State (cells, combo, back-to-back). The helpers here lock and
// test placements with Cold Clear 1's rules (SRS without 180, CC spins,
// CC1 attack table).

package bot

import (
	"strings"

	"github.com/yomi-ai/yomi/tetris"
)

// Piece is a tetromino in Cold Clear's order I, O, T, L, J, S, Z.
type Piece = tetris.Piece

// The seven pieces, and NoPiece for an empty hold.
const (
	I       = tetris.I
	O       = tetris.O
	T       = tetris.T
	L       = tetris.L
	J       = tetris.J
	S       = tetris.S
	Z       = tetris.Z
	NoPiece = tetris.NoPiece
)

// ParsePiece parses a piece letter (upper or lower case).
func ParsePiece(s string) (Piece, error) { return tetris.ParsePiece(s) }

// Rot is an orientation: North (spawn), East, South, West.
type Rot = tetris.Rot

// The four orientations in clockwise order.
const (
	North = tetris.North
	East  = tetris.East
	South = tetris.South
	West  = tetris.West
)

// Spin is the T-spin status of a placement.
type Spin = tetris.Spin

// Spin statuses.
const (
	SpinNone = tetris.SpinNone
	SpinMini = tetris.SpinMini
	SpinFull = tetris.SpinFull
)

// Board is a 10×40 matrix plus combo and back-to-back: the engine's State.
type Board = tetris.State

// PlacementKind classifies a lock by lines and spin (spec §10).
type PlacementKind = tetris.Kind

// Placement kinds.
const (
	KindNone   = tetris.KindNone
	KindClear1 = tetris.KindClear1
	KindClear2 = tetris.KindClear2
	KindClear3 = tetris.KindClear3
	KindClear4 = tetris.KindClear4
	KindMini   = tetris.KindMini
	KindMini1  = tetris.KindMini1
	KindMini2  = tetris.KindMini2
	KindTspin  = tetris.KindTspin
	KindTspin1 = tetris.KindTspin1
	KindTspin2 = tetris.KindTspin2
	KindTspin3 = tetris.KindTspin3
)

// LockResult describes what a lock did.
type LockResult = tetris.LockResult

// comboGarbage is CC1's COMBO_GARBAGE table.
var comboGarbage = tetris.CC1Attack.Combo

const fullRow = tetris.FullRow

// lockMove writes piece p at (r,x,y) with the given spin onto b, clears lines
// and updates combo and back-to-back with CC1's attack table.
func lockMove(b *Board, p Piece, r Rot, x, y int, spin Spin) LockResult {
	return b.Lock(tetris.Placement{Piece: p, Rot: r, X: int8(x), Y: int8(y), Spin: spin}, &tetris.CC1Attack)
}

// lockMoveClean is lockMove for a board with no full row (every board a
// lock leaves): the same result, testing only the rows the piece covers.
func lockMoveClean(b *Board, p Piece, r Rot, x, y int, spin Spin) LockResult {
	return b.LockClean(tetris.Placement{Piece: p, Rot: r, X: int8(x), Y: int8(y), Spin: spin}, &tetris.CC1Attack)
}

// lockInto sets *dst to src with placement mv of piece p locked, as
// lockMoveClean does when clean (src has no full row) and lockMove
// otherwise, and returns the same result. When src is clean and the piece
// fills no row, which is most placements, it writes the piece's rows and
// fills in the result directly: no line cleared, the combo reset,
// back-to-back kept, a lock-out when the piece's lowest row is above the
// visible matrix.
func lockInto(dst, src *Board, p Piece, mv Move, clean bool) LockResult {
	*dst = *src
	if clean {
		sh := tetris.PieceShape(p, mv.Rot)
		lx, by := int(mv.X)+int(sh.MinX), int(mv.Y)+int(sh.MinY)
		if lx >= 0 && int(mv.X)+int(sh.MaxX) < tetris.Width && by >= 0 && int(mv.Y)+int(sh.MaxY) < tetris.Height {
			rows := dst.Rows[by : by+int(sh.Height)]
			filled := false
			for i := range rows {
				r := rows[i] | sh.Rows[i]<<uint(lx)
				rows[i] = r
				filled = filled || r == fullRow
			}
			if !filled {
				dst.Combo = 0
				return LockResult{Kind: tetris.KindOf(0, mv.Spin), LockedOut: by >= tetris.Visible}
			}
			*dst = *src
		}
		return lockMoveClean(dst, p, mv.Rot, int(mv.X), int(mv.Y), mv.Spin)
	}
	return lockMove(dst, p, mv.Rot, int(mv.X), int(mv.Y), mv.Spin)
}

// pieceTops[p][r][j] is 1 + the highest cell of piece p in orientation r
// in its column MinX+j, relative to the origin's row (0 past its width).
var pieceTops = func() (t [7][4][4]int8) {
	for p := range Piece(7) {
		for r := range Rot(4) {
			sh := tetris.PieceShape(p, r)
			for _, c := range tetris.PieceCells(p, r) {
				j := c.X - sh.MinX
				t[p][r][j] = max(t[p][r][j], c.Y+1)
			}
		}
	}
	return
}()

// raiseHeights raises the column heights h of a board to those after
// placing mv without clearing a line: each of the piece's columns reaches
// at least its top cell.
func raiseHeights(h *[10]int, mv Move) {
	sh := tetris.PieceShape(mv.Piece, mv.Rot)
	lx := int(mv.X) + int(sh.MinX)
	tops := &pieceTops[mv.Piece][mv.Rot&3]
	for j := range int(sh.MaxX-sh.MinX) + 1 {
		h[lx+j] = max(h[lx+j], int(mv.Y)+int(tops[j]))
	}
}

// dropY returns the lowest y reachable by moving straight down from (x,y).
func dropY(b *Board, p Piece, r Rot, x, y int) int { return b.DropY(p, r, x, y) }

// ParseField reads rows top to bottom, 'X' (or any of "#GIOTLJSZ") filled
// and '_' or '.' empty, each exactly 10 wide, into a board (bottom row last).
func ParseField(rows []string) (Board, error) {
	b, err := tetris.ParseField(strings.Join(rows, "/"))
	return Board{Board: b}, err
}
