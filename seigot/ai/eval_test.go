// This file tests the evaluation's drop-bonus terms (DropRate, Overflow,
// DropPot and the identity it rests on, CarryRisk, Misfit, HoldDebt)
// on hand-built boards.
package ai

import (
	"math"
	"math/bits"
	"testing"

	"github.com/yomi-ai/yomi/seigot"
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

// quarterPotential is 4 × the board's potential: the sum of the filled
// cells' heights above the floor.
func quarterPotential(f *field) int {
	p := 0
	for y, r := range f.rows {
		for x := range width {
			if r>>x&1 != 0 {
				p += height - 1 - y
			}
		}
	}
	return p
}

// TestDropIdentity checks, on random games played by hard drops from the
// spawn row, the identity DropPot rests on: 4 × rows fallen = 80 per
// placement + 4 × (potential before − potential after) − 4 × clear costs
// + 4 × orientation terms, each quantity computed from the boards alone.
func TestDropIdentity(t *testing.T) {
	for _, seed := range []uint64{1, 2, 4, 5, 6} {
		rng := seed
		next := func(n int) int {
			rng ^= rng << 13
			rng ^= rng >> 7
			rng ^= rng << 17
			return int(rng % uint64(n))
		}
		var f field
		start := quarterPotential(&f)
		fallen4, cost4, orient4, placed, clears := 0, 0, 0, 0, 0
		for range 400 {
			// A random piece at the placement leaving the fewest
			// holes, then the lowest stack (random tie-breaks).
			s := 1 + next(7)
			d, x, bestCost := -1, 0, 1<<30
			for dd := range 4 {
				q := &shapes[s][dd]
				for xx := q.lo; xx <= q.hi; xx++ {
					if !f.reachable(s, dd, xx) {
						continue
					}
					g := f
					g.drop(s, dd, xx)
					ft := g.features(0)
					if c := 1000*ft.holes + 100*ft.maxH + next(100); c < bestCost {
						d, x, bestCost = dd, xx, c
					}
				}
			}
			if d < 0 {
				break
			}
			p := &shapes[s][d]
			before := f
			fallen, lines := f.drop(s, d, x)
			// The locked board before clearing: the piece's cells at its rest row.
			locked := before
			y := 1 + fallen
			for i := range p.n {
				locked.rows[y+p.minY+i] |= p.mask[i] << (x + p.minX)
			}
			for _, o := range seigot.Offsets(s, d) {
				orient4 -= o.Y // a cell o.Y rows below the reference (y grows downward) is -o.Y rows above it
			}
			if lines > 0 {
				clears++
				below := 0 // full rows met so far, from the floor up
				for yy := height - 1; yy >= 0; yy-- {
					c := bits.OnesCount16(locked.rows[yy])
					if locked.rows[yy] == fullRow {
						cost4 += c * (height - 1 - yy)
						below++
					} else {
						cost4 += c * below
					}
				}
			}
			fallen4 += 4 * fallen
			placed++
		}
		if placed < 50 || clears < 5 {
			t.Fatalf("seed %d: %d placements, %d clears: the game is too short to test", seed, placed, clears)
		}
		want := 80*placed + start - quarterPotential(&f) - cost4 + orient4
		if fallen4 != want {
			t.Errorf("seed %d: 4 × fallen = %d, identity gives %d (%d placements, %d clears)", seed, fallen4, want, placed, clears)
		}
	}
}

func TestDropPotential(t *testing.T) {
	// Rows 0-3 full but column 0, two cells at height 4: potential
	// (9 × (0+1+2+3) + 2 × 4) / 4 = 15.5; a tetris from bottom 0 costs
	// 15 plus 2 cells above.
	f := fieldRows(
		"_XX_______",
		"_XXXXXXXXX",
		"_XXXXXXXXX",
		"_XXXXXXXXX",
		"_XXXXXXXXX",
	)
	// A cell 9 rows up sits above two tetrises: DropPot credits 9/4 - 1,
	// DropBand 1/4.
	tall := f
	tall.rows[height-1-9] |= 1 << 5
	for _, tc := range []struct {
		name   string
		f      *field
		bottom int
		pot    float64 // DropPot
		band   float64 // DropBand
	}{
		{"well bottom 0", &f, 0, 15.5 - 15 - 2, 13.5 - 15},
		{"well bottom 1", &f, 1, 15.5 - 25 - 0, 15.5 - 25},
		{"a tall cell", &tall, 0, 15.5 + 9.0/4 - 15 - 3, 13.5 + 1.0/4 - 15},
	} {
		if got := dropPotential(tc.f, tc.bottom); got != tc.pot {
			t.Errorf("%s: DropPot term %v, want %v", tc.name, got, tc.pot)
		}
		if got := dropBand(tc.f, tc.bottom); got != tc.band {
			t.Errorf("%s: DropBand term %v, want %v", tc.name, got, tc.band)
		}
	}
}

func TestFrameTerms(t *testing.T) {
	// Well 0. Rows 0-2 complete beside it, row 3 holds one cell: 8 cells
	// of the four rows are empty (two flat I fill them), m = 2 pieces:
	// CarryRisk 24 × (6/7)^2.
	fits := fieldRows(
		"_X________",
		"_XXXXXXXXX",
		"_XXXXXXXXX",
		"_XXXXXXXXX",
	)
	// Two cells in row 3: 7 empty cells, which no pieces fill exactly.
	misfit := fieldRows(
		"_X__X_____",
		"_XXXXXXXXX",
		"_XXXXXXXXX",
		"_XXXXXXXXX",
	)
	risk2 := 24 * math.Pow(6.0/7, 2)
	for _, tc := range []struct {
		name    string
		w       Weights
		f       field
		hold    uint8
		holdSet bool
		want    float64
	}{
		{"carry risk, I held", Weights{CarryRisk: 1}, fits, 1, true, 0},
		{"carry risk, T held", Weights{CarryRisk: 1}, fits, 4, true, -risk2},
		{"carry risk, weight 2, hold unused", Weights{CarryRisk: 2}, fits, 0, false, -2 * risk2},
		{"misfit, frame fits", Weights{Misfit: -7}, fits, 0, true, 0},
		{"misfit, frame cannot fit", Weights{Misfit: -7}, misfit, 0, true, -7},
		{"hold debt, hold unused", Weights{HoldDebt: 18}, fits, 0, false, -18},
		{"hold debt, hold used", Weights{HoldDebt: 18}, fits, 5, true, 0},
	} {
		pl := New(Config{W: tc.w})
		pl.w = tc.w
		n := node{f: tc.f, hold: tc.hold, holdSet: tc.holdSet}
		zero := New(Config{})
		got := pl.eval(&n, 0, 100) - zero.eval(&n, 0, 100)
		if math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: term %.4f, want %.4f", tc.name, got, tc.want)
		}
	}
}

func TestCashable(t *testing.T) {
	p := 1.0 / 7
	for _, tc := range []struct {
		name      string
		k         int
		held      bool
		remaining int
		want      float64
	}{
		{"nothing ready", 0, true, 10, 0},
		{"no piece left", 1, true, 0, 0},
		{"I held, one piece left", 1, true, 1, 1},
		{"no I held, one piece left", 1, false, 1, p},
		{"no I held, two pieces left", 1, false, 2, 1 - (1-p)*(1-p)},
		{"two ready, I held, two pieces left", 2, true, 2, 1 + p},
		{"two ready, no I, two pieces left", 2, false, 2, 2 * p},
		{"three ready, one piece left", 3, true, 1, 1},
	} {
		if got := cashable(tc.k, tc.held, tc.remaining); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: cashable(%d, %v, %d) = %.6f, want %.6f", tc.name, tc.k, tc.held, tc.remaining, got, tc.want)
		}
	}
}

func TestEndTetrisTerm(t *testing.T) {
	// Well 0, four rows ready: one tetris in hand.
	ready := fieldRows(
		"_XXXXXXXXX",
		"_XXXXXXXXX",
		"_XXXXXXXXX",
		"_XXXXXXXXX",
	)
	w := Weights{EndTetris: 1000, EndHorizon: 10}
	for _, tc := range []struct {
		name      string
		hold      uint8
		remaining int
		want      float64
	}{
		{"I held", 1, 3, 1000},
		{"T held, 3 left", 4, 3, 1000 * (1 - math.Pow(6.0/7, 3))},
		{"beyond the horizon", 1, 11, 0},
		{"at the cap", 1, 0, 0},
	} {
		pl := New(Config{W: w})
		pl.w = w
		n := node{f: ready, hold: tc.hold, holdSet: true}
		zero := New(Config{})
		if got := pl.eval(&n, 0, tc.remaining) - zero.eval(&n, 0, tc.remaining); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: term %.4f, want %.4f", tc.name, got, tc.want)
		}
	}
}

// TestReadyMax: Ready counts at most four ready rows unless ReadyMax says
// more, so that rows ready beyond the next tetris keep a value.
func TestReadyMax(t *testing.T) {
	f := fieldRows( // well 9, six rows ready
		"XXXXXXXXX_",
		"XXXXXXXXX_",
		"XXXXXXXXX_",
		"XXXXXXXXX_",
		"XXXXXXXXX_",
		"XXXXXXXXX_",
	)
	for _, tc := range []struct {
		max  int
		want float64
	}{{0, 4}, {4, 4}, {3, 4}, {5, 5}, {8, 6}} {
		w := Weights{Ready: 1, ReadyMax: tc.max}
		pl := New(Config{W: w})
		pl.w = w
		n := node{f: f}
		if got := pl.eval(&n, 9, 100); got != tc.want {
			t.Errorf("ReadyMax %d: eval %v, want %v", tc.max, got, tc.want)
		}
	}
}
