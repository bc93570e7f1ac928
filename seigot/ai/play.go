// This file holds the game loop that lets a Player play a whole game in
// the engine, and the fixed-order future used at seed 0.
package ai

import (
	"context"
	"time"

	"github.com/yomi-ai/yomi/seigot"
)

// CycleFuture returns the n pieces that follow last in the seed-0 order 1..7.
func CycleFuture(last uint8, n int) []uint8 {
	out := make([]uint8, n)
	for i := range out {
		last = last%7 + 1
		out[i] = last
	}
	return out
}

// Result is a finished game and the time its decisions took.
type Result struct {
	Stats seigot.Stats
	// Carried lists, for each placement that cleared four lines, the
	// cells left on the board right after it: by the drop-bonus identity
	// (Weights.DropPot) each costs about a point of drop bonus.
	Carried   []int
	Decisions []time.Duration
	// CPU holds each decision's CPU time when PlayTimed was given a clock.
	CPU []time.Duration
}

// Play runs a whole game of cfg with player pl. It stops early (returning what was played) when ctx ends.
func Play(ctx context.Context, cfg seigot.Config, pl *Player) Result {
	return PlayTimed(ctx, cfg, pl, nil)
}

// PlayTimed is Play that also records each decision's CPU time as told by
// cpu (the process's CPU time so far; with GOMAXPROCS=1 the difference is
// the decision's own), when cpu is not nil.
func PlayTimed(ctx context.Context, cfg seigot.Config, pl *Player, cpu func() time.Duration) Result {
	if cfg.BlockNumMax <= 0 && cfg.MaxTicks <= 0 {
		cfg.MaxTicks = 100000
	}
	g := seigot.NewGame(cfg)
	var res Result
	for !g.Done && ctx.Err() == nil {
		g.BeginTick()
		pos := g.Position()
		var c0 time.Duration
		if cpu != nil {
			c0 = cpu()
		}
		t0 := time.Now()
		m := pl.Decide(ctx, &pos)
		res.Decisions = append(res.Decisions, time.Since(t0))
		if cpu != nil {
			res.CPU = append(res.CPU, cpu()-c0)
		}
		if r := g.ApplyMove(m); r.Lines == 4 {
			n := 0
			for _, c := range g.Board {
				if c != 0 {
					n++
				}
			}
			res.Carried = append(res.Carried, n)
		}
	}
	res.Stats = g.Stats
	return res
}
