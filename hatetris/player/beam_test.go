package player

import (
	"context"
	"testing"

	"github.com/yomi-ai/yomi/hatetris"
)

// TestSearchReplays: the search's replay, played by the real game, reaches
// the score the search reports, for both AIs, and results do not depend on
// the number of workers.
func TestSearchReplays(t *testing.T) {
	for _, c := range []struct {
		ai    hatetris.AIKind
		width int
		quiet bool
	}{
		{hatetris.Hatetris, 20, false},
		{hatetris.Mild, 20, false},
		{hatetris.Hatetris, 8, true},
	} {
		var first *Result
		for _, workers := range []int{1, 3} {
			res, err := Search(context.Background(), Options{Width: c.width, AI: c.ai, Workers: workers, Quiescence: c.quiet, MaxDepth: 400})
			if err != nil {
				t.Fatal(err)
			}
			g := hatetris.NewGame(c.ai)
			g.Play(res.Moves)
			if g.Score != res.Score {
				t.Fatalf("%v w%d: replay scores %d, search says %d", c.ai, c.width, g.Score, res.Score)
			}
			if g.Over != res.GameOver {
				t.Errorf("%v: replay over=%v, search says %v", c.ai, g.Over, res.GameOver)
			}
			if first == nil {
				first = res
				t.Logf("%v width %d quiescence %v: %d lines, %d pieces, %d wells", c.ai, c.width, c.quiet, res.Score, res.Pieces, res.Wells)
			} else if hatetris.MovesString(first.Moves) != hatetris.MovesString(res.Moves) {
				t.Errorf("%v: result depends on the number of workers", c.ai)
			}
		}
	}
}

func BenchmarkExpand(b *testing.B) {
	wells, err := BenchGame()
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		ExpandAll(wells, 1)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(wells)), "ns/well")
}

func BenchmarkBeam(b *testing.B) {
	for b.Loop() {
		res, err := Search(context.Background(), Options{Width: 500, MaxDepth: 60, Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Wells)/res.Elapsed.Seconds(), "wells/s")
	}
}
