// This file is the differential test of Paths' shared path (tilings
// enumerated once, pathsTiled) against the per-sequence enumeration.

package pc

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// pathsPerSequence forces Paths' per-sequence enumeration.
func pathsPerSequence(ctx context.Context, f Field, pat *Pattern, opt Options) ([]Solution, error) {
	saved := pathsTiledFrom
	pathsTiledFrom = 1 << 30
	defer func() { pathsTiledFrom = saved }()
	sols, _, err := Paths(ctx, f, pat, opt)
	return sols, err
}

// pathsTiledOnly forces Paths' shared path.
func pathsTiledOnly(ctx context.Context, f Field, pat *Pattern, opt Options) ([]Solution, error) {
	saved := pathsTiledFrom
	pathsTiledFrom = 0
	defer func() { pathsTiledFrom = saved }()
	sols, _, err := Paths(ctx, f, pat, opt)
	return sols, err
}

func TestPathsTiledMatchesPerSequence(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	ctx := context.Background()
	n := 30
	if testing.Short() {
		n = 10
	}
	total := 0
	for i := range n {
		h := 2 + rng.IntN(3)
		f := randomPCField(rng, h, 5)
		// Full rows in the starting field: the tilings' frame skips them.
		if i%5 == 4 && h < 4 {
			f = f&Field(uint64(1)<<(10*h)-1) | Field(fullRow)<<(10*h)
			f = f<<10 | Field(fullRow)
			f &= Field(uint64(1)<<(10*(h+1)) - 1)
			h++
		}
		need, err := PiecesNeeded(f, h)
		if err != nil {
			t.Fatal(err)
		}
		hold := i%3 != 0
		use := need
		if hold {
			use++
		}
		pat, err := ParsePattern(randomPattern(rng, use))
		if err != nil {
			t.Fatal(err)
		}
		if pat.Count() > 3000 {
			continue
		}
		opt := Options{Height: h, Hold: hold}
		want, err := pathsPerSequence(ctx, f, pat, opt)
		if err != nil {
			t.Fatal(err)
		}
		got, err := pathsTiledOnly(ctx, f, pat, opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("field (h %d, hold %v)\n%spattern %v: tiled %d solutions, per sequence %d", h, hold, f.Format(h), pat, len(got), len(want))
		}
		for j := range got {
			if !slices.Equal(got[j].Masks, want[j].Masks) || !slices.Equal(got[j].Pieces, want[j].Pieces) || !slices.Equal(got[j].Covers, want[j].Covers) {
				t.Fatalf("field (h %d, hold %v)\n%ssolution %d differs:\n%s%v\nvs\n%s%v", h, hold, f.Format(h), j, got[j].Format(f, h), got[j].Covers, want[j].Format(f, h), want[j].Covers)
			}
		}
		if len(Minimal(got)) != len(Minimal(want)) {
			t.Fatal("minimal counts differ")
		}
		total += len(got)
	}
	if total == 0 {
		t.Fatal("no solution in any case: the test is vacuous")
	}
	t.Logf("%d solutions compared", total)
}

// TestPathsTiledVectors runs the shared path on the sfinder path vectors.
func TestPathsTiledVectors(t *testing.T) {
	cases := []struct {
		field, pattern  string
		clear           int
		unique, minimal int
	}{
		{"XXXXXX____ XXXXXX____ XXXXXX____ XXXXXX____", "*p7", 4, 135, 69},
		{"XX_____XXX XXX____XXX XXX____XXX XXXX___XXX", "*p4", 4, 39, 29},
		{"XX____XXXX X_____XXXX XX___XXXXX", "*p4", 3, 15, 14},
		{"X____X____ XX__XX____ XX__XX____ XXXXXX____", "T,I,O,*p4", 4, 221, 41},
	}
	for _, c := range cases {
		f, _, _ := ParseField(c.field)
		p, _ := ParsePattern(c.pattern)
		sols, err := pathsTiledOnly(context.Background(), f, p, Options{Height: c.clear, Hold: true})
		if err != nil || len(sols) != c.unique || len(Minimal(sols)) != c.minimal {
			t.Errorf("%s %s: unique %d minimal %d %v, sfinder %d %d", c.field, c.pattern, len(sols), len(Minimal(sols)), err, c.unique, c.minimal)
		}
	}
}

// minimalPairwise is the pairwise definition Minimal implements.
func minimalPairwise(sols []Solution) []Solution {
	subset := func(a, b []int) bool {
		for _, c := range a {
			if !slices.Contains(b, c) {
				return false
			}
		}
		return true
	}
	var out []Solution
	for i := range sols {
		keep := true
		for j := range sols {
			if i != j && subset(sols[i].Covers, sols[j].Covers) && (len(sols[i].Covers) < len(sols[j].Covers) || j < i) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, sols[i])
		}
	}
	return out
}

func TestMinimalMatchesPairwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for range 300 {
		n, m := 1+rng.IntN(30), 1+rng.IntN(100)
		sols := make([]Solution, n)
		for i := range sols {
			for c := range m {
				if rng.IntN(3+i%4) == 0 {
					sols[i].Covers = append(sols[i].Covers, c)
				}
			}
			sols[i].Masks = []uint64{uint64(i)}
		}
		got, want := Minimal(sols), minimalPairwise(sols)
		if len(got) != len(want) {
			t.Fatalf("%d kept, pairwise %d", len(got), len(want))
		}
		for i := range got {
			if got[i].Masks[0] != want[i].Masks[0] {
				t.Fatalf("kept %d differs", i)
			}
		}
	}
}

// TestPathsTiledMemoryBound: past maxPathEntries the shared path stops
// with an error instead of growing.
func TestPathsTiledMemoryBound(t *testing.T) {
	saved := maxPathEntries
	maxPathEntries = 50
	defer func() { maxPathEntries = saved }()
	f, h, _ := ParseField("XXXXXX____ XXXXXX____ XXXXXX____ XXXXXX____")
	p, _ := ParsePattern("*p7")
	if _, err := pathsTiledOnly(context.Background(), f, p, Options{Height: h, Hold: true}); err == nil || !strings.Contains(err.Error(), "memory bound") {
		t.Fatalf("err %v, want the memory bound", err)
	}
}
