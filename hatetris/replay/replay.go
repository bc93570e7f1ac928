// Package replay reads and writes HATETRIS replays in the four encodings the
// original game accepts: raw move letters, hex, Base65536 and Base2048 (the
// last two over a run-length nybble layer).
//
// Start with Decode, which detects the encoding in the original's order, and
// Encode. Errors name the offending character position and the reason.
package replay

import (
	"errors"
	"fmt"
	"strings"

	"github.com/yomi-ai/yomi/hatetris"
)

// Encoding names a replay encoding.
type Encoding string

// The encodings, in the order Decode tries them.
const (
	Raw       Encoding = "raw"
	Hex       Encoding = "hex"
	Base65536 Encoding = "base65536"
	Base2048  Encoding = "base2048"
)

// ParseEncoding reads an encoding name.
func ParseEncoding(s string) (Encoding, error) {
	switch e := Encoding(strings.ToLower(s)); e {
	case Raw, Hex, Base65536, Base2048:
		return e, nil
	}
	return "", fmt.Errorf("replay: unknown encoding %q (want raw, hex, base65536 or base2048)", s)
}

// Error is a decoding error at a character position (1-based, counted in
// Unicode code points of the trimmed replay).
type Error struct {
	Encoding Encoding
	Pos      int
	Reason   string
}

// Error formats the error with the encoding and, when known, the character position.
func (e *Error) Error() string {
	if e.Encoding == "" {
		if e.Pos > 0 {
			return fmt.Sprintf("replay: character %d: %s", e.Pos, e.Reason)
		}
		return "replay: " + e.Reason
	}
	if e.Pos > 0 {
		return fmt.Sprintf("replay (%s): character %d: %s", e.Encoding, e.Pos, e.Reason)
	}
	return fmt.Sprintf("replay (%s): %s", e.Encoding, e.Reason)
}

// Decode detects the encoding of s the way the original does (after trimming
// whitespace: raw if only U L D R, hex if only 0-9 A-F # and spaces, else
// Base65536 if it decodes, else Base2048) and returns the moves. When
// neither Base65536 nor Base2048 decodes, the error is the one of the
// encoding that read further (a truncated Base65536 replay gets a Base65536
// error), or names both when they fail at the same character.
func Decode(s string) ([]hatetris.Move, Encoding, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, "", &Error{Encoding: Raw, Reason: "empty replay"}
	}
	if onlyChars(s, "ULDR") {
		m, err := DecodeAs(s, Raw)
		return m, Raw, err
	}
	if onlyChars(s, "0123456789ABCDEF# ") {
		m, err := DecodeAs(s, Hex)
		return m, Hex, err
	}
	m, err65 := DecodeAs(s, Base65536)
	if err65 == nil {
		return m, Base65536, nil
	}
	m, err := DecodeAs(s, Base2048)
	if err == nil {
		return m, Base2048, nil
	}
	var a, b *Error
	if errors.As(err65, &a) && errors.As(err, &b) {
		switch {
		case a.Pos > b.Pos:
			return nil, Base65536, err65
		case a.Pos == b.Pos:
			return nil, "", &Error{Pos: a.Pos, Reason: fmt.Sprintf("neither Base65536 (%s) nor Base2048 (%s)", a.Reason, b.Reason)}
		}
	}
	return nil, Base2048, err
}

func onlyChars(s, set string) bool {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(set, s[i]) < 0 {
			return false
		}
	}
	return true
}

// DecodeAs decodes s (whitespace-trimmed) in the given encoding.
func DecodeAs(s string, enc Encoding) ([]hatetris.Move, error) {
	s = strings.TrimSpace(s)
	switch enc {
	case Raw:
		ms, err := hatetris.ParseMoves(s)
		if err != nil {
			for i := 0; i < len(s); i++ {
				if strings.IndexByte("LRDU", s[i]) < 0 {
					return nil, &Error{Encoding: Raw, Pos: i + 1, Reason: fmt.Sprintf("bad character %q (want L, R, D or U)", s[i])}
				}
			}
		}
		return ms, err
	case Hex:
		return decodeHex(s)
	case Base65536:
		b, err := decode65536(s)
		if err != nil {
			return nil, err
		}
		return unRLE(b), nil
	case Base2048:
		b, err := decode2048(s)
		if err != nil {
			return nil, err
		}
		return unRLE(b), nil
	}
	return nil, fmt.Errorf("replay: unknown encoding %q", enc)
}

// Encode writes moves in the given encoding, exactly as the original does.
func Encode(moves []hatetris.Move, enc Encoding) (string, error) {
	switch enc {
	case Raw:
		return hatetris.MovesString(moves), nil
	case Hex:
		return encodeHex(moves), nil
	case Base65536:
		return encode65536(rle(moves)), nil
	case Base2048:
		return encode2048(rle(moves)), nil
	}
	return "", fmt.Errorf("replay: unknown encoding %q", enc)
}

// decodeHex reads two moves per hex digit (high bits first), skipping spaces
// and '#'.
func decodeHex(s string) ([]hatetris.Move, error) {
	ms := make([]hatetris.Move, 0, 2*len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		case c == ' ' || c == '#':
			continue
		default:
			return nil, &Error{Encoding: Hex, Pos: i + 1, Reason: fmt.Sprintf("bad character %q (want 0-9, A-F, space or #)", c)}
		}
		ms = append(ms, hatetris.Move(v>>2), hatetris.Move(v&3))
	}
	return ms, nil
}

// encodeHex writes two moves per digit, padding an odd count with D, with a
// space after every complete group of four digits (none at the end).
func encodeHex(ms []hatetris.Move) string {
	var b strings.Builder
	for i := 0; i < len(ms); i += 2 {
		second := hatetris.Down
		if i+1 < len(ms) {
			second = ms[i+1]
		}
		v := byte(ms[i])<<2 | byte(second)
		b.WriteByte("0123456789ABCDEF"[v])
		if (i/2+1)%4 == 0 && i+2 < len(ms) {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// rle packs moves into run-length nybbles (move<<2 | run-1, runs up to 4),
// two per byte, first in the high half, an odd count padded with nybble 0.
func rle(ms []hatetris.Move) []byte {
	var nyb []byte
	for i := 0; i < len(ms); {
		j := i + 1
		for j < len(ms) && j-i < 4 && ms[j] == ms[i] {
			j++
		}
		nyb = append(nyb, byte(ms[i])<<2|byte(j-i-1))
		i = j
	}
	if len(nyb)%2 == 1 {
		nyb = append(nyb, 0)
	}
	out := make([]byte, len(nyb)/2)
	for i := range out {
		out[i] = nyb[2*i]<<4 | nyb[2*i+1]
	}
	return out
}

// unRLE expands every nybble, including a trailing pad.
func unRLE(b []byte) []hatetris.Move {
	var ms []hatetris.Move
	for _, c := range b {
		for _, n := range [2]byte{c >> 4, c & 15} {
			for k := byte(0); k <= n&3; k++ {
				ms = append(ms, hatetris.Move(n>>2))
			}
		}
	}
	return ms
}
