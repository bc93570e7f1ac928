// Exported entry points to the searches for benchmarks and tools.

package ai

import (
	"context"
	"math/rand/v2"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/sim"
)

// ChainBeam runs the chain beam for player p whose next pack is packs[0].
func ChainBeam(ctx context.Context, p *codevs.Player, packs []sim.Pack, cfg BeamConfig) BeamResult {
	return runBeam(ctx, side{f: sim.FastFrom(&p.Board), stock: p.Ojama, gauge: p.Gauge}, packs, cfg)
}

// Exhaust runs the exhaustive search for player p to depth plies (at most
// MaxPly) with packs[0] next.
func Exhaust(ctx context.Context, p *codevs.Player, packs []sim.Pack, depth, threads int) Table {
	return exhaust(ctx, side{f: sim.FastFrom(&p.Board), stock: p.Ojama, gauge: p.Gauge}, packs, depth, threads)
}

// BenchPositions returns n fixed mid-game positions (a player and the packs
// from its next turn) derived from seed: random surviving drops from an
// empty field on generated packs, 20 to 35 turns in.
func BenchPositions(seed uint64, n int) ([]codevs.Player, [][]sim.Pack, error) {
	rng := rand.New(rand.NewPCG(seed, 0xbe4c))
	var ps []codevs.Player
	var packs [][]sim.Pack
	for i := 0; len(ps) < n; i++ {
		pk, err := codevs.PacksForSeed(seed+uint64(i), codevs.ProfileClient)
		if err != nil {
			return nil, nil, err
		}
		var p codevs.Player
		turns := 20 + rng.IntN(16)
		ok := true
		for t := 0; t < turns && ok; t++ {
			ok = false
			for try := 0; try < 36; try++ {
				q := p
				if _, err := q.Act(pk[t], codevs.Drop(rng.IntN(9), rng.IntN(4))); err == nil && !q.Dead() {
					p, ok = q, true
					break
				}
			}
		}
		if !ok {
			continue
		}
		p.Ojama, p.Gauge, p.Score = 0, 0, 0
		ps = append(ps, p)
		packs = append(packs, pk[turns:])
	}
	return ps, packs, nil
}

// Plan runs a chokudai search for player p whose next pack is packs[0]
// (reusing c's buffers).
func (c *Chokudai) Plan(ctx context.Context, p *codevs.Player, packs []sim.Pack, cfg ChokudaiConfig) BeamResult {
	return c.search(ctx, side{f: sim.FastFrom(&p.Board), stock: p.Ojama, gauge: p.Gauge}, packs, cfg)
}
