// This file holds the solved start (knewjade's initial net, spec §7.1):
// a generation-0 net trained on the exact values of small wells.
package train

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"time"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/nn"
)

// StartSolved is the start kind trained on exactly solved small wells.
const StartSolved = "solved"

// Defaults of the solved start (Config fields left 0).
const (
	DefaultSolvedHeight = 5   // heights 4..5: 627 000 wells, seconds to solve
	DefaultSolvedFrac   = 0.5 // the share of the wells trained on, as in the seed
)

// MinSolvedHeight is the lowest small well the solved start uses (the
// seed's heights are 4–7).
const MinSolvedHeight = 4

// solvedHeight, solvedFrac: the config's values or the defaults.
func (c Config) solvedHeight() int   { return cmp.Or(c.SolvedHeight, DefaultSolvedHeight) }
func (c Config) solvedFrac() float64 { return cmp.Or(c.SolvedFrac, DefaultSolvedFrac) }

// solvedOut is RUN/gen-000/solved.json.
type solvedOut struct {
	Heights   []solvedHeight `json:"heights"`
	Norm      float64        `json:"norm"`    // lines mapped to +1
	Samples   int            `json:"samples"` // wells trained on (train + validation)
	TrainLoss float64        `json:"trainLoss"`
	ValLoss   float64        `json:"valLoss"`
	Epochs    int            `json:"epochs"`
	Seconds   float64        `json:"seconds"`
}

type solvedHeight struct {
	Height  int     `json:"height"`
	Best    int     `json:"best"`  // the optimum from the empty well
	Wells   int     `json:"wells"` // wells reached at a spawn
	Seconds float64 `json:"seconds"`
}

// solvedTarget maps lines to the seed's eval (lines/norm − 0.5)·2, clamped
// to [−1, 1].
func solvedTarget(lines int, norm float64) float32 {
	return float32(min(1, max(-1, (float64(lines)/norm-0.5)*2)))
}

// solvedData solves the small wells of heights MinSolvedHeight..maxH and
// returns a random share frac of their wells as samples (seeded; sorted
// wells, so the same on every machine), with the target of each well's
// value against norm (0: the optimum of the deepest height).
func solvedData(ctx context.Context, maxH int, frac, norm float64, seed uint64, progress func(string)) ([]nn.Sample, []solvedHeight, float64, error) {
	type entry struct {
		k hatetris.SmallKey
		v int8
	}
	var all [][]entry
	var hs []solvedHeight
	for h := MinSolvedHeight; h <= maxH; h++ {
		progress(fmt.Sprintf("solving height %d", h))
		t0 := time.Now()
		sol, err := hatetris.SolveSmall(ctx, h, hatetris.Hatetris, 0)
		if err != nil {
			return nil, nil, 0, err
		}
		es := make([]entry, 0, len(sol.Value))
		for k, v := range sol.Value {
			es = append(es, entry{k, v})
		}
		slices.SortFunc(es, func(a, b entry) int {
			return cmp.Or(cmp.Compare(a.k.Hi, b.k.Hi), cmp.Compare(a.k.Lo, b.k.Lo))
		})
		all = append(all, es)
		hs = append(hs, solvedHeight{Height: h, Best: sol.Best, Wells: len(es), Seconds: time.Since(t0).Seconds()})
	}
	if norm <= 0 {
		norm = float64(hs[len(hs)-1].Best)
	}
	if norm <= 0 {
		return nil, nil, 0, fmt.Errorf("train: the small wells up to height %d score nothing; give a norm", maxH)
	}
	rng := rand.New(rand.NewPCG(seed, 0x501fed))
	var samples []nn.Sample
	var idx []int32
	for i, es := range all {
		h := hs[i].Height
		for _, e := range es {
			if rng.Float64() >= frac {
				continue
			}
			w := e.k.Well(h)
			var f []nn.Feature
			var err error
			if f, idx, err = SmallFeatures(nil, idx, &w, h); err != nil {
				return nil, nil, 0, err
			}
			samples = append(samples, nn.Sample{Features: f, Target: solvedTarget(int(e.v), norm)})
		}
	}
	return samples, hs, norm, nil
}

// solvedStart trains net on the solved small wells (RUN/gen-000/solved.json).
func (r *Runner) solvedStart(ctx context.Context, net *nn.Net) error {
	c := r.Config
	start := time.Now()
	samples, hs, norm, err := solvedData(ctx, c.solvedHeight(), c.solvedFrac(), c.SolvedNorm, c.Seed,
		func(note string) { r.progress(0, "solved", 0, -1, note) })
	if err != nil {
		return err
	}
	out := solvedOut{Heights: hs, Norm: norm, Samples: len(samples)}
	out.Epochs, out.TrainLoss, out.ValLoss, err = r.trainStart(ctx, net, samples, "solved", 0x501fed)
	if err != nil {
		return err
	}
	out.Seconds = time.Since(start).Seconds()
	return writeJSON(filepath.Join(r.genDir(0), "solved.json"), out)
}
