// This file tests the evaluation's drop-bonus terms (DropRate, Overflow)
// on hand-built boards.
package ai

import (
	"math"
	"testing"
)

// fieldRows builds a field whose bottom rows are given top first, "X" for a
// filled cell and anything else for an empty one.
func fieldRows(rows ...string) field {
	var f field
	for i, r := range rows {
		y := height - len(rows) + i
		for x, c := range r {
			if c == 'X' {
				f.rows[y] |= 1 << x
			}
		}
	}
	return f
}

func TestDropTerms(t *testing.T) {
	// Column 0 is the well (empty); columns 1-9 have heights 6,6,5,4,4,4,4,4,1
	// (one hole under column 9's top: it counts in the height).
	f := fieldRows(
		"_XX_______",
		"_XXX______",
		"_XXXXXXXX_",
		"_XXXXXXXX_",
		"_XXXXXXXXX",
		"_XXXXXXXX_",
	)
	meanH := float64(6+6+5+4+4+4+4+4+2) / 9
	for _, tc := range []struct {
		name      string
		w         Weights
		remaining int
		want      float64 // the term alone
	}{
		{"rate 1, all remaining", Weights{DropRate: 1}, 100, -100 * meanH},
		{"rate 2, horizon 10", Weights{DropRate: 2, DropHorizon: 10}, 100, -20 * meanH},
		{"horizon above what remains", Weights{DropRate: 1, DropHorizon: 50}, 30, -30 * meanH},
		{"overflow", Weights{Overflow: -3}, 100, -3 * (2 + 2 + 1)},
		{"none", Weights{}, 100, 0},
	} {
		pl := New(Config{W: tc.w})
		pl.w = tc.w
		n := node{f: f}
		got := pl.eval(&n, 0, tc.remaining)
		zero := New(Config{})
		base := zero.eval(&n, 0, tc.remaining)
		if d := got - base; math.Abs(d-tc.want) > 1e-9 {
			t.Errorf("%s: term %.4f, want %.4f", tc.name, d, tc.want)
		}
	}
	// The term vanishes at the cap.
	pl := New(Config{W: Weights{DropRate: 1}})
	pl.w = pl.cfg.W
	n := node{f: f}
	if v := pl.eval(&n, 0, 0); v != 0 {
		t.Errorf("no pieces left: eval %v, want 0", v)
	}
}

func TestLeafWellTakesTheLowerEdge(t *testing.T) {
	right := fieldRows( // column 9 open, column 0 covered
		"XX________",
		"XXXXXXXXX_",
		"XXXXXXXXX_",
	)
	left := fieldRows( // column 0 open
		"_______XX_",
		"_XXXXXXXXX",
		"_XXXXXXXXX",
	)
	even := fieldRows( // both edges at height 1: ties keep the decision's well
		"X_XXXXXXXX",
	)
	w := LevelConfig(1).W
	for _, tc := range []struct {
		name       string
		f          field
		root, want int
	}{
		{"right edge lower, root 0", right, 0, 9},
		{"right edge lower, root 9", right, 9, 9},
		{"left edge lower, root 9", left, 9, 0},
		{"tie, root 0", even, 0, 0},
		{"tie, root 9", even, 9, 9},
	} {
		leaf := New(Config{W: w, LeafWell: true})
		leaf.w = w
		fixed := New(Config{W: w})
		fixed.w = w
		n := node{f: tc.f}
		got := leaf.eval(&n, tc.root, 50)
		if want := fixed.eval(&n, tc.want, 50); got != want {
			t.Errorf("%s: leaf-well eval %.1f, want the eval with well %d (%.1f)", tc.name, got, tc.want, want)
		}
		if other := fixed.eval(&n, 9-tc.want, 50); other == got {
			t.Errorf("%s: both wells evaluate to %.1f: the case does not tell them apart", tc.name, got)
		}
	}
}
