package hatetris

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"
)

// bruteChoose is the enemy exactly as the spec's pseudo-code states it, on
// the reference futures: seen counts w first, then the piece with the
// smallest (maximum loops, highest peak, rank).
func bruteChoose(w Well, seen map[Well]int) Piece {
	best, bml, bhp := Piece(0), 0, 0
	for p := Piece(0); p < NumPieces; p++ {
		ml, hp := -1, -1
		for _, f := range refFutures(w, p) {
			ml = max(ml, seen[f.Well])
			hp = max(hp, f.Well.Top())
		}
		if p == 0 || ml < bml || ml == bml && hp < bhp {
			best, bml, bhp = p, ml, hp
		}
	}
	return best
}

// bruteSmall is the most lines the player can guarantee from w with seen
// holding the wells of the earlier spawns: every line of play, no memo.
func bruteSmall(t *testing.T, w Well, seen map[Well]int, depth int) int {
	if depth > 200 {
		t.Fatal("brute force: line of play longer than 200 pieces")
	}
	seen[w]++
	defer func() { seen[w]-- }()
	best := 0
	for _, f := range refFutures(w, bruteChoose(w, seen)) {
		v := int(f.Lines)
		if !f.Well.Over() {
			v += bruteSmall(t, f.Well, seen, depth+1)
		}
		best = max(best, v)
	}
	return best
}

// solved4 is the height-4 solution, solved once for all tests.
var solved4 = func() func(*testing.T) *SmallSolution {
	var once sync.Once
	var sol *SmallSolution
	var err error
	return func(t *testing.T) *SmallSolution {
		once.Do(func() { sol, err = SolveSmall(context.Background(), 4, Hatetris, 0) })
		if err != nil {
			t.Fatal(err)
		}
		return sol
	}
}()

func TestSolveSmallMatchesBruteForce(t *testing.T) {
	for _, tc := range []struct {
		h, best int
		brute   bool // also walk every line of play from the empty well
	}{
		{1, 0, true},
		{2, 0, true},
		{3, 0, true},
		{4, 1, false},
	} {
		sol := solved4(t)
		if tc.h != 4 {
			var err error
			if sol, err = SolveSmall(context.Background(), tc.h, Hatetris, 0); err != nil {
				t.Fatal(err)
			}
		}
		if sol.Best != tc.best {
			t.Errorf("height %d: best %d, want %d", tc.h, sol.Best, tc.best)
		}
		if tc.brute {
			if got := bruteSmall(t, SmallWell(tc.h), map[Well]int{}, 0); got != sol.Best {
				t.Errorf("height %d: brute force %d, solver %d", tc.h, got, sol.Best)
			}
		}
		mild, err := SolveSmall(context.Background(), tc.h, Mild, 0)
		if err != nil {
			t.Fatal(err)
		}
		if mild.Best != tc.best || len(mild.Value) != len(sol.Value) {
			t.Errorf("height %d: mild best %d with %d wells, hatetris %d with %d", tc.h, mild.Best, len(mild.Value), sol.Best, len(sol.Value))
		}
	}
}

// TestSolveSmallWellValues solves height 4 from reached wells as roots
// and compares with the brute force from the same wells: every well on a
// cycle of futures (where the loop rule can act; 12 to 32 cells), and
// every well that scores and 40 random others with at least 20 cells (the
// brute force grows about tenfold per piece fewer: 16 cells take 14 ms,
// 12 cells 0.2 s). The solver's own value of a well on
// no cycle must not depend on the root either.
func TestSolveSmallWellValues(t *testing.T) {
	const h = 4
	ctx := context.Background()
	sol := solved4(t)
	comp, _, err := smallComponents(ctx, h, sol.Value)
	if err != nil {
		t.Fatal(err)
	}
	if len(comp) != sol.Cyclic || sol.Cyclic == 0 {
		t.Fatalf("wells on cycles: %d, solution says %d (want some at height 4)", len(comp), sol.Cyclic)
	}
	floor := (16 - h) * Width
	keys := make([]SmallKey, 0, len(sol.Value))
	for k := range sol.Value {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b SmallKey) int {
		if a.Hi != b.Hi {
			return int(a.Hi) - int(b.Hi)
		}
		return cmp.Compare(a.Lo, b.Lo)
	})
	var pick, others []SmallKey
	cyclic, scoring := 0, 0
	for _, k := range keys {
		w := k.Well(h)
		_, onCycle := comp[k]
		switch c := w.Cells() - floor; {
		case onCycle:
			pick = append(pick, k)
			cyclic++
		case c < 20:
		case sol.Value[k] > 0:
			pick = append(pick, k)
			scoring++
		default:
			others = append(others, k)
		}
	}
	r := rand.New(rand.NewPCG(4, 4))
	for range 40 {
		pick = append(pick, others[r.IntN(len(others))])
	}
	if cyclic != sol.Cyclic || scoring < 50 {
		t.Fatalf("picked %d wells on cycles (of %d) and %d that score", cyclic, sol.Cyclic, scoring)
	}
	deadline := time.Now().Add(60 * time.Second)
	for _, k := range pick {
		w := k.Well(h)
		from, err := SolveSmallFrom(ctx, h, w, Hatetris, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := bruteSmall(t, w, map[Well]int{}, 0); got != from.Best {
			t.Errorf("well\n%v: brute force %d, solver %d", w, got, from.Best)
		}
		if _, onCycle := comp[k]; !onCycle && from.Best != int(sol.Value[k]) {
			t.Errorf("well\n%v: %d as a root, %d from the empty well", w, from.Best, sol.Value[k])
		}
		if time.Now().After(deadline) {
			t.Fatal("brute force too slow: past 60 s")
		}
	}
}

func TestSmallKeyRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for h := 1; h <= 7; h++ {
		for range 100 {
			w := SmallWell(h)
			for y := Bar; y < Bar+h; y++ {
				w[y] = uint16(r.IntN(FullRow))
			}
			if got := smallKey(&w, h).Well(h); got != w {
				t.Fatalf("height %d: %v round-trips to %v", h, w, got)
			}
		}
	}
}

func TestSolveSmallErrors(t *testing.T) {
	for _, h := range []int{0, 8} {
		if _, err := SolveSmall(context.Background(), h, Hatetris, 0); err == nil {
			t.Errorf("height %d: no error", h)
		}
	}
	if _, err := SolveSmall(context.Background(), 4, Hatetris, 100); err != ErrSmallLimit {
		t.Errorf("limit 100: %v, want ErrSmallLimit", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := SolveSmall(ctx, 5, Hatetris, 0); err == nil {
		t.Error("cancelled: no error")
	}
}
