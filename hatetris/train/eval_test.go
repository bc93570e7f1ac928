// Tests and benchmarks the net evaluator on wells.
package train

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/hatetris/player"
	"github.com/yomi-ai/yomi/nn"
)

// TestNetEvalMatchesForward: the incremental evaluator (empty-row sums plus
// the stack's rows and windows) equals a plain forward pass over the
// reference features, on random wells and the 752 wells of the 289 game.
func TestNetEvalMatchesForward(t *testing.T) {
	for _, hidden := range []int{24, 48} {
		net, _ := nn.New(Inputs, hidden, uint64(hidden))
		for i := range net.B1 {
			net.B1[i] = float32(i%5) * 0.1
		}
		tab, err := NewTables(net)
		if err != nil {
			t.Fatal(err)
		}
		e := tab.New()
		r := rand.New(rand.NewPCG(2, 3))
		wells, err := player.BenchGame()
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 300; i++ {
			wells = append(wells, randWell(r))
		}
		acc := make([]float32, hidden)
		for i := range wells {
			w := &wells[i]
			got, err := e.Value(w)
			if err != nil {
				t.Fatal(err)
			}
			var feats []nn.Feature
			for k, v := range refFeatures(w) {
				feats = append(feats, nn.Feature{Index: k, Count: v})
			}
			want, _ := net.Forward(acc, feats)
			if d := got - want; d > 1e-5 || d < -1e-5 {
				t.Fatalf("hidden %d well %d: %g vs %g\n%v", hidden, i, got, want, *w)
			}
			if v := e.Eval(w, 7); v != float64(got) {
				t.Fatalf("Eval %g, Value %g", v, got)
			}
			// A fresh evaluator (empty cache) gives the same bits.
			if v, _ := tab.New().Value(w); v != got {
				t.Fatalf("well %d: cached %g, fresh %g", i, got, v)
			}
		}
	}
	small, _ := nn.New(10, 4, 1)
	if _, err := NewTables(small); err == nil {
		t.Fatal("wrong input count accepted")
	}
	net, _ := nn.New(Inputs, 4, 1)
	tab, _ := NewTables(net)
	var w hatetris.Well
	w[1] = 3
	if _, err := tab.New().Value(&w); err == nil {
		t.Fatal("game-over well accepted")
	}
}

// BenchmarkForward is the nn/forward figure for HATETRIS wells (the 752
// wells of the 289 game, incremental evaluator, hidden 24).
func BenchmarkForward(b *testing.B) {
	wells, err := player.BenchGame()
	if err != nil {
		b.Fatal(err)
	}
	for _, hidden := range []int{24, 48} {
		b.Run(map[int]string{24: "h24", 48: "h48"}[hidden], func(b *testing.B) {
			net, _ := nn.New(Inputs, hidden, 1)
			tab, _ := NewTables(net)
			e := tab.New()
			i := 0
			for b.Loop() {
				e.Eval(&wells[i%len(wells)], 0)
				i++
			}
		})
	}
}

// BenchmarkFeaturesForward is the non-incremental path for comparison:
// sorted, merged features then nn.Net.Forward.
func BenchmarkFeaturesForward(b *testing.B) {
	wells, _ := player.BenchGame()
	net, _ := nn.New(Inputs, 24, 1)
	acc := make([]float32, 24)
	var feats []nn.Feature
	var idx []int32
	i := 0
	for b.Loop() {
		feats, idx, _ = Features(feats[:0], idx, &wells[i%len(wells)])
		net.Forward(acc, feats)
		i++
	}
}

// BenchmarkBeamNN is the beam's wells/s with a net evaluator (hidden 24,
// width 500, at most 60 pieces, one worker) on a random net; a random net's
// game dies early, so compare wells/s, not time per op.
func BenchmarkBeamNN(b *testing.B) {
	net, _ := nn.New(Inputs, 24, 1)
	tab, _ := NewTables(net)
	for b.Loop() {
		res, err := player.Search(context.Background(), player.Options{Width: 500, MaxDepth: 60, Workers: 1,
			NewEval: func() player.Evaluator { return tab.New() }})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Wells)/res.Elapsed.Seconds(), "wells/s")
	}
}

// TestBeamNNDeterministic: a beam with the net evaluator (per-worker caches)
// plays the same game with 1 and 3 workers, and its replay scores what it says.
func TestBeamNNDeterministic(t *testing.T) {
	net, _ := nn.New(Inputs, 16, 5)
	tab, _ := NewTables(net)
	var first string
	for _, workers := range []int{1, 3} {
		res, err := player.Search(context.Background(), player.Options{Width: 40, MaxDepth: 40, Workers: workers, Quiescence: true,
			NewEval: func() player.Evaluator { return tab.New() }})
		if err != nil {
			t.Fatal(err)
		}
		g := hatetris.NewGame(hatetris.Hatetris)
		g.Play(res.Moves)
		if g.Score != res.Score {
			t.Fatalf("replay scores %d, search says %d", g.Score, res.Score)
		}
		if s := hatetris.MovesString(res.Moves); first == "" {
			first = s
		} else if s != first {
			t.Fatal("the game depends on the number of workers")
		}
	}
}
