// This file holds move notation: "x1y1-x2y2-x3y3" with one base-20 digit per
// coordinate (0-9 then a-j), optionally prefixed by "R:" or "B:" for the side.

package separo

import (
	"fmt"
	"strings"
)

const digits = "0123456789abcdefghij"

// String writes m as "x1y1-x2y2-x3y3" (e.g. "00-11-12").
func (m Move) String() string {
	var buf [8]byte
	ps := [3]Point{m.S1, m.S2, m.S3}
	for i, p := range ps {
		if i > 0 {
			buf[3*i-1] = '-'
		}
		buf[3*i] = digit(p.X)
		buf[3*i+1] = digit(p.Y)
	}
	return string(buf[:])
}

func digit(v int8) byte {
	if v < 0 || int(v) >= len(digits) {
		return '?'
	}
	return digits[v]
}

func undigit(c byte) (int8, bool) {
	if c >= 'A' && c <= 'Z' {
		c += 'a' - 'A'
	}
	i := strings.IndexByte(digits, c)
	return int8(i), i >= 0
}

// ParseMove reads "x1y1-x2y2-x3y3". It checks the syntax and the shape (a
// diagonal step then an orthogonal step making 135°), not legality.
func ParseMove(s string) (Move, error) {
	if len(s) != 8 || s[2] != '-' || s[5] != '-' {
		return Move{}, fmt.Errorf("separo: move %q: want x1y1-x2y2-x3y3", s)
	}
	var ps [3]Point
	for i := range ps {
		x, ok1 := undigit(s[3*i])
		y, ok2 := undigit(s[3*i+1])
		if !ok1 || !ok2 {
			return Move{}, fmt.Errorf("separo: move %q: bad coordinate %q", s, s[3*i:3*i+2])
		}
		ps[i] = Point{x, y}
	}
	m := Move{ps[0], ps[1], ps[2]}
	if !m.wellShaped() {
		return Move{}, fmt.Errorf("separo: move %q: not a diagonal step followed by an orthogonal step at 135°", s)
	}
	return m, nil
}

// wellShaped reports whether S1→S2 is a diagonal unit step and S2→S3 one of
// its two orthogonal continuations.
func (m Move) wellShaped() bool {
	dx, dy := m.S2.X-m.S1.X, m.S2.Y-m.S1.Y
	if abs8(dx) != 1 || abs8(dy) != 1 {
		return false
	}
	ex, ey := m.S3.X-m.S2.X, m.S3.Y-m.S2.Y
	return (ex == dx && ey == 0) || (ex == 0 && ey == dy)
}

// ParseColoredMove reads "R:x1y1-x2y2-x3y3" or "B:…".
func ParseColoredMove(s string) (Color, Move, error) {
	if len(s) < 2 || s[1] != ':' || (s[0] != 'R' && s[0] != 'B') {
		return 0, Move{}, fmt.Errorf("separo: move %q: want R: or B: prefix", s)
	}
	m, err := ParseMove(s[2:])
	if err != nil {
		return 0, Move{}, err
	}
	if s[0] == 'R' {
		return Red, m, nil
	}
	return Blue, m, nil
}

// String draws the board as text: R/B stones, '.' empty points, one row per y.
func (b Board) String() string {
	var sb strings.Builder
	for y := range b.w {
		for x := range b.w {
			if x > 0 {
				sb.WriteByte(' ')
			}
			switch b.color[int(x)*int(b.w)+int(y)] {
			case 1:
				sb.WriteByte('R')
			case 2:
				sb.WriteByte('B')
			default:
				sb.WriteByte('.')
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// MoveKeys returns the number of distinct move keys on a board of this size.
func (b *Board) MoveKeys() int { return int(b.w) * int(b.w) * 8 }

// MoveKey maps a well-shaped move to a small integer in [0, MoveKeys()):
// the start point, the diagonal and which orthogonal continuation.
func (b *Board) MoveKey(m Move) int {
	d1 := dirOf(m.S2.X-m.S1.X, m.S2.Y-m.S1.Y)
	k2 := 0
	if m.S3.X == m.S2.X {
		k2 = 1
	}
	return ((int(m.S1.X)*int(b.w)+int(m.S1.Y))*4+d1)*2 + k2
}
