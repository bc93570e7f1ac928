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
// feature sets and hidden sizes, each trained from random weights with
// Learn's settings on the targets of generations G−History..G−1, are
// scored by their MSE on generation G's targets, which none of them saw.
// YOMI_HELDOUT_NETS lists them as SET/HIDDEN (default
// "knewjade/24,knewjade/48"); all share the seed and the split;
// YOMI_HELDOUT_SAVE=DIR keeps each net there. Each epoch's line shows
// the held-out MSE of that epoch's weights too (not used to stop). The
// campaign's own generation-G net is printed too, but G's targets are
// blended from that net's values, so its figure is not comparable.
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
	type netSpec struct {
		fs     FeatureSet
		hidden int
	}
	var specs []netSpec
	list := os.Getenv("YOMI_HELDOUT_NETS")
	if list == "" {
		list = "knewjade/24,knewjade/48"
	}
	for _, e := range strings.Split(list, ",") {
		name, h, ok := strings.Cut(e, "/")
		fs, err := ParseFeatureSet(name)
		var hidden int
		if _, err2 := fmt.Sscan(h, &hidden); !ok || err != nil || err2 != nil {
			t.Fatalf("YOMI_HELDOUT_NETS entry %q: want SET/HIDDEN (%v)", e, err)
		}
		specs = append(specs, netSpec{fs, hidden})
	}
	load := func(k int, fs FeatureSet) []nn.Sample { return genSamples(t, r, k, fs) }
	sets := func(fs FeatureSet) (train, held []nn.Sample) {
		for k := max(0, g-r.Config.History); k < g; k++ {
			train = append(train, load(k, fs)...)
		}
		return train, load(g, fs)
	}
	_, held := sets(Knewjade)
	mse := func(n *nn.Net, held []nn.Sample) float64 {
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
		t.Logf("campaign's gen-%d net (hidden %d): held-out MSE %.4f (biased: the targets blend its values)", g, own.Hidden, mse(own, held))
	}
	c := r.Config
	for _, sp := range specs {
		h := sp.hidden
		train, held := sets(sp.fs)
		n, err := sp.fs.NewNet(h, c.Seed)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		epochs := 0
		val, err := n.Train(context.Background(), train, nn.TrainConfig{Epochs: c.Epochs, Batch: c.Batch, LR: c.LR,
			ValFrac: 0.1, Shards: 8, Seed: c.Seed ^ uint64(g)*0x9e3779b97f4a7c15,
			OnEpoch: func(ep int, tl, vl float64) {
				epochs = ep + 1
				t.Logf("  %s/%d epoch %d: train %.4f val %.4f held-out %.4f (%.0f s)", sp.fs, h, epochs, tl, vl, mse(n, held), time.Since(start).Seconds())
			}})
		if err != nil {
			t.Fatal(err)
		}
		if dir := os.Getenv("YOMI_HELDOUT_SAVE"); dir != "" {
			p := filepath.Join(dir, fmt.Sprintf("%s-g%d-%s-h%d.yomi", filepath.Base(r.Dir), g, sp.fs, h))
			if err := n.SaveFile(p); err != nil {
				t.Fatal(err)
			}
			t.Logf("saved %s", p)
		}
		t.Logf("%s features, hidden %d from random weights, %d samples of gens %d-%d: %d epochs, val MSE %.4f, held-out (gen %d, %d samples) MSE %.4f, %.0f s",
			sp.fs, h, len(train), max(0, g-c.History), g-1, epochs, val, g, len(held), mse(n, held), time.Since(start).Seconds())
	}
}

// TestHeldOutCoverage is a measurement (skipped unless YOMI_HELDOUT=RUN:G):
// for each feature set, how many inputs the training targets of
// generations G−History..G−1 activate, and the share of generation G's
// active inputs (with multiplicity) that no training sample activates: an
// input never seen in training keeps its random initial weights.
func TestHeldOutCoverage(t *testing.T) {
	spec := os.Getenv("YOMI_HELDOUT")
	if spec == "" {
		t.Skip("set YOMI_HELDOUT=RUN:G to measure")
	}
	i := strings.LastIndex(spec, ":")
	var g int
	if _, err := fmt.Sscan(spec[i+1:], &g); i < 0 || err != nil {
		t.Fatalf("YOMI_HELDOUT=%q: want RUN:G", spec)
	}
	r := &Runner{Dir: spec[:i], Config: DefaultConfig()}
	if err := readJSON(filepath.Join(r.Dir, "config.json"), &r.Config); err != nil {
		t.Fatal(err)
	}
	for _, fs := range FeatureSets {
		seen := make([]bool, fs.Inputs())
		distinct, nTrain := 0, 0
		for k := max(0, g-r.Config.History); k < g; k++ {
			s := genSamples(t, r, k, fs)
			nTrain += len(s)
			for _, x := range s {
				for _, f := range x.Features {
					if !seen[f.Index] {
						seen[f.Index] = true
						distinct++
					}
				}
			}
		}
		held := genSamples(t, r, g, fs)
		var all, unseen float64
		wells := 0
		for _, x := range held {
			any := false
			for _, f := range x.Features {
				all += float64(f.Count)
				if !seen[f.Index] {
					unseen += float64(f.Count)
					any = true
				}
			}
			if any {
				wells++
			}
		}
		t.Logf("%s: %d training samples activate %d of %d inputs; of gen %d's %d wells, %.2f %% of active inputs are unseen in training, %.1f %% of wells have one or more",
			fs, nTrain, distinct, fs.Inputs(), g, len(held), 100*unseen/all, 100*float64(wells)/float64(len(held)))
	}
}

// genSamples is generation k's committed targets of run r as samples of
// feature set fs.
func genSamples(t *testing.T, r *Runner, k int, fs FeatureSet) []nn.Sample {
	t.Helper()
	ts, err := r.readTargets(k)
	if err != nil {
		t.Fatal(err)
	}
	s, err := samplesOf(ts, fs)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
