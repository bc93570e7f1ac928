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
// fills no row, which is most placements, it ORs the piece's rows in as
// 16-bit lanes of the (at most two) 64-bit words of rows they cover, tests
// those words for a full row at once, and fills in the result directly:
// no line cleared, the combo reset, back-to-back kept, a lock-out when the
// piece's lowest row is above the visible matrix. Then fast is true and
// rows is dst's rowsHash given srcRows, src's: corrected at the words the
// piece changed.
func lockInto(dst, src *Board, p Piece, mv Move, clean bool, srcRows uint64) (res LockResult, rows uint64, fast bool) {
	*dst = *src
	if clean {
		pw := &pieceWords[p][mv.Rot&3]
		lx, by := int(mv.X)+int(pw.minX), int(mv.Y)+int(pw.minY)
		if uint(lx) <= uint(tetris.Width-pw.width) && uint(by) <= uint(tetris.Height-pw.height) {
			var filled bool
			if rows, filled = orPiece(dst, pw, lx, by, srcRows); !filled {
				dst.Combo = 0
				return LockResult{Kind: noClearKind[mv.Spin], LockedOut: by >= tetris.Visible}, rows, true
			}
			*dst = *src
		}
		return lockMoveClean(dst, p, mv.Rot, int(mv.X), int(mv.Y), mv.Spin), 0, false
	}
	return lockMove(dst, p, mv.Rot, int(mv.X), int(mv.Y), mv.Spin), 0, false
}

// orPiece ORs piece word pw into b with its lowest row at by and its
// leftmost column at lx (both in range), as 16-bit lanes of the one or two
// 64-bit words of rows it covers. It returns b's rowsHash given srcRows,
// b's before (corrected at the words it changed), and whether a row of
// those words is now full. b must have no full row (it tests the second
// word whether the piece reaches it or not): without a branch on whether
// the piece spans two words, it ORs nothing into the second word (the
// first again at the top) when it does not.
func orPiece(b *Board, pw *pieceWord, lx, by int, srcRows uint64) (rows uint64, filled bool) {
	words := boardWords(b)
	bits := pw.rows << uint(lx)
	sh := uint(by&3) * 16
	i := by >> 2
	old := words[i]
	lo := old | bits<<sh
	words[i] = lo
	hi := bits >> (64 - sh)     // sh = 0: a shift by 64 gives 0
	j := min(i+1, len(words)-1) // i+1 unless the piece is in the top word (then hi = 0)
	old2 := words[j]
	w := old2 | hi
	words[j] = w
	rows = srcRows - wordHash(i, old) + wordHash(i, lo) - wordHash(j, old2) + wordHash(j, w)
	return rows, hasFullLane2(lo, w)
}

// hasFullLane2 reports whether some 16-bit lane (a row) of u or w is a
// full row: x ^ full rows has a zero lane, found by the borrow trick
// (v − 1 per lane) &^ v, whose top bit is set exactly in zero lanes of v
// (lanes hold at most 10 bits); both words in one test.
func hasFullLane2(u, w uint64) bool {
	const (
		lanes = 0x0001000100010001
		full  = fullRow * lanes
		high  = 0x8000 * lanes
	)
	u, w = u^full, w^full
	return ((u-lanes)&^u|(w-lanes)&^w)&high != 0
}

// noClearKind is the kind of a lock that clears no line, by spin.
var noClearKind = [3]PlacementKind{SpinNone: KindNone, SpinMini: KindMini, SpinFull: KindTspin}

// pieceWord is a piece orientation's rows as the 16-bit lanes of one
// 64-bit word (lane i: row minY+i relative to the origin, bit j: column
// minX+j), with its extent.
type pieceWord struct {
	rows          uint64
	minX, minY    int8
	width, height int
}

// pieceWords[p][r] is piece p in orientation r as a pieceWord.
var pieceWords = func() (t [7][4]pieceWord) {
	for p := range Piece(7) {
		for r := range Rot(4) {
			sh := tetris.PieceShape(p, r)
			pw := &t[p][r]
			pw.minX, pw.minY = sh.MinX, sh.MinY
			pw.width, pw.height = int(sh.MaxX-sh.MinX)+1, int(sh.Height)
			for i := range int(sh.Height) {
				pw.rows |= uint64(sh.Rows[i]) << uint(16*i)
			}
		}
	}
	return
}()

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

// pieceTops4[p][r][j] is pieceTops[p][r][j] in the piece's columns and
// −64 past its width (a column it leaves as it is).
var pieceTops4 = func() (t [7][4][4]int8) {
	for p := range Piece(7) {
		for r := range Rot(4) {
			for j := range 4 {
				t[p][r][j] = -64
				if j < pieceWords[p][r].width {
					t[p][r][j] = pieceTops[p][r][j]
				}
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
