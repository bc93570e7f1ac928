// This file tests Config.Oracle (the engine's own draws line up with the
// positions a game shows, and a wrong sequence is noticed) and what Play
// records besides the score: cells carried through tetrises, CPU times.
package ai

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/seigot"
)

func TestOracleFollowsTheGame(t *testing.T) {
	for _, tc := range []struct {
		name    string
		seed    uint64
		corrupt bool
	}{
		{"seed 0 (fixed order)", 0, false},
		{"seed 7", 7, false},
		{"seed 7, a wrong piece at 50", 7, true},
	} {
		st, err := seigot.Sequence(tc.seed, 1, 300)
		if err != nil {
			t.Fatal(err)
		}
		c := LevelConfig(1)
		c.Width, c.Depth = 8, 9
		c.Future = false // the oracle alone, also at seed 0
		for _, p := range st.Pieces {
			c.Oracle = append(c.Oracle, uint8(p))
		}
		if tc.corrupt {
			c.Oracle[50] = c.Oracle[50]%7 + 1
		}
		cfg, err := seigot.LevelConfig(1, tc.seed, false)
		if err != nil {
			t.Fatal(err)
		}
		pl := New(c)
		res := Play(context.Background(), cfg, pl)
		if res.Stats.BlockIndex != 180 {
			t.Errorf("%s: %d pieces", tc.name, res.Stats.BlockIndex)
		}
		if got := pl.OracleMisses > 0; got != tc.corrupt {
			t.Errorf("%s: %d decisions disagreed with the oracle", tc.name, pl.OracleMisses)
		}
	}
}

func TestOracleAt(t *testing.T) {
	oracle := []uint8{1, 2, 3, 4, 5, 6, 7, 1}
	for _, tc := range []struct {
		seq   []uint8
		block int
		want  int
	}{
		{[]uint8{1, 2, 3}, 1, 0},
		{[]uint8{3, 4, 5, 6, 7, 1}, 3, 2},
		{[]uint8{3, 4}, 2, -1},       // the current piece is not the 2nd
		{[]uint8{7, 1, 2}, 7, -1},    // runs past the end
		{[]uint8{1}, 0, -1},          // no counted piece
		{[]uint8{4, 5, 6, 1}, 4, -1}, // a preview disagrees
	} {
		if got := oracleAt(oracle, tc.seq, tc.block); got != tc.want {
			t.Errorf("oracleAt(%v, %d) = %d, want %d", tc.seq, tc.block, got, tc.want)
		}
	}
	if got := oracleAt(nil, []uint8{1}, 1); got != -1 {
		t.Errorf("no oracle: %d", got)
	}
}

func TestPlayCountsCarriedCells(t *testing.T) {
	cfg, err := seigot.LevelConfig(1, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	c := LevelConfig(1)
	c.Width = 10
	res := Play(context.Background(), cfg, New(c))
	if len(res.Carried) != res.Stats.LineStat[3] || len(res.Carried) == 0 {
		t.Fatalf("%d carried counts for %d tetrises", len(res.Carried), res.Stats.LineStat[3])
	}
	// Independently: with hard drops only, the board holds 4 cells per
	// placement minus 10 per cleared line.
	g := seigot.NewGame(cfg)
	pl := New(c)
	placed, lines := 0, 0
	var want []int
	for !g.Done {
		g.BeginTick()
		pos := g.Position()
		r := g.ApplyMove(pl.Decide(context.Background(), &pos))
		if !r.HoldOnly && !r.GameOver {
			placed++
		}
		lines += r.Lines
		if r.Lines == 4 {
			want = append(want, 4*placed-10*lines)
		}
	}
	if g.Stats.GameOvers != 0 || !slices.Equal(res.Carried, want) {
		t.Fatalf("carried %v, want %v (game overs %d)", res.Carried, want, g.Stats.GameOvers)
	}
}

func TestPlayTimedRecordsEachDecision(t *testing.T) {
	cfg, err := seigot.LevelConfig(2, 4, false)
	if err != nil {
		t.Fatal(err)
	}
	cfg.BlockNumMax = 20
	var ticks time.Duration
	clock := func() time.Duration { ticks += time.Millisecond; return ticks } // +1 ms per reading
	res := PlayTimed(context.Background(), cfg, New(Config{Width: 2, Depth: 2}), clock)
	if len(res.CPU) != len(res.Decisions) || len(res.CPU) < 20 {
		t.Fatalf("%d CPU times for %d decisions", len(res.CPU), len(res.Decisions))
	}
	for i, d := range res.CPU {
		if d != time.Millisecond {
			t.Fatalf("decision %d: %v, want the clock's 1 ms between readings", i, d)
		}
	}
	if res := Play(context.Background(), cfg, New(Config{Width: 2, Depth: 2})); res.CPU != nil {
		t.Fatalf("Play without a clock recorded %v", res.CPU)
	}
}
