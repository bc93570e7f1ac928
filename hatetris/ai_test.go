package hatetris

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// refChoose is the enemy as the spec states it, without shortcuts: rate
// every piece by the highest Top over all its futures, order the pieces by
// (rating, rank), and with the loop rule take the first piece none of whose
// futures loops, else the one with the smallest maximum loop count (ties by
// that order).
func refChoose(w *Well, loops func(*Well) int) (Piece, []Future) {
	var futs [NumPieces][]Future
	var rating [NumPieces]int
	order := make([]Piece, NumPieces)
	for p := Piece(0); p < NumPieces; p++ {
		futs[p] = Futures(nil, w, p)
		rating[p] = -1
		for _, f := range futs[p] {
			rating[p] = max(rating[p], f.Well.Top())
		}
		order[p] = p
	}
	slices.SortStableFunc(order, func(a, b Piece) int { return rating[a] - rating[b] })
	if loops == nil {
		return order[0], futs[order[0]]
	}
	best, bestLoops := order[0], -1
	for _, p := range order {
		ml := -1
		for i := range futs[p] {
			ml = max(ml, loops(&futs[p][i].Well))
		}
		if ml <= 0 {
			return p, futs[p]
		}
		if bestLoops < 0 || ml < bestLoops {
			best, bestLoops = p, ml
		}
	}
	return best, futs[best]
}

// wellHash is a deterministic pseudo-random number for a well.
func wellHash(w *Well, salt uint64) uint64 {
	h := salt*0x9E3779B97F4A7C15 + 1
	for _, r := range w {
		h = (h ^ uint64(r)) * 0x100000001B3
	}
	return h ^ h>>29
}

// testWells returns reachable wells from random play, dense wells whose
// bottom rows miss one to three cells (so that many locks clear lines, some
// several), and dense wells with empty rows inside the stack.
func testWells(n int, seed uint64) []Well {
	r := rand.New(rand.NewPCG(seed, 3))
	wells := randomWells(n, seed)
	for i := 0; i < n; i++ {
		var w Well
		for y := Height - 1 - r.IntN(14); y < Height; y++ {
			w[y] = FullRow
			for k := 1 + r.IntN(3); k > 0; k-- {
				w[y] &^= 1 << r.IntN(Width)
			}
			if i%3 == 0 && r.IntN(6) == 0 {
				w[y] = 0
			}
		}
		wells = append(wells, w)
	}
	return wells
}

// TestChooseMatchesReference compares Expander.Choose (lazy ratings, bounds,
// early exits) with refChoose on random and dense wells, for Mild and for
// loop functions under which some or every future loops.
func TestChooseMatchesReference(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 300
	}
	loopFuncs := []struct {
		name  string
		loops func(*Well) int
	}{
		{"mild", nil},
		{"none", func(*Well) int { return 0 }},
		{"some", func(w *Well) int {
			if h := wellHash(w, 1); h%4 == 0 {
				return int(h>>8%3) + 1
			}
			return 0
		}},
		{"all", func(w *Well) int { return int(wellHash(w, 2)>>8%3) + 1 }},
	}
	var e Expander
	for i, w := range testWells(n, 5) {
		for _, lf := range loopFuncs {
			wantP, wantF := refChoose(&w, lf.loops)
			gotP, gotF := e.Choose(&w, lf.loops)
			if gotP != wantP || !slices.Equal(gotF, wantF) {
				t.Fatalf("well %d loops %s: piece %v with %d futures, reference %v with %d\n%v", i, lf.name, gotP, len(gotF), wantP, len(wantF), w)
			}
		}
	}
}

// TestChooseNoAlloc: once its buffers have grown, Choose allocates nothing.
func TestChooseNoAlloc(t *testing.T) {
	wells := testWells(50, 11)
	var e Expander
	loops := func(*Well) int { return 0 }
	for i := range wells {
		e.Choose(&wells[i], loops)
	}
	if n := testing.AllocsPerRun(5, func() {
		for i := range wells {
			e.Choose(&wells[i], loops)
		}
	}); n != 0 {
		t.Errorf("Choose: %v allocations per pass over %d wells", n, len(wells))
	}
}
