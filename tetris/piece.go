// piece.go holds pieces, orientations, spin statuses, cell offsets in TBP's
// origin convention (spec §2, §22), row-mask shapes for collision tests,
// the SRS kick tables (§4) with the optional 180° table (§5), and
// placements with their canonical form.

package tetris

import (
	"fmt"
	"strings"
)

// Piece is a tetromino in Cold Clear's order I, O, T, L, J, S, Z.
type Piece int8

// The seven pieces, and NoPiece for an empty hold or unknown piece.
const (
	I Piece = iota
	O
	T
	L
	J
	S
	Z
	NoPiece Piece = -1
)

// NumPieces is the number of piece types.
const NumPieces = 7

// String returns the piece letter ("I"…"Z", "-" for none).
func (p Piece) String() string {
	if p < 0 || p > Z {
		return "-"
	}
	return string("IOTLJSZ"[p])
}

// Valid reports whether p is one of the seven pieces.
func (p Piece) Valid() bool { return p >= I && p <= Z }

// ParsePiece parses a piece letter (upper or lower case).
func ParsePiece(s string) (Piece, error) {
	if len(s) == 1 {
		if i := strings.IndexByte("IOTLJSZ", s[0]&^0x20); i >= 0 {
			return Piece(i), nil
		}
	}
	return NoPiece, fmt.Errorf("tetris: unknown piece %q (want one of I O T L J S Z)", s)
}

// Rot is an orientation: North (spawn), East (one clockwise turn), South, West.
type Rot int8

// The four orientations in clockwise order.
const (
	North Rot = iota
	East
	South
	West
)

// String returns the TBP orientation name ("north", …).
func (r Rot) String() string { return [...]string{"north", "east", "south", "west"}[r&3] }

// ParseRot parses a TBP orientation name (or its first letter).
func ParseRot(s string) (Rot, error) {
	switch strings.ToLower(s) {
	case "north", "n":
		return North, nil
	case "east", "e":
		return East, nil
	case "south", "s":
		return South, nil
	case "west", "w":
		return West, nil
	}
	return North, fmt.Errorf("tetris: unknown orientation %q (want north, east, south or west)", s)
}

// Cw returns the orientation one clockwise turn from r.
func (r Rot) Cw() Rot { return (r + 1) & 3 }

// Ccw returns the orientation one counter-clockwise turn from r.
func (r Rot) Ccw() Rot { return (r + 3) & 3 }

// Flip returns the orientation a 180° turn from r.
func (r Rot) Flip() Rot { return (r + 2) & 3 }

// Spin is the T-spin status of a placement.
type Spin int8

// Spin statuses.
const (
	SpinNone Spin = iota
	SpinMini
	SpinFull
)

// String returns the TBP spin name ("none", "mini", "full").
func (s Spin) String() string { return [...]string{"none", "mini", "full"}[s] }

// ParseSpin parses a TBP spin name.
func ParseSpin(s string) (Spin, error) {
	switch s {
	case "none", "":
		return SpinNone, nil
	case "mini":
		return SpinMini, nil
	case "full":
		return SpinFull, nil
	}
	return SpinNone, fmt.Errorf("tetris: unknown spin %q (want none, mini or full)", s)
}

// Cell is a board coordinate or an offset from a piece origin (y up).
type Cell struct{ X, Y int8 }

var northCells = [7][4]Cell{
	I: {{-1, 0}, {0, 0}, {1, 0}, {2, 0}},
	O: {{0, 0}, {1, 0}, {0, 1}, {1, 1}},
	T: {{-1, 0}, {0, 0}, {1, 0}, {0, 1}},
	L: {{-1, 0}, {0, 0}, {1, 0}, {1, 1}},
	J: {{-1, 0}, {0, 0}, {1, 0}, {-1, 1}},
	S: {{-1, 0}, {0, 0}, {0, 1}, {1, 1}},
	Z: {{-1, 1}, {0, 1}, {0, 0}, {1, 0}},
}

// pieceCells[p][r] are the cell offsets of piece p in orientation r.
var pieceCells = func() (t [7][4][4]Cell) {
	for p := range 7 {
		for i, c := range northCells[p] {
			x, y := c.X, c.Y
			t[p][North][i] = Cell{x, y}
			t[p][East][i] = Cell{y, -x}
			t[p][South][i] = Cell{-x, -y}
			t[p][West][i] = Cell{-y, x}
		}
	}
	return
}()

// PieceCells returns the four cell offsets of piece p in orientation r
// relative to its origin (the TBP center).
func PieceCells(p Piece, r Rot) [4]Cell { return pieceCells[p][r&3] }

// Shape is a piece orientation as row masks for collision tests: Rows[i]
// is the mask of row MinY+i relative to the origin, shifted so that bit 0
// is column MinX relative to the origin.
type Shape struct {
	MinX, MaxX, MinY, MaxY int8
	Height                 int8
	Rows                   [4]uint16
}

var shapes = func() (t [7][4]Shape) {
	for p := range 7 {
		for r := range 4 {
			sh := &t[p][r]
			sh.MinX, sh.MaxX, sh.MinY, sh.MaxY = 9, -9, 9, -9
			for _, c := range pieceCells[p][r] {
				sh.MinX, sh.MaxX = min(sh.MinX, c.X), max(sh.MaxX, c.X)
				sh.MinY, sh.MaxY = min(sh.MinY, c.Y), max(sh.MaxY, c.Y)
			}
			sh.Height = sh.MaxY - sh.MinY + 1
			for _, c := range pieceCells[p][r] {
				sh.Rows[c.Y-sh.MinY] |= 1 << uint(c.X-sh.MinX)
			}
		}
	}
	return
}()

// PieceShape returns the row-mask shape of piece p in orientation r.
func PieceShape(p Piece, r Rot) *Shape { return &shapes[p][r&3] }

// SRS offset data (spec §4.1): test k for a→b is off[a][k]−off[b][k].
var jlstzOffsets = [4][5]Cell{
	{{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}},
	{{0, 0}, {1, 0}, {1, -1}, {0, 2}, {1, 2}},
	{{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}},
	{{0, 0}, {-1, 0}, {-1, -1}, {0, 2}, {-1, 2}},
}
var iOffsets = [4][5]Cell{
	{{0, 0}, {-1, 0}, {2, 0}, {-1, 0}, {2, 0}},
	{{-1, 0}, {0, 0}, {0, 0}, {0, 1}, {0, -2}},
	{{-1, 1}, {1, 1}, {-2, 1}, {1, 0}, {-2, 0}},
	{{0, 1}, {0, 1}, {0, 1}, {0, -1}, {0, 2}},
}
var oOffsets = [4]Cell{{0, 0}, {0, -1}, {-1, -1}, {-1, 0}}

// 180° kicks (spec §5, sfinder jstris180), indexed by the starting orientation.
var jlstz180 = [4][2]Cell{
	North: {{0, 0}, {0, 1}},
	East:  {{0, 0}, {1, 0}},
	South: {{0, 0}, {0, -1}},
	West:  {{0, 0}, {-1, 0}},
}
var i180 = [4][2]Cell{
	North: {{1, -1}, {1, 0}},
	East:  {{-1, -1}, {0, -1}},
	South: {{-1, 1}, {-1, 0}},
	West:  {{1, 1}, {0, 1}},
}
var o180 = [4]Cell{North: {1, 1}, East: {1, -1}, South: {-1, -1}, West: {-1, 1}}

// kickTable[p][a][b] lists the kick tests for p rotating from a to b (b≠a).
var kickTable = func() (t [7][4][4][]Cell) {
	for p := range Piece(7) {
		for a := range Rot(4) {
			for d := Rot(1); d < 4; d++ {
				b := (a + d) & 3
				var ks []Cell
				switch {
				case d == 2 && p == O:
					ks = []Cell{o180[a]}
				case d == 2 && p == I:
					ks = i180[a][:]
				case d == 2:
					ks = jlstz180[a][:]
				case p == O:
					ks = []Cell{{oOffsets[a].X - oOffsets[b].X, oOffsets[a].Y - oOffsets[b].Y}}
				default:
					off := &jlstzOffsets
					if p == I {
						off = &iOffsets
					}
					ks = make([]Cell, 5)
					for k := range 5 {
						ks[k] = Cell{off[a][k].X - off[b][k].X, off[a][k].Y - off[b][k].Y}
					}
				}
				t[p][a][b] = ks
			}
		}
	}
	return
}()

// Kicks returns the kick tests, in order, for piece p rotating from a to b
// (a quarter turn uses SRS §4.2, a half turn the jstris 180° table §5).
// The slice is shared: do not modify it. It is nil when a == b.
func Kicks(p Piece, a, b Rot) []Cell { return kickTable[p][a&3][b&3] }

// Placement is a piece at its final location: orientation, origin (TBP
// center) and spin status.
type Placement struct {
	Piece Piece
	Rot   Rot
	X, Y  int8
	Spin  Spin
}

// String renders the placement as "T south (2,1) full".
func (pl Placement) String() string {
	return fmt.Sprintf("%v %v (%d,%d) %v", pl.Piece, pl.Rot, pl.X, pl.Y, pl.Spin)
}

// Cells returns the four board cells the placement covers.
func (pl Placement) Cells() [4]Cell {
	cs := pieceCells[pl.Piece][pl.Rot&3]
	for i := range cs {
		cs[i].X += pl.X
		cs[i].Y += pl.Y
	}
	return cs
}

// Canonical returns the placement moved to the canonical orientation among
// those covering the same cells (spec §2, CC1 canonical()): T, L, J
// unchanged; O → North; S, Z, I → North or West. Spin is kept.
func (pl Placement) Canonical() Placement {
	switch pl.Piece {
	case O:
		switch pl.Rot {
		case East:
			pl.Y--
		case South:
			pl.X--
			pl.Y--
		case West:
			pl.X--
		}
		pl.Rot = North
	case S, Z:
		switch pl.Rot {
		case East:
			pl.Rot, pl.X = West, pl.X+1
		case South:
			pl.Rot, pl.Y = North, pl.Y-1
		}
	case I:
		switch pl.Rot {
		case East:
			pl.Rot, pl.Y = West, pl.Y-1
		case South:
			pl.Rot, pl.X = North, pl.X-1
		}
	}
	return pl
}

// CellMask returns the placement's cells as a key: the lowest row y0 and
// a 40-bit mask of (y−y0)*10+x. Two placements of the same piece cover the
// same cells iff their keys are equal.
func (pl Placement) CellMask() (y0 int, mask uint64) {
	sh := &shapes[pl.Piece][pl.Rot&3]
	y0 = int(pl.Y) + int(sh.MinY)
	x0 := int(pl.X) + int(sh.MinX)
	for i := range int(sh.Height) {
		mask |= uint64(sh.Rows[i]) << uint(i*10+x0)
	}
	return y0, mask
}
