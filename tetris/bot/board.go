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

// dropY returns the lowest y reachable by moving straight down from (x,y).
func dropY(b *Board, p Piece, r Rot, x, y int) int { return b.DropY(p, r, x, y) }

// ParseField reads rows top to bottom, 'X' (or any of "#GIOTLJSZ") filled
// and '_' or '.' empty, each exactly 10 wide, into a board (bottom row last).
func ParseField(rows []string) (Board, error) {
	b, err := tetris.ParseField(strings.Join(rows, "/"))
	return Board{Board: b}, err
}
