// board.go holds the 10×40 row-bitboard Board (spec §1): collision tests,
// column heights, spawning (§3), SRS rotation with kicks and T-spin
// detection (§4, §5, §9), writing a piece with line clears (§8), garbage
// rows (§14), and the field text notation (§23).

package tetris

import (
	"fmt"
	"math/bits"
	"strings"
	"unsafe"
)

// Board dimensions.
const (
	Width   = 10
	Height  = 40
	Visible = 20 // rows 0..19 are the visible matrix; a lock with every cell at y ≥ 20 locks out
	FullRow = 0x3FF
)

// Board is a 10×40 matrix as row bitmasks: bit x of Rows[y] is column x of
// row y, y=0 is the bottom. It is a plain value type: copy it to branch.
type Board struct {
	_    [0]uint64 // 8-byte alignment: firstFull reads Rows four at a time
	Rows [Height]uint16
}

// Occupied reports whether (x,y) is filled; outside the board (walls,
// floor and the ceiling above row 39) counts as filled.
func (b *Board) Occupied(x, y int) bool {
	if uint(x) >= Width || uint(y) >= Height {
		return true
	}
	return b.Rows[y]>>uint(x)&1 != 0
}

// Set fills (x,y); out-of-board cells are ignored.
func (b *Board) Set(x, y int) {
	if uint(x) < Width && uint(y) < Height {
		b.Rows[y] |= 1 << uint(x)
	}
}

// Empty reports whether no cell is filled.
func (b *Board) Empty() bool {
	for _, r := range b.Rows {
		if r != 0 {
			return false
		}
	}
	return true
}

// Heights fills h with column heights (1 + highest filled y, 0 if empty).
// It walks the rows up to MaxHeight from the bottom without branches on
// their cells: the heights are bytes of two words (columns 0–7 and 8–9),
// and each row writes its y + 1 into the bytes of its filled cells.
func (b *Board) Heights(h *[Width]int) {
	const (
		ones = 0x0101010101010101
		sel  = 0x8040201008040201 // byte i: bit i
		half = 0x7F7F7F7F7F7F7F7F
		tops = 0x8080808080808080
	)
	n := b.MaxHeight()
	var lo, hi, yb uint64
	for _, r := range b.Rows[:n] {
		yb += ones // every byte y + 1
		// byte i of m: 0xFF if cell i of the row is filled (of its low
		// eight cells for lo, of the two high ones for hi)
		m := (uint64(r&0xFF)*ones&sel + half) & tops
		m = m<<1 - m>>7
		lo ^= (lo ^ yb) & m
		m = (uint64(r>>8&3)*ones&sel + half) & tops
		m = m<<1 - m>>7
		hi ^= (hi ^ yb) & m
	}
	h[0], h[1], h[2], h[3] = int(lo&0xFF), int(lo>>8&0xFF), int(lo>>16&0xFF), int(lo>>24&0xFF)
	h[4], h[5], h[6], h[7] = int(lo>>32&0xFF), int(lo>>40&0xFF), int(lo>>48&0xFF), int(lo>>56)
	h[8], h[9] = int(hi&0xFF), int(hi>>8&0xFF)
}

// MaxHeight returns 1 + the highest filled row (0 for an empty board).
// It reads the rows four at a time without branches on them: a bit per
// non-empty word of rows, the highest such word, its highest row.
func (b *Board) MaxHeight() int {
	const _ = uint(Height-40) + uint(40-Height) // ten words: Height is 40
	w := (*[10]uint64)(unsafe.Pointer(&b.Rows))
	// (x | −x) >> 63: 1 if x ≠ 0
	nz := (w[0]|-w[0])>>63 | (w[1]|-w[1])>>63<<1 | (w[2]|-w[2])>>63<<2 |
		(w[3]|-w[3])>>63<<3 | (w[4]|-w[4])>>63<<4 | (w[5]|-w[5])>>63<<5 |
		(w[6]|-w[6])>>63<<6 | (w[7]|-w[7])>>63<<7 | (w[8]|-w[8])>>63<<8 |
		(w[9]|-w[9])>>63<<9
	if nz == 0 {
		return 0
	}
	i := bits.Len64(nz) - 1
	return 4*i + (bits.Len64(w[i])+15)/16
}

// Fits reports whether piece p in orientation r with origin (x,y) lies
// inside the board without overlapping filled cells.
func (b *Board) Fits(p Piece, r Rot, x, y int) bool {
	sh := &shapes[p][r&3]
	lx := x + int(sh.MinX)
	if lx < 0 || x+int(sh.MaxX) >= Width {
		return false
	}
	by := y + int(sh.MinY)
	if by < 0 || y+int(sh.MaxY) >= Height {
		return false
	}
	for i := range int(sh.Height) {
		if b.Rows[by+i]&(sh.Rows[i]<<uint(lx)) != 0 {
			return false
		}
	}
	return true
}

// FitsPlacement reports whether the placement's cells are free and on the board.
func (b *Board) FitsPlacement(pl Placement) bool {
	return pl.Piece.Valid() && b.Fits(pl.Piece, pl.Rot, int(pl.X), int(pl.Y))
}

// Grounded reports whether a fitting placement rests on something (it
// cannot move one row down).
func (b *Board) Grounded(pl Placement) bool {
	return !b.Fits(pl.Piece, pl.Rot, int(pl.X), int(pl.Y)-1)
}

// DropY returns the lowest y reachable by moving p straight down from a
// fitting position (x,y) (sonic drop).
func (b *Board) DropY(p Piece, r Rot, x, y int) int {
	for b.Fits(p, r, x, y-1) {
		y--
	}
	return y
}

// SpawnRule selects where pieces appear (spec §3).
type SpawnRule int8

// Spawn rules.
const (
	// Row19Or20 spawns North at (4,19), else (4,20), else blocks out (CC1 default).
	Row19Or20 SpawnRule = iota
	// Row21AndFall spawns at (4,21) and immediately falls one row if it can.
	Row21AndFall
)

// Spawn returns the spawn origin of p under rule and whether it fits
// (false means block out).
func (b *Board) Spawn(p Piece, rule SpawnRule) (x, y int, ok bool) {
	if rule == Row21AndFall {
		if !b.Fits(p, North, 4, 21) {
			return 0, 0, false
		}
		if b.Fits(p, North, 4, 20) {
			return 4, 20, true
		}
		return 4, 21, true
	}
	if b.Fits(p, North, 4, 19) {
		return 4, 19, true
	}
	if b.Fits(p, North, 4, 20) {
		return 4, 20, true
	}
	return 0, 0, false
}

// Rotate tries to turn piece p at (r,x,y) to orientation to, trying the
// kick tests in order (Kicks). It returns the new origin and the 0-based
// index of the winning test, or ok=false if every test collides. Half
// turns are the caller's choice (Rules.Allow180).
func (b *Board) Rotate(p Piece, r Rot, x, y int, to Rot) (nx, ny, kick int, ok bool) {
	for k, c := range kickTable[p][r&3][to&3] {
		nx, ny = x+int(c.X), y+int(c.Y)
		if b.Fits(p, to, nx, ny) {
			return nx, ny, k, true
		}
	}
	return x, y, 0, false
}

// SpinRule selects when a T rotation that used the 5th kick test upgrades
// a mini to a full T-spin (spec §9).
type SpinRule int8

// Spin rules.
const (
	// FifthKickAlways upgrades on every transition (Cold Clear, battletris).
	FifthKickAlways SpinRule = iota
	// FifthKickTST upgrades only when the T ends East or West (sfinder's
	// "@" kicks N→E, S→W, N→W, S→E).
	FifthKickTST
)

// frontCorners[r] are the two corners on the T's nub side (the "mini"
// corners), as indices into cornerOffsets.
var cornerOffsets = [4]Cell{{-1, 1}, {1, 1}, {1, -1}, {-1, -1}} // NW NE SE SW

// TSpin classifies a successful rotation of a T into orientation r at
// (x,y) that won with kick test index kick (spec §9): three or more of the
// four diagonal corners filled (walls, floor and ceiling count) make a
// spin; it is full when both nub-side corners are filled, or the 5th test
// (kick == 4) won and rule allows the upgrade for this transition;
// otherwise mini. Callers apply it only to T pieces.
func (b *Board) TSpin(r Rot, x, y, kick int, rule SpinRule) Spin {
	var filled [4]bool
	n := 0
	for i, c := range cornerOffsets {
		if b.Occupied(x+int(c.X), y+int(c.Y)) {
			filled[i] = true
			n++
		}
	}
	if n < 3 {
		return SpinNone
	}
	f1, f2 := int(r&3), int(r+1)&3 // N: NW,NE  E: NE,SE  S: SE,SW  W: SW,NW
	if filled[f1] && filled[f2] {
		return SpinFull
	}
	if kick == 4 && (rule == FifthKickAlways || r == East || r == West) {
		return SpinFull
	}
	return SpinMini
}

// Place writes the placement's cells and removes every full row, shifting
// the rows above down (spec §8 steps 1–2). It returns the number of rows
// cleared and whether the piece locked out (every cell at y ≥ 20). Cells
// outside the board are dropped; callers check FitsPlacement first.
func (b *Board) Place(pl Placement) (lines int, lockedOut bool) {
	sh := &shapes[pl.Piece][pl.Rot&3]
	lx, by := int(pl.X)+int(sh.MinX), int(pl.Y)+int(sh.MinY)
	if lx >= 0 && int(pl.X)+int(sh.MaxX) < Width && by >= 0 && int(pl.Y)+int(sh.MaxY) < Height {
		// the whole piece is on the board: write it row by row
		for i := range int(sh.Height) {
			b.Rows[by+i] |= sh.Rows[i] << uint(lx)
		}
		return b.ClearLines(), by >= Visible
	}
	lockedOut = true
	for _, c := range pl.Cells() {
		if c.Y < Visible {
			lockedOut = false
		}
		b.Set(int(c.X), int(c.Y))
	}
	return b.ClearLines(), lockedOut
}

// PlaceClean is Place for a board with no full row (every board Place or
// ClearLines leaves): then only the rows the piece covers can fill, and
// only they are tested. On such a board it returns what Place returns and
// leaves the same board; on any other, full rows below the piece may stay.
func (b *Board) PlaceClean(pl Placement) (lines int, lockedOut bool) {
	sh := &shapes[pl.Piece][pl.Rot&3]
	lx, by := int(pl.X)+int(sh.MinX), int(pl.Y)+int(sh.MinY)
	if lx >= 0 && int(pl.X)+int(sh.MaxX) < Width && by >= 0 && int(pl.Y)+int(sh.MaxY) < Height {
		full := -1
		for i := int(sh.Height) - 1; i >= 0; i-- {
			b.Rows[by+i] |= sh.Rows[i] << uint(lx)
			if b.Rows[by+i] == FullRow {
				full = by + i
			}
		}
		if full < 0 {
			return 0, by >= Visible
		}
		return b.clearFrom(full), by >= Visible
	}
	return b.Place(pl)
}

// HasFullRow reports whether some row is full.
func (b *Board) HasFullRow() bool { return b.firstFull() < Height }

// firstFull returns the lowest full row, or Height if none is full. It
// tests four rows per 64-bit word: a row is full when it XORs to zero with
// FullRow, and (v − 1) &^ v & 0x8000 per 16-bit lane is nonzero exactly
// when some lane of v is zero; that word's rows are then read one by one.
func (b *Board) firstFull() int {
	const (
		full = uint64(FullRow) * 0x0001000100010001
		ones = 0x0001000100010001
		high = 0x8000800080008000
	)
	words := (*[Height / 4]uint64)(unsafe.Pointer(&b.Rows))
	for i, v := range words {
		v ^= full
		if (v-ones)&^v&high != 0 {
			for y := 4 * i; y < 4*i+4; y++ {
				if b.Rows[y] == FullRow {
					return y
				}
			}
		}
	}
	return Height
}

// ClearLines removes every full row and returns how many there were.
func (b *Board) ClearLines() int {
	w := b.firstFull()
	if w == Height {
		return 0 // no full row: nothing moves
	}
	return b.clearFrom(w)
}

// clearFrom removes every full row given that w is the lowest one and
// returns how many there were. Only the rows up to the highest filled one
// move (the rows above it are empty and stay so).
func (b *Board) clearFrom(w int) int {
	top := b.MaxHeight()
	lines := 0
	for y := w; y < top; y++ {
		if b.Rows[y] == FullRow {
			lines++
			continue
		}
		b.Rows[w] = b.Rows[y]
		w++
	}
	clear(b.Rows[w:top])
	return lines
}

// AddGarbage pushes a garbage row (filled except column hole) in at the
// bottom, shifting everything up one row. It reports whether a block was
// pushed out of the top row (the player dies, spec §15 rule 3).
func (b *Board) AddGarbage(hole int) (dead bool) {
	dead = b.Rows[Height-1] != 0
	copy(b.Rows[1:], b.Rows[:Height-1])
	b.Rows[0] = FullRow &^ (1 << uint(hole))
	return dead
}

// ParseField reads a field in sfinder's notation: rows top to bottom, 'X'
// (or any of "#GIOTLJSZ") filled and '_' or '.' empty, each exactly 10
// wide; rows are separated by '/', ',', spaces or newlines. The last row
// is y=0. Errors name the row and column.
func ParseField(s string) (Board, error) {
	var b Board
	rows := strings.FieldsFunc(s, func(r rune) bool {
		return r == '/' || r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r'
	})
	if len(rows) > Height {
		return b, fmt.Errorf("tetris: field has %d rows, at most %d", len(rows), Height)
	}
	for i, row := range rows {
		if len(row) != Width {
			return b, fmt.Errorf("tetris: field row %d (%q) has %d columns, want %d", i+1, row, len(row), Width)
		}
		y := len(rows) - 1 - i
		for x, ch := range []byte(row) {
			switch ch {
			case '_', '.':
			case 'X', 'x', '#', 'G', 'I', 'O', 'T', 'L', 'J', 'S', 'Z':
				b.Rows[y] |= 1 << uint(x)
			default:
				return b, fmt.Errorf("tetris: field row %d column %d: bad character %q (want X or _)", i+1, x+1, ch)
			}
		}
	}
	return b, nil
}

// String renders the rows up to the highest filled one, top first, as
// 'X'/'_' lines separated by '/' ("" for an empty board).
func (b *Board) String() string {
	var sb strings.Builder
	for y := b.MaxHeight() - 1; y >= 0; y-- {
		for x := range Width {
			if b.Rows[y]>>uint(x)&1 != 0 {
				sb.WriteByte('X')
			} else {
				sb.WriteByte('_')
			}
		}
		if y > 0 {
			sb.WriteByte('/')
		}
	}
	return sb.String()
}
