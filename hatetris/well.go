// This file holds the well: twenty ten-bit rows, row 0 at the top, and the
// lock/clear rule.

package hatetris

import (
	"fmt"
	"math/bits"
	"strings"
)

// Dimensions of the well.
const (
	Width  = 10
	Height = 20
	// Bar is the number of spawn rows above the line; lines clear only below it.
	Bar = 4
	// FullRow is a row with every column filled.
	FullRow = 1<<Width - 1
)

// Well is the playing field: Well[0] is the top row, bit x of a row is column
// x (bit 0 = leftmost column). It is a value type; copying it copies the well.
type Well [Height]uint16

// Top returns the index of the first non-empty row, or Height for an empty
// well. It is the enemy AI's rating of a well (higher is better for the player).
func (w *Well) Top() int {
	for y, r := range w {
		if r != 0 {
			return y
		}
	}
	return Height
}

// Cells returns the number of filled cells.
func (w *Well) Cells() int {
	n := 0
	for _, r := range w {
		n += bits.OnesCount16(r)
	}
	return n
}

// Over reports whether the well means game over: the row just above the line
// is occupied.
func (w *Well) Over() bool { return w[Bar-1] != 0 }

// place ORs the piece (orientation sh) at bounding-box corner (xa, ya) into
// the well, clears full rows below the bar, and returns the lines cleared.
func (w *Well) place(sh *shape, xa, ya int) int {
	for i := 0; i < sh.yDim; i++ {
		w[ya+i] |= sh.rows[i] << xa
	}
	if ya < Bar {
		return 0
	}
	lines := 0
	for i := 0; i < sh.yDim; i++ {
		if k := ya + i; w[k] == FullRow {
			copy(w[1:k+1], w[0:k])
			w[0] = 0
			lines++
		}
	}
	return lines
}

// Lock places piece p in orientation o with the top-left corner of its 4×4
// box at (x, y) (a Future's O, X and Y), clears full rows below the bar and
// returns the lines cleared. It reports false and leaves w unchanged unless
// the piece fits there and rests (one row lower does not fit): the check a
// placement read back from a file needs before it is trusted.
func (w *Well) Lock(p Piece, o, x, y int) (int, bool) {
	if p >= NumPieces || o < 0 || o > 3 {
		return 0, false
	}
	sh := &shapes[p][o]
	xa, ya := x+sh.xMin, y+sh.yMin
	if xa < 0 || xa+sh.xDim > Width || ya < 0 || ya+sh.yDim > Height {
		return 0, false
	}
	for i := 0; i < sh.yDim; i++ {
		if w[ya+i]&(sh.rows[i]<<xa) != 0 {
			return 0, false
		}
	}
	if ya+sh.yDim < Height {
		lower := true
		for i := 0; i < sh.yDim; i++ {
			if w[ya+1+i]&(sh.rows[i]<<xa) != 0 {
				lower = false
				break
			}
		}
		if lower {
			return 0, false
		}
	}
	return w.place(sh, xa, ya), true
}

// String draws the well as text, one line per row from the top, '#' for a
// filled cell and '.' for an empty one, with the bar drawn as a line of '-'
// below the spawn rows.
func (w Well) String() string {
	var b strings.Builder
	for y, r := range w {
		if y == Bar {
			b.WriteString(strings.Repeat("-", Width) + "\n")
		}
		for x := 0; x < Width; x++ {
			if r>>x&1 != 0 {
				b.WriteByte('#')
			} else {
				b.WriteByte('.')
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// ParseWell reads a well from rows of '#'/'X' (filled) and '.'/'_' (empty),
// top to bottom. Fewer than 20 rows are aligned to the bottom; a line of only
// '-' (the bar drawn by String) is skipped.
func ParseWell(s string) (Well, error) {
	var rows []uint16
	for n, line := range strings.Split(strings.TrimSpace(s), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.Trim(line, "-") == "" {
			continue
		}
		if len(line) != Width {
			return Well{}, fmt.Errorf("hatetris: well line %d: %d cells, want %d", n+1, len(line), Width)
		}
		var r uint16
		for x := 0; x < Width; x++ {
			switch line[x] {
			case '#', 'X', 'x':
				r |= 1 << x
			case '.', '_':
			default:
				return Well{}, fmt.Errorf("hatetris: well line %d column %d: bad cell %q (want # or .)", n+1, x+1, line[x])
			}
		}
		rows = append(rows, r)
	}
	var w Well
	if len(rows) > Height {
		return w, fmt.Errorf("hatetris: well has %d rows, want at most %d", len(rows), Height)
	}
	copy(w[Height-len(rows):], rows)
	return w, nil
}
