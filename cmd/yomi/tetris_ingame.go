// tetris_ingame.go holds the `tetris/ingame` benchmarks: the built-in bot
// playing a versus game against itself at a fixed think time, as in a
// match, so that what a game costs between searches (advancing the DAG,
// restarts after garbage) shows next to the search itself.
package main

import (
	"context"
	"fmt"
	"time"

	"github.com/yomi-ai/yomi/internal/bench"
	"github.com/yomi-ai/yomi/tetris/bot"
	"github.com/yomi-ai/yomi/tetris/versus"
)

// tetrisInGameSeed is the workload's piece seed: one versus game (garbage
// seed 7), both sides the built-in bot, 50 ms a move and at most 60 pieces
// each, or 200 ms and 40 pieces (tetris/ingame/200ms/2t: the bigger trees
// of the longer think time make the catch-up longer too).
const tetrisInGameSeed = 424242

// inGameResult sums both sides' Move phases over the game.
type inGameResult struct {
	ph   versus.Phases
	cpu  time.Duration // the process's user+system time during the game
	wall time.Duration
}

func tetrisInGameRun(ctx context.Context, threads int, think time.Duration, pieces int) (inGameResult, error) {
	var r inGameResult
	spec := versus.Spec{Options: bot.Options{Threads: threads}}
	var players [2]versus.Player
	for i := range players {
		p, err := spec.Open(ctx, uint64(i+1), time.Second)
		if err != nil {
			return r, err
		}
		defer p.Close()
		players[i] = p
	}
	cpu0, _ := bench.ProcessCPU()
	start := time.Now()
	if _, err := versus.PlayVersus(ctx, versus.Config{Think: think, MaxPieces: pieces}, players, tetrisInGameSeed, 7); err != nil {
		return r, err
	}
	r.wall = time.Since(start)
	cpu1, _ := bench.ProcessCPU()
	r.cpu = cpu1 - cpu0
	for _, p := range players {
		ph := p.(*versus.Builtin).Phases
		r.ph.Moves += ph.Moves
		r.ph.Restarts += ph.Restarts
		r.ph.Nodes += ph.Nodes
		r.ph.CatchUp += ph.CatchUp
		r.ph.Think += ph.Think
		r.ph.Searching += ph.Searching
		r.ph.Answer += ph.Answer
	}
	if r.ph.Moves == 0 {
		return r, fmt.Errorf("tetris/ingame: no move played")
	}
	return r, nil
}

func tetrisInGameBenchmarks() []bench.Benchmark {
	var out []bench.Benchmark
	for _, c := range []struct {
		name    string
		threads int
		think   time.Duration
		pieces  int
	}{
		{"tetris/ingame/1t", 1, 50 * time.Millisecond, 60},
		{"tetris/ingame/2t", 2, 50 * time.Millisecond, 60},
		{"tetris/ingame/200ms/2t", 2, 200 * time.Millisecond, 40},
	} {
		name := c.name
		out = append(out, bench.Benchmark{
			Name:    name,
			Summary: fmt.Sprintf("the built-in bot at %d thread(s) in a versus game against itself, %v a move as in a match (≤ %d pieces each): search nodes per move, the time per move spent catching the search up (Play, AddPiece, restarts after garbage) and searching, nodes per CPU-second of the whole process", c.threads, c.think, c.pieces),
			Run: func(ctx context.Context) ([]bench.Figure, error) {
				r, err := tetrisInGameRun(ctx, c.threads, c.think, c.pieces)
				if err != nil {
					return nil, err
				}
				m := float64(r.ph.Moves)
				ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / m }
				figs := []bench.Figure{
					{Name: name + "/nodes", Value: float64(r.ph.Nodes) / m, Unit: "nodes/move"},
					{Name: name + "/catchup", Value: ms(r.ph.CatchUp), Unit: "ms/move"},
					{Name: name + "/search", Value: ms(r.ph.Searching), Unit: "ms/move"},
					{Name: name + "/overhead", Value: ms(r.ph.Think - r.ph.Searching + r.ph.Answer), Unit: "ms/move"},
					{Name: name + "/restarts", Value: float64(r.ph.Restarts) / m, Unit: "per move"},
					{Name: name + "/moves", Value: m, Unit: "moves"},
					{Name: name + "/rate", Value: float64(r.ph.Nodes) / r.ph.Searching.Seconds(), Unit: "nodes/s searching"},
					{Name: name + "/wallrate", Value: float64(r.ph.Nodes) / r.wall.Seconds(), Unit: "nodes/s"},
				}
				if r.cpu > 0 {
					figs = append(figs, bench.Figure{Name: name + "/cpurate", Value: float64(r.ph.Nodes) / r.cpu.Seconds(), Unit: "nodes/CPU-s"})
				}
				return figs, nil
			},
		})
	}
	return out
}
