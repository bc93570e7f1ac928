// This file holds `yomi seigot play` and `yomi seigot controller`: games in
// our engine with our AI, and the line-based JSON protocol the Python bridge
// speaks (one GameStatus in, one nextMove strategy out).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/fabric"
	"github.com/yomi-ai/yomi/internal/bench"
	"github.com/yomi-ai/yomi/internal/cli"
	"github.com/yomi-ai/yomi/seigot"
	"github.com/yomi-ai/yomi/seigot/ai"
)

// levelBool is a boolean flag whose default is the level's: it overrides
// the level's setting only when given (--flag or --flag=false).
type levelBool struct{ set, v bool }

func (b *levelBool) String() string {
	if b == nil || !b.set {
		return "the level's"
	}
	return strconv.FormatBool(b.v)
}

// Set parses the flag's value.
func (b *levelBool) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	b.set, b.v = true, v
	return nil
}

// IsBoolFlag lets the flag be given without a value.
func (b *levelBool) IsBoolFlag() bool { return true }

// apply sets *dst to the flag's value when it was given.
func (b levelBool) apply(dst *bool) {
	if b.set {
		*dst = b.v
	}
}

// seigotTuning overrides the AI's settings from the command line.
type seigotTuning struct {
	width, depth int
	chance       int       // -1 = off, 0 = the level's default
	future       levelBool // see the fixed order past the previews at seed 0 (level default: on at level 1)
	weights      string
	well         string    // "" = the level's default, "0", "9" or "auto"
	exhaust      int       // plies whose children are all kept (0 = the level's default)
	holdFirstI   levelBool // spend the first hold on the first I (level default: on at level 1)
	oracle       bool      // hand the AI the game's true piece sequence
}

// check refuses settings the search cannot use: a width or depth given
// below 1 (left out, they are the level's), a negative --exhaust, a
// --chance below -1. fs tells which flags were given.
func (t seigotTuning) check(fs *flag.FlagSet) error {
	switch {
	case flagSet(fs, "width") && t.width < 1:
		return cli.Usagef("--width %d: want at least 1 (leave it out for the level's default)", t.width)
	case flagSet(fs, "depth") && t.depth < 1:
		return cli.Usagef("--depth %d: want at least 1 (leave it out for the level's default)", t.depth)
	case t.exhaust < 0:
		return cli.Usagef("--exhaust %d: want at least 0", t.exhaust)
	case t.chance < -1:
		return cli.Usagef("--chance %d: want -1 (off), 0 (the level's default) or more", t.chance)
	}
	return nil
}

// seigotPlayer returns the named AI configured for level.
func seigotPlayer(name string, level int, tune ...seigotTuning) (*ai.Player, error) {
	c := ai.LevelConfig(level)
	switch name {
	case "beam":
	case "greedy":
		c.Width, c.Depth = 1, 1
	case "fast":
		c = ai.FastConfig(level)
	case "nohold":
		c.NoHold = true
	default:
		return nil, cli.Usagef("--ai %q: want beam, fast, nohold or greedy", name)
	}
	for _, t := range tune {
		if t.width > 0 {
			c.Width = t.width
		}
		if t.depth > 0 {
			c.Depth = t.depth
		}
		if t.chance != 0 {
			c.Chance = max(t.chance, 0)
		}
		t.future.apply(&c.Future)
		if t.exhaust > 0 {
			c.ExhaustPlies = t.exhaust
		}
		t.holdFirstI.apply(&c.HoldFirstI)
		switch t.well {
		case "":
		// A fixed or per-decision well also turns off the level's leaf
		// well (levels 1 and 2 default to it).
		case "0":
			c.Well, c.LeafWell = 0, false
		case "9":
			c.Well, c.LeafWell = 9, false
		case "auto":
			c.Well, c.LeafWell = -1, false
		case "leaf":
			c.Well, c.LeafWell = -1, true
		case "leaf0":
			c.Well, c.LeafWell = 0, true
		default:
			return nil, cli.Usagef("--well %q: want 0, 9, auto, leaf or leaf0", t.well)
		}
		if t.weights != "" {
			// Unknown names are refused: a misspelt weight would
			// otherwise silently change nothing.
			dec := json.NewDecoder(strings.NewReader(t.weights))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&c.W); err != nil {
				return nil, cli.Usagef("--weights: %v (names are those of seigot/ai.Weights, e.g. Safe, Bump, Height)", err)
			}
			if dec.More() {
				return nil, cli.Usagef("--weights: one JSON object expected")
			}
		}
	}
	return ai.New(c), nil
}

type seigotGameResult struct {
	Seed      uint64 `json:"seed"`
	Level     int    `json:"level"`
	Score     int    `json:"score"`
	Lines     int    `json:"lines"`
	LineStat  [4]int `json:"line_stat"`
	GameOvers int    `json:"gameovers"`
	AllClears int    `json:"all_clears"`
	DropScore int    `json:"drop_score"`
	Pieces    int    `json:"pieces"`
	// Carried is the sum of the cells left on the board right after each
	// tetris (about a point of drop bonus each), CarriedPer the list.
	Carried    int     `json:"carried,omitempty"`
	CarriedPer []int   `json:"carried_per,omitempty"`
	MeanMs     float64 `json:"mean_ms"`
	// CPUMeanMs and CPUP99Ms are the decisions' CPU times (user+system
	// of the process; run with GOMAXPROCS=1 so that it is the decision's).
	CPUMeanMs float64 `json:"cpu_mean_ms,omitempty"`
	CPUP99Ms  float64 `json:"cpu_p99_ms,omitempty"`
	P99Ms     float64 `json:"p99_ms"`
}

func runSeigotPlay(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi seigot play", "--level L --seed S [--seeds N] [--ai NAME] [--all-clear] [--json]",
		`Plays games in our engine (exact rules of seigot/tetris) with our AI and prints the score,
lines cleared 1/2/3/4 at a time, game overs, counted pieces and the time per decision.
Levels 1-3 end after 180 counted pieces; level 4 is played as the battle server ran it
(level-3 garbage, 180 pieces), so its score does not depend on speed. --seeds N plays
seeds S..S+N-1 and adds a summary (mean, median), with a progress bar on stderr; --results
FILE keeps one line per game and resumes, --concurrency plays several at once.`)
	level := fs.Int("level", 1, "level 1-4")
	seed := fs.Uint64("seed", 0, "the game's -r value (0 = fixed order); reduced modulo 2^32-1 as the game does")
	seeds := fs.Int("seeds", 1, "number of consecutive seeds")
	name := fs.String("ai", "beam", "AI: beam (default), fast or greedy")
	allClear := fs.Bool("all-clear", false, "award the post-contest all-clear bonus (500 at L1-2, 4000 at L3-4)")
	asJSON := fs.Bool("json", false, "print one JSON object per game, then a summary object")
	var tune seigotTuning
	fs.IntVar(&tune.width, "width", 0, "beam width ≥ 1 (default: the level's)")
	fs.IntVar(&tune.depth, "depth", 0, "search depth in pieces ≥ 1 (default: the level's)")
	fs.IntVar(&tune.chance, "chance", 0, "lines re-scored by a ply over the unknown next piece (0 = the level's default, -1 = off)")
	fs.Var(&tune.future, "future", "at seed 0, let the search see past the previews (the level's fixed order 1..7, which the game's status announces as random_seed 0); default: the level's (on at level 1; --future=false = previews only)")
	fs.BoolVar(&tune.oracle, "oracle", false, "hand the AI the game's true piece sequence up to its depth (levels 1-2: knows the future; an experiment, not a contest controller's view)")
	fs.StringVar(&tune.weights, "weights", "", `JSON object overriding evaluation weights, e.g. {"Safe":14}`)
	fs.Var(&tune.holdFirstI, "hold-first-i", "spend the first hold on the first I piece (never place an I while the hold is unused); default: the level's (on at level 1)")
	fs.IntVar(&tune.exhaust, "exhaust", 0, "keep every child of the first N plies, then the beam width (0 = the level's default)")
	fs.StringVar(&tune.well, "well", "", "well column: 0, 9, auto (the lower edge at each decision) or leaf (each evaluated board's lower edge; leaf0: ties go to column 0); default: the level's")
	conc := fs.Int("concurrency", 1, "games played at once in this process (the per-move times are each game's own only at 1); 0 with --nats leaves them to yomi workers")
	results := fs.String("results", "", "JSON-lines results `FILE`, one line per game (a rerun with the same file resumes)")
	quiet := fs.Bool("quiet", false, "no progress bar")
	nf := addNATSFlags(fs, true)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	if *level < 1 || *level > 4 {
		return cli.Usagef("--level must be 1..4, got %d", *level)
	}
	if *seeds < 1 {
		return cli.Usagef("--seeds must be at least 1")
	}
	if err := tune.check(fs); err != nil {
		return err
	}
	if _, err := seigotPlayer(*name, *level, tune); err != nil {
		return err
	}
	if err := nf.check(*conc); err != nil {
		return err
	}
	if *conc < 0 {
		return cli.Usagef("--concurrency %d: want at least 0", *conc)
	}
	if _, err := seigot.LevelConfig(*level, *seed+uint64(*seeds-1), *allClear); err != nil {
		return cli.Usagef("%v", err)
	}
	spec := seigotPlaySpec{AI: *name, Level: *level, AllClear: *allClear, Tuning: tune.spec()}
	remote, fc, err := nf.remote(ctx, env, seigotPlayKind, spec, *conc)
	if err != nil {
		return err
	}
	defer fc.Close()
	// The AI is named by its settings, so that a results file is not
	// resumed with other ones.
	b, _ := json.Marshal(spec)
	acfg := arena.Config{NameA: "seigot-" + fabric.RunID(string(b))[:8], Seed: *seed, Pairs: *seeds, Concurrency: *conc, Results: *results, Remote: remote}
	if !*quiet {
		acfg.Progress = env.Stderr
	}
	rep, err := arena.RunScores(ctx, acfg, nil)
	if err != nil {
		return err
	}
	var scores []float64
	for _, g := range rep.Games {
		var r seigotGameResult
		if err := json.Unmarshal(g.Info, &r); err != nil {
			return fmt.Errorf("seed %d: %v", g.Seed, err)
		}
		scores = append(scores, float64(r.Score))
		if *asJSON {
			if err := cli.WriteJSON(env.Stdout, r); err != nil {
				return err
			}
		} else {
			fmt.Fprintf(env.Stdout, "level %d seed %d: score %d lines %d (1/2/3/4: %d/%d/%d/%d) drop %d gameovers %d pieces %d, %.1f ms/move mean, %.1f p99\n",
				r.Level, r.Seed, r.Score, r.Lines, r.LineStat[0], r.LineStat[1], r.LineStat[2], r.LineStat[3],
				r.DropScore, r.GameOvers, r.Pieces, r.MeanMs, r.P99Ms)
		}
	}
	if *seeds > 1 {
		mean, med := meanMedian(scores)
		if *asJSON {
			return cli.WriteJSON(env.Stdout, map[string]any{"summary": true, "games": len(scores), "mean": mean, "median": med})
		}
		fmt.Fprintf(env.Stdout, "%d games: mean %.1f median %.1f\n", len(scores), mean, med)
	}
	return nil
}

// seigotPlayKind is the job kind of one game of `yomi seigot play`.
const seigotPlayKind = "seigot.play"

// seigotPlaySpec is what a worker needs to play a game of `yomi seigot play`.
type seigotPlaySpec struct {
	AI       string           `json:"ai"`
	Level    int              `json:"level"`
	AllClear bool             `json:"all_clear,omitempty"`
	Tuning   seigotTuningSpec `json:"tuning"`
}

// seigotTuningSpec is seigotTuning as JSON (nil booleans: the level's).
type seigotTuningSpec struct {
	Width, Depth, Chance, Exhaust int
	Future, HoldFirstI            *bool `json:",omitempty"`
	Weights, Well                 string
	Oracle                        bool
}

func (t seigotTuning) spec() seigotTuningSpec {
	s := seigotTuningSpec{Width: t.width, Depth: t.depth, Chance: t.chance, Exhaust: t.exhaust, Weights: t.weights, Well: t.well, Oracle: t.oracle}
	if t.future.set {
		s.Future = &t.future.v
	}
	if t.holdFirstI.set {
		s.HoldFirstI = &t.holdFirstI.v
	}
	return s
}

func (s seigotTuningSpec) tuning() seigotTuning {
	t := seigotTuning{width: s.Width, depth: s.Depth, chance: s.Chance, exhaust: s.Exhaust, weights: s.Weights, well: s.Well, oracle: s.Oracle}
	if s.Future != nil {
		t.future = levelBool{set: true, v: *s.Future}
	}
	if s.HoldFirstI != nil {
		t.holdFirstI = levelBool{set: true, v: *s.HoldFirstI}
	}
	return t
}

func seigotPlayFactory(b json.RawMessage) (arena.ScoreFunc, error) {
	var s seigotPlaySpec
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	if _, err := seigotPlayer(s.AI, s.Level, s.Tuning.tuning()); err != nil {
		return nil, err
	}
	return seigotPlayGame(s), nil
}

// seigotPlayGame plays one seed: the score is the game's, the record
// everything `seigot play` prints.
func seigotPlayGame(s seigotPlaySpec) arena.ScoreFunc {
	return func(ctx context.Context, seed uint64, _ int) (arena.ScoreOutcome, error) {
		cfg, err := seigot.LevelConfig(s.Level, seed, s.AllClear)
		if err != nil {
			return arena.ScoreOutcome{}, err
		}
		tune := s.Tuning.tuning()
		pl, err := seigotPlayer(s.AI, s.Level, tune)
		if err != nil {
			return arena.ScoreOutcome{}, err
		}
		if tune.oracle {
			if pl, err = withOracle(pl, seed, s.Level); err != nil {
				return arena.ScoreOutcome{}, err
			}
		}
		var clock func() time.Duration
		if _, ok := bench.ProcessCPU(); ok {
			clock = func() time.Duration { d, _ := bench.ProcessCPU(); return d }
		}
		res := ai.PlayTimed(ctx, cfg, pl, clock)
		if err := ctx.Err(); err != nil {
			return arena.ScoreOutcome{}, err
		}
		r := seigotGameResult{Seed: seed, Level: s.Level, Score: res.Stats.Score, Lines: res.Stats.Lines,
			LineStat: res.Stats.LineStat, GameOvers: res.Stats.GameOvers, AllClears: res.Stats.AllClears,
			DropScore: res.Stats.DropScore, Pieces: res.Stats.BlockIndex, CarriedPer: res.Carried}
		for _, n := range res.Carried {
			r.Carried += n
		}
		r.MeanMs, r.P99Ms = durationStats(res.Decisions)
		r.CPUMeanMs, r.CPUP99Ms = durationStats(res.CPU)
		return arena.ScoreOutcome{Score: float64(r.Score), Info: r}, nil
	}
}

// withOracle returns pl with Config.Oracle set to the first pieces of the
// game at seed and level (more than a capped game can count).
func withOracle(pl *ai.Player, seed uint64, level int) (*ai.Player, error) {
	st, err := seigot.Sequence(seed, level, 400)
	if err != nil {
		return nil, err
	}
	c := pl.Config()
	c.Oracle = make([]uint8, len(st.Pieces))
	for i, p := range st.Pieces {
		c.Oracle[i] = uint8(p)
	}
	return ai.New(c), nil
}

func durationStats(ds []time.Duration) (meanMs, p99Ms float64) {
	if len(ds) == 0 {
		return 0, 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	var sum time.Duration
	for _, d := range s {
		sum += d
	}
	meanMs = float64(sum) / float64(len(s)) / 1e6
	p99Ms = float64(s[int(math.Ceil(0.99*float64(len(s))))-1]) / 1e6
	return
}

func meanMedian(xs []float64) (mean, median float64) {
	s := slices.Clone(xs)
	slices.Sort(s)
	for _, x := range s {
		mean += x
	}
	mean /= float64(len(s))
	if n := len(s); n%2 == 1 {
		median = s[n/2]
	} else {
		median = (s[n/2-1] + s[n/2]) / 2
	}
	return
}

func runSeigotController(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi seigot controller", "[--ai NAME] [--level L] [--width W] [--depth D] [--future] [--weights JSON]",
		`Speaks the bridge protocol on stdin/stdout: each input line is one GameStatus as JSON
(the original's field names, without the Python "class" entries); each output line is
one nextMove strategy: {"direction":D,"x":X,"y_operation":1,"y_moveblocknum":1,
"use_hold_function":"n"}. A line that cannot be read gets {"error":"..."} instead, and
the controller keeps going. The level (for the search settings) defaults to one guessed
from the status: garbage => 3, seed 0 => 1, else 2. Ends at end of input.`)
	name := fs.String("ai", "beam", "AI: beam, fast or greedy")
	level := fs.Int("level", 0, "level whose search settings to use (0 = guess from each status)")
	var tune seigotTuning
	fs.IntVar(&tune.width, "width", 0, "beam width ≥ 1 (default: the level's)")
	fs.IntVar(&tune.depth, "depth", 0, "search depth in pieces ≥ 1 (default: the level's)")
	fs.Var(&tune.future, "future", "at seed 0, let the search see past the previews (the level's fixed order 1..7, announced by random_seed 0); default: the level's (on at level 1; --future=false = previews only)")
	fs.StringVar(&tune.weights, "weights", "", `JSON object overriding evaluation weights, e.g. {"Safe":14}`)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	if *level < 0 || *level > 4 {
		return cli.Usagef("--level must be 0..4, got %d", *level)
	}
	if err := tune.check(fs); err != nil {
		return err
	}
	if _, err := seigotPlayer(*name, 1, tune); err != nil {
		return err
	}
	players := map[int]*ai.Player{}
	sc := bufio.NewScanner(cli.ContextReader(ctx, env.Stdin))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	out := bufio.NewWriter(env.Stdout)
	for sc.Scan() {
		if err := ctx.Err(); err != nil {
			return err
		}
		line := sc.Bytes()
		if len(line) == 0 {
			continue
		}
		var st seigot.GameStatus
		reply := func(v any) error {
			b, _ := json.Marshal(v)
			out.Write(b)
			out.WriteByte('\n')
			return out.Flush()
		}
		if err := json.Unmarshal(line, &st); err != nil {
			if err := reply(map[string]string{"error": "bad GameStatus JSON: " + err.Error()}); err != nil {
				return err
			}
			continue
		}
		pos, err := st.Position()
		if err != nil {
			if err := reply(map[string]string{"error": err.Error()}); err != nil {
				return err
			}
			continue
		}
		lv := *level
		if lv == 0 {
			switch {
			case st.DebugInfo.ObstacleHeight > 0:
				lv = 3
			case pos.FixedOrder:
				lv = 1
			default:
				lv = 2
			}
		}
		pl := players[lv]
		if pl == nil {
			pl, _ = seigotPlayer(*name, lv, tune)
			players[lv] = pl
		}
		m := pl.Decide(ctx, &pos)
		if err := reply(seigot.StrategyOf(m)); err != nil {
			return err
		}
	}
	return sc.Err()
}

func runSeigotReplay(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi seigot replay", "--level L --seed S --moves FILE|- [--cap N] [--all-clear] [--json]",
		`Replays a recorded move list in our engine and prints the result, to check that a game
played by the same moves scores the same here and in the original. FILE is a JSON list of
moves, each [direction, x, y_operation, y_moveblocknum, use_hold_function] (one per tick),
as the headless harness described in the README records them. The game ends at the piece
cap or when the moves run out.`)
	level := fs.Int("level", 1, "level 1-4")
	seed := fs.Uint64("seed", 0, "the game's -r value")
	file := fs.String("moves", "", "move list file (- = stdin)")
	capN := fs.Int("cap", 180, "piece cap (BlockNumMax)")
	allClear := fs.Bool("all-clear", false, "award the all-clear bonus")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	if *file == "" {
		return cli.Usagef("--moves is required")
	}
	cfg, err := seigot.LevelConfig(*level, *seed, *allClear)
	if err != nil {
		return cli.Usagef("%v", err)
	}
	cfg.BlockNumMax = *capN
	arg := *file
	if arg != "-" {
		arg = "@" + arg
	}
	data, err := cli.ReadArg(env, arg)
	if err != nil {
		return err
	}
	var raw [][5]any
	if err := json.Unmarshal([]byte(data), &raw); err != nil {
		return fmt.Errorf("moves: %w", err)
	}
	g := seigot.NewGame(cfg)
	for i, r := range raw {
		if g.Done {
			break
		}
		var s seigot.Strategy
		ints := [4]*int{&s.Direction, &s.X, &s.YOperation, &s.YMoveBlockNum}
		for k, p := range ints {
			f, ok := r[k].(float64)
			if !ok || f != math.Trunc(f) {
				return fmt.Errorf("move %d: field %d is %v, want an integer", i, k, r[k])
			}
			*p = int(f)
		}
		if s.YOperation == 1 && s.YMoveBlockNum < 1 {
			s.YMoveBlockNum = 1
		}
		s.UseHoldFunction, _ = r[4].(string)
		m, err := seigot.MoveOf(s)
		if err != nil {
			return fmt.Errorf("move %d: %w", i, err)
		}
		g.Tick(m)
	}
	r := seigotGameResult{Seed: *seed, Level: *level, Score: g.Stats.Score, Lines: g.Stats.Lines,
		LineStat: g.Stats.LineStat, GameOvers: g.Stats.GameOvers, AllClears: g.Stats.AllClears,
		DropScore: g.Stats.DropScore, Pieces: g.Stats.BlockIndex}
	if *asJSON {
		return cli.WriteJSON(env.Stdout, r)
	}
	fmt.Fprintf(env.Stdout, "level %d seed %d: score %d lines %d (1/2/3/4: %d/%d/%d/%d) drop %d gameovers %d pieces %d ticks %d\n",
		r.Level, r.Seed, r.Score, r.Lines, r.LineStat[0], r.LineStat[1], r.LineStat[2], r.LineStat[3],
		r.DropScore, r.GameOvers, r.Pieces, g.Stats.Ticks)
	return nil
}
