// This file tests the engine against the spec's tables and vectors (§2, §5,
// §8, §14) and hand-built positions.
package seigot

import (
	"slices"
	"testing"
)

func TestShapeTable(t *testing.T) {
	// Spec §2: offsets and x ranges per (shape, direction).
	cases := []struct {
		s, d   int
		cells  [4]Offset
		lo, hi int
	}{
		{ShapeI, 0, [4]Offset{{0, -1}, {0, 0}, {0, 1}, {0, 2}}, 0, 9},
		{ShapeI, 1, [4]Offset{{1, 0}, {0, 0}, {-1, 0}, {-2, 0}}, 2, 8},
		{ShapeL, 1, [4]Offset{{1, 0}, {0, 0}, {-1, 0}, {-1, 1}}, 1, 8},
		{ShapeL, 2, [4]Offset{{0, 1}, {0, 0}, {0, -1}, {-1, -1}}, 1, 9},
		{ShapeL, 3, [4]Offset{{-1, 0}, {0, 0}, {1, 0}, {1, -1}}, 1, 8},
		{ShapeJ, 0, [4]Offset{{0, -1}, {0, 0}, {0, 1}, {-1, 1}}, 1, 9},
		{ShapeJ, 2, [4]Offset{{0, 1}, {0, 0}, {0, -1}, {1, -1}}, 0, 8},
		{ShapeT, 3, [4]Offset{{-1, 0}, {0, 0}, {1, 0}, {0, -1}}, 1, 8},
		{ShapeO, 3, [4]Offset{{0, 0}, {0, -1}, {1, 0}, {1, -1}}, 0, 8},
		{ShapeS, 1, [4]Offset{{0, 0}, {1, 0}, {0, -1}, {1, 1}}, 0, 8},
		{ShapeS, 2, [4]Offset{{0, 0}, {0, -1}, {-1, 0}, {1, -1}}, 1, 8},
		{ShapeZ, 1, [4]Offset{{0, 0}, {1, 0}, {0, 1}, {1, -1}}, 0, 8},
		{ShapeZ, 3, [4]Offset{{0, 0}, {1, 0}, {0, 1}, {1, -1}}, 0, 8},
	}
	for _, c := range cases {
		if got := Offsets(c.s, c.d); got != c.cells {
			t.Errorf("%s %d: offsets %v want %v", ShapeNames[c.s], c.d, got, c.cells)
		}
		if lo, hi := XRange(c.s, c.d); lo != c.lo || hi != c.hi {
			t.Errorf("%s %d: x range %d-%d want %d-%d", ShapeNames[c.s], c.d, lo, hi, c.lo, c.hi)
		}
	}
	if !slices.Equal(DirectionRange(ShapeS), []int{0, 1}) || !slices.Equal(DirectionRange(ShapeO), []int{0}) ||
		len(DirectionRange(ShapeT)) != 4 {
		t.Error("direction ranges")
	}
}

func TestCurrentPiecesFollowTheDraws(t *testing.T) {
	// Spec §14: seed 1, level 2; the previews are the next five entries.
	want := []int{6, 4, 5, 1, 2, 4, 6, 1, 1, 2, 5, 6, 5, 7, 2, 3}
	cfg, _ := LevelConfig(2, 1, false)
	g := NewGame(cfg)
	if p := g.Previews(); !slices.Equal([]int{int(p[0]), int(p[1]), int(p[2]), int(p[3]), int(p[4])}, want[1:6]) {
		t.Fatalf("previews %v", p)
	}
	for i, w := range want[:10] {
		if int(g.Cur) != w {
			t.Fatalf("piece %d: %d want %d", i, g.Cur, w)
		}
		g.Tick(Move{Direction: 0, X: i % 10, YOperation: 1, YMoveBlock: 1})
	}
	if g.Stats.GameOvers != 0 || g.Stats.BlockIndex != 10 {
		t.Fatalf("stats %+v", g.Stats)
	}
}

func TestFirstHoldCostsAPiece(t *testing.T) {
	cfg, _ := LevelConfig(1, 0, false)
	g := NewGame(cfg) // fixed order I L J T O S Z
	r := g.Tick(Move{Hold: true, YOperation: 1, X: 0})
	if !r.HoldOnly || g.Hold != ShapeI || g.Cur != ShapeL || g.Y != 1 || g.Stats.BlockIndex != 1 || g.Stats.Score != 0 {
		t.Fatalf("after first hold: %+v cur %d hold %d y %d", g.Stats, g.Cur, g.Hold, g.Y)
	}
	// A later hold swaps in the same tick and the piece drops: I vertical at x=0.
	r = g.Tick(Move{Hold: true, Direction: 0, X: 0, YOperation: 1})
	if r.HoldOnly || g.Hold != ShapeL || r.Dropped != 18 || g.Stats.Score != 18 || g.Stats.BlockIndex != 2 {
		t.Fatalf("swap: %+v %+v hold %d", r, g.Stats, g.Hold)
	}
	// The preview list is untouched by a swap: the next piece is J (the I came from hold).
	if g.Cur != ShapeJ {
		t.Fatalf("current %d after swap, want J", g.Cur)
	}
	// Play to the cap: 180 counted pieces, one of them spent on the first hold.
	placed := 1
	for !g.Done {
		g.Tick(Move{Direction: 0, X: placed % 10, YOperation: 1})
		placed++
	}
	if g.Stats.BlockIndex != 180 || placed != 179 {
		t.Fatalf("block index %d, placements %d", g.Stats.BlockIndex, placed)
	}
}

func TestScoring(t *testing.T) {
	full := func(b *Board, rows ...int) {
		for _, y := range rows {
			for x := 1; x < Width; x++ {
				b[x+y*Width] = 3
			}
		}
	}
	cases := []struct {
		name     string
		rows     []int
		allClear int
		score    int
		lines    int
	}{
		{"single", []int{21}, 0, 100 + 18, 1},
		{"double", []int{20, 21}, 0, 300 + 18, 2},
		{"triple", []int{19, 20, 21}, 0, 700 + 18, 3},
		{"tetris", []int{18, 19, 20, 21}, 0, 1300 + 18, 4},
		{"tetris all clear", []int{18, 19, 20, 21}, 500, 1300 + 18 + 500, 4},
		{"single all clear not empty", []int{21}, 500, 100 + 18, 1},
	}
	for _, c := range cases {
		cfg, _ := LevelConfig(1, 0, false)
		cfg.AllClearScore = c.allClear
		g := NewGame(cfg)
		full(&g.Board, c.rows...)
		r := g.Tick(Move{Direction: 0, X: 0, YOperation: 1})
		if g.Stats.Score != c.score || r.Lines != c.lines || g.Stats.LineStat[c.lines-1] != 1 {
			t.Errorf("%s: score %d lines %d, want %d %d", c.name, g.Stats.Score, r.Lines, c.score, c.lines)
		}
	}
}

func TestMoveDownAndTuck(t *testing.T) {
	cfg, _ := LevelConfig(1, 0, false)
	g := NewGame(cfg)
	// An overhang at row 19 columns 0..5; the I (horizontal, x 2..8 covers 4 cells)
	// can only get under it by moving down first, then shifting.
	for x := 0; x <= 5; x++ {
		g.Board[x+19*Width] = 1
	}
	g.Tick(Move{Direction: 1, X: 8, YOperation: 0, YMoveBlock: 19}) // I horizontal at x 8: cells 6..9
	if g.Y != 20 || g.X != 8 || g.Dir != 1 || g.Cur != ShapeI {
		t.Fatalf("after move down: x %d y %d dir %d", g.X, g.Y, g.Dir)
	}
	g.BeginTick()
	if g.Stats.BlockIndex != 1 {
		t.Fatal("a hanging piece must not count again")
	}
	g.ApplyMove(Move{Direction: 1, X: 3, YOperation: 1}) // slide left under the overhang (5 steps max)
	for x := 1; x <= 4; x++ {
		if g.Board[x+21*Width] != ShapeI {
			t.Fatalf("tuck failed: %v", g.Board[200:])
		}
	}
	if g.Stats.Score != 1 {
		t.Fatalf("score %d, want the 1-row drop", g.Stats.Score)
	}
}

func TestGameOverResets(t *testing.T) {
	cfg, _ := LevelConfig(2, 1, false)
	g := NewGame(cfg)
	ticks := 0
	for g.Stats.GameOvers == 0 {
		g.Tick(Move{Direction: 0, X: 5, YOperation: 1}) // stack in the middle
		ticks++
		if ticks > 100 {
			t.Fatal("no game over")
		}
	}
	if g.Stats.Score > 0 || !g.Board.Empty() || g.Y != 1 {
		t.Fatalf("after game over: score %d, board empty %v, y %d", g.Stats.Score, g.Board.Empty(), g.Y)
	}
	// Level 2: a game over does not disturb the piece sequence.
	st, _ := Sequence(1, 2, 40)
	if int(g.Cur) != st.Pieces[g.Stats.BlockIndex] {
		t.Fatalf("current %d, want draw %d = %d", g.Cur, g.Stats.BlockIndex, st.Pieces[g.Stats.BlockIndex])
	}
}
