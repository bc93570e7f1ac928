// `yomi hatetris`: replay, convert, show and search, and the HATETRIS
// benchmarks.

package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/yomi-ai/yomi/fabric"
	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/hatetris/player"
	"github.com/yomi-ai/yomi/hatetris/replay"
	"github.com/yomi-ai/yomi/hatetris/train"
	"github.com/yomi-ai/yomi/internal/bench"
	"github.com/yomi-ai/yomi/internal/cli"
	"github.com/yomi-ai/yomi/nn"
	"github.com/yomi-ai/yomi/web"
)

// hatetrisGame plugs HATETRIS into the binary: its area, benchmarks and web entry.
func hatetrisGame() game {
	return game{
		area: &cli.Area{
			Name:    "hatetris",
			Summary: "HATETRIS: emulator, replays, beam search, NN training",
			Verbs: []*cli.Verb{
				{Name: "replay", Summary: "play a replay (raw, hex, Base65536 or Base2048) and print its score", Run: runHatetrisReplay},
				{Name: "convert", Summary: "re-encode a replay as raw, hex, Base65536 or Base2048", Run: runHatetrisConvert},
				{Name: "show", Summary: "draw the well at the end of a replay (or after move K)", Run: runHatetrisShow},
				{Name: "search", Summary: "play a full game by beam search and write its Base2048 replay", Run: runHatetrisSearch},
				{Name: "solve", Summary: "solve small wells (H rows below the bar) exactly: the lines the player can guarantee", Run: runHatetrisSolve},
				{Name: "train", Summary: "train a net by Search / Refine / Learn generations in a resumable run directory", Run: runHatetrisTrain},
			},
		},
		benches: hatetrisBenches(),
		jobs:    map[string]fabric.Handler{train.RefineKind: train.RefineHandler(fetchArtifact)},
		entry:   web.Entry{Slug: "hatetris", Title: "HATETRIS", Summary: "The hardest Tetris: exact emulator and replays, beam search, and a small neural net trained by Search/Refine/Learn; play against its AI, view replays and watch a search.", App: hatetrisWebApp()},
	}
}

// readReplay resolves REPLAY | @FILE | - and decodes it.
func readReplay(env *cli.Env, fs interface{ Args() []string }) ([]hatetris.Move, replay.Encoding, error) {
	args := fs.Args()
	if len(args) != 1 {
		return nil, "", cli.Usagef("want exactly one replay argument (REPLAY, @FILE or -), got %d", len(args))
	}
	text, err := cli.ReadArg(env, args[0])
	if err != nil {
		return nil, "", err
	}
	ms, enc, err := replay.Decode(text)
	if err != nil {
		return nil, "", cli.Usagef("%v", err) // a replay that does not decode is bad input
	}
	return ms, enc, nil
}

func aiFlag(fs interface {
	String(string, string, string) *string
}) *string {
	return fs.String("ai", "hatetris", "enemy AI: hatetris (with the loop rule) or mild")
}

func runHatetrisReplay(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi hatetris replay", "[--ai hatetris|mild] [--json] (REPLAY | @FILE | -)",
		`Plays a replay against the enemy AI exactly as qntm's HATETRIS does and prints the score,
the pieces spawned, the moves played and whether the game ended. The encoding (raw, hex,
Base65536, Base2048) is detected in the original's order. Moves after game over are ignored.`)
	ai := aiFlag(fs)
	asJSON := fs.Bool("json", false, `print exactly {"score":N,"pieces":N,"moves":N,"gameOver":bool}`)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	kind, err := hatetris.ParseAI(*ai)
	if err != nil {
		return cli.Usagef("%v", err)
	}
	ms, enc, err := readReplay(env, fs)
	if err != nil {
		return err
	}
	g := hatetris.NewGame(kind)
	g.Play(ms)
	if *asJSON {
		return cli.WriteJSON(env.Stdout, struct {
			Score    int  `json:"score"`
			Pieces   int  `json:"pieces"`
			Moves    int  `json:"moves"`
			GameOver bool `json:"gameOver"`
		}{g.Score, g.Pieces, g.Moves, g.Over})
	}
	fmt.Fprintf(env.Stdout, "score: %d\npieces: %d\nmoves: %d\ngame over: %v\nencoding: %s (%d moves decoded)\nai: %v\n",
		g.Score, g.Pieces, g.Moves, g.Over, enc, len(ms), kind)
	return nil
}

func runHatetrisConvert(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi hatetris convert", "--to raw|hex|base65536|base2048 (REPLAY | @FILE | -)",
		`Decodes a replay (any encoding, detected as the original does) and writes it in another.
Hex and the byte-based forms may differ by one padding move after game over.`)
	to := fs.String("to", "base2048", "target encoding: raw, hex, base65536 or base2048")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	enc, err := replay.ParseEncoding(*to)
	if err != nil {
		return cli.Usagef("%v", err)
	}
	ms, _, err := readReplay(env, fs)
	if err != nil {
		return err
	}
	s, err := replay.Encode(ms, enc)
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, s)
	return nil
}

func runHatetrisShow(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi hatetris show", "[--ai hatetris|mild] [--move K] [--json] (REPLAY | @FILE | -)",
		`Draws the well as text ('#' filled, '.' empty, the bar as '-') at the end of a replay, or
after its first K moves, with the falling piece drawn as '@' while the game is running.`)
	ai := aiFlag(fs)
	k := fs.Int("move", -1, "show the well after this many moves (default: the end)")
	asJSON := fs.Bool("json", false, `print {"score":N,"pieces":N,"moves":N,"gameOver":bool,"rows":[...]}`)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	kind, err := hatetris.ParseAI(*ai)
	if err != nil {
		return cli.Usagef("%v", err)
	}
	ms, _, err := readReplay(env, fs)
	if err != nil {
		return err
	}
	if *k < 0 && flagSet(fs, "move") {
		return cli.Usagef("--move %d: want 0..%d (leave it out for the end)", *k, len(ms))
	}
	if *k >= 0 {
		if *k > len(ms) {
			return cli.Usagef("--move %d is past the replay's %d moves", *k, len(ms))
		}
		ms = ms[:*k]
	}
	g := hatetris.NewGame(kind)
	g.Play(ms)
	rows := strings.Split(strings.TrimSuffix(g.Drawing(), "\n"), "\n")
	if *asJSON {
		return cli.WriteJSON(env.Stdout, struct {
			Score    int      `json:"score"`
			Pieces   int      `json:"pieces"`
			Moves    int      `json:"moves"`
			GameOver bool     `json:"gameOver"`
			Rows     []string `json:"rows"`
		}{g.Score, g.Pieces, g.Moves, g.Over, rows})
	}
	for _, r := range rows {
		fmt.Fprintln(env.Stdout, r)
	}
	state := "running, piece " + g.Piece.String()
	if g.Over {
		state = "game over"
	}
	fmt.Fprintf(env.Stdout, "score %d, pieces %d, moves %d, %s\n", g.Score, g.Pieces, g.Moves, state)
	return nil
}

func runHatetrisSearch(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi hatetris search", "--beam W [--eval heuristic|nn:FILE] [--quiescence] [--ai hatetris|mild] [--checkpoint FILE] [--seed S] [--out FILE] [--json]",
		`Plays a full game by beam search: at each depth every well in the beam gets the enemy's
piece (decided exactly, with the loop rule along the well's own path), all its locks are
valued by the evaluator (the hand-made heuristic, or a net trained by 'yomi hatetris train'
with --eval nn:FILE), repeated wells are merged and the W best are kept. The
best game is written as a Base2048 replay and re-checked by the emulator. The search is
deterministic: --seed is accepted for scripts but changes nothing (no randomness is used).
Ctrl-C stops the search and writes the best game so far.

With --checkpoint FILE the search saves itself to FILE after every depth (or at most once
per --checkpoint-every) and when it stops; rerunning the same command when FILE exists
resumes from it and plays exactly the game an uninterrupted run plays, so a kill (even
SIGKILL) loses at most the depth in progress. A checkpoint written with another --beam,
--eval net, --quiescence or --ai is refused; --max-depth and --workers may change.`)
	width := fs.Int("beam", 1000, "beam width (wells kept per depth)")
	quiet := fs.Bool("quiescence", false, "value wells by their best single-line-clear chain too (slower, stronger)")
	evalName := fs.String("eval", "heuristic", "evaluator: heuristic, or nn:FILE for a net file written by 'yomi hatetris train' (either feature set; the file says which)")
	ai := aiFlag(fs)
	fs.Uint64("seed", 0, "accepted for scripts; the search uses no randomness")
	workers := fs.Int("workers", 0, "goroutines (0 = all cores)")
	maxDepth := fs.Int("max-depth", 0, "stop after this many pieces (0 = until the beam dies)")
	out := fs.String("out", "", "write the Base2048 replay to this file")
	asJSON := fs.Bool("json", false, `print {"score":N,"pieces":N,"moves":N,"gameOver":bool,"replay":"...","seconds":S,"wells":N}`)
	ckpt := fs.String("checkpoint", "", "save the search to this file after each depth and resume from it when it exists")
	ckptEvery := fs.Duration("checkpoint-every", 0, "save the checkpoint at most this often (0 = after every depth)")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	if *ckptEvery < 0 || (*ckptEvery > 0 && *ckpt == "") {
		return cli.Usagef("--checkpoint-every wants a duration ≥ 0 and --checkpoint FILE")
	}
	if *ckpt != "" {
		if err := errors.Join(cli.CheckWritable(*ckpt), cli.CheckWritable(*ckpt+".tmp")); err != nil {
			return cli.Usagef("--checkpoint: %v", err)
		}
	}
	if *width < 1 {
		return cli.Usagef("--beam must be at least 1")
	}
	if *workers < 0 || *maxDepth < 0 {
		return cli.Usagef("--workers and --max-depth must not be negative (0: all cores, no cap)")
	}
	if *out != "" {
		// before the search, not after: a bad path must not cost a game
		if err := cli.CheckWritable(*out); err != nil {
			return cli.Usagef("--out: %v", err)
		}
	}
	kind, err := hatetris.ParseAI(*ai)
	if err != nil {
		return cli.Usagef("%v", err)
	}
	newEval, err := hatetrisEval(*evalName)
	if err != nil {
		return err
	}
	evalID, err := hatetrisEvalID(*evalName)
	if err != nil {
		return err
	}
	bar := cli.Progress(env.Stderr, -1, "beam", false)
	res, err := player.Search(ctx, player.Options{
		Width: *width, Quiescence: *quiet, Workers: *workers, AI: kind, MaxDepth: *maxDepth, NewEval: newEval,
		Progress: func(s player.Stats) {
			rate := float64(s.Wells) / max(s.Elapsed.Seconds(), 1e-9)
			bar.Describe(fmt.Sprintf("depth %d  lines %d  beam %d  kept %d  %.0f wells/s", s.Depth, s.BestScore, s.Beam, s.Kept, rate))
			_ = bar.Add(1)
		},
		Checkpoint: *ckpt, CheckpointEvery: *ckptEvery, EvalID: evalID,
		Resumed: func(s player.Stats) {
			fmt.Fprintf(env.Stderr, "resuming from %s: depth %d, %d lines, %d wells expanded\n", *ckpt, s.Depth, s.BestScore, s.Wells)
		},
	})
	_ = bar.Finish()
	fmt.Fprintln(env.Stderr)
	if errors.Is(err, player.ErrCheckpointSettings) {
		return cli.Usagef("--checkpoint: %v", err)
	}
	if err != nil {
		return err
	}
	// Re-check the replay with the emulator: the search's claim must hold.
	g := hatetris.NewGame(kind)
	g.Play(res.Moves)
	if g.Score != res.Score {
		return fmt.Errorf("internal error: the replay scores %d but the search found %d", g.Score, res.Score)
	}
	code, err := replay.Encode(res.Moves, replay.Base2048)
	if err != nil {
		return err
	}
	// The result goes to stdout first: if --out cannot be written after
	// all, the game is not lost.
	if *asJSON {
		err = cli.WriteJSON(env.Stdout, struct {
			Score    int     `json:"score"`
			Pieces   int     `json:"pieces"`
			Moves    int     `json:"moves"`
			GameOver bool    `json:"gameOver"`
			Replay   string  `json:"replay"`
			Seconds  float64 `json:"seconds"`
			Wells    int64   `json:"wells"`
			Stopped  bool    `json:"stopped"`
		}{g.Score, g.Pieces, g.Moves, g.Over, code, res.Elapsed.Seconds(), res.Wells, res.Stopped})
	} else {
		_, err = fmt.Fprintf(env.Stdout, "score: %d\npieces: %d\nmoves: %d\ngame over: %v\nwells expanded: %d in %.1fs\nreplay: %s\n",
			g.Score, g.Pieces, g.Moves, g.Over, res.Wells, res.Elapsed.Seconds(), code)
	}
	if res.Stopped && ctx.Err() != nil {
		fmt.Fprintln(env.Stderr, "stopped early; this is the best game so far")
	}
	if *out != "" {
		if werr := writeFile(*out, []byte(code+"\n"), 0o644); werr != nil {
			if err == nil {
				return fmt.Errorf("--out: %v (the replay is on stdout)", werr)
			}
			// stdout failed too: the replay goes to stderr, the last place left
			fmt.Fprintf(env.Stderr, "replay: %s\n", code)
			return fmt.Errorf("--out: %v (the replay is on stderr)", werr)
		}
	}
	return err
}

// writeFile is os.WriteFile (a variable so that a test can make it fail).
var writeFile = os.WriteFile

// hatetrisEval resolves --eval: "heuristic" or "nn:FILE".
func hatetrisEval(name string) (func() player.Evaluator, error) {
	switch {
	case name == "heuristic":
		return nil, nil
	case strings.HasPrefix(name, "nn:"):
		net, _, err := train.LoadNet(strings.TrimPrefix(name, "nn:"))
		if err != nil {
			return nil, err
		}
		tab, err := train.NewEvaluators(net)
		if err != nil {
			return nil, err
		}
		return func() player.Evaluator { return tab.NewValuer() }, nil
	}
	return nil, cli.Usagef("--eval %q: want heuristic or nn:FILE", name)
}

// hatetrisEvalID names an --eval in a checkpoint: a net by the SHA-256 of
// its file, so a resume with another net (or a retrained file under the
// same name) is refused, and the heuristic by its weights.
func hatetrisEvalID(name string) (string, error) {
	file, ok := strings.CutPrefix(name, "nn:")
	if !ok {
		return fmt.Sprintf("%s %+v", name, player.DefaultHeuristic()), nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("nn:sha256:%x", sha256.Sum256(b)), nil
}

// hatetrisBenches registers hatetris/expand, hatetris/beam, nn/forward and hatetris/beam-nn.
func hatetrisBenches() []bench.Benchmark {
	return []bench.Benchmark{{
		Name:    "nn/forward",
		Summary: "net value of HATETRIS wells (random net, seed 1, hidden 24 and 48; the 752 wells of the 289-line game; 1 core): evaluator from scratch, plain features+forward, and incremental on the children of each well (as in the beam); children-dnf: a D&F-feature net's evaluator on the same children",
		Run: func(ctx context.Context) ([]bench.Figure, error) {
			wells, err := player.BenchGame()
			if err != nil {
				return nil, err
			}
			// The children of the enemy's piece at every well (loop rule as in the game).
			kids := make([][]hatetris.Well, len(wells))
			nKids := 0
			var exp hatetris.Expander
			seen := map[hatetris.Well]int{}
			for i := range wells {
				seen[wells[i]]++
				_, futs := exp.Choose(&wells[i], func(f *hatetris.Well) int { return seen[*f] })
				for k := range futs {
					if !futs[k].Well.Over() {
						kids[i] = append(kids[i], futs[k].Well)
					}
				}
				nKids += len(kids[i])
			}
			var figs []bench.Figure
			var sum float64
			// measure appends the rate of f, which values per wells, and its CPU per well where
			// the OS reports it.
			measure := func(name string, per int, f func()) {
				calls, _, el, cpu, cpuOK := bench.RateCPU(time.Second, func() int64 { f(); return 0 })
				n := float64(calls) * float64(per)
				figs = append(figs, bench.Figure{Name: name, Value: n / el.Seconds(), Unit: "wells/s"})
				if cpuOK {
					figs = append(figs, bench.Figure{Name: name + "/cpu", Value: float64(cpu.Nanoseconds()) / n, Unit: "cpu-ns/well"})
				}
			}
			for _, hidden := range []int{24, 48} {
				net, _ := nn.New(train.Inputs, hidden, 1)
				tab, err := train.NewTables(net)
				if err != nil {
					return nil, err
				}
				e := tab.New()
				measure(fmt.Sprintf("nn/forward/h%d", hidden), len(wells), func() {
					for i := range wells {
						sum += e.Eval(&wells[i], 0)
					}
				})
				acc := make([]float32, hidden)
				var feats []nn.Feature
				var idx []int32
				calls, _, el := bench.Rate(time.Second, func() int64 {
					for i := range wells {
						feats, idx, _ = train.Features(feats[:0], idx, &wells[i])
						v, _ := net.Forward(acc, feats)
						sum += float64(v)
					}
					return 0
				})
				n := float64(calls) * float64(len(wells))
				figs = append(figs, bench.Figure{Name: fmt.Sprintf("nn/forward/plain-h%d", hidden), Value: n / el.Seconds(), Unit: "wells/s"})
				// As in the beam: SetParent, then every child of the enemy's piece.
				measure(fmt.Sprintf("nn/forward/children-h%d", hidden), nKids, func() {
					for i := range wells {
						e.SetParent(&wells[i])
						for k := range kids[i] {
							sum += e.Eval(&kids[i][k], 0)
						}
					}
				})
				// A D&F-feature net of the same size (its evaluator sums 120 rows per well, from scratch).
				dnet, _ := train.DNF.NewNet(hidden, 1)
				dtab, err := train.NewEvaluators(dnet)
				if err != nil {
					return nil, err
				}
				de := dtab.NewValuer()
				measure(fmt.Sprintf("nn/forward/children-dnf-h%d", hidden), nKids, func() {
					for i := range wells {
						for k := range kids[i] {
							sum += de.Eval(&kids[i][k], 0)
						}
					}
				})
			}
			// The first-well value pins the net and features (deterministic).
			net, _ := nn.New(train.Inputs, 24, 1)
			tab, _ := train.NewTables(net)
			v, _ := tab.New().Value(&wells[300])
			figs = append(figs, bench.Figure{Name: "nn/forward/value-well300", Value: float64(v), Unit: "value"})
			return figs, nil
		},
	}, {
		Name:    "hatetris/beam-nn",
		Summary: "wells expanded per second with a net evaluator (random net, seed 1, hidden 24; width 500, at most 60 pieces, all cores, quiescence off)",
		Run: func(ctx context.Context) ([]bench.Figure, error) {
			net, _ := nn.New(train.Inputs, 24, 1)
			tab, err := train.NewTables(net)
			if err != nil {
				return nil, err
			}
			res, err := player.Search(ctx, player.Options{Width: 500, MaxDepth: 60, NewEval: func() player.Evaluator { return tab.New() }})
			if err != nil {
				return nil, err
			}
			if ctx.Err() != nil {
				return nil, errors.New("interrupted")
			}
			return []bench.Figure{
				{Name: "hatetris/beam-nn/wells", Value: float64(res.Wells), Unit: "wells"},
				{Name: "hatetris/beam-nn/score", Value: float64(res.Score), Unit: "lines"},
				{Name: "hatetris/beam-nn", Value: float64(res.Wells) / res.Elapsed.Seconds(), Unit: "wells/s"},
			}, nil
		},
	}, {
		Name:    "hatetris/expand",
		Summary: "enemy choice + all children of that piece, per well, over the 752 wells of the 289-line game (1 core; also CPU time of the thread per well)",
		Run: func(ctx context.Context) ([]bench.Figure, error) {
			wells, err := player.BenchGame()
			if err != nil {
				return nil, err
			}
			var children int64
			calls, _, el, cpu, cpuOK := bench.RateCPU(2*time.Second, func() int64 {
				c, _ := player.ExpandAll(wells, 1)
				children = c
				return c
			})
			n := float64(calls) * float64(len(wells))
			figs := []bench.Figure{
				{Name: "hatetris/expand/wells", Value: float64(len(wells)), Unit: "wells"},
				{Name: "hatetris/expand/children", Value: float64(children), Unit: "children"},
				{Name: "hatetris/expand", Value: float64(el.Nanoseconds()) / n, Unit: "ns/well"},
			}
			if cpuOK {
				// The thread's CPU time: comparable across machine loads.
				figs = append(figs, bench.Figure{Name: "hatetris/expand/cpu", Value: float64(cpu.Nanoseconds()) / n, Unit: "cpu-ns/well"})
			}
			return figs, nil
		},
	}, {
		Name:    "hatetris/beam",
		Summary: "wells expanded per second in a fixed beam run (width 500, 60 pieces, all cores, HATETRIS AI)",
		Run: func(ctx context.Context) ([]bench.Figure, error) {
			res, err := player.Search(ctx, player.Options{Width: 500, MaxDepth: 60})
			if err != nil {
				return nil, err
			}
			if ctx.Err() != nil {
				return nil, errors.New("interrupted")
			}
			return []bench.Figure{
				{Name: "hatetris/beam/wells", Value: float64(res.Wells), Unit: "wells"},
				{Name: "hatetris/beam/score", Value: float64(res.Score), Unit: "lines"},
				{Name: "hatetris/beam", Value: float64(res.Wells) / res.Elapsed.Seconds(), Unit: "wells/s"},
			}, nil
		},
	}}
}
