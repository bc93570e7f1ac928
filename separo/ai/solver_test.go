// This file checks the endgame solver against plain minimax on random
// positions near the end of games.

package ai

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/yomi-ai/yomi/separo"
)

// minimax is the obviously correct reference: full game tree, no pruning.
// It counts nodes in *n and gives up (ok false) past 50 000.
func minimax(b separo.Board, c separo.Color, n *int) (int, bool) {
	if *n++; *n > 50000 {
		return 0, false
	}
	moves := b.Moves(c, nil)
	if len(moves) == 0 {
		if !b.CanMove(c.Opponent()) {
			return finalValue(&b, c), true
		}
		v, ok := minimax(b, c.Opponent(), n)
		return -v, ok
	}
	best := -2
	for _, m := range moves {
		nb := b
		nb.Apply(c, m)
		v, ok := minimax(nb, c.Opponent(), n)
		if !ok {
			return 0, false
		}
		best = max(best, -v)
	}
	return best, true
}

func TestSolverMatchesMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	checked, want := 0, 40
	if testing.Short() {
		want = 10
	}
	for g := 0; checked < want && g < 2000; g++ {
		size := 5 + g%3
		b := separo.MustNew(size)
		c := separo.Red
		// Random moves until few remain.
		for {
			mine := len(b.Moves(c, nil))
			theirs := len(b.Moves(c.Opponent(), nil))
			if mine == 0 || mine+theirs <= 8 {
				break
			}
			ms := b.Moves(c, nil)
			b.Apply(c, ms[rng.IntN(len(ms))])
			next, ok := b.Next(c)
			if !ok {
				break
			}
			c = next
		}
		if !b.CanMove(c) {
			continue
		}
		n := 0
		val, ok := minimax(b, c, &n)
		if !ok {
			continue
		}
		clk := clock{ctx: context.Background()}
		s := solver{limit: 1 << 30, clk: &clk}
		m, v, solved := s.solve(&b, c)
		if !solved {
			t.Fatalf("game %d: solver gave up", g)
		}
		if v != val {
			t.Fatalf("game %d: solver value %d, minimax %d", g, v, val)
		}
		nb := b
		if err := nb.Play(c, m); err != nil {
			t.Fatal(err)
		}
		n = 0
		if got, _ := minimax(nb, c.Opponent(), &n); -got != val {
			t.Fatalf("game %d: solver's move %v is worth %d, best %d", g, m, -got, val)
		}
		checked++
	}
	if checked < want {
		t.Fatalf("only %d positions checked", checked)
	}
}
