// Tests and benchmarks the net evaluator on wells.
package train

import (
	"math/rand/v2"
	"testing"

	"github.com/yomi-ai/yomi/nn"
)

func randWell(r *rand.Rand) Well {
	var w Well
	for y := 4 + r.IntN(Height-4); y < Height; y++ {
		w.Rows[y] = uint16(r.IntN(1<<Width - 1))
	}
	return w
}

func TestEvaluatorMatchesDirectForward(t *testing.T) {
	net, _ := nn.New(Inputs, 24, 1)
	e, err := NewEvaluator(net)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(2, 3))
	acc := make([]float32, 24)
	for i := 0; i < 50; i++ {
		w := randWell(r)
		got, err := e.Eval(&w)
		if err != nil {
			t.Fatal(err)
		}
		ref := refFeatures(&w)
		var feats []nn.Feature
		for k, v := range ref {
			feats = append(feats, nn.Feature{Index: k, Count: v})
		}
		want, _ := net.Forward(acc, feats)
		if d := got - want; d > 1e-5 || d < -1e-5 {
			t.Fatalf("well %d: %g vs %g", i, got, want)
		}
	}
	small, _ := nn.New(10, 4, 1)
	if _, err := NewEvaluator(small); err == nil {
		t.Fatal("wrong input count accepted")
	}
}

// BenchmarkEvalWell is the nn/forward figure for HATETRIS wells (features + forward, hidden 24).
func BenchmarkEvalWell(b *testing.B) {
	net, _ := nn.New(Inputs, 24, 1)
	e, _ := NewEvaluator(net)
	r := rand.New(rand.NewPCG(1, 1))
	wells := make([]Well, 256)
	for i := range wells {
		wells[i] = randWell(r)
	}
	i := 0
	for b.Loop() {
		e.Eval(&wells[i&255])
		i++
	}
}
