// This file holds fields in sfinder's text notation and their bit layout.

package pc

import (
	"fmt"
	"strings"
)

// Field is up to 6 rows of 10 cells: bit 10*y+x is cell (x, y), y = 0 bottom.
type Field uint64

const fullRow = 0x3FF

// MaxHeight is the tallest clear area the finder supports.
const MaxHeight = 6

// Filled reports whether cell (x, y) is filled.
func (f Field) Filled(x, y int) bool { return f>>(10*y+x)&1 != 0 }

// Row returns row y as a 10-bit mask.
func (f Field) Row(y int) uint64 { return uint64(f>>(10*y)) & fullRow }

// ParseField parses sfinder field text: rows top first, 'X' or a piece letter
// filled, '_' (or '.') empty; rows may be separated by newlines, spaces or
// commas. The last row is y = 0.
func ParseField(text string) (Field, int, error) {
	rows := strings.FieldsFunc(text, func(r rune) bool {
		return r == '\n' || r == ' ' || r == ',' || r == '\r' || r == '\t' || r == '/'
	})
	if len(rows) > MaxHeight {
		return 0, 0, fmt.Errorf("field: %d rows, at most %d supported", len(rows), MaxHeight)
	}
	var f Field
	n := len(rows)
	for i, r := range rows {
		if len(r) != 10 {
			return 0, 0, fmt.Errorf("field row %d: %q has %d cells, want 10", i+1, r, len(r))
		}
		y := n - 1 - i
		for x := 0; x < 10; x++ {
			switch c := upper(r[x]); {
			case c == '_' || c == '.':
			case c == 'X' || c == 'G' || strings.IndexByte(pieceLetters, c) >= 0:
				f |= 1 << (10*y + x)
			default:
				return 0, 0, fmt.Errorf("field row %d column %d: unexpected %q", i+1, x+1, r[x])
			}
		}
	}
	return f, n, nil
}

// Format writes the lowest h rows of f top first, one line per row.
func (f Field) Format(h int) string {
	var b strings.Builder
	for y := h - 1; y >= 0; y-- {
		for x := 0; x < 10; x++ {
			if f.Filled(x, y) {
				b.WriteByte('X')
			} else {
				b.WriteByte('_')
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
