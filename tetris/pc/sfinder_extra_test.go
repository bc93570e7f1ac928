// This file holds cases beyond the spec, checked against sfinder 1.43
// (knewjade/solution-finder, built and run here outside the repository:
// `java Main percent -fp FIELD -p PATTERN -c N [-H avoid]` and `path`).

package pc

import (
	"context"
	"testing"
)

func TestPercentSfinderExtra(t *testing.T) {
	cases := []struct {
		name, field, pattern string
		clear                int
		hold                 bool
		success, total       int
	}{
		{"empty 2 lines", "__________ __________", "*p7", 2, true, 0, 5040},
		{"empty 2 lines no hold", "__________ __________", "*p7", 2, false, 0, 2520},
		{"4 pieces, hold, no spare", "XX_____XXX XXX____XXX XXX____XXX XXXX___XXX", "*p4", 4, true, 306, 840},
		{"spec percent1 no hold", "_______XXX ________XX XX____XXXX XX_____XXX", "*p7", 4, false, 728, 5040},
		{"3 lines", "XX____XXXX X_____XXXX XX___XXXXX", "*p4", 3, true, 434, 840},
		{"3 lines, 5 pieces", "________XX ______XXXX ______XXXX", "*p6", 3, true, 3782, 5040},
		{"6 pieces from a 6-piece pattern", "X____X____ XX__XX____ XX__XX____ XXXXXX____", "I,*p5", 4, true, 1270, 2520},
		{"left-side opener shape", "XX________ XX________ XXX______X XXXXXXX__X", "I,*p6", 4, true, 4386, 5040},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, _, err := ParseField(c.field)
			if err != nil {
				t.Fatal(err)
			}
			p, err := ParsePattern(c.pattern)
			if err != nil {
				t.Fatal(err)
			}
			s, n, err := Percent(context.Background(), f, p, Options{Height: c.clear, Hold: c.hold})
			if err != nil || s != c.success || n != c.total {
				t.Fatalf("%d/%d %v, sfinder %d/%d", s, n, err, c.success, c.total)
			}
		})
	}
}

func TestPathSfinderExtra(t *testing.T) {
	cases := []struct {
		field, pattern  string
		clear           int
		unique, minimal int
	}{
		{"XX_____XXX XXX____XXX XXX____XXX XXXX___XXX", "*p4", 4, 39, 29},
		{"XX____XXXX X_____XXXX XX___XXXXX", "*p4", 3, 15, 14},
		{"X____X____ XX__XX____ XX__XX____ XXXXXX____", "T,I,O,*p4", 4, 221, 41},
	}
	for _, c := range cases {
		f, _, _ := ParseField(c.field)
		p, _ := ParsePattern(c.pattern)
		sols, _, err := Paths(context.Background(), f, p, Options{Height: c.clear, Hold: true})
		if err != nil || len(sols) != c.unique || len(Minimal(sols)) != c.minimal {
			t.Errorf("%s %s: unique %d minimal %d %v, sfinder %d %d", c.field, c.pattern, len(sols), len(Minimal(sols)), err, c.unique, c.minimal)
		}
	}
}

// TestPercentTooFewPieces: like sfinder, a pattern shorter than the pieces
// the field needs is an error, not 0 %.
func TestPercentTooFewPieces(t *testing.T) {
	f, _, _ := ParseField("__________ __________ XXXX______ XXXX_____X XXXX____XX XXXX_____X")
	p, _ := ParsePattern("*p7")
	if _, _, err := Percent(context.Background(), f, p, Options{Height: 6, Hold: true}); err == nil {
		t.Fatal("no error for 7 pieces on a field needing 10")
	}
}
