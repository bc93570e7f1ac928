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
