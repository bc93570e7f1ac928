// This file holds the heuristic start: a generation-0 net distilled from
// the hand-made heuristic (player.DefaultHeuristic) on wells of its own
// beam games.
package train

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/hatetris/player"
	"github.com/yomi-ai/yomi/nn"
)

// Start kinds of a run's generation-0 net.
const (
	StartRandom    = "random"    // small random weights from the seed
	StartHeuristic = "heuristic" // distilled from the hand heuristic (distillData)
)

// distillData plays one heuristic beam game of the given width and takes,
// at every depth, perDepth wells of the beam and all their children by the
// enemy's piece (the candidates the beam ranks, bad ones included).
// Targets are the heuristic's values (with the well's score, which the
// cell count and depth give) ranked within each depth and mapped to
// [-1, 1], so the net learns the heuristic's order of a depth's wells (a
// net sees no score: at a fixed depth fewer cells means more lines).
func distillData(ctx context.Context, width, perDepth, workers int, seed uint64) (*targets, error) {
	var wells []hatetris.Well
	var groups []int // first sample of each depth's group
	var depths []int // pieces placed in that group's wells
	var exp hatetris.Expander
	depthRNG := func(d int) *rand.Rand { return rand.New(rand.NewPCG(seed, 0xd157<<32|uint64(d))) }
	_, err := player.Search(ctx, player.Options{Width: width, Workers: workers,
		OnDepth: func(d int, beam []hatetris.Well) {
			rng := depthRNG(d)
			pick := rng.Perm(len(beam))
			if len(pick) > perDepth {
				pick = pick[:perDepth]
			}
			groups = append(groups, len(wells))
			depths = append(depths, d+1)
			for _, i := range pick {
				// The beam's candidates: every child of the enemy's piece
				// (loop rule ignored here; it rarely fires).
				_, futs := exp.Choose(&beam[i], nil)
				for _, f := range futs {
					if !f.Well.Over() {
						wells = append(wells, f.Well)
					}
				}
			}
		}})
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	groups = append(groups, len(wells))
	h := player.DefaultHeuristic()
	ts := &targets{Wells: wells, T: make([]float32, len(wells))}
	for g := 0; g+1 < len(groups); g++ {
		lo, hi := groups[g], groups[g+1]
		vals := make([]float64, hi-lo)
		for i := range vals {
			vals[i] = h.Eval(&wells[lo+i], scoreAt(&wells[lo+i], depths[g]))
		}
		rankTargets(ts.T[lo:hi], vals)
	}
	return ts, nil
}

// scoreAt is the score of a well reached from the empty well after depth
// pieces: each piece adds 4 cells and each line removes 10.
func scoreAt(w *hatetris.Well, depth int) int {
	cells := 0
	for _, r := range w {
		cells += bits.OnesCount16(r)
	}
	return (4*depth - cells) / 10
}

// rankTargets sets t[i] to the rank of vals[i] mapped linearly to [-1, 1]
// (ties in index order; a single value gets 0).
func rankTargets(t []float32, vals []float64) {
	order := make([]int, len(vals))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case vals[a] < vals[b]:
			return -1
		case vals[a] > vals[b]:
			return 1
		}
		return 0
	})
	for r, i := range order {
		t[i] = 0
		if len(order) > 1 {
			t[i] = float32(2*float64(r)/float64(len(order)-1) - 1)
		}
	}
}

// samplesOf turns wells and targets into training samples with feature set fs.
func samplesOf(ts *targets, fs FeatureSet) ([]nn.Sample, error) {
	samples := make([]nn.Sample, 0, len(ts.Wells))
	for i := range ts.Wells {
		f, _, err := fs.Extract(nil, nil, &ts.Wells[i])
		if err != nil {
			return nil, err
		}
		samples = append(samples, nn.Sample{Features: f, Target: ts.T[i]})
	}
	return samples, nil
}
