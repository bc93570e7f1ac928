// This file holds the fixed decision workload behind `yomi bench seigot/move`
// and the testing.B benchmark.
package ai

import (
	"context"
	"time"

	"github.com/yomi-ai/yomi/seigot"
)

// MoveBench plays the first pieces of a fixed game (seed 3; seed 0 at level
// 1) at each level's settings and reports the decision times, the nodes
// evaluated and the score reached (the last two are deterministic).
type MoveBench struct {
	Level     int
	Decisions []time.Duration
	Nodes     int64
	Score     int
}

// RunMoveBench runs MoveBench for level with the named settings ("beam" or "fast").
func RunMoveBench(ctx context.Context, level, pieces int, fast bool) MoveBench {
	seed := uint64(3)
	if level == 1 {
		seed = 0
	}
	cfg, _ := seigot.LevelConfig(level, seed, false)
	cfg.BlockNumMax = pieces
	c := LevelConfig(level)
	if fast {
		c = FastConfig(level)
	}
	pl := New(c)
	res := Play(ctx, cfg, pl)
	return MoveBench{Level: level, Decisions: res.Decisions, Nodes: pl.Nodes, Score: res.Stats.Score}
}

// FastConfig is the small search for when every millisecond counts (the
// real level 4 runs 180 s of 1-ms ticks).
func FastConfig(level int) Config {
	c := LevelConfig(level)
	c.Width, c.Depth = 40, 3
	if level == 2 {
		// The fast search keeps level 2's former well and hold: the leaf
		// well and the held first I were measured with the beam only.
		c.Well, c.LeafWell, c.HoldFirstI = 0, false, false
	}
	if level >= 3 {
		// A shallow search sees danger late: keep the garbage stack lower
		// (level 4, seeds 11-20: game overs 9 -> 2, mean +193).
		c.W.Safe, c.W.Height = 10, -15
		// The level-3 survival terms were measured with the beam only.
		c.W.Danger, c.W.WellDeep, c.W.SpawnRisk, c.W.Cover = 0, 0, 0, 0
	}
	return c
}
