// This file holds the SEPARO area: `yomi separo match` (AI against AI in
// colour-swapped pairs through the arena runner), `yomi separo game` (one
// game, printed), and the separo/playout and separo/uct benchmarks.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/fabric"
	"github.com/yomi-ai/yomi/internal/bench"
	"github.com/yomi-ai/yomi/internal/cli"
	"github.com/yomi-ai/yomi/separo"
	"github.com/yomi-ai/yomi/separo/ai"
	"github.com/yomi-ai/yomi/web"
)

// separoGame plugs SEPARO into the binary: its area, benchmarks and web entry.
func separoGame() game {
	return game{
		area: &cli.Area{
			Name:    "separo",
			Summary: "SEPARO: rules, UCT AI, web page",
			Verbs: []*cli.Verb{
				{Name: "match", Summary: "play AI against AI in colour-swapped pairs and report W/L/D, points and Elo", Run: runSeparoMatch},
				{Name: "game", Summary: "play one game between two AIs and print its moves and final board", Run: runSeparoGame},
			},
		},
		benches: separoBenches(),
		jobs:    map[string]fabric.Handler{separoMatchKind: arena.PairHandler(separoMatchFactory)},
		entry:   web.Entry{Slug: "separo", Title: "SEPARO", Summary: "A board game of roots and regions: rules, a UCT Monte-Carlo AI, and a page to play against it.", App: separoWebApp()},
	}
}

// separoAIs is the help text listing the players.
const separoAIs = "random, naive (NaiveMC), uct (separo-rs's UCT), yomi (ours), yomi-nosolve (ours without the endgame solver) or yomi-par (ours, root-parallel on every core)"

// separoBudgetFlags registers --movetime and --iterations.
type separoBudgetFlags struct {
	fs       *flag.FlagSet
	movetime *time.Duration
	iters    *int
}

func addSeparoBudget(fs *flag.FlagSet, def time.Duration) separoBudgetFlags {
	return separoBudgetFlags{
		fs:       fs,
		movetime: fs.Duration("movetime", def, "time per move for every AI (default "+def.String()+" without --iterations, none with it)"),
		iters:    fs.Int("iterations", 0, "playouts per move (0: no limit); given alone, the search is bounded by playouts only, so games are reproducible from --seed; with --movetime too, the first limit reached stops a search"),
	}
}

// budget reads the flags after parsing: --iterations without --movetime
// means no time limit (a time cap would make the games depend on the
// machine's load).
func (f separoBudgetFlags) budget() (ai.Budget, error) {
	if *f.movetime < 0 || *f.iters < 0 {
		return ai.Budget{}, cli.Usagef("--movetime and --iterations must not be negative")
	}
	t := *f.movetime
	if *f.iters > 0 && !flagSet(f.fs, "movetime") {
		t = 0
	}
	if t == 0 && *f.iters == 0 {
		return ai.Budget{}, cli.Usagef("give --movetime or --iterations")
	}
	return ai.Budget{Time: t, Iterations: *f.iters}, nil
}

func checkSeparoAI(flag, name string) error {
	if _, err := ai.New(name, ai.Options{}); err != nil {
		return cli.Usagef("--%s %q: want %s", flag, name, separoAIs)
	}
	return nil
}

// separoMatchJSON is the --json output of `yomi separo match`.
type separoMatchJSON struct {
	Games   int            `json:"games"`
	Wins    int            `json:"wins"`
	Losses  int            `json:"losses"`
	Draws   int            `json:"draws"`
	Points  float64        `json:"points"`     // share of points of --red's AI, 0..1
	CI95    [2]float64     `json:"pointsCI95"` // pentanomial 95 % interval of points
	Elo     *float64       `json:"elo"`
	EloErr  *float64       `json:"eloErr"`
	Stopped string         `json:"stopped,omitempty"`
	Summary arena.Summary  `json:"summary"`
	Config  map[string]any `json:"config"`
}

func finiteOrNil(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

func runSeparoMatch(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi separo match", "--red AI --blue AI [--games N] [--movetime 200ms] [--size 9] [--seed S] [--sprt elo0,elo1] [--json]",
		`Plays the AI given by --red against the one given by --blue in N pairs of games (2N games):
a pair is two games on the same seed with colours swapped (the first has --red's AI as Red),
each AI with the same budget per move. AI is `+separoAIs+`.
Results are from --red's AI's point of view: wins, losses, draws, points (its share, 0-1, draws
count one half) with a 95 % interval from the pair (pentanomial) statistics, and Elo; with
--sprt, the SPRT's state (the match stops once it decides).
--results FILE keeps one JSON line per game and resumes an interrupted match.`)
	red := fs.String("red", "yomi", "first AI: "+separoAIs)
	blue := fs.String("blue", "uct", "second AI")
	games := fs.Int("games", 10, "number of game pairs `N` (2N games)")
	size := fs.Int("size", separo.DefaultSize, "board size (lines), 5..19")
	seed := fs.Uint64("seed", 1, "first seed; pair i plays seed+i")
	conc := fs.Int("concurrency", 1, "games played at once by this process (timed searches share the cores); 0 with --nats leaves them to yomi workers")
	results := fs.String("results", "", "JSON-lines results file (resumable)")
	sprt := fs.String("sprt", "", "stop early by SPRT `elo0,elo1` (normalized model, alpha = beta = 0.05)")
	quiet := fs.Bool("quiet", false, "no progress bar")
	asJSON := fs.Bool("json", false, "print a JSON object with games, wins, losses, draws, points, pointsCI95, elo, summary")
	bf := addSeparoBudget(fs, 200*time.Millisecond)
	nf := addNATSFlags(fs, true)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if len(fs.Args()) != 0 {
		return cli.Usagef("unexpected arguments %q", fs.Args())
	}
	if err := checkSeparoAI("red", *red); err != nil {
		return err
	}
	if err := checkSeparoAI("blue", *blue); err != nil {
		return err
	}
	if *size < 5 || *size > separo.MaxSize {
		return cli.Usagef("--size %d: want 5..%d", *size, separo.MaxSize)
	}
	if err := nf.check(*conc); err != nil {
		return err
	}
	if *games < 1 {
		return cli.Usagef("--games %d: want at least 1", *games)
	}
	if *conc < 0 {
		return cli.Usagef("--concurrency %d: want at least 0", *conc)
	}
	sp, err := parseSPRTPair(*sprt)
	if err != nil {
		return err
	}
	budget, err := bf.budget()
	if err != nil {
		return err
	}
	nameA, nameB := *red, *blue
	if nameA == nameB {
		nameA, nameB = nameA+"#1", nameB+"#2"
	}
	cfg := arena.Config{NameA: nameA, NameB: nameB, Seed: *seed, Pairs: *games, Concurrency: *conc, Results: *results, SPRT: sp}
	if budget.Time > 0 {
		cfg.GameTimeout = 400*budget.Time + time.Minute
	}
	if !*quiet {
		cfg.Progress = env.Stderr
	}
	spec := separoMatchSpec{Red: *red, Blue: *blue, Size: *size, Budget: budget}
	remote, fc, err := nf.remote(ctx, env, separoMatchKind, spec, *conc)
	if err != nil {
		return err
	}
	defer fc.Close()
	cfg.Remote = remote
	play := separoMatchPlay(spec)
	rep, err := arena.RunPairs(ctx, cfg, play)
	if err != nil {
		return err
	}
	wdl := rep.Summary.WDL
	n := wdl.N()
	out := separoMatchJSON{Games: n, Wins: wdl.W, Losses: wdl.L, Draws: wdl.D, Stopped: rep.Stopped, Summary: rep.Summary,
		Config: map[string]any{"red": *red, "blue": *blue, "size": *size, "seed": *seed, "movetime": budget.Time.String(), "iterations": budget.Iterations}}
	if n > 0 {
		out.Points = (float64(wdl.W) + 0.5*float64(wdl.D)) / float64(n)
	}
	h := rep.Summary.Headline()
	out.CI95 = [2]float64{math.Max(0, h.Score-arena.Z95*h.SE), math.Min(1, h.Score+arena.Z95*h.SE)}
	out.Elo, out.EloErr = finiteOrNil(h.Elo), finiteOrNil(h.EloErr)
	if *asJSON {
		return cli.WriteJSON(env.Stdout, out)
	}
	rep.Write(env.Stdout)
	fmt.Fprintf(env.Stdout, "%s vs %s: %d games, +%d -%d =%d, points %.3f (95%% CI %.3f..%.3f)\n",
		*red, *blue, n, wdl.W, wdl.L, wdl.D, out.Points, out.CI95[0], out.CI95[1])
	return nil
}

func runSeparoGame(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi separo game", "[--red AI] [--blue AI] [--movetime 200ms] [--size 9] [--seed S] [--json]",
		`Plays one game, Red first, and prints each move ("R:x1y1-x2y2-x3y3", coordinates as digits
0-9 then a-j, x right, y down), the final board and scores. AI is `+separoAIs+`.`)
	red := fs.String("red", "yomi", "Red's AI: "+separoAIs)
	blue := fs.String("blue", "uct", "Blue's AI")
	size := fs.Int("size", separo.DefaultSize, "board size (lines), 5..19")
	seed := fs.Uint64("seed", 1, "random seed")
	asJSON := fs.Bool("json", false, `print {"size","moves","red","blue","result"}`)
	bf := addSeparoBudget(fs, 200*time.Millisecond)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if len(fs.Args()) != 0 {
		return cli.Usagef("unexpected arguments %q", fs.Args())
	}
	if err := checkSeparoAI("red", *red); err != nil {
		return err
	}
	if err := checkSeparoAI("blue", *blue); err != nil {
		return err
	}
	if *size < 5 || *size > separo.MaxSize {
		return cli.Usagef("--size %d: want 5..%d", *size, separo.MaxSize)
	}
	budget, err := bf.budget()
	if err != nil {
		return err
	}
	r, _ := ai.New(*red, ai.Options{Seed: *seed << 1})
	b, _ := ai.New(*blue, ai.Options{Seed: *seed<<1 | 1})
	rec, err := ai.Play(ctx, r, b, *size, budget)
	if err != nil {
		return err
	}
	if *asJSON {
		return cli.WriteJSON(env.Stdout, rec)
	}
	for i, m := range rec.Moves {
		fmt.Fprintf(env.Stdout, "%3d %s\n", i+1, m)
	}
	fmt.Fprint(env.Stdout, rec.Final.String())
	fmt.Fprintf(env.Stdout, "Red (%s) %d - Blue (%s) %d: %s\n", *red, rec.Red, *blue, rec.Blue, rec.Result)
	return nil
}

// separoBenches registers separo/playout and separo/uct.
func separoBenches() []bench.Benchmark {
	return []bench.Benchmark{{
		Name:    "separo/playout",
		Summary: "random playouts from the 9x9 start (50000, seed 1, 1 core; also per CPU-second): playouts/s, mean plies, results",
		Run: func(ctx context.Context) ([]bench.Figure, error) {
			const n = 50000
			rng := rand.New(rand.NewPCG(1, 0))
			var buf separo.PlayoutBuf
			start := separo.MustNew(9)
			plies := 0
			var res [3]int
			t0 := time.Now()
			c0, cpuOK := bench.ProcessCPU()
			for i := range n {
				if i&1023 == 0 && ctx.Err() != nil {
					return nil, errors.New("interrupted")
				}
				b := start
				res[b.Playout(separo.Red, rng, &buf)]++
				plies += b.Plies()
			}
			el := time.Since(t0)
			c1, _ := bench.ProcessCPU()
			figs := []bench.Figure{
				{Name: "separo/playout/games", Value: n, Unit: "playouts"},
				{Name: "separo/playout/plies", Value: float64(plies) / n, Unit: "plies/playout"},
				{Name: "separo/playout/red", Value: float64(res[separo.RedWin]), Unit: "wins"},
				{Name: "separo/playout/blue", Value: float64(res[separo.BlueWin]), Unit: "wins"},
				{Name: "separo/playout/draw", Value: float64(res[separo.Draw]), Unit: "draws"},
				{Name: "separo/playout", Value: n / el.Seconds(), Unit: "playouts/s"},
			}
			if cpuOK {
				figs = append(figs, bench.Figure{Name: "separo/playout/cpu", Value: n / (c1 - c0).Seconds(), Unit: "playouts/cpu-s"})
			}
			return figs, nil
		},
	}, {
		Name:    "separo/uct",
		Summary: "search iterations from the 9x9 start (20000 per AI, seed 1, 1 core; also per CPU-second): the original UCT and yomi",
		Run: func(ctx context.Context) ([]bench.Figure, error) {
			const n = 20000
			var figs []bench.Figure
			for _, name := range []string{"uct", "yomi"} {
				p, err := ai.New(name, ai.Options{Seed: 1})
				if err != nil {
					return nil, err
				}
				t0 := time.Now()
				c0, cpuOK := bench.ProcessCPU()
				m, _ := p.Move(ctx, separo.MustNew(9), separo.Red, ai.Budget{Iterations: n})
				el := time.Since(t0)
				c1, _ := bench.ProcessCPU()
				if ctx.Err() != nil {
					return nil, errors.New("interrupted")
				}
				start := separo.MustNew(9)
				key := float64(start.MoveKey(m))
				figs = append(figs,
					bench.Figure{Name: "separo/uct/" + name + "/iterations", Value: n, Unit: "iterations"},
					bench.Figure{Name: "separo/uct/" + name + "/movekey", Value: key, Unit: "key"},
					bench.Figure{Name: "separo/uct/" + name, Value: n / el.Seconds(), Unit: "iterations/s"})
				if cpuOK {
					figs = append(figs, bench.Figure{Name: "separo/uct/" + name + "/cpu", Value: n / (c1 - c0).Seconds(), Unit: "iterations/cpu-s"})
				}
			}
			return figs, nil
		},
	}}
}

// separoMatchKind is the job kind of one game of `yomi separo match`.
const separoMatchKind = "separo.match"

// separoMatchSpec is what a worker needs to play a game of a match.
type separoMatchSpec struct {
	Red    string    `json:"red"`
	Blue   string    `json:"blue"`
	Size   int       `json:"size"`
	Budget ai.Budget `json:"budget"`
}

func separoMatchFactory(b json.RawMessage) (arena.PlayFunc, error) {
	var s separoMatchSpec
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	for _, n := range []string{s.Red, s.Blue} {
		if _, err := ai.New(n, ai.Options{}); err != nil {
			return nil, err
		}
	}
	if s.Size < 5 || s.Size > separo.MaxSize {
		return nil, fmt.Errorf("separo match: size %d", s.Size)
	}
	return separoMatchPlay(s), nil
}

// separoMatchPlay plays one game of a match: the red AI is A.
func separoMatchPlay(s separoMatchSpec) arena.PlayFunc {
	return func(ctx context.Context, seed uint64, swapped bool) (arena.Outcome, error) {
		// Each AI's stream depends on (seed, its side), so both games of a
		// pair differ only by the colours.
		pa, _ := ai.New(s.Red, ai.Options{Seed: seed<<1 | 0})
		pb, _ := ai.New(s.Blue, ai.Options{Seed: seed<<1 | 1})
		r, b := pa, pb
		if swapped {
			r, b = pb, pa
		}
		rec, err := ai.Play(ctx, r, b, s.Size, s.Budget)
		if err != nil {
			if ctx.Err() != nil {
				return arena.Outcome{}, ctx.Err()
			}
			// An AI answering an illegal move loses.
			loser := strings.Contains(err.Error(), pa.Name())
			o := arena.Outcome{Result: arena.Win, Reason: err.Error()}
			if loser {
				o.Result = arena.Loss
			}
			return o, nil
		}
		o := arena.Outcome{Info: rec}
		aRed := !swapped
		switch {
		case rec.Winner == separo.Draw:
			o.Result = arena.Draw
		case (rec.Winner == separo.RedWin) == aRed:
			o.Result = arena.Win
		default:
			o.Result = arena.Loss
		}
		return o, nil
	}
}
