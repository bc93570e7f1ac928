package train

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/nn"
)

// TestHeldOutHidden is a measurement, not a check (skipped unless
// YOMI_HELDOUT=RUN:G names a campaign and a generation): nets of several
// hidden sizes, each trained from random weights with Learn's settings on
// the targets of generations G−History..G−1, are scored by their MSE on
// generation G's targets, which none of them saw. The campaign's own
// generation-G net is printed too, but G's targets are blended from that
// net's values, so its figure is not comparable.
func TestHeldOutHidden(t *testing.T) {
	spec := os.Getenv("YOMI_HELDOUT")
	if spec == "" {
		t.Skip("set YOMI_HELDOUT=RUN:G to measure")
	}
	var g int
	i := strings.LastIndex(spec, ":")
	if i < 0 {
		t.Fatalf("YOMI_HELDOUT=%q: want RUN:G", spec)
	}
	if _, err := fmt.Sscan(spec[i+1:], &g); err != nil {
		t.Fatal(err)
	}
	r := &Runner{Dir: spec[:i], Config: DefaultConfig()}
	if err := readJSON(filepath.Join(r.Dir, "config.json"), &r.Config); err != nil {
		t.Fatal(err)
	}
	load := func(k int) []nn.Sample {
		ts, err := r.readTargets(k)
		if err != nil {
			t.Fatal(err)
		}
		s, err := samplesOf(ts)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	var train []nn.Sample
	for k := max(0, g-r.Config.History); k < g; k++ {
		train = append(train, load(k)...)
	}
	held := load(g)
	mse := func(n *nn.Net) float64 {
		acc := make([]float32, n.Hidden)
		sum := 0.0
		for _, s := range held {
			y, err := n.Forward(acc, s.Features)
			if err != nil {
				t.Fatal(err)
			}
			d := float64(y - s.Target)
			sum += d * d
		}
		return sum / float64(len(held))
	}
	if own, err := nn.LoadFile(filepath.Join(r.genDir(g), "net.yomi")); err == nil {
		t.Logf("campaign's gen-%d net (hidden %d): held-out MSE %.4f (biased: the targets blend its values)", g, own.Hidden, mse(own))
	}
	c := r.Config
	for _, h := range []int{24, 48} {
		n, err := nn.New(Inputs, h, c.Seed)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		epochs := 0
		val, err := n.Train(context.Background(), train, nn.TrainConfig{Epochs: c.Epochs, Batch: c.Batch, LR: c.LR,
			ValFrac: 0.1, Shards: 8, Seed: c.Seed ^ uint64(g)*0x9e3779b97f4a7c15,
			OnEpoch: func(ep int, _, _ float64) { epochs = ep + 1 }})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("hidden %d from random weights, %d samples of gens %d-%d: %d epochs, val MSE %.4f, held-out (gen %d, %d samples) MSE %.4f, %.0f s",
			h, len(train), max(0, g-c.History), g-1, epochs, val, g, len(held), mse(n), time.Since(start).Seconds())
	}
}
