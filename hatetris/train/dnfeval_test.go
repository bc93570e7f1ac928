// Tests the D&F evaluator against the float net, a beam search with it,
// a D&F training run, and that Learn still makes a committed campaign's
// net bit for bit.
package train

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/yomi-ai/yomi/hatetris/player"
	"github.com/yomi-ai/yomi/nn"
)

func TestDNFEvalMatchesForward(t *testing.T) {
	net, _ := DNF.NewNet(24, 3)
	for i := range net.W1 {
		net.W1[i] *= 200 // values spread over (−1, 1), not all near 0
	}
	ev, err := NewEvaluators(net)
	if err != nil {
		t.Fatal(err)
	}
	e, ok := ev.NewValuer().(*DNFEval)
	if !ok {
		t.Fatalf("NewEvaluators gave %T for a D&F net", ev.NewValuer())
	}
	sumW2 := 0.0
	for _, v := range net.W2 {
		sumW2 += math.Abs(float64(v))
	}
	bound := sumW2*nn.FastMaxError + 1e-6
	r := rand.New(rand.NewPCG(7, 26))
	acc := make([]float32, net.Hidden)
	spread := 0.0
	for trial := 0; trial < 300; trial++ {
		w := randWell(r)
		f, err := DNFFeatures(nil, &w)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := net.Forward(acc, f)
		got, err := e.Value(&w)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(float64(got-want)) > bound {
			t.Fatalf("trial %d: Value %g, Forward %g (bound %g)", trial, got, want, bound)
		}
		if v := e.Eval(&w, 0); v != float64(got) || v != e.Squash(e.EvalRaw(&w, 5)) {
			t.Fatalf("trial %d: Eval %g, Value %g, Squash(EvalRaw) %g", trial, v, got, e.Squash(e.EvalRaw(&w, 5)))
		}
		spread = max(spread, math.Abs(float64(want)))
	}
	if spread < 0.3 {
		t.Fatalf("test net's values all within %g of 0: not a test", spread)
	}
}

// TestDNFBeam plays a short beam game with quiescence with a D&F net on
// 1 and 2 workers: the same game.
func TestDNFBeam(t *testing.T) {
	net, _ := DNF.NewNet(8, 5)
	ev, _ := NewEvaluators(net)
	var games []string
	for _, workers := range []int{1, 2} {
		res, err := player.Search(context.Background(), player.Options{Width: 50, MaxDepth: 12, Workers: workers, Quiescence: true,
			NewEval: func() player.Evaluator { return ev.NewValuer() }})
		if err != nil {
			t.Fatal(err)
		}
		if res.Pieces < 12 {
			t.Fatalf("beam died at %d pieces", res.Pieces)
		}
		games = append(games, string(res.Moves))
	}
	if games[0] != games[1] {
		t.Fatal("the game depends on the worker count")
	}
}

// TestDNFRun runs a tiny D&F training run: every net it writes is a D&F
// net (its file says so), and a run with knewjade settings refuses it.
func TestDNFRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a small training cycle")
	}
	cfg := tinyConfig()
	cfg.Features, cfg.Start = string(DNF), StartRandom
	dir := t.TempDir()
	if _, err := (&Runner{Dir: dir, Config: cfg, Workers: 2, chunk: 8}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	r := &Runner{Dir: dir, Config: cfg}
	for g := 0; g <= cfg.Gens; g++ {
		if _, f, err := LoadNet(filepath.Join(r.genDir(g), "net.yomi")); err != nil || f != DNF {
			t.Fatalf("gen %d: %q %v", g, f, err)
		}
	}
	kj := cfg
	kj.Features = ""
	if _, err := (&Runner{Dir: dir, Config: kj, Workers: 1}).Run(context.Background()); err == nil {
		t.Fatal("a knewjade resume of a D&F run was accepted")
	}
	if _, err := (&Runner{Dir: dir, Config: kj}).net(context.Background(), 1); err == nil {
		t.Fatal("a knewjade run loaded a D&F net")
	}
	bad := cfg
	bad.Start = StartSolved
	if bad.Validate() == nil {
		t.Error("D&F features with the solved start accepted")
	}
	bad = cfg
	bad.Features = "nope"
	if bad.Validate() == nil {
		t.Error("unknown feature set accepted")
	}
}

// TestLearnReproducesCommittedNet: Learn on campaign c1's generation-0
// targets makes c1's generation-1 net bit for bit (the optimiser's sparse
// step changed nothing), writing nothing.
func TestLearnReproducesCommittedNet(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a net on 29 k samples")
	}
	r := &Runner{Dir: "../campaigns/c1", Workers: 2}
	if err := readJSON(filepath.Join(r.Dir, "config.json"), &r.Config); err != nil {
		t.Fatal(err)
	}
	net, _, err := LoadNet(filepath.Join(r.genDir(0), "net.yomi"))
	if err != nil {
		t.Fatal(err)
	}
	n, out, err := r.learnNet(context.Background(), 0, net)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := n.MarshalBinary()
	want, err := os.ReadFile(filepath.Join(r.genDir(1), "net.yomi"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("generation 1's net differs from the committed one (%d epochs, val %.4f)", out.Epochs, out.ValLoss)
	}
}
