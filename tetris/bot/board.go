// board.go holds the bot's own compact guideline-Tetris model: pieces, SRS
// kicks, a 10×40 row-bitboard board, locking with line clears, T-spin
// classification, attack, combo and back-to-back (spec §1–§13). It is a
// separate helper so the bot works before the shared engine in tetris/
// lands; it follows the same conventions (TBP origin, y up, CC1 rules).

package bot

import (
	"fmt"
	"math/bits"
)

// Piece is a tetromino in Cold Clear's order I, O, T, L, J, S, Z.
type Piece int8

// The seven pieces, and NoPiece for an empty hold.
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

// String returns the piece letter ("I"…"Z", "-" for none).
func (p Piece) String() string {
	if p < 0 || p > Z {
		return "-"
	}
	return string("IOTLJSZ"[p])
}

// ParsePiece parses a piece letter (upper or lower case).
func ParsePiece(s string) (Piece, error) {
	switch s {
	case "I", "i":
		return I, nil
	case "O", "o":
		return O, nil
	case "T", "t":
		return T, nil
	case "L", "l":
		return L, nil
	case "J", "j":
		return J, nil
	case "S", "s":
		return S, nil
	case "Z", "z":
		return Z, nil
	}
	return NoPiece, fmt.Errorf("bot: unknown piece %q", s)
}

// Rot is an orientation: North (spawn), East, South, West.
type Rot int8

// The four orientations in clockwise order.
const (
	North Rot = iota
	East
	South
	West
)

// String returns the TBP orientation name.
func (r Rot) String() string { return [...]string{"north", "east", "south", "west"}[r&3] }

// Spin is the T-spin status of a placement.
type Spin int8

// Spin statuses.
const (
	SpinNone Spin = iota
	SpinMini
	SpinFull
)

// String returns the TBP spin name.
func (s Spin) String() string { return [...]string{"none", "mini", "full"}[s] }

type cell struct{ x, y int8 }

var northCells = [7][4]cell{
	I: {{-1, 0}, {0, 0}, {1, 0}, {2, 0}},
	O: {{0, 0}, {1, 0}, {0, 1}, {1, 1}},
	T: {{-1, 0}, {0, 0}, {1, 0}, {0, 1}},
	L: {{-1, 0}, {0, 0}, {1, 0}, {1, 1}},
	J: {{-1, 0}, {0, 0}, {1, 0}, {-1, 1}},
	S: {{-1, 0}, {0, 0}, {0, 1}, {1, 1}},
	Z: {{-1, 1}, {0, 1}, {0, 0}, {1, 0}},
}

// pieceCells[p][r] are the cell offsets of piece p in orientation r.
var pieceCells = func() (t [7][4][4]cell) {
	for p := range 7 {
		for i, c := range northCells[p] {
			x, y := c.x, c.y
			t[p][0][i] = cell{x, y}
			t[p][1][i] = cell{y, -x}
			t[p][2][i] = cell{-x, -y}
			t[p][3][i] = cell{-y, x}
		}
	}
	return
}()

// SRS offset data (spec §4.1); test k for a→b is off[a][k]−off[b][k].
var jlstzOff = [4][5]cell{
	{{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}},
	{{0, 0}, {1, 0}, {1, -1}, {0, 2}, {1, 2}},
	{{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}},
	{{0, 0}, {-1, 0}, {-1, -1}, {0, 2}, {-1, 2}},
}
var iOff = [4][5]cell{
	{{0, 0}, {-1, 0}, {2, 0}, {-1, 0}, {2, 0}},
	{{-1, 0}, {0, 0}, {0, 0}, {0, 1}, {0, -2}},
	{{-1, 1}, {1, 1}, {-2, 1}, {1, 0}, {-2, 0}},
	{{0, 1}, {0, 1}, {0, 1}, {0, -1}, {0, 2}},
}

// kickTests returns the kick tests for piece p rotating a→b.
func kickTests(p Piece, a, b Rot) []cell {
	var out [5]cell
	off := &jlstzOff
	if p == I {
		off = &iOff
	}
	if p == O {
		o := [4]cell{{0, 0}, {0, -1}, {-1, -1}, {-1, 0}}
		return []cell{{o[a].x - o[b].x, o[a].y - o[b].y}}
	}
	for k := range 5 {
		out[k] = cell{off[a][k].x - off[b][k].x, off[a][k].y - off[b][k].y}
	}
	return out[:]
}

var kicks = func() (t [7][4][4][]cell) {
	for p := range Piece(7) {
		for a := range Rot(4) {
			for b := range Rot(4) {
				if (b-a)&3 == 1 || (a-b)&3 == 1 {
					t[p][a][b] = kickTests(p, a, b)
				}
			}
		}
	}
	return
}()

// Board is a 10×40 matrix as row bitmasks (bit x = column x, y=0 bottom)
// plus the combo and back-to-back state. It is a value type.
type Board struct {
	Rows  [40]uint16
	Combo uint32 // consecutive clearing placements (CC/TBP convention)
	B2B   bool
}

const fullRow = 0x3FF

// Occupied reports whether (x,y) is filled; outside the board counts as filled.
func (b *Board) Occupied(x, y int) bool {
	if uint(x) > 9 || uint(y) > 39 {
		return true
	}
	return b.Rows[y]>>uint(x)&1 != 0
}

// Heights fills h with column heights (1 + highest filled y, 0 if empty).
func (b *Board) Heights(h *[10]int) {
	*h = [10]int{}
	var found uint16
	for y := 39; y >= 0 && found != fullRow; y-- {
		r := b.Rows[y] &^ found
		found |= r
		for r != 0 {
			h[bits.TrailingZeros16(r)] = y + 1
			r &= r - 1
		}
	}
}

// MaxHeight returns the height of the highest filled row.
func (b *Board) MaxHeight() int {
	for y := 39; y >= 0; y-- {
		if b.Rows[y] != 0 {
			return y + 1
		}
	}
	return 0
}

// fits reports whether piece p in orientation r at (x,y) is collision-free.
func (b *Board) fits(p Piece, r Rot, x, y int) bool {
	sh := &shapes[p][r]
	lx := x + int(sh.minX)
	if lx < 0 || x+int(sh.maxX) > 9 {
		return false
	}
	by := y + int(sh.minY)
	if by < 0 || y+int(sh.minY)+int(sh.n)-1 > 39 {
		return false
	}
	for i := range int(sh.n) {
		if b.Rows[by+i]&(sh.rows[i]<<uint(lx)) != 0 {
			return false
		}
	}
	return true
}

// shape is a piece orientation as row masks from its lowest row, shifted
// so that its leftmost cell is bit 0.
type shape struct {
	minX, maxX, minY int8
	n                int8
	rows             [4]uint16
}

var shapes = func() (t [7][4]shape) {
	for p := range 7 {
		for r := range 4 {
			sh := &t[p][r]
			sh.minX, sh.maxX, sh.minY = 9, -9, 9
			maxY := int8(-9)
			for _, c := range pieceCells[p][r] {
				sh.minX, sh.maxX = min(sh.minX, c.x), max(sh.maxX, c.x)
				sh.minY, maxY = min(sh.minY, c.y), max(maxY, c.y)
			}
			sh.n = maxY - sh.minY + 1
			for _, c := range pieceCells[p][r] {
				sh.rows[c.y-sh.minY] |= 1 << uint(c.x-sh.minX)
			}
		}
	}
	return
}()

// PlacementKind classifies a lock by lines and spin (spec §10).
type PlacementKind int8

// Placement kinds.
const (
	KindNone PlacementKind = iota
	KindClear1
	KindClear2
	KindClear3
	KindClear4
	KindMini
	KindMini1
	KindMini2
	KindTspin
	KindTspin1
	KindTspin2
	KindTspin3
)

func kindOf(lines int, spin Spin) PlacementKind {
	switch spin {
	case SpinMini:
		if lines == 3 {
			return KindTspin3 // cannot occur; mapped defensively (spec §9)
		}
		return KindMini + PlacementKind(lines)
	case SpinFull:
		return KindTspin + PlacementKind(lines)
	}
	return KindNone + PlacementKind(lines)
}

var baseAttack = [...]int{KindNone: 0, KindClear1: 0, KindClear2: 1, KindClear3: 2, KindClear4: 4,
	KindMini: 0, KindMini1: 0, KindMini2: 1, KindTspin: 0, KindTspin1: 2, KindTspin2: 4, KindTspin3: 6}

func (k PlacementKind) hard() bool { return k == KindClear4 || k >= KindMini }

// comboGarbage is CC1's COMBO_GARBAGE table.
var comboGarbage = [12]int{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5}

// LockResult describes what a lock did.
type LockResult struct {
	Kind         PlacementKind
	Lines        int
	LockedOut    bool
	B2BBonus     bool
	PerfectClear bool
	Combo        uint32 // combo after the lock
	Attack       int
}

// Lock writes piece p at (r,x,y) with the given spin, clears lines and
// updates combo and back-to-back (spec §8–§13). The caller ensures the piece fits.
func (b *Board) Lock(p Piece, r Rot, x, y int, spin Spin) LockResult {
	var res LockResult
	res.LockedOut = true
	for _, c := range pieceCells[p][r] {
		cx, cy := x+int(c.x), y+int(c.y)
		if cy < 20 {
			res.LockedOut = false
		}
		if cx >= 0 && cx < 10 && cy >= 0 && cy < 40 {
			b.Rows[cy] |= 1 << uint(cx)
		}
	}
	w := 0
	for y := range 40 {
		if b.Rows[y] == fullRow {
			res.Lines++
			continue
		}
		b.Rows[w] = b.Rows[y]
		w++
	}
	for ; w < 40; w++ {
		b.Rows[w] = 0
	}
	res.Kind = kindOf(res.Lines, spin)
	if res.Lines > 0 {
		res.Attack = baseAttack[res.Kind] + comboGarbage[min(b.Combo, 11)]
		b.Combo++
		if res.Kind.hard() {
			if b.B2B {
				res.Attack++
				res.B2BBonus = true
			}
			b.B2B = true
		} else {
			b.B2B = false
		}
		if b.Rows[0] == 0 {
			res.PerfectClear = true
			res.Attack = 10
		}
	} else {
		b.Combo = 0
	}
	res.Combo = b.Combo
	return res
}

// tSpinStatus applies the CC corner rule after a successful T rotation that
// used kick test k (spec §9).
func (b *Board) tSpinStatus(r Rot, x, y, k int) Spin {
	corners := [4]cell{{-1, 1}, {1, 1}, {1, -1}, {-1, -1}} // NW NE SE SW
	n := 0
	var filled [4]bool
	for i, c := range corners {
		if b.Occupied(x+int(c.x), y+int(c.y)) {
			filled[i] = true
			n++
		}
	}
	if n < 3 {
		return SpinNone
	}
	// front corners: N: NW,NE; E: NE,SE; S: SE,SW; W: SW,NW
	f1, f2 := int(r), (int(r)+1)&3
	if (filled[f1] && filled[f2]) || k == 4 {
		return SpinFull
	}
	return SpinMini
}

// ParseField reads rows top to bottom, 'X' (or any of "#GIOTLJSZ") filled
// and '_' or '.' empty, each exactly 10 wide, into a board (bottom row last).
func ParseField(rows []string) (Board, error) {
	var b Board
	if len(rows) > 40 {
		return b, fmt.Errorf("bot: field has %d rows, at most 40", len(rows))
	}
	for i, s := range rows {
		if len(s) != 10 {
			return b, fmt.Errorf("bot: field row %d has %d columns, want 10", i+1, len(s))
		}
		y := len(rows) - 1 - i
		for x, ch := range []byte(s) {
			switch ch {
			case '_', '.', ' ':
			case 'X', '#', 'G', 'I', 'O', 'T', 'L', 'J', 'S', 'Z':
				b.Rows[y] |= 1 << uint(x)
			default:
				return b, fmt.Errorf("bot: field row %d column %d: bad character %q", i+1, x+1, ch)
			}
		}
	}
	return b, nil
}
