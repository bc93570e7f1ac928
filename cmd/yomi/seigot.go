// `yomi seigot`: the seigot/tetris contest area (sequence here; play,
// controller and benchmarks in the other seigot files).

package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/fabric"
	"github.com/yomi-ai/yomi/internal/bench"
	"github.com/yomi-ai/yomi/seigot/ai"

	"github.com/yomi-ai/yomi/internal/cli"
	"github.com/yomi-ai/yomi/seigot"
	seigotweb "github.com/yomi-ai/yomi/seigot/webapp"
	"github.com/yomi-ai/yomi/web"
)

// seigotGame plugs seigot/tetris into the binary: its area, benchmarks and web entry.
func seigotGame() game {
	return game{
		area: &cli.Area{
			Name:    "seigot",
			Summary: "seigot/tetris contest: engine, AI, Python bridge",
			Verbs: []*cli.Verb{
				{Name: "sequence", Summary: "the first pieces (and garbage) of a game from its seed, as numpy draws them", Run: runSeigotSequence},
				{Name: "play", Summary: "play games in our exact engine with our AI; score, lines, game overs", Run: runSeigotPlay},
				{Name: "replay", Summary: "replay a recorded move list in our engine (exactness check against the original)", Run: runSeigotReplay},
				{Name: "controller", Summary: "line-based JSON controller for the Python bridge (GameStatus in, nextMove out)", Run: runSeigotController},
			},
		},
		benches: seigotBenches(),
		jobs:    map[string]fabric.Handler{seigotPlayKind: arena.ScoreHandler(seigotPlayFactory)},
		entry:   web.Entry{Slug: "seigot", Title: "seigot/tetris", Summary: "The seigot/tetris Python contest: exact engine with numpy's random sequences, an AI for every level, a bridge into the real game, and a page to watch the AI play.", App: &web.App{Handler: seigotweb.Handler(seigotweb.Options{})}},
	}
}

var seigotShapes = []string{"", "I", "L", "J", "T", "O", "S", "Z"}

func runSeigotSequence(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi seigot sequence", "--seed S [--level L] --n N [--json]",
		`Prints the first N current pieces (shape index 1-7) of a game started with -r S at level L,
and at levels 3-4 the initial garbage (the bottom 10 rows, top first; 0 = empty, else the
colour). Draws follow the original: garbage first, then one piece per spawn; game overs are
not modelled.`)
	seed := fs.Uint64("seed", 0, "the game's -r value (0 = fixed order 1..7); reduced modulo 2^32-1 before numpy sees it, as the game does, so 4294967296 plays as 1")
	level := fs.Int("level", 2, "level 1-4 (garbage at 3 and 4)")
	n := fs.Int("n", 0, "number of pieces")
	asJSON := fs.Bool("json", false, `print {"pieces":[...],"garbage":[[...],...]}`)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	if *n <= 0 {
		return cli.Usagef("--n must be at least 1")
	}
	if *level < 1 || *level > 4 {
		return cli.Usagef("--level must be 1..4, got %d", *level)
	}
	st, err := seigot.Sequence(*seed, *level, *n)
	if err != nil {
		return cli.Usagef("%v", err)
	}
	if *asJSON {
		if st.Garbage == nil {
			st.Garbage = [][10]int{}
		}
		return cli.WriteJSON(env.Stdout, st)
	}
	var names []string
	for _, p := range st.Pieces {
		names = append(names, fmt.Sprint(p))
	}
	fmt.Fprintf(env.Stdout, "pieces: %s\n", strings.Join(names, " "))
	names = names[:0]
	for _, p := range st.Pieces {
		names = append(names, seigotShapes[p])
	}
	fmt.Fprintf(env.Stdout, "shapes: %s\n", strings.Join(names, " "))
	if len(st.Garbage) > 0 {
		fmt.Fprintln(env.Stdout, "garbage (bottom 10 rows, top first):")
		for _, row := range st.Garbage {
			var b strings.Builder
			for _, c := range row {
				if c == 0 {
					b.WriteByte('_')
				} else {
					b.WriteByte(byte('0' + c))
				}
			}
			fmt.Fprintln(env.Stdout, b.String())
		}
	}
	return nil
}

// seigotBenches registers seigot/move: time per decision at each level's settings.
func seigotBenches() []bench.Benchmark {
	return []bench.Benchmark{{
		Name:    "seigot/move",
		Summary: "time per decision (mean, p99) over the first 60 pieces of a fixed game at each level's settings, and the fast mode",
		Run: func(ctx context.Context) ([]bench.Figure, error) {
			var figs []bench.Figure
			for _, run := range []struct {
				level int
				fast  bool
				name  string
			}{{1, false, "L1"}, {2, false, "L2"}, {3, false, "L3"}, {4, true, "L4fast"}} {
				r := ai.RunMoveBench(ctx, run.level, 60, run.fast)
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				mean, p99 := durationStats(r.Decisions)
				n := "seigot/move/" + run.name
				figs = append(figs,
					bench.Figure{Name: n + "/nodes", Value: float64(r.Nodes) / float64(len(r.Decisions)), Unit: "nodes/decision"},
					bench.Figure{Name: n + "/score60", Value: float64(r.Score), Unit: "points"},
					bench.Figure{Name: n + "/mean", Value: mean, Unit: "ms"},
					bench.Figure{Name: n + "/p99", Value: p99, Unit: "ms"})
			}
			return figs, nil
		},
	}}
}
