// `yomi tune spsa` and `yomi tune confirm`: SPSA tuning of an evaluator's
// weights (package tune) with the games played as fabric jobs, and the
// confirming match a tuned weights file needs before it may become a
// default.

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/fabric"
	"github.com/yomi-ai/yomi/internal/cli"
	"github.com/yomi-ai/yomi/tetris"
	"github.com/yomi-ai/yomi/tetris/bot"
	"github.com/yomi-ai/yomi/tetris/versus"
	"github.com/yomi-ai/yomi/tune"
)

func tuneArea() *cli.Area {
	return &cli.Area{
		Name:    "tune",
		Summary: "tune an evaluator's weights by SPSA on measured games; confirm a tuned file",
		Doc: `SPSA as fishtest runs it, on seigot/tetris (paired seeds of a level) or Guideline Tetris
versus (built-in bot against itself). A tuned weights file is a candidate: it becomes a default
only after "yomi tune confirm" (or the game's own match against the reference) wins on seeds the
tuning did not use.`,
		Verbs: []*cli.Verb{
			{Name: "spsa", Summary: "run (or resume) an SPSA tuning run; writes weights, trajectory and plot", Run: runTuneSPSA},
			{Name: "confirm", Summary: "play a run's tuned weights against its start on seeds the run did not use", Run: runTuneConfirm},
		},
	}
}

// tuneSeigotKind is the job kind of one tuning game of seigot: player 0
// plays θ+, player 1 θ−.
const tuneSeigotKind = "tune.seigot"

// tuneJobs are the job kinds of `yomi tune` (Guideline Tetris uses
// versus.MatchKind).
func tuneJobs() map[string]fabric.Handler {
	return map[string]fabric.Handler{tuneSeigotKind: arena.ScoreHandler(seigotTuneFactory)}
}

// seigotTuneSpec is a seigot tuning game as a worker rebuilds it.
type seigotTuneSpec struct {
	Plus  seigotPlaySpec `json:"plus"`
	Minus seigotPlaySpec `json:"minus"`
}

func seigotTuneFactory(b json.RawMessage) (arena.ScoreFunc, error) {
	var s seigotTuneSpec
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	for _, p := range []seigotPlaySpec{s.Plus, s.Minus} {
		if _, err := seigotPlayer(p.AI, p.Level, p.Tuning.tuning()); err != nil {
			return nil, err
		}
	}
	plus, minus := seigotPlayGame(s.Plus), seigotPlayGame(s.Minus)
	return func(ctx context.Context, seed uint64, player int) (arena.ScoreOutcome, error) {
		if player == 0 {
			return plus(ctx, seed, player)
		}
		return minus(ctx, seed, player)
	}, nil
}

// tuneSetup is a run's game settings, kept in its state.json so that a
// resume or a confirmation plays the same games.
type tuneSetup struct {
	Game string `json:"game"` // seigot or tetris
	// seigot
	Level int    `json:"level,omitempty"`
	AI    string `json:"ai,omitempty"`
	Width int    `json:"width,omitempty"`
	Depth int    `json:"depth,omitempty"`
	// tetris
	Nodes     int64  `json:"nodes,omitempty"`
	Threads   int    `json:"threads,omitempty"`
	ThinkMS   int    `json:"think_ms,omitempty"`
	MaxPieces int    `json:"max_pieces,omitempty"`
	Rules     string `json:"rules,omitempty"`
	// Opponent is a TBP command line: θ+ and θ− each play a pair against
	// it on the same seed (not each other).
	Opponent string `json:"opponent,omitempty"`
}

// tuneGame is one game's adapter: the evaluator's weights and a match
// between two weights objects.
type tuneGame struct {
	setup tuneSetup
	// base points at the weights the evaluator plays with untuned (the
	// level's or the default), of the type its JSON weights decode into.
	base any
}

func newTuneGame(s tuneSetup) (*tuneGame, error) {
	switch s.Game {
	case "seigot":
		if s.Level < 1 || s.Level > 4 {
			return nil, cli.Usagef("--level must be 1..4, got %d", s.Level)
		}
		pl, err := seigotPlayer(s.AI, s.Level, seigotTuning{width: s.Width, depth: s.Depth})
		if err != nil {
			return nil, err
		}
		w := pl.Config().W
		return &tuneGame{setup: s, base: &w}, nil
	case "tetris":
		if s.Nodes < 0 || s.Nodes == 0 && s.Opponent == "" || s.Threads < 1 || s.ThinkMS < 1 || s.MaxPieces < 1 {
			return nil, cli.Usagef("--threads, --think-ms and --max-pieces must be ≥ 1, and --nodes too unless --opponent is set (0: the clock alone)")
		}
		if s.Opponent != "" {
			sp, err := versus.ParseSpec(s.Opponent, bot.Options{})
			if err != nil {
				return nil, cli.Usagef("--opponent: %v", err)
			}
			if sp.Cmd == "" {
				return nil, cli.Usagef("--opponent %q: want a TBP command line (the built-in bot is what is tuned)", s.Opponent)
			}
		}
		if _, err := tetris.NamedRules(s.Rules); err != nil {
			return nil, cli.Usagef("--rules: %v", err)
		}
		w := bot.DefaultWeights()
		return &tuneGame{setup: s, base: &w}, nil
	case "codevs":
		return nil, cli.Usagef("--game codevs: the CODE VS AI's evaluation has no weights struct to tune (see README: yomi tune)")
	}
	return nil, cli.Usagef("--game %q: want seigot or tetris", s.Game)
}

// scored tells whether the game is a score game (paired seeds).
func (g *tuneGame) scored() bool { return g.setup.Game == "seigot" }

// weightsOf returns a copy of the base weights with θ written in.
func (g *tuneGame) weightsOf(sp tune.Spec, theta []float64) (any, error) {
	st := tune.State{Spec: sp, Theta: theta}
	return st.Weights(g.base)
}

// matchResult is a match between weights a and b.
type matchResult struct {
	out    tune.Outcome
	report interface{ Write(io.Writer) }
	scores *arena.ScoreReport
	pairs  *arena.PairReport
}

// match plays a (as A / θ+) against b on seeds; remote carries the fabric
// client and local workers.
func (g *tuneGame) match(ctx context.Context, remote arena.Remote, conc int, a, b any, seeds []uint64, scale float64, progress io.Writer) (*matchResult, error) {
	cfg := arena.Config{NameA: "a", NameB: "b", Seeds: seeds, Concurrency: conc, Progress: progress}
	if g.scored() {
		ja, err := json.Marshal(a)
		if err != nil {
			return nil, err
		}
		jb, err := json.Marshal(b)
		if err != nil {
			return nil, err
		}
		mk := func(w []byte) seigotPlaySpec {
			return seigotPlaySpec{AI: g.setup.AI, Level: g.setup.Level, Tuning: seigotTuningSpec{Width: g.setup.Width, Depth: g.setup.Depth, Weights: string(w)}}
		}
		spec, err := json.Marshal(seigotTuneSpec{Plus: mk(ja), Minus: mk(jb)})
		if err != nil {
			return nil, err
		}
		remote.Kind, remote.Spec = tuneSeigotKind, spec
		cfg.Remote = &remote
		rep, err := arena.RunScores(ctx, cfg, nil)
		if err != nil {
			return nil, err
		}
		if rep.Stopped != "" {
			return nil, errors.New(rep.Stopped)
		}
		per := map[uint64]*[2]float64{}
		got := map[uint64]int{}
		var overs [2]float64
		for _, gr := range rep.Games {
			if gr.Score == nil || gr.Game < 0 || gr.Game > 1 {
				return nil, fmt.Errorf("seed %d: game %d has no score", gr.Seed, gr.Game)
			}
			var info seigotGameResult
			if err := json.Unmarshal(gr.Info, &info); err == nil {
				overs[gr.Game] += float64(info.GameOvers)
			}
			if per[gr.Seed] == nil {
				per[gr.Seed] = &[2]float64{}
			}
			per[gr.Seed][gr.Game] = *gr.Score
			got[gr.Seed]++
		}
		o := tune.Outcome{Scored: true, Notes: map[string]float64{"gameovers_plus": overs[0], "gameovers_minus": overs[1]}}
		for _, s := range seeds {
			if got[s] != 2 {
				return nil, fmt.Errorf("seed %d: %d of 2 games played", s, got[s])
			}
			p := per[s]
			r := tune.ScoreResult(p[0], p[1], scale)
			o.Result += r
			switch {
			case r > 0:
				o.Wins++
			case r < 0:
				o.Losses++
			default:
				o.Draws++
			}
			o.PlusScore += p[0] / float64(len(seeds))
			o.MinusScore += p[1] / float64(len(seeds))
		}
		return &matchResult{out: o, report: rep, scores: rep}, nil
	}
	if g.setup.Opponent != "" {
		return g.matchOpponent(ctx, remote, conc, a, b, seeds, progress)
	}
	wa, wb := *a.(*bot.Weights), *b.(*bot.Weights)
	game := g.versusConfig()
	opt := func(w *bot.Weights) bot.Options {
		return bot.Options{Threads: g.setup.Threads, MaxNodes: g.setup.Nodes, Weights: w}
	}
	spec, err := json.Marshal(versus.MatchSpec{Game: game, A: versus.Spec{Options: opt(&wa)}, B: &versus.Spec{Options: opt(&wb)}})
	if err != nil {
		return nil, err
	}
	remote.Kind, remote.Spec = versus.MatchKind, spec
	cfg.Remote = &remote
	cfg.GameTimeout = time.Duration(g.setup.MaxPieces*2) * (game.Think + 2*time.Second)
	rep, err := arena.RunPairs(ctx, cfg, nil)
	if err != nil {
		return nil, err
	}
	if rep.Stopped != "" {
		return nil, errors.New(rep.Stopped)
	}
	var o tune.Outcome
	for _, gr := range rep.Games {
		switch gr.Result {
		case "win":
			o.Wins++
			o.Result++
		case "loss":
			o.Losses++
			o.Result--
		default:
			o.Draws++
		}
	}
	if n := o.Wins + o.Losses + o.Draws; n != 2*len(seeds) {
		return nil, fmt.Errorf("%d of %d games played", n, 2*len(seeds))
	}
	return &matchResult{out: o, report: rep, pairs: rep}, nil
}

// versusConfig is the tetris games' settings.
func (g *tuneGame) versusConfig() versus.Config {
	rules, _ := tetris.NamedRules(g.setup.Rules)
	return versus.Config{Rules: rules, Think: time.Duration(g.setup.ThinkMS) * time.Millisecond, MaxPieces: g.setup.MaxPieces}
}

// matchOpponent plays a (θ+) and b (θ−) each against the opponent, a pair
// per seed with sides swapped, both on the same seeds, one seed at a time
// in turn (θ+ then θ−) so that a change in the machine's load falls on
// both. A seed's result is (θ+'s wins − losses − θ−'s wins + losses)/2,
// in [−2, 2] as a self-play pair's; Wins and Losses count the seeds where
// θ+ did better or worse.
func (g *tuneGame) matchOpponent(ctx context.Context, remote arena.Remote, conc int, a, b any, seeds []uint64, progress io.Writer) (*matchResult, error) {
	game := g.versusConfig()
	opp, err := versus.ParseSpec(g.setup.Opponent, bot.Options{})
	if err != nil {
		return nil, err
	}
	var o tune.Outcome
	var plusPts, minusPts float64
	for _, seed := range seeds {
		var pts [2]float64
		for side, w := range []*bot.Weights{a.(*bot.Weights), b.(*bot.Weights)} {
			spec, err := json.Marshal(versus.MatchSpec{Game: game, A: versus.Spec{Options: bot.Options{Threads: g.setup.Threads, MaxNodes: g.setup.Nodes, Weights: w}}, B: &opp})
			if err != nil {
				return nil, err
			}
			r := remote
			r.Kind, r.Spec = versus.MatchKind, spec
			name := [2]string{"plus", "minus"}[side]
			cfg := arena.Config{NameA: name, NameB: "opponent", Seeds: []uint64{seed}, Concurrency: conc, Progress: progress, Remote: &r}
			cfg.GameTimeout = time.Duration(g.setup.MaxPieces*2) * (game.Think + 2*time.Second)
			rep, err := arena.RunPairs(ctx, cfg, nil)
			if err != nil {
				return nil, err
			}
			if rep.Stopped != "" {
				return nil, errors.New(rep.Stopped)
			}
			if len(rep.Games) != 2 {
				return nil, fmt.Errorf("seed %d: %d of 2 games played", seed, len(rep.Games))
			}
			for _, gr := range rep.Games {
				switch gr.Result {
				case "win":
					pts[side]++
				case "loss":
					pts[side]--
				}
			}
		}
		r := (pts[0] - pts[1]) / 2
		o.Result += r
		switch {
		case r > 0:
			o.Wins++
		case r < 0:
			o.Losses++
		default:
			o.Draws++
		}
		plusPts += pts[0]
		minusPts += pts[1]
	}
	o.Notes = map[string]float64{"plus_vs_opponent": plusPts, "minus_vs_opponent": minusPts}
	return &matchResult{out: o}, nil
}

// tuneFabric is the fabric the run's games go to.
type tuneFabric struct {
	client *fabric.Client
	remote arena.Remote
}

func (n *natsFlags) tuneFabric(ctx context.Context, env *cli.Env, conc int) (*tuneFabric, error) {
	c, err := n.connect(ctx, "yomi tune")
	if err != nil {
		return nil, err
	}
	return &tuneFabric{client: c, remote: arena.Remote{Client: c, Version: version(), Local: conc, Handlers: jobHandlers(), Log: env.Stderr}}, nil
}

// defaultSeedBase is the first game seed of a tuning run: far above the
// seeds matches and confirmations use (1, 2, …).
const defaultSeedBase = 1_000_000

func runTuneSPSA(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi tune spsa", "--game seigot|tetris --spec FILE --iterations N [--pairs-per-iter K] [--run-dir DIR] [--seed S] [--nats URL] [--json]",
		`Tunes the evaluator's weights named in --spec by SPSA, as fishtest runs it: each iteration
perturbs every tuned weight at once by ±c_k (signs from a PCG seeded by --seed and the iteration),
plays K game pairs between θ+c_kδ and θ−c_kδ on the same seeds, and moves θ by a_k/c_k · result · δ
within the bounds. With N = iterations × K game pairs and k the pairs played before an iteration:
c_k = c_end·(N/(k+1))^γ and a_k = r_end·c_end²·((A+N)/(A+k+1))^α (α 0.602, γ 0.101, A 10 % of
N unless the spec says), so c_k ends at c_end and a_k/c_k² at r_end.

--game seigot plays paired seeds of --level (our engine, contest rules): a seed's result is +1
when θ+ scored more, −1 when less (or clamp(difference/score_scale, ±1) with "score_scale" in the
spec). --game tetris plays the built-in bot against itself in Guideline versus (--rules), each seed
twice with sides swapped, every move capped at --nodes nodes (deterministic at 1 thread; --think-ms
is only the clock's bound): a pair's result is θ+'s wins minus losses. With --opponent CMD (a TBP
bot, e.g. Cold Clear 2) θ+ and θ− instead each play a pair against it on the same seed, in turn;
the seed's result is half the difference of their wins minus losses. Against a bot that plays by
the clock (--nodes 0: ours too) the games depend on the machine's load: run on a quiet machine.

The spec is JSON: {"params": [{"name": "Hole", "start": -250, "min": -600, "max": 0,
"c_end": 25, "r_end": 0.002}, ...], "A": 0, "score_scale": 0}. Names are the evaluator's JSON
weight names (seigot: ai.Weights fields, e.g. Hole, HoleRow, Burn[0]; tetris: bot.Weights tags,
e.g. cavity_cells, tslot[2]); a name the evaluator does not have is refused. "start" defaults
to the evaluator's current value (the level's for seigot); integer weights are played rounded.

Games run as jobs on the job fabric (embedded; --nats URL for `+"`yomi worker`"+`s on other machines),
seeds --seed-base + k onwards (never the small seeds matches use). After each iteration the run
directory gets state.json (θ, iteration, trajectory; written atomically), trajectory.csv,
weights.json (the evaluator's full weights with θ) and trajectory.png; a killed or Ctrl-C'd run
resumes from the last finished iteration when run again with the same settings and --run-dir,
or with --resume DIR alone. The weights are a candidate: see `+"`yomi tune confirm`"+`.`)
	game := fs.String("game", "", "`GAME` to tune on: seigot or tetris")
	specFile := fs.String("spec", "", "tuning spec `FILE` (JSON)")
	iters := fs.Int("iterations", 0, "SPSA iterations `N`")
	pairs := fs.Int("pairs-per-iter", 2, "game pairs (seeds) per iteration `K`")
	runDir := fs.String("run-dir", "", "run `DIR` (default: tune-GAME-HASH of the settings, in the current directory)")
	resume := fs.String("resume", "", "resume the run in `DIR` with the settings saved there")
	seed := fs.Uint64("seed", 1, "seed of the perturbation signs")
	seedBase := fs.Uint64("seed-base", defaultSeedBase, "first game seed")
	level := fs.Int("level", 3, "seigot: level 1-4")
	ai := fs.String("ai", "beam", "seigot: AI (beam, fast, nohold, greedy)")
	width := fs.Int("width", 0, "seigot: beam width (0: the level's)")
	depth := fs.Int("depth", 0, "seigot: search depth (0: the level's)")
	nodes := fs.Int64("nodes", 20000, "tetris: node budget per move")
	threads := fs.Int("threads", 1, "tetris: search threads per bot")
	thinkMS := fs.Int("think-ms", 1000, "tetris: clock per move in `MS` (a bound: the node budget decides; with --opponent and --nodes 0, each side's time per move)")
	opponent := fs.String("opponent", "", "tetris: a TBP bot `CMD` (e.g. Cold Clear 2) that θ+ and θ− each play on the same seeds, instead of each other")
	maxPieces := fs.Int("max-pieces", 500, "tetris: a game where both sides placed this many pieces is a draw")
	rules := fs.String("rules", "cc1", "tetris: rule set `R` ("+strings.Join(tetris.RuleNames, " or ")+")")
	conc := fs.Int("concurrency", 1, "`K` games at once in this process (0 with --nats: leave them to workers started by yomi worker)")
	asJSON := fs.Bool("json", false, "print one JSON line per iteration and the final state")
	quiet := fs.Bool("quiet", false, "no progress bar")
	nf := addNATSFlags(fs, false)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	if err := nf.check(*conc); err != nil {
		return err
	}
	if *conc < 0 {
		return cli.Usagef("--concurrency %d: want at least 0", *conc)
	}
	var cfg tune.Config
	var tg *tuneGame
	if *resume != "" {
		for _, f := range []string{"game", "spec", "iterations", "pairs-per-iter", "run-dir", "seed", "seed-base", "level", "ai", "width", "depth", "nodes", "threads", "think-ms", "max-pieces", "rules", "opponent"} {
			if isSet(fs, f) {
				return cli.Usagef("--resume takes the run's settings from %s: drop --%s", filepath.Join(*resume, tune.StateFile), f)
			}
		}
		st, err := tune.LoadState(*resume)
		if err != nil {
			return cli.Usagef("--resume: %v", err)
		}
		var setup tuneSetup
		if err := json.Unmarshal(st.Setup, &setup); err != nil {
			return fmt.Errorf("%s: setup: %v", *resume, err)
		}
		if tg, err = newTuneGame(setup); err != nil {
			return err
		}
		if err := st.Spec.Check(tg.base); err != nil {
			return fmt.Errorf("%s: %v", *resume, err)
		}
		cfg = tune.Config{Spec: st.Spec, Iterations: st.Iterations, PairsPerIter: st.PairsPerIter, Seed: st.Seed, SeedBase: st.SeedBase, Dir: *resume, Setup: st.Setup}
	} else {
		if *game == "" || *specFile == "" || *iters == 0 {
			return cli.Usagef("--game, --spec and --iterations are required (or --resume DIR)")
		}
		if *iters < 1 || *pairs < 1 {
			return cli.Usagef("--iterations and --pairs-per-iter must be at least 1")
		}
		setup := tuneSetup{Game: *game}
		switch *game {
		case "seigot":
			setup.Level, setup.AI, setup.Width, setup.Depth = *level, *ai, *width, *depth
		case "tetris":
			setup.Nodes, setup.Threads, setup.ThinkMS, setup.MaxPieces, setup.Rules, setup.Opponent = *nodes, *threads, *thinkMS, *maxPieces, *rules, *opponent
		}
		var err error
		if tg, err = newTuneGame(setup); err != nil {
			return err
		}
		sp, err := tune.LoadSpec(*specFile, tg.base)
		if err != nil {
			return cli.Usagef("--spec %v", err)
		}
		sb, _ := json.Marshal(setup)
		cfg = tune.Config{Spec: sp, Iterations: *iters, PairsPerIter: *pairs, Seed: *seed, SeedBase: *seedBase, Dir: *runDir, Setup: sb}
		if cfg.Dir == "" {
			spb, _ := json.Marshal(sp)
			cfg.Dir = "tune-" + *game + "-" + fabric.RunID(string(sb), string(spb), fmt.Sprint(*iters, *pairs, *seed, *seedBase))[:8]
		}
	}
	cfg.Weights = tg.base
	tf, err := nf.tuneFabric(ctx, env, *conc)
	if err != nil {
		return err
	}
	defer tf.client.Close()

	bar := cli.Progress(env.Stderr, int64(cfg.Iterations), "spsa "+tg.setup.Game, *quiet || *asJSON)
	if st, err := tune.LoadState(cfg.Dir); err == nil {
		bar.Set(st.Done)
	}
	cfg.After = func(st *tune.State) {
		o := st.Steps[st.Done-1].Outcome
		if o.Scored {
			bar.Describe(fmt.Sprintf("spsa %s: θ+ %.0f θ− %.0f", tg.setup.Game, o.PlusScore, o.MinusScore))
		} else {
			bar.Describe(fmt.Sprintf("spsa %s: θ+ %d-%d-%d", tg.setup.Game, o.Wins, o.Losses, o.Draws))
		}
		bar.Add(1)
		if *asJSON {
			cli.WriteJSON(env.Stdout, st.Steps[st.Done-1])
		}
	}
	fmt.Fprintf(env.Stderr, "yomi tune spsa: run directory %s\n", cfg.Dir)
	play := func(ctx context.Context, it tune.Iteration) (tune.Outcome, error) {
		a, err := tg.weightsOf(cfg.Spec, it.Plus)
		if err != nil {
			return tune.Outcome{}, err
		}
		b, err := tg.weightsOf(cfg.Spec, it.Minus)
		if err != nil {
			return tune.Outcome{}, err
		}
		m, err := tg.match(ctx, tf.remote, *conc, a, b, it.Seeds, cfg.Spec.ScoreScale, nil)
		if err != nil {
			return tune.Outcome{}, err
		}
		return m.out, nil
	}
	st, err := tune.Run(ctx, cfg, play)
	if st != nil && st.Done < st.Iterations {
		bar.Exit()
	} else if st != nil {
		bar.Finish()
	}
	if err != nil {
		if st != nil && ctx.Err() != nil {
			return fmt.Errorf("interrupted after %d of %d iterations; the state is saved: run the same command again or `yomi tune spsa --resume %s`", st.Done, st.Iterations, cfg.Dir)
		}
		return err
	}
	if *asJSON {
		return cli.WriteJSON(env.Stdout, st)
	}
	fmt.Fprintf(env.Stdout, "%d iterations × %d pairs, seeds %d..%d:\n", st.Done, st.PairsPerIter, st.SeedBase, st.SeedBase+uint64(st.Iterations*st.PairsPerIter)-1)
	for j, p := range st.Spec.Params {
		fmt.Fprintf(env.Stdout, "  %-16s %10.3f -> %10.3f  [%g, %g]\n", p.Name, *p.Start, st.Theta[j], p.Min, p.Max)
	}
	fmt.Fprintf(env.Stdout, "weights: %s (a candidate: confirm with `yomi tune confirm --run-dir %s --seeds 40`)\n", filepath.Join(cfg.Dir, tune.WeightsFile), cfg.Dir)
	fmt.Fprintf(env.Stdout, "trajectory: %s, %s\n", filepath.Join(cfg.Dir, tune.TrajectoryFile), filepath.Join(cfg.Dir, tune.PlotFile))
	return nil
}

// confirmFile is the verdict `yomi tune confirm` leaves in the run
// directory.
const confirmFile = "confirm.json"

// tuneVerdict is a confirmation's outcome.
type tuneVerdict struct {
	Confirmed bool     `json:"confirmed"`
	Why       string   `json:"why"`
	Seeds     []uint64 `json:"seeds"` // [first, last]
	// Estimate is the tuned side's advantage with its 95 % half-width:
	// mean score difference (score games) or Elo (versus).
	Estimate float64         `json:"estimate"`
	CI95     float64         `json:"ci95"`
	Unit     string          `json:"unit"`
	Report   json.RawMessage `json:"report"`
	Weights  json.RawMessage `json:"weights"`
	Done     int             `json:"iterations_done"`
	// Notes are game-specific counts (seigot: gameovers_plus for the
	// tuned side, gameovers_minus for the start).
	Notes map[string]float64 `json:"notes,omitempty"`
}

func runTuneConfirm(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi tune confirm", "--run-dir DIR --seeds N [--seed S] [--nats URL] [--json]",
		`Plays the tuned weights of a run (θ as saved in DIR, finished or not) against the run's start
on seeds S..S+N-1, which must not overlap the seeds the run tuned on, with the run's game settings:
paired scores (seigot) or game pairs with sides swapped (tetris). The tuned file is confirmed when
the 95 % interval of its advantage lies above 0 (the mean paired score difference; the Elo of the
game pairs). The verdict and the match are written to DIR/confirm.json.

House rule: a tuned weights file never becomes a default without a confirming match on seeds the
tuning did not use — this one, and for a game with a stronger reference (seigot: the contest
winner in the real game; tetris: Cold Clear 2), the game's own match against that reference.`)
	runDir := fs.String("run-dir", "", "the run `DIR` of yomi tune spsa")
	seeds := fs.Int("seeds", 40, "seeds (score games) or game pairs (versus) `N`")
	seed := fs.Uint64("seed", 1, "first seed")
	conc := fs.Int("concurrency", 1, "`K` games at once in this process (0 with --nats: leave them to workers started by yomi worker)")
	asJSON := fs.Bool("json", false, "print the verdict as JSON")
	quiet := fs.Bool("quiet", false, "no progress bar")
	nf := addNATSFlags(fs, false)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	if *runDir == "" {
		return cli.Usagef("--run-dir is required")
	}
	if *seeds < 2 {
		return cli.Usagef("--seeds must be at least 2")
	}
	if err := nf.check(*conc); err != nil {
		return err
	}
	st, err := tune.LoadState(*runDir)
	if err != nil {
		return cli.Usagef("--run-dir: %v", err)
	}
	first, end := st.Seeds()
	last := *seed + uint64(*seeds) - 1
	if *seed < end && last >= first {
		return cli.Usagef("seeds %d..%d overlap the run's tuning seeds %d..%d: a confirmation needs seeds the tuning never saw", *seed, last, first, end-1)
	}
	if st.Done == 0 {
		return cli.Usagef("%s: no iteration played yet", *runDir)
	}
	var setup tuneSetup
	if err := json.Unmarshal(st.Setup, &setup); err != nil {
		return fmt.Errorf("%s: setup: %v", *runDir, err)
	}
	if setup.Opponent != "" {
		return cli.Usagef("%s was tuned against %q: confirm it in that match, e.g. yomi tetris versus --p1 builtin:weights=%s --p2 %q --seed %d (and the start's weights on the same seeds)", *runDir, setup.Opponent, filepath.Join(*runDir, tune.WeightsFile), setup.Opponent, *seed)
	}
	tg, err := newTuneGame(setup)
	if err != nil {
		return err
	}
	if err := st.Spec.Check(tg.base); err != nil {
		return fmt.Errorf("%s: %v", *runDir, err)
	}
	tuned, err := tg.weightsOf(st.Spec, st.Theta)
	if err != nil {
		return err
	}
	starts := make([]float64, len(st.Spec.Params))
	for j, p := range st.Spec.Params {
		starts[j] = *p.Start
	}
	start, err := tg.weightsOf(st.Spec, starts)
	if err != nil {
		return err
	}
	tf, err := nf.tuneFabric(ctx, env, *conc)
	if err != nil {
		return err
	}
	defer tf.client.Close()
	var ss []uint64
	for i := range *seeds {
		ss = append(ss, *seed+uint64(i))
	}
	var progress io.Writer
	if !*quiet {
		progress = env.Stderr
	}
	m, err := tg.match(ctx, tf.remote, *conc, tuned, start, ss, 0, progress)
	if err != nil {
		return err
	}
	v := tuneVerdict{Seeds: []uint64{*seed, last}, Done: st.Done}
	if m.scores != nil {
		d := m.scores.Paired.Diff
		v.Estimate, v.CI95, v.Unit = d.Mean, d.CI, "points"
	} else {
		e := m.pairs.Summary.Tri
		if m.pairs.Summary.Penta != nil {
			e = *m.pairs.Summary.Penta
		}
		v.Estimate, v.CI95, v.Unit = e.Elo, e.EloErr, "Elo"
	}
	lo := v.Estimate - v.CI95
	v.Confirmed = lo > 0 && !math.IsNaN(lo)
	if v.Confirmed {
		v.Why = fmt.Sprintf("tuned ahead by %.1f ± %.1f %s on seeds %d..%d", v.Estimate, v.CI95, v.Unit, *seed, last)
	} else {
		v.Why = fmt.Sprintf("not confirmed: %.1f ± %.1f %s on seeds %d..%d (the interval reaches 0)", v.Estimate, v.CI95, v.Unit, *seed, last)
	}
	v.Notes = m.out.Notes
	v.Report, _ = json.Marshal(m.report)
	v.Weights, _ = json.Marshal(tuned)
	b, _ := json.MarshalIndent(v, "", " ")
	if err := os.WriteFile(filepath.Join(*runDir, confirmFile), append(b, '\n'), 0o644); err != nil {
		return err
	}
	if *asJSON {
		return cli.WriteJSON(env.Stdout, v)
	}
	fmt.Fprintf(env.Stdout, "tuned (%d iterations) = a, start = b:\n", st.Done)
	m.report.Write(env.Stdout)
	if n := m.out.Notes; n != nil {
		fmt.Fprintf(env.Stdout, "game overs: tuned %.0f, start %.0f\n", n["gameovers_plus"], n["gameovers_minus"])
	}
	fmt.Fprintln(env.Stdout, v.Why)
	return nil
}
