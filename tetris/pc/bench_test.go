// This file holds testing.B benchmarks for the finder on the spec's percent cases.

package pc

import (
	"context"
	"testing"
)

func BenchmarkPercentSpec(b *testing.B) {
	cases := []struct{ name, field, pattern string }{
		{"percent1", "_______XXX ________XX XX____XXXX XX_____XXX", "*p7"},
		{"percent2", "X____X____ XX__XX____ XX__XX____ XXXXXX____", "T,I,O,*p4"},
		{"percent5", "XXXX_____X XX______XX XXX____XXX XXX_____XX", "[OSZTLJ]p6"},
		{"empty4-10", "__________ __________ __________ __________", "I,O,L,J,S,Z,T,*p4"},
	}
	for _, c := range cases {
		f, h, _ := ParseField(c.field)
		p, _ := ParsePattern(c.pattern)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := Percent(context.Background(), f, p, Options{Height: h, Hold: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPercentSearch times the depth-first search (Percent's path
// beyond maxSeqPieces placements) on the second spec case's sequences.
func BenchmarkPercentSearch(b *testing.B) {
	f, h, _ := ParseField("X____X____ XX__XX____ XX__XX____ XXXXXX____")
	p, _ := ParsePattern("T,I,O,*p4")
	var uniq [][]Piece
	for _, q := range p.Sequences() {
		uniq = append(uniq, q[:min(len(q), 7)])
	}
	for b.Loop() {
		if _, err := percentSearch(context.Background(), f, h, uniq, Options{Height: h, Hold: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPaths times path enumeration on the spec's path vector.
func BenchmarkPaths(b *testing.B) {
	f, h, _ := ParseField("XXXXXX____ XXXXXX____ XXXXXX____ XXXXXX____")
	p, _ := ParsePattern("*p7")
	for b.Loop() {
		if _, _, err := Paths(context.Background(), f, p, Options{Height: h, Hold: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPathsTiled times the shared path enumeration on the empty 4-line
// field for a few 11-piece sequences (10 placements).
func BenchmarkPathsTiled(b *testing.B) {
	p, _ := ParsePattern("I,O,L,J,S,Z,T,[SZT]p3")
	for b.Loop() {
		if _, _, err := Paths(context.Background(), 0, p, Options{Height: 4, Hold: true}); err != nil {
			b.Fatal(err)
		}
	}
}
