// This file checks incremental scoring against full rescoring (itself
// checked against the geometric reference) on the spec's games and random
// games, including trackers started in mid-game.

package separo

import (
	"math/rand/v2"
	"testing"
)

func TestTrackerVectors(t *testing.T) {
	for _, v := range loadVectors(t) {
		b := MustNew(v.size)
		tr := NewTracker(&b)
		for i, s := range v.moves {
			c, m, err := ParseColoredMove(s)
			if err != nil {
				t.Fatal(err)
			}
			if err := b.Play(c, m); err != nil {
				t.Fatal(err)
			}
			tr.Apply(c, m)
			if tr.Score(Red) != v.red[i] || tr.Score(Blue) != v.blu[i] {
				t.Fatalf("size %d move %d: tracked %d-%d, want %d-%d", v.size, i, tr.Score(Red), tr.Score(Blue), v.red[i], v.blu[i])
			}
		}
	}
}

func TestTrackerRandomGames(t *testing.T) {
	games := 400
	if testing.Short() {
		games = 60
	}
	var buf []Move
	for g := range games {
		size := 4 + g%16
		rng := rand.New(rand.NewPCG(11, uint64(g)))
		b := MustNew(size)
		tr := NewTracker(&b)
		startAt := rng.IntN(20)
		turn := Red
		for ply := 0; ; ply++ {
			if ply == startAt { // a fresh tracker from a mid-game position
				tr = NewTracker(&b)
			}
			buf = b.Moves(turn, buf)
			if len(buf) == 0 {
				break
			}
			m := buf[rng.IntN(len(buf))]
			b.Apply(turn, m)
			tr.Apply(turn, m)
			for _, c := range []Color{Red, Blue} {
				if got, want := tr.Score(c), b.Score(c); got != want {
					t.Fatalf("game %d size %d ply %d %v: tracked %d, rescored %d", g, size, ply, c, got, want)
				}
			}
			next, ok := b.Next(turn)
			if !ok {
				break
			}
			turn = next
		}
	}
}

// benchGame is a fixed random 9×9 game for the scoring benchmarks.
func benchGame() (Board, []Step) {
	rng := rand.New(rand.NewPCG(5, 5))
	b := MustNew(9)
	buf := PlayoutBuf{Trace: true}
	end := b
	end.Playout(Red, rng, &buf)
	return b, append([]Step(nil), buf.Steps...)
}

// BenchmarkTrackerGame: both scores after every move of a game, tracked.
func BenchmarkTrackerGame(b *testing.B) {
	start, steps := benchGame()
	for b.Loop() {
		x := start
		tr := NewTracker(&x)
		for _, s := range steps {
			x.Apply(s.Color, s.Move)
			tr.Apply(s.Color, s.Move)
			_ = tr.Score(Red) + tr.Score(Blue)
		}
	}
}

// BenchmarkRescoreGame: the same, rescoring both colours after every move.
func BenchmarkRescoreGame(b *testing.B) {
	start, steps := benchGame()
	var s Scratch
	for b.Loop() {
		x := start
		for _, st := range steps {
			x.Apply(st.Color, st.Move)
			_ = x.ScoreWith(Red, &s) + x.ScoreWith(Blue, &s)
		}
	}
}
