// This file tests the survival terms (Danger, WellDeep, Cover, SpawnRisk,
// DangerBurn) on hand-built boards.
package ai

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/yomi-ai/yomi/seigot"
)

func TestCoverCountsCellsAboveEachColumnsHighestHole(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    field
		want int
	}{
		{"empty", field{}, 0},
		{"no hole", fieldRows("XXXX______", "XXXXXXXXX_"), 0},
		// Column 0: one cell over a hole; column 1: three cells over its
		// highest hole (the lower hole is not counted again).
		{"two columns", fieldRows(
			"_X________",
			"_X________",
			"XX________",
			"__________",
			"XX________",
			"X_________",
			"XX________",
		), 1 + 3},
		// Garbage-like rows: each column counts the cells above its highest hole.
		{"garbage", fieldRows(
			"XXXXXXXXX_",
			"X_X_X_X_X_",
			"XXXXXXXXXX",
		), 4 * 1}, // column 9 has no hole: its top is the bottom row
	} {
		if got := tc.f.cover(); got != tc.want {
			t.Errorf("%s: cover %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestSpawnFails(t *testing.T) {
	// A piece appears with its reference at (5, 1): every shape's first
	// direction covers (5, 0) and (5, 1), none reaches column 3.
	for _, tc := range []struct {
		x, y int
		want int // -1: as the engine's Board.Collides says
	}{
		{5, 0, 7}, {5, 1, 7}, {3, 1, 0}, {7, 2, 0},
		{4, 0, -1}, {6, 1, -1}, {5, 2, -1}, {6, 2, -1},
	} {
		var f field
		f.rows[tc.y] = 1 << tc.x
		var b seigot.Board
		b[tc.x+tc.y*width] = 8
		want := tc.want
		if want < 0 {
			want = 0
			for s := 1; s <= 7; s++ {
				if b.Collides(s, 0, 5, 1) {
					want++
				}
			}
		}
		if got := f.spawnFails(); got != want {
			t.Errorf("cell (%d,%d): %d shapes fail, want %d", tc.x, tc.y, got, want)
		}
	}
	if n := (&field{}).spawnFails(); n != 0 {
		t.Errorf("empty field: %d shapes fail", n)
	}
}

func TestSurvivalTerms(t *testing.T) {
	// Well in column 0 (height 0); the other columns 9 high except
	// column 5 at 12; one hole in column 9, under seven cells.
	rows := []string{
		"_____X____",
		"_____X____",
		"_____X____",
	}
	for range 7 {
		rows = append(rows, "_XXXXXXXXX")
	}
	rows = append(rows, "_XXXXXXXX_", "_XXXXXXXXX")
	f := fieldRows(rows...)
	for _, tc := range []struct {
		name string
		w    Weights
		want float64
	}{
		{"danger above 10", Weights{Danger: -10, DangerH: 10}, -10 * 3},     // 2^2 - 1
		{"danger above 12", Weights{Danger: -10, DangerH: 12}, 0},           // not above
		{"well deeper than four rows", Weights{WellDeep: -7}, -7 * (9 - 4)}, // lowest other column 9
		{"cover", Weights{Cover: -2}, -2 * 7},                               // column 9: seven cells over its hole
		{"spawn risk", Weights{SpawnRisk: -100}, 0},
		{"none", Weights{}, 0},
	} {
		pl := New(Config{W: tc.w})
		pl.w = tc.w
		n := node{f: f}
		got := pl.eval(&n, 0, 100)
		zero := New(Config{})
		base := zero.eval(&n, 0, 100)
		if d := got - base; math.Abs(d-tc.want) > 1e-9 {
			t.Errorf("%s: term %.4f, want %.4f", tc.name, d, tc.want)
		}
	}
}

func TestDangerBurnLimit(t *testing.T) {
	w := Weights{Burn: [4]float64{-500, -800, -700, 0}, Safe: 15}
	for _, tc := range []struct {
		name        string
		dangerBurn  int
		dangerBurnI int
		iNear       bool
		preMax      int
		want        float64
	}{
		{"safe, default limit", 0, 0, false, 15, -500},
		{"at Safe+4, default limit", 0, 0, false, 19, 0},
		{"below a lower limit", 14, 0, false, 13, -500},
		{"at a lower limit", 14, 0, false, 14, 0},
		{"I near, no I limit", 0, 0, true, 19, 0},
		{"I near, below the I limit", 0, 21, true, 20, -500},
		{"I near, at the I limit", 0, 21, true, 21, 0},
		{"no I near, I limit unused", 0, 21, false, 20, 0},
	} {
		w.DangerBurn, w.DangerBurnI = tc.dangerBurn, tc.dangerBurnI
		pl := New(Config{W: w})
		pl.w = w
		if got := pl.burn(1, tc.preMax, 100, tc.iNear); got != tc.want {
			t.Errorf("%s: burn %.0f, want %.0f", tc.name, got, tc.want)
		}
	}
}

func TestIAheadAndOdds(t *testing.T) {
	const I, J = seigot.ShapeI, seigot.ShapeJ
	seq := []uint8{J, J, I, J}
	for _, tc := range []struct {
		held bool
		ply  int
		want bool
	}{{false, 0, true}, {false, 1, true}, {false, 2, false}, {true, 2, true}, {false, 3, false}} {
		if got := iAhead(tc.held, seq, tc.ply); got != tc.want {
			t.Errorf("iAhead(%v, %v, %d) = %v, want %v", tc.held, seq, tc.ply, got, tc.want)
		}
	}
	pl := New(Config{})
	pl.w.EndI = 10
	for _, tc := range []struct {
		held      bool
		ply, left int
		want      float64
	}{
		{false, 0, 20, 1},              // beyond the horizon
		{true, 2, 5, 1},                // an I held
		{false, 0, 5, 1},               // the I at ply 2 is known
		{false, 2, 3, 1 - 6.0/7*6.0/7}, // one known J, two unknown pieces
		{false, 3, 0, 0},               // nothing comes
	} {
		if got := pl.iOdds(tc.held, seq, tc.ply, tc.left); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("iOdds(%v, ply %d, %d left) = %v, want %v", tc.held, tc.ply, tc.left, got, tc.want)
		}
	}
}

// TestLevel3SurvivesSeed36 replays the opening of a level-3 game that the
// former level-3 weights lost at piece 33 (an 11-row well kept open for a
// tetris until the stack reached the spawn rows): the level's weights now
// survive its first 40 pieces.
func TestLevel3SurvivesSeed36(t *testing.T) {
	cfg, err := seigot.LevelConfig(3, 36, false)
	if err != nil {
		t.Fatal(err)
	}
	cfg.BlockNumMax = 40
	res := Play(context.Background(), cfg, New(LevelConfig(3)))
	if res.Stats.GameOvers != 0 {
		t.Errorf("level 3 seed 36, 40 pieces: %d game overs (score %d), want none", res.Stats.GameOvers, res.Stats.Score)
	}
	old := LevelConfig(3)
	old.W.Danger, old.W.WellDeep, old.W.Cover, old.W.SpawnRisk, old.W.DangerBurn = 0, 0, 0, 0, 0
	if res := Play(context.Background(), cfg, New(old)); res.Stats.GameOvers == 0 {
		t.Errorf("without the survival terms the game has no game over either: the test does not tell them apart")
	}
}

// level2Seed1153 replays the first 125 ticks of the level-2 game of seed
// 1153 as the former default (ReadyMax 8 without survival terms) played
// them (testdata/level2_seed1153_moves.json: [hold, direction, x] per
// tick), then lets pl play to counted piece 160. No I came in pieces
// 88-146: the former default kept a 6-row-ready well open for a tetris
// until the stack reached the spawn rows and lost the game at piece 146.
func level2Seed1153(t *testing.T, pl *Player) seigot.Stats {
	t.Helper()
	data, err := os.ReadFile("testdata/level2_seed1153_moves.json")
	if err != nil {
		t.Fatal(err)
	}
	var moves [][3]int
	if err := json.Unmarshal(data, &moves); err != nil {
		t.Fatal(err)
	}
	cfg, err := seigot.LevelConfig(2, 1153, false)
	if err != nil {
		t.Fatal(err)
	}
	cfg.BlockNumMax = 160
	g := seigot.NewGame(cfg)
	for _, m := range moves {
		g.BeginTick()
		g.ApplyMove(seigot.Move{Hold: m[0] == 1, Direction: m[1], X: m[2], YOperation: 1, YMoveBlock: 1})
	}
	if g.Stats.BlockIndex != 125 || g.Stats.Score != 13875 || g.Stats.GameOvers != 0 {
		t.Fatalf("replayed opening: %+v, want 125 pieces, 13 875 points, no game over", g.Stats)
	}
	for !g.Done {
		g.BeginTick()
		pos := g.Position()
		g.ApplyMove(pl.Decide(context.Background(), &pos))
	}
	return g.Stats
}

// TestLevel2SurvivesSeed1153 plays the I drought of level 2's seed 1153
// (level2Seed1153) with the level's weights: no game over by piece 160;
// without the Danger term the same position loses a game at piece 146.
func TestLevel2SurvivesSeed1153(t *testing.T) {
	if st := level2Seed1153(t, New(LevelConfig(2))); st.GameOvers != 0 {
		t.Errorf("level 2 seed 1153 from piece 125: %d game overs (score %d), want none", st.GameOvers, st.Score)
	}
	old := LevelConfig(2)
	old.W.Danger, old.W.DangerH = 0, 0
	if st := level2Seed1153(t, New(old)); st.GameOvers == 0 {
		t.Errorf("without Danger the position is survived too (score %d): the test does not tell them apart", st.Score)
	}
}
