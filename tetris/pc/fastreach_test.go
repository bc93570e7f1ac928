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

// feasibleRef is the cell-by-cell version of feasible: between two
// columns with no row where both cells are empty no piece can ever lie
// (rows clear whole, so that stays true), and the empty cells on each side
// of such a wall must come in fours.
func feasibleRef(f Field, h, pieces int) bool {
	empty := 0
	for y := range h {
		for x := range 10 {
			if !f.Filled(x, y) {
				empty++
			}
		}
	}
	if empty%4 != 0 || empty/4 > pieces {
		return false
	}
	run := 0
	for x := range 10 {
		if x > 0 {
			open := false
			for y := range h {
				if !f.Filled(x-1, y) && !f.Filled(x, y) {
					open = true
				}
			}
			if !open {
				if run%4 != 0 {
					return false
				}
				run = 0
			}
		}
		for y := range h {
			if !f.Filled(x, y) {
				run++
			}
		}
	}
	return run%4 == 0
}

func TestFeasibleMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	agree := [2]int{}
	for range 20000 {
		h := 1 + rng.IntN(MaxHeight)
		var f Field
		for y := range h {
			for x := range 10 {
				if rng.IntN(3) > 0 || x == 4 && rng.IntN(2) == 0 || x == 5 && y%2 == 0 && rng.IntN(2) == 0 {
					f |= 1 << (10*y + x)
				}
			}
		}
		want := feasibleRef(f, h, 20)
		if got := feasible(f, h, 20); got != want {
			t.Fatalf("h %d\n%sfeasible %v, reference %v", h, f.Format(h), got, want)
		}
		if want {
			agree[1]++
		} else {
			agree[0]++
		}
	}
	if agree[0] == 0 || agree[1] == 0 {
		t.Fatalf("one-sided sample %v", agree)
	}
}
