// rank_test.go checks Options.RankSelect: Cold Clear 2's draw of a child
// by rank alone, its exclusions, and that a search with it repeats.

package bot

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestRankDraw(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const draws = 200000
	for _, tc := range []struct {
		n int
		c float64
	}{{30, math.Ln2}, {3, math.Ln2}, {10, 1.5}} {
		counts := make([]int, tc.n)
		for range draws {
			counts[rankDraw(tc.n, tc.c, rng)]++
		}
		// P(rank i) = Σ_k p(i + k·n), p(j) = e^(−c·j)(1 − e^(−c))
		for i := range min(tc.n, 4) {
			want := 0.0
			for j := i; j < 60*tc.n; j += tc.n {
				want += math.Exp(-tc.c*float64(j)) * (1 - math.Exp(-tc.c))
			}
			got := float64(counts[i]) / draws
			if math.Abs(got-want) > 0.01 {
				t.Errorf("n %d c %.2f: rank %d drawn %.3f, want %.3f", tc.n, tc.c, i, got, want)
			}
		}
	}
	// exclusions: never an excluded rank, −1 once all are excluded
	for range 1000 {
		r := rankDrawExcluding(5, []int32{0, 2}, math.Ln2, rng)
		if r < 0 || r == 0 || r == 2 || r >= 5 {
			t.Fatalf("drew %d", r)
		}
	}
	if r := rankDrawExcluding(2, []int32{1, 0}, math.Ln2, rng); r != -1 {
		t.Fatalf("all excluded: drew %d", r)
	}
}

// TestRankSelectSearch: a one-thread search with RankSelect repeats
// exactly for a seed, and differs from CC1's draw.
func TestRankSelectSearch(t *testing.T) {
	run := func(c float64) ([]Candidate, Stats) {
		b := New(Options{Seed: 5, RankSelect: c, Reserve: -1})
		defer b.Close()
		if err := b.Reset(Board{}, []Piece{T, I, O, L, J, S}, NoPiece, 0x7F); err != nil {
			t.Fatal(err)
		}
		st := b.Think(context.Background(), Budget{Nodes: 30000})
		return b.Candidates(), st
	}
	a, sa := run(math.Ln2)
	b, sb := run(math.Ln2)
	if len(a) == 0 || !slices.Equal(a, b) || sa.Nodes != sb.Nodes || sa.Expansions != sb.Expansions {
		t.Fatalf("RankSelect search does not repeat: %d/%d candidates, %+v vs %+v", len(a), len(b), sa, sb)
	}
	c, sc := run(0)
	if sc.Expansions == sa.Expansions && slices.Equal(a, c) {
		t.Fatal("RankSelect changed nothing")
	}
}
