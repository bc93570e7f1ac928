// This file tests the bit-parallel placement generator against reach.go's
// breadth-first search on random fields (differential test).

package pc

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestFastPlacementsMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	r := newReacher()
	ft := newFastTables()
	n := 3000
	if testing.Short() {
		n = 600
	}
	for i := range n {
		h := 1 + rng.IntN(MaxHeight)
		var f Field
		density := rng.Float64() * 0.8
		for y := range h {
			for x := range 10 {
				if rng.Float64() < density*float64(h-y)/float64(h)*1.5 {
					f |= 1 << (10*y + x)
				}
			}
		}
		if i%5 == 0 {
			f = 0
		}
		for p := Piece(0); p < 7; p++ {
			want := r.placements(f, h, p, nil)
			got := ft.placements(f, h, p, nil)
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(want, got) {
				t.Fatalf("field (h %d)\n%s piece %v: fast %d placements, reference %d", h, f.Format(h), p, len(got), len(want))
			}
		}
	}
}
