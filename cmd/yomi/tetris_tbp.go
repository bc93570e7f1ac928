// tetris_tbp.go plugs the Tetris Bot Protocol (tetris/tbp) and the versus
// and solo harnesses (tetris/versus) into the binary: the `yomi tetris
// tbp`, `yomi tetris versus` and `yomi tetris solo` verbs.

package main

import (
	"context"
	"time"

	"github.com/yomi-ai/yomi/internal/cli"
	"github.com/yomi-ai/yomi/tetris/bot"
	"github.com/yomi-ai/yomi/tetris/tbp"
)

// withTetrisTBP adds the TBP, versus and solo verbs.
func withTetrisTBP(g game) game {
	g.area.Verbs = append(g.area.Verbs,
		&cli.Verb{Name: "tbp", Summary: "run the bot on stdin/stdout speaking the Tetris Bot Protocol", Run: runTetrisTBP},
	)
	return g
}

func runTetrisTBP(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi tetris tbp", "[flags]",
		`Runs the Cold-Clear-class bot as a Tetris Bot Protocol bot: one JSON message per line on stdin
and stdout (info, rules/ready, start — also in mid-game —, suggest/suggestion with move_info,
play, new_piece, stop, quit, and the garbage extension). The bot thinks in the background
between messages and answers suggest at once; --max-ms and --max-nodes cap one move's thinking.
Unknown message types are ignored; malformed lines are reported on stderr and ignored.`)
	threads := fs.Int("threads", 1, "search threads")
	seed := fs.Uint64("seed", 1, "selection seed")
	maxMS := fs.Int("max-ms", 0, "cap on one move's thinking in milliseconds (0: until suggest)")
	maxNodes := fs.Int64("max-nodes", 0, "cap on one move's nodes (0: none)")
	weights := fs.String("weights", "", "evaluator weights JSON `FILE` (default: Cold Clear's)")
	pcMode := fs.Bool("pc", false, "perfect-clear mode (see yomi tetris think --pc)")
	quiet := fs.Bool("quiet", false, "do not report ignored lines on stderr")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	if *threads < 1 || *maxMS < 0 || *maxNodes < 0 {
		return cli.Usagef("--threads must be ≥ 1, --max-ms and --max-nodes ≥ 0")
	}
	opt := bot.Options{Threads: *threads, Seed: *seed, PerfectClear: *pcMode}
	if *weights != "" {
		w, err := bot.LoadWeights(*weights)
		if err != nil {
			return err
		}
		opt.Weights = &w
	}
	cfg := tbp.Config{Bot: opt, MaxThink: time.Duration(*maxMS) * time.Millisecond, MaxNodes: *maxNodes}
	if !*quiet {
		cfg.Log = env.Stderr
	}
	return tbp.Serve(ctx, env.Stdin, env.Stdout, cfg)
}
