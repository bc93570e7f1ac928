// This file holds the Base2048 and Base65536 layers, built from the
// repertoire tables embedded next to it.

package replay

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

//go:embed base2048_ranges.txt
var ranges2048 string

//go:embed base65536_ranges.txt
var ranges65536 string

// repertoire maps values to code points and back for one alphabet.
type repertoire struct {
	main  []rune
	tail  []rune
	index map[rune]int // code point → value; tail values are stored as -1-v
}

// The tables are built on first use (not at start-up: the 65 536-entry
// map costs every yomi command a few milliseconds of page faults and map
// inserts) and only read afterwards.
var (
	rep2048  = sync.OnceValue(func() *repertoire { return loadRepertoire(ranges2048) })
	rep65536 = sync.OnceValue(func() *repertoire { return loadRepertoire(ranges65536) })
)

func loadRepertoire(text string) *repertoire {
	r := &repertoire{index: map[rune]int{}}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		kind, rng, ok := strings.Cut(line, " ")
		lo, hi, ok2 := strings.Cut(rng, "-")
		a, err1 := strconv.ParseUint(lo, 16, 32)
		b, err2 := strconv.ParseUint(hi, 16, 32)
		if !ok || !ok2 || err1 != nil || err2 != nil {
			panic("replay: bad repertoire line " + line)
		}
		for c := rune(a); c <= rune(b); c++ {
			switch kind {
			case "main":
				r.index[c] = len(r.main)
				r.main = append(r.main, c)
			case "tail":
				r.index[c] = -1 - len(r.tail)
				r.tail = append(r.tail, c)
			}
		}
	}
	return r
}

// encode2048 writes 11 bits per character, MSB first; 4–10 leftover bits are
// padded with 1s to a main character, 1–3 to a tail character.
func encode2048(b []byte) string {
	var sb strings.Builder
	acc, n := uint32(0), 0
	for _, c := range b {
		acc = acc<<8 | uint32(c)
		n += 8
		for n >= 11 {
			n -= 11
			sb.WriteRune(rep2048().main[acc>>n&2047])
		}
		acc &= 1<<n - 1
	}
	switch {
	case n >= 4:
		v := acc<<(11-n) | (1<<(11-n) - 1)
		sb.WriteRune(rep2048().main[v])
	case n > 0:
		v := acc<<(3-n) | (1<<(3-n) - 1)
		sb.WriteRune(rep2048().tail[v])
	}
	return sb.String()
}

func decode2048(s string) ([]byte, error) {
	var out []byte
	acc, n := uint32(0), 0
	pos := 0
	sawTail := false
	for _, c := range s {
		pos++
		if sawTail {
			return nil, &Error{Encoding: Base2048, Pos: pos - 1, Reason: "tail character is not the last one"}
		}
		v, ok := rep2048().index[c]
		if !ok {
			return nil, &Error{Encoding: Base2048, Pos: pos, Reason: badChar(c, "Base2048")}
		}
		bits := 11
		if v < 0 {
			v, bits, sawTail = -1-v, 3, true
		}
		acc = acc<<bits | uint32(v)
		n += bits
		for n >= 8 {
			n -= 8
			out = append(out, byte(acc>>n))
		}
		acc &= 1<<n - 1
	}
	if acc != 1<<n-1 {
		return nil, &Error{Encoding: Base2048, Pos: pos, Reason: fmt.Sprintf("padding mismatch: the last %d bits must all be 1", n)}
	}
	return out, nil
}

// encode65536 writes 16 bits per character (bytes swapped in the numbering)
// and an odd last byte as a tail character.
func encode65536(b []byte) string {
	var sb strings.Builder
	for i := 0; i+1 < len(b); i += 2 {
		z := int(b[i])<<8 | int(b[i+1])
		z2 := (z&255)<<8 | z>>8
		sb.WriteRune(rep65536().main[z2])
	}
	if len(b)%2 == 1 {
		sb.WriteRune(rep65536().tail[b[len(b)-1]])
	}
	return sb.String()
}

func decode65536(s string) ([]byte, error) {
	var out []byte
	pos := 0
	sawTail := false
	for _, c := range s {
		pos++
		if sawTail {
			return nil, &Error{Encoding: Base65536, Pos: pos - 1, Reason: "tail character is not the last one"}
		}
		v, ok := rep65536().index[c]
		if !ok {
			return nil, &Error{Encoding: Base65536, Pos: pos, Reason: badChar(c, "Base65536")}
		}
		if v < 0 {
			out = append(out, byte(-1-v))
			sawTail = true
			continue
		}
		z := (v&255)<<8 | v>>8
		out = append(out, byte(z>>8), byte(z))
	}
	return out, nil
}

// badChar is the reason given for a character outside an encoding's
// repertoire; U+FFFD stands for bytes that are not UTF-8, which is what a
// replay cut in the middle of a character ends with.
func badChar(c rune, enc string) string {
	if c == utf8.RuneError {
		return "not UTF-8 (a truncated or damaged replay?)"
	}
	return fmt.Sprintf("bad character %q (U+%04X) not in the %s repertoire", c, c, enc)
}
