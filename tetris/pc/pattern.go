// This file holds sfinder's pattern language: parsing and sequence expansion.

package pc

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Piece is a tetromino, in sfinder's order T I L J S Z O.
type Piece uint8

// The seven pieces.
const (
	T Piece = iota
	I
	L
	J
	S
	Z
	O
)

// pieceLetters maps a Piece to its letter.
const pieceLetters = "TILJSZO"

// String returns the piece letter.
func (p Piece) String() string {
	if p < 7 {
		return pieceLetters[p : p+1]
	}
	return "?"
}

// PieceFromLetter parses one piece letter (case-insensitive).
func PieceFromLetter(c byte) (Piece, bool) {
	i := strings.IndexByte(pieceLetters, upper(c))
	if i < 0 {
		return 0, false
	}
	return Piece(i), true
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// element is one pattern element: choose k distinct pieces, in order, from set.
// A plain letter, [..] or * has k = 1.
type element struct {
	set []Piece
	k   int
}

// Pattern is a parsed sfinder pattern: a union of products of elements.
type Pattern struct {
	alts [][]element
}

// ParsePattern parses sfinder pattern text: elements separated by optional
// commas, alternatives separated by ';' or newlines, '#' comments.
func ParsePattern(text string) (*Pattern, error) {
	p := &Pattern{}
	lines := strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == ';' })
	offset := 0
	for _, line := range lines {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		els, err := parseAlt(line)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %w", strings.TrimSpace(line), err)
		}
		p.alts = append(p.alts, els)
		offset += len(line)
	}
	if len(p.alts) == 0 {
		return nil, fmt.Errorf("pattern: empty")
	}
	return p, nil
}

func parseAlt(s string) ([]element, error) {
	var els []element
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ',' || c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == '*':
			els = append(els, element{set: []Piece{T, I, L, J, S, Z, O}, k: 1})
			i++
		case c == '[':
			j := strings.IndexByte(s[i:], ']')
			if j < 0 {
				return nil, fmt.Errorf("column %d: '[' without ']'", i+1)
			}
			body := s[i+1 : i+j]
			neg := strings.HasPrefix(body, "^")
			if neg {
				body = body[1:]
			}
			var in [7]bool
			for k := 0; k < len(body); k++ {
				pc, ok := PieceFromLetter(body[k])
				if !ok {
					return nil, fmt.Errorf("column %d: %q is not a piece", i+2+k, body[k])
				}
				if in[pc] {
					return nil, fmt.Errorf("column %d: piece %v repeated in set", i+2+k, pc)
				}
				in[pc] = true
			}
			var set []Piece
			for _, pc := range []Piece{T, I, L, J, S, Z, O} {
				if in[pc] != neg {
					set = append(set, pc)
				}
			}
			if len(set) == 0 {
				return nil, fmt.Errorf("column %d: empty piece set", i+1)
			}
			els = append(els, element{set: set, k: 1})
			i += j + 1
		default:
			pc, ok := PieceFromLetter(c)
			if !ok {
				return nil, fmt.Errorf("column %d: unexpected %q", i+1, c)
			}
			els = append(els, element{set: []Piece{pc}, k: 1})
			i++
			continue // a single letter takes no suffix
		}
		// Optional suffix pN or ! on * and [..].
		e := &els[len(els)-1]
		if i < len(s) && s[i] == '!' {
			e.k = len(e.set)
			i++
		} else if i < len(s) && (s[i] == 'p' || s[i] == 'P') {
			j := i + 1
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			n, err := strconv.Atoi(s[i+1 : j])
			if err != nil || n < 1 || n > len(e.set) {
				return nil, fmt.Errorf("column %d: bad count %q for a set of %d", i+1, s[i:j], len(e.set))
			}
			e.k = n
			i = j
		}
	}
	if len(els) == 0 {
		return nil, fmt.Errorf("no elements")
	}
	return els, nil
}

// maxCount caps Count so that long patterns cannot overflow.
const maxCount = 1 << 40

// Count returns the number of sequences the pattern denotes (duplicates across
// alternatives included, as sfinder counts them), capped at 2^40.
func (p *Pattern) Count() int {
	total := 0
	for _, alt := range p.alts {
		n := 1
		for _, e := range alt {
			for j := 0; j < e.k; j++ {
				n *= len(e.set) - j
				if n > maxCount {
					n = maxCount
				}
			}
		}
		total += n
		if total > maxCount {
			total = maxCount
		}
	}
	return total
}

// Sequences expands the pattern into its piece sequences, in order.
func (p *Pattern) Sequences() [][]Piece {
	out, _ := p.sequences(context.Background())
	return out
}

// sequences is Sequences, stopped (with ctx's error) when ctx ends: a
// pattern of millions of sequences takes seconds to list.
func (p *Pattern) sequences(ctx context.Context) ([][]Piece, error) {
	var out [][]Piece
	var err error
	for _, alt := range p.alts {
		var rec func(ei int, cur []Piece)
		rec = func(ei int, cur []Piece) {
			if err != nil {
				return
			}
			if ei == len(alt) {
				out = append(out, append([]Piece(nil), cur...))
				if len(out)&4095 == 0 {
					err = ctx.Err()
				}
				return
			}
			e := alt[ei]
			var perm func(left int, used uint8, cur []Piece)
			perm = func(left int, used uint8, cur []Piece) {
				if left == 0 {
					rec(ei+1, cur)
					return
				}
				for _, pc := range e.set {
					if used&(1<<pc) == 0 {
						perm(left-1, used|1<<pc, append(cur, pc))
					}
				}
			}
			perm(e.k, 0, cur)
		}
		rec(0, nil)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}
