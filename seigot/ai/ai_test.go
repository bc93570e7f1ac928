// This file tests the search's board model against the engine (placement,
// reachability, drop score, line clears) and that decisions are legal.
package ai

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/yomi-ai/yomi/seigot"
)

// randomBoard fills the bottom rows with random cells and leaves the top clear.
func randomBoard(rng *rand.Rand) seigot.Board {
	var b seigot.Board
	top := 6 + rng.IntN(16)
	for y := top; y < seigot.Height; y++ {
		for x := range seigot.Width {
			if rng.IntN(10) < 7 {
				b[x+y*seigot.Width] = uint8(1 + rng.IntN(7))
			}
		}
		if rng.IntN(4) == 0 { // some full rows to clear
			for x := range seigot.Width {
				b[x+y*seigot.Width] = 2
			}
			b[rng.IntN(seigot.Width)+y*seigot.Width] = 0
		}
	}
	// Occasional blocks near the top make some rotations and shifts fail.
	if rng.IntN(3) == 0 {
		b[rng.IntN(seigot.Width)+(rng.IntN(3))*seigot.Width] = 4
	}
	return b
}

// randomPosition is a level-2 game of the given seed on a random board
// whose top four rows are cleared so that the spawn succeeds.
func randomPosition(rng *rand.Rand, seed uint64) seigot.Position {
	cfg, _ := seigot.LevelConfig(2, seed, false)
	g := seigot.NewGame(cfg)
	g.Board = randomBoard(rng)
	for i := 0; i < 4*seigot.Width; i++ {
		g.Board[i] = 0
	}
	g.BeginTick()
	return g.Position()
}

func TestFieldMatchesEngine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	checked, blocked := 0, 0
	for trial := range 3000 {
		cfg, _ := seigot.LevelConfig(2, uint64(trial+1), false)
		g := seigot.NewGame(cfg)
		g.Board = randomBoard(rng)
		s := int(g.Cur)
		if g.Board.Collides(s, 0, 5, 1) {
			continue
		}
		d := rng.IntN(4)
		x := rng.IntN(10)
		f := fieldOf(&g.Board)
		reach := false
		if ps := &shapes[s][d]; x >= ps.lo && x <= ps.hi {
			reach = f.reachable(s, d, x)
		}
		g.BeginTick()
		before := g.Stats.Score
		// Follow the rotation and shift to see where the game puts the piece.
		r := g.ApplyMove(seigot.Move{Direction: d, X: x, YOperation: 1})
		if r.GameOver {
			continue
		}
		if !reach {
			blocked++
			continue
		}
		fallen, lines := f.drop(s, d, x)
		if fallen != r.Dropped || lines != r.Lines || g.Stats.Score-before != fallen+seigot.LineScore(lines) {
			t.Fatalf("trial %d shape %d d %d x %d: field fell %d cleared %d, engine %+v", trial, s, d, x, fallen, lines, r)
		}
		if got := fieldOf(&g.Board); got != f {
			t.Fatalf("trial %d: boards differ after the drop", trial)
		}
		checked++
	}
	if checked < 1000 || blocked < 50 {
		t.Fatalf("only %d placements checked, %d blocked", checked, blocked)
	}
}

func TestReachableMatchesEngine(t *testing.T) {
	// reachable(d, x) must be exactly "the game ends the rotate+shift at (d, x)".
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 2000 {
		cfg, _ := seigot.LevelConfig(1, 0, false)
		g := seigot.NewGame(cfg)
		for range trial % 7 {
			g.Tick(seigot.Move{Hold: false, Direction: 0, X: 0, YOperation: 1})
		}
		g.Board = randomBoard(rng)
		for y := 0; y < 4; y++ {
			for x := range seigot.Width {
				if rng.IntN(12) == 0 {
					g.Board[x+y*seigot.Width] = 1
				}
			}
		}
		s := int(g.Cur)
		if g.Board.Collides(s, 0, 5, 1) {
			continue
		}
		d, x := rng.IntN(dirCount(uint8(s))), rng.IntN(10)
		ps := &shapes[s][d]
		if x < ps.lo || x > ps.hi {
			continue
		}
		f := fieldOf(&g.Board)
		want := f.reachable(s, d, x)
		// Replay the game's rotate and shift loops on a copy.
		cd, cx := 0, 5
		for k := 0; cd != d && k < 4; k++ {
			if g.Board.Collides(s, (cd+1)%4, cx, 1) {
				break
			}
			cd = (cd + 1) % 4
		}
		for k := 0; cx != x && k < 5; k++ {
			nx := cx + 1
			if cx > x {
				nx = cx - 1
			}
			if g.Board.Collides(s, cd, nx, 1) {
				break
			}
			cx = nx
		}
		if got := cd == d && cx == x; got != want {
			t.Fatalf("trial %d shape %d d %d x %d: reachable %v, game reaches %v", trial, s, d, x, want, got)
		}
	}
}

func TestDecisionsAreLegalAndDeterministic(t *testing.T) {
	for _, tc := range []struct {
		level, chance int
		seed          uint64
	}{
		{1, 0, 7}, {2, 0, 7}, {3, 0, 7},
		{1, 20, 7}, {1, 20, 0}, {3, 20, 7},
	} {
		cfg, _ := seigot.LevelConfig(tc.level, tc.seed, false)
		cfg.BlockNumMax = 40
		c := LevelConfig(tc.level)
		c.Width, c.Depth, c.Chance = 30, 3, tc.chance
		a := Play(context.Background(), cfg, New(c))
		b := Play(context.Background(), cfg, New(c))
		if a.Stats != b.Stats {
			t.Fatalf("%+v: two runs differ: %+v vs %+v", tc, a.Stats, b.Stats)
		}
		if a.Stats.BlockIndex != 40 || len(a.Decisions) < 40 {
			t.Fatalf("%+v: %+v after %d decisions", tc, a.Stats, len(a.Decisions))
		}
	}
}

// TestChanceKeepsTheBeamChoiceWithOneLine checks the expectimax leaf: with
// one line to re-score it must play the beam's own best move, and with more
// it must still play the first move of one of the beam's lines.
func TestChanceKeepsTheBeamChoiceWithOneLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	differ := 0
	for trial := range 40 {
		p := randomPosition(rng, uint64(trial+1))
		base := LevelConfig(2)
		base.Width, base.Depth = 20, 2
		want := New(base).Decide(context.Background(), &p)
		one := base
		one.Chance = 1
		if got := New(one).Decide(context.Background(), &p); got != want {
			t.Fatalf("trial %d: Chance 1 plays %+v, the beam %+v", trial, got, want)
		}
		all := base
		all.Chance = 20
		pl := New(all)
		got := pl.Decide(context.Background(), &p)
		if got != want {
			differ++
		}
		legal := false
		for _, n := range pl.cur {
			m := seigot.Move{Hold: n.first.hold || n.first.firstHold, Direction: n.first.dir, X: n.first.x, YOperation: 1, YMoveBlock: 1}
			if n.first.firstHold {
				m.Direction, m.X = 0, 5
			}
			legal = legal || m == got
		}
		if !legal {
			t.Fatalf("trial %d: Chance plays %+v, not the first move of a kept line", trial, got)
		}
	}
	if differ == 0 {
		t.Fatalf("the chance ply never changed a decision in 40 positions")
	}
}

func TestEndgameUsesExactScore(t *testing.T) {
	// One piece left: the player must take the move with the highest real
	// score. An I in the well of four ready rows scores 1300 + drop.
	var b seigot.Board
	for y := 18; y < 22; y++ {
		for x := 1; x < 10; x++ {
			b[x+y*10] = 3
		}
	}
	p := seigot.Position{Board: b, Cur: seigot.ShapeI, X: 5, Y: 1, Next: [5]uint8{2, 3, 4, 5, 6},
		BlockIndex: 180, BlockMax: 180}
	m := New(LevelConfig(2)).Decide(context.Background(), &p)
	if m.Hold || m.Direction%2 != 0 || m.X != 0 || m.YOperation != 1 {
		t.Fatalf("last piece: %+v, want the I down column 0", m)
	}
}

func TestExhaustPliesKeepsEveryChild(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 3 {
		p := randomPosition(rng, uint64(trial+1))
		// An unbound beam keeps every child at every ply.
		wide := LevelConfig(2)
		wide.Depth, wide.Width = 3, 1<<20
		ref := New(wide)
		ref.Decide(context.Background(), &p)
		for _, tc := range []struct {
			name          string
			plies         int
			sameAsUnbound bool
		}{
			{"first two plies kept", 2, true},
			{"only the first ply kept", 1, false},
			{"none kept", 0, false},
		} {
			c := LevelConfig(2)
			c.Depth, c.Width, c.ExhaustPlies = 3, 1, tc.plies
			pl := New(c)
			pl.Decide(context.Background(), &p)
			// With every child of plies 0 and 1 kept, ply 2 (the last)
			// expands as many nodes as the unbound beam, whatever the width.
			if same := pl.Nodes == ref.Nodes; same != tc.sameAsUnbound {
				t.Fatalf("trial %d, width 1, %s: %d nodes, unbound beam %d", trial, tc.name, pl.Nodes, ref.Nodes)
			}
		}
	}
}

func TestHoldFirstIHoldsTheI(t *testing.T) {
	// Seed 0 opens with an I, which level 1's search without the option
	// places; with it the first decision is the first hold. Once the hold is
	// used the option changes nothing.
	for _, holdSet := range []bool{false, true} {
		cfg, _ := seigot.LevelConfig(1, 0, false)
		g := seigot.NewGame(cfg)
		if holdSet {
			g.Hold, g.HoldSet = seigot.ShapeO, true
		}
		g.BeginTick()
		p := g.Position()
		if p.Cur != seigot.ShapeI {
			t.Fatalf("seed 0 starts with %d, want an I", p.Cur)
		}
		c := LevelConfig(1)
		c.HoldFirstI = false
		off := New(c).Decide(context.Background(), &p)
		c.HoldFirstI = true
		on := New(c).Decide(context.Background(), &p)
		switch {
		case !holdSet && (off.Hold || !on.Hold):
			t.Errorf("hold unused: default %+v (want a placement), option %+v (want the hold)", off, on)
		case holdSet && on != off:
			t.Errorf("hold used: option %+v, default %+v: want the same", on, off)
		}
	}
}

// TestLevel2HoldsTheFirstI checks level 2's search (issue 23): like level
// 1's, it spends the first hold on the first I instead of placing it, and
// keeps its well at each board's lower edge.
func TestLevel2HoldsTheFirstI(t *testing.T) {
	c := LevelConfig(2)
	if !c.HoldFirstI || !c.LeafWell || c.Well != -1 {
		t.Fatalf("level 2: HoldFirstI %v, LeafWell %v, Well %d; want true, true, -1", c.HoldFirstI, c.LeafWell, c.Well)
	}
	p := seigot.Position{Cur: seigot.ShapeI, X: 5, Y: 1, Next: [5]uint8{4, 2, 3, 5, 6}, BlockIndex: 1, BlockMax: 180}
	if m := New(c).Decide(context.Background(), &p); !m.Hold {
		t.Fatalf("level 2, first piece an I, hold unused: %+v, want the hold", m)
	}
}
