// This file tests the players: legal full games for every pair, the
// original UCT's selection, final-choice and tree-reuse rules, determinism
// under an iteration budget, and a strength sanity check.

package ai

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/separo"
)

func TestNewUnknown(t *testing.T) {
	if _, err := New("alphazero", Options{}); err == nil {
		t.Error("New accepted an unknown name")
	}
	for _, n := range Names() {
		p, err := New(n, Options{})
		if err != nil || p.Name() != n {
			t.Errorf("New(%q) = %v, %v", n, p, err)
		}
	}
}

// TestAllPairsPlayLegalGames: every pair of players finishes games on
// several sizes; Play checks every move with Board.Play.
func TestAllPairsPlayLegalGames(t *testing.T) {
	ctx := context.Background()
	budget := Budget{Iterations: 60}
	for _, size := range []int{5, 9} {
		for _, a := range Names() {
			for _, b := range Names() {
				red, _ := New(a, Options{Seed: 1})
				blue, _ := New(b, Options{Seed: 2})
				rec, err := Play(ctx, red, blue, size, budget)
				if err != nil {
					t.Fatalf("%s vs %s on %d: %v", a, b, size, err)
				}
				if !rec.Final.GameOver() {
					t.Errorf("%s vs %s: game not over", a, b)
				}
			}
		}
	}
}

func TestDeterministicWithIterationBudget(t *testing.T) {
	for _, name := range []string{"naive", "uct", "yomi"} {
		var games [2][]string
		for i := range games {
			red, _ := New(name, Options{Seed: 5})
			blue, _ := New("random", Options{Seed: 6})
			rec, err := Play(context.Background(), red, blue, 7, Budget{Iterations: 200})
			if err != nil {
				t.Fatal(err)
			}
			games[i] = rec.Moves
		}
		if !slices.Equal(games[0], games[1]) {
			t.Errorf("%s: two runs with the same seed differ:\n%v\n%v", name, games[0], games[1])
		}
	}
}

// TestUCTSelectionOrder: after the root's third sample it is expanded; the
// next iterations visit its unvisited children last first (Rust's max_by
// with +∞ ties).
func TestUCTSelectionOrder(t *testing.T) {
	u := NewUCT(Options{Seed: 1})
	b := separo.MustNew(9)
	u.reroot(&b, separo.Red)
	for range 3 {
		u.iterate()
	}
	r := u.nodes[u.root]
	if r.n != 4 {
		t.Fatalf("root has %d children after 3 samples, want 4", r.n)
	}
	for k := range 4 {
		u.iterate()
		for c := int32(0); c < 4; c++ {
			visited := u.nodes[r.first+c].samples > 0
			want := c >= 3-int32(k)
			if visited != want {
				t.Fatalf("after %d child visits, child %d visited=%v, want %v", k+1, c, visited, want)
			}
		}
	}
	if got := u.nodes[u.root].samples; got != 7 {
		t.Errorf("root samples %d, want 7", got)
	}
}

// TestUCTFinalChoice: the chosen child maximises win rate minus loss rate
// (not visits), the last among equals.
func TestUCTFinalChoice(t *testing.T) {
	u := NewUCT(Options{Seed: 1})
	b := separo.MustNew(9)
	u.reroot(&b, separo.Red)
	u.expand(u.root, &b)
	f := u.nodes[u.root].first
	set := func(k int32, w, l, s uint32) { u.nodes[f+k].win, u.nodes[f+k].lose, u.nodes[f+k].samples = w, l, s }
	set(0, 60, 30, 100) // 0.30, most visited
	set(1, 4, 0, 10)    // 0.40
	set(2, 2, 0, 5)     // 0.40, later: chosen
	set(3, 0, 0, 0)     // 0.00
	if got := u.choose() - f; got != 2 {
		t.Errorf("choose = child %d, want 2", got)
	}
	set(2, 1, 0, 5)
	if got := u.choose() - f; got != 1 {
		t.Errorf("choose = child %d, want 1", got)
	}
}

// TestTreeReuse: after UCT and yomi move and the opponent replies, the next
// search starts from the matching child with its statistics.
func TestTreeReuse(t *testing.T) {
	ctx := context.Background()
	b := separo.MustNew(9)
	u := NewUCT(Options{Seed: 3})
	y := NewYomi(Options{Seed: 3})
	for _, p := range []interface {
		Player
		Iterations() int
	}{u, y} {
		x := b
		m, ok := p.Move(ctx, x, separo.Red, Budget{Iterations: 3000})
		if !ok {
			t.Fatal("no move")
		}
		x.Apply(separo.Red, m)
		// Blue's reply: its most likely one is explored; pick any legal one.
		moves := x.Moves(separo.Blue, nil)
		x.Apply(separo.Blue, moves[0])
		switch q := p.(type) {
		case *UCT:
			q.reroot(&x, separo.Red)
		case *Yomi:
			q.reroot(&x, separo.Red)
		}
		if p.Iterations() == 0 {
			t.Errorf("%s: reused root has no samples", p.Name())
		}
	}
}

// TestUCTPassChild: when the opponent cannot move, the root's only child is
// a pass with the same board and the reuse finds it.
func TestUCTPassChild(t *testing.T) {
	// Play the 5×5 vector up to Blue's two-move end: after R:11-20-30 ...
	b := separo.MustNew(5)
	for _, s := range []string{"R:44-33-23", "B:40-31-21", "R:23-12-02", "B:31-42-43", "R:00-11-12", "B:43-34-24", "R:11-20-30"} {
		c, m, err := separo.ParseColoredMove(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Play(c, m); err != nil {
			t.Fatal(err)
		}
	}
	if b.CanMove(separo.Red) {
		t.Fatal("red should be out of moves")
	}
	u := NewUCT(Options{Seed: 1})
	u.reroot(&b, separo.Blue)
	for range 50 {
		u.iterate()
	}
	// Blue's children each lead to a Red node; Red cannot move, so once
	// expanded those have one pass child.
	r := u.nodes[u.root]
	found := false
	for k := r.first; k < r.first+r.n; k++ {
		ch := u.nodes[k]
		if ch.n == 1 && u.nodes[ch.first].pass {
			found = true
		}
	}
	if !found {
		t.Error("no pass child under Blue's moves")
	}
}

// TestStrengthSanity: with 1000 iterations per move, yomi and uct beat
// random in most of 10 games on 7×7 (seeded, deterministic).
func TestStrengthSanity(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 40 games")
	}
	for _, name := range []string{"uct", "yomi"} {
		points := 0.0
		for g := range 20 {
			me, _ := New(name, Options{Seed: uint64(g)})
			rnd, _ := New("random", Options{Seed: uint64(g)})
			red, blue := me, rnd
			if g%2 == 1 {
				red, blue = rnd, me
			}
			rec, err := Play(context.Background(), red, blue, 7, Budget{Iterations: 1000})
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case rec.Winner == separo.Draw:
				points += 0.5
			case (rec.Winner == separo.RedWin) == (g%2 == 0):
				points++
			}
		}
		if points < 15 {
			t.Errorf("%s scored %.1f/20 against random", name, points)
		}
		t.Logf("%s vs random: %.1f/20", name, points)
	}
}

// TestCancelledContextStillMoves: a done context stops the search at once,
// and every player still returns a legal move (at least one iteration).
func TestCancelledContextStillMoves(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b := separo.MustNew(9)
	for _, n := range append(Names(), "yomi-nosolve") {
		p, err := New(n, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		m, ok := p.Move(ctx, b, separo.Red, Budget{Time: time.Hour})
		if !ok || !b.Legal(separo.Red, m) {
			t.Errorf("%s: move %v ok=%v", n, m, ok)
		}
	}
}

// TestRootParallelDeterministic: with an iteration budget, root-parallel
// yomi plays the same game whatever the scheduling, and plays legally.
func TestRootParallelDeterministic(t *testing.T) {
	var games [2][]string
	for i := range games {
		red := NewYomi(Options{Seed: 9, Workers: 3})
		blue, _ := New("uct", Options{Seed: 10})
		rec, err := Play(context.Background(), red, blue, 7, Budget{Iterations: 300})
		if err != nil {
			t.Fatal(err)
		}
		games[i] = rec.Moves
	}
	if !slices.Equal(games[0], games[1]) {
		t.Errorf("two runs differ:\n%v\n%v", games[0], games[1])
	}
	p, err := New("yomi-par", Options{})
	if err != nil || p.Name() != "yomi-par" {
		t.Errorf("New(yomi-par) = %v, %v", p, err)
	}
}
