// codevs_referee.go plugs the CODE VS Reborn referee into the binary: the
// verbs `yomi codevs referee`, `match`, `dummy` and `packs`, and the
// codevs/turnloop and codevs/referee benchmarks.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/protocol"
	"github.com/yomi-ai/yomi/codevs/referee"
	"github.com/yomi-ai/yomi/codevs/sim"
	"github.com/yomi-ai/yomi/fabric"
	"github.com/yomi-ai/yomi/internal/bench"
	"github.com/yomi-ai/yomi/internal/cli"
)

// withCodevsReferee adds the referee's verbs and benchmarks to the codevs game.
func withCodevsReferee(g game) game {
	g.area.Verbs = append(g.area.Verbs,
		&cli.Verb{Name: "referee", Summary: "play one game between two AI commands as the official client did", Run: runCodevsReferee},
		&cli.Verb{Name: "match", Summary: "play pack sets twice with sides swapped between two AI commands (W/L/D, Elo, SPRT)", Run: runCodevsMatch},
		&cli.Verb{Name: "dummy", Summary: "a stand-in AI on stdin/stdout (random or fixed drops, injectable faults)", Run: runCodevsDummy},
		&cli.Verb{Name: "packs", Summary: "print a generated pack file, or the statistics of pack files", Run: runCodevsPacks},
		&cli.Verb{Name: "replay", Summary: "check a referee replay.json against the rules and summarise it", Run: runCodevsReplay},
	)
	g.benches = append(g.benches, codevsRefereeBenchmarks()...)
	if g.jobs == nil {
		g.jobs = map[string]fabric.Handler{}
	}
	g.jobs[codevsMatchKind] = arena.PairHandler(codevsMatchFactory)
	return g
}

// gameFlags are the flags referee and match share.
type gameFlags struct {
	p1, p2     *string
	timeMs     *int64
	turnMs     *int64
	startMs    *int64
	sequential *bool
	profile    *string
}

func addGameFlags(fs interface {
	String(string, string, string) *string
	Int64(string, int64, string) *int64
	Bool(string, bool, string) *bool
}) gameFlags {
	return gameFlags{
		p1:         fs.String("p1", "", "player 1's `CMD` (run with /bin/sh -c)"),
		p2:         fs.String("p2", "", "player 2's `CMD`"),
		timeMs:     fs.Int64("time-ms", referee.DefaultTime.Milliseconds(), "thinking time per player per game in `ms`"),
		turnMs:     fs.Int64("turn-ms", 0, "also limit each answer to `ms` (0: none; the online qualifier had 20000)"),
		startMs:    fs.Int64("start-ms", referee.DefaultStartTimeout.Milliseconds(), "wait this many `ms` for an AI's name line (not charged)"),
		sequential: fs.Bool("sequential", false, "ask player 1, then player 2, instead of both at once"),
		profile:    fs.String("profile", string(codevs.ProfileClient), "pack generator `profile` for --seed: client, tanzaku or pdf"),
	}
}

func (f gameFlags) config() (referee.Config, codevs.Profile, error) {
	var cfg referee.Config
	if strings.TrimSpace(*f.p1) == "" || strings.TrimSpace(*f.p2) == "" {
		return cfg, "", cli.Usagef("need --p1 CMD and --p2 CMD")
	}
	if *f.timeMs <= 0 || *f.turnMs < 0 || *f.startMs <= 0 {
		return cfg, "", cli.Usagef("--time-ms and --start-ms must be positive, --turn-ms not negative")
	}
	prof, err := codevs.ParseProfile(*f.profile)
	if err != nil {
		return cfg, "", cli.Usagef("--profile: %v", err)
	}
	cfg.Cmd = [2]string{*f.p1, *f.p2}
	cfg.Time = time.Duration(*f.timeMs) * time.Millisecond
	cfg.TurnLimit = time.Duration(*f.turnMs) * time.Millisecond
	cfg.StartTimeout = time.Duration(*f.startMs) * time.Millisecond
	cfg.Sequential = *f.sequential
	return cfg, prof, nil
}

// refereeOutput is the --json form of one game.
type refereeOutput struct {
	Winner  int       `json:"winner"` // 1 or 2; 0 for a draw
	Reason  string    `json:"reason"`
	Turns   int       `json:"turns"`
	Names   [2]string `json:"names"`
	Scores  [2]int64  `json:"scores"`
	Faults  [2]string `json:"faults"`
	TimeMs  [2]int64  `json:"time_ms"`
	Packs   string    `json:"packs"` // file or "seed S (profile)"
	LogDir  string    `json:"log_dir,omitempty"`
	Elapsed float64   `json:"seconds"`
}

func runCodevsReferee(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi codevs referee", "--p1 CMD --p2 CMD [--packs FILE | --seed S] [flags]",
		`Plays one game between two AI commands exactly as the official client did: reads each AI's
name line, sends the 500 packs and then a 43-line block per turn, reads "x r" or "S", charges
each AI the time from sending a turn to reading its answer against its budget (remaining ms is
in the input), and ends the game on death, the 500-turn limit (higher score wins), a crash, a
timeout or illegal output. The packs come from a pack file (the game-start block; a client
*_stdin.txt log works too) or are generated from --seed with the statistics of real pack sets.
--log-dir keeps p1_stdin.txt and p2_stdin.txt (byte for byte what each AI received), both AIs'
stderr and replay.json (packs, answers, think times, per-turn scores).`)
	gf := addGameFlags(fs)
	packsFile := fs.String("packs", "", "pack `FILE` (default: generate from --seed)")
	seed := fs.Uint64("seed", 1, "pack generator seed")
	logDir := fs.String("log-dir", "", "write stdin logs, stderr and replay.json to `DIR`")
	asJSON := fs.Bool("json", false, "print one JSON object")
	quiet := fs.Bool("quiet", false, "no progress bar")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	cfg, prof, err := gf.config()
	if err != nil {
		return err
	}
	if *packsFile != "" && (flagSet(fs, "seed") || flagSet(fs, "profile")) {
		return cli.Usagef("--packs and --seed/--profile exclude each other")
	}
	desc := fmt.Sprintf("seed %d (%s)", *seed, prof)
	if *packsFile != "" {
		if cfg.Packs, err = codevs.ReadPackFile(*packsFile); err != nil {
			return err
		}
		desc = *packsFile
	} else if cfg.Packs, err = codevs.PacksForSeed(*seed, prof); err != nil {
		return err
	}
	if err := makeLogDir(*logDir); err != nil {
		return err
	}
	cfg.LogDir = *logDir
	if err := checkBots(ctx, botCmd{"--p1", cfg.Cmd[0], cfg.Dir}, botCmd{"--p2", cfg.Cmd[1], cfg.Dir}); err != nil {
		return err
	}
	bar := cli.Progress(env.Stderr, codevs.Turns, "codevs game", *quiet)
	cfg.OnTurn = func(int) { bar.Add(1) }
	start := time.Now()
	res, err := referee.Play(ctx, cfg)
	bar.Finish()
	fmt.Fprintln(env.Stderr)
	if err != nil {
		return err
	}
	out := refereeOutput{Winner: res.Outcome.Winner + 1, Reason: res.Outcome.Reason, Turns: res.Turns, Names: res.Names,
		Scores: res.Scores, Faults: res.Faults, Packs: desc, LogDir: *logDir, Elapsed: time.Since(start).Seconds()}
	for i := range 2 {
		out.TimeMs[i] = int64(res.TimeMs[i])
	}
	if *asJSON {
		return cli.WriteJSON(env.Stdout, out)
	}
	for i := range 2 {
		fault := ""
		if res.Faults[i] != "" {
			fault = "  (" + res.Faults[i] + ")"
		}
		fmt.Fprintf(env.Stdout, "player %d  %-20s score %6d  think %7d ms%s\n", i+1, res.Names[i], res.Scores[i], out.TimeMs[i], fault)
	}
	switch out.Winner {
	case 0:
		fmt.Fprintf(env.Stdout, "draw after %d turns: %s\n", res.Turns, res.Outcome.Reason)
	default:
		fmt.Fprintf(env.Stdout, "player %d wins after %d turns: %s\n", out.Winner, res.Turns, res.Outcome.Reason)
	}
	fmt.Fprintf(env.Stdout, "packs %s, %.1f s\n", desc, out.Elapsed)
	return nil
}

// matchInfo is what the results file keeps about one game.
type matchInfo struct {
	Turns  int       `json:"turns"`
	Names  [2]string `json:"names"`  // sides 1 and 2
	Scores [2]int64  `json:"scores"` // sides 1 and 2
	Faults [2]string `json:"faults,omitempty"`
	TimeMs [2]int64  `json:"time_ms"`
	Reason string    `json:"reason"`
	Packs  string    `json:"packs"`
}

func runCodevsMatch(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi codevs match", "--p1 CMD --p2 CMD --games N [flags]",
		`Plays N pack sets, each twice with sides swapped (2N games), between two AI commands through
the referee, and prints W/L/D, pentanomial pair counts, Elo with 95 % intervals and, with
--sprt, the test's state; the match stops early once the SPRT decides. Pack set i is generated
from seed S+i, or is the i-th file of --packs. Results go to --results as JSON lines (a rerun
with the same file resumes). Each game runs two processes; with --concurrency K, K games run
at once (mind the thinking-time budgets on a small machine).`)
	gf := addGameFlags(fs)
	games := fs.Int("games", 10, "number of game pairs `N` (2N games: each pack set twice, sides swapped)")
	seed := fs.Uint64("seed", 1, "first pack seed")
	packsGlob := fs.String("packs", "", "pack files `GLOB` instead of generated packs (sorted; set i uses file i)")
	conc := fs.Int("concurrency", 1, "games at once in this process (0 with --nats: leave them to yomi workers, which need the bot commands, --dir and --packs files at the same paths)")
	sprt := fs.String("sprt", "", "stop early by SPRT `elo0,elo1` (normalized model, alpha = beta = 0.05)")
	results := fs.String("results", "", "append per-game JSON lines to `FILE` (resumes)")
	logDir := fs.String("log-dir", "", "keep each game's logs under `DIR`/s<seed>_g<game>/")
	name1 := fs.String("name1", "", "report name of --p1 (default: its command's first word)")
	name2 := fs.String("name2", "", "report name of --p2")
	asJSON := fs.Bool("json", false, "print the summary as one JSON object")
	quiet := fs.Bool("quiet", false, "no progress bar")
	nf := addNATSFlags(fs, true)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	base, prof, err := gf.config()
	if err != nil {
		return err
	}
	if *games < 1 {
		return cli.Usagef("--games must be at least 1")
	}
	if *conc < 0 || *conc > 64 {
		return cli.Usagef("--concurrency must be 0..64")
	}
	if err := nf.check(*conc); err != nil {
		return err
	}
	sp, err := parseSPRTPair(*sprt)
	if err != nil {
		return err
	}
	if err := makeLogDir(*logDir); err != nil {
		return err
	}
	var files []string
	if *packsGlob != "" && (flagSet(fs, "seed") || flagSet(fs, "profile")) {
		return cli.Usagef("--packs and --seed/--profile exclude each other")
	}
	if *packsGlob != "" {
		if files, err = filepath.Glob(*packsGlob); err != nil {
			return cli.Usagef("--packs: %v", err)
		}
		if len(files) == 0 {
			return cli.Usagef("--packs %q matches no file", *packsGlob)
		}
		sort.Strings(files)
	}
	names := [2]string{*name1, *name2}
	for i, cmd := range base.Cmd {
		if names[i] == "" {
			names[i] = shortCommandName(cmd)
		}
	}
	if names[0] == names[1] {
		names[0], names[1] = names[0]+"#1", names[1]+"#2"
	}
	cfg := arena.Config{NameA: names[0], NameB: names[1], Seed: *seed, Pairs: *games, Concurrency: *conc,
		Results: *results, SPRT: sp, GameTimeout: 2*base.Time + 2*base.StartTimeout + time.Minute}
	if files != nil {
		cfg.Seeds = make([]uint64, min(*games, len(files)))
		for i := range cfg.Seeds {
			cfg.Seeds[i] = uint64(i)
		}
	}
	if !*quiet {
		cfg.Progress = env.Stderr
	}
	spec := codevsMatchSpec{Cmd: base.Cmd, Dir: base.Dir, Time: base.Time, TurnLimit: base.TurnLimit,
		StartTimeout: base.StartTimeout, Sequential: base.Sequential, Profile: prof, LogDir: *logDir}
	if *logDir != "" {
		if spec.LogDir, err = filepath.Abs(*logDir); err != nil {
			return err
		}
	}
	for _, f := range files[:len(cfg.Seeds)] {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		abs, err := filepath.Abs(f)
		if err != nil {
			return err
		}
		spec.PackFiles = append(spec.PackFiles, abs)
		spec.PackDigests = append(spec.PackDigests, fabric.Digest(b))
	}
	// Bots run wherever the games are played; check them here when this
	// process plays too.
	if *conc > 0 {
		if err := checkBots(ctx, botCmd{"--p1", base.Cmd[0], base.Dir}, botCmd{"--p2", base.Cmd[1], base.Dir}); err != nil {
			return err
		}
	}
	remote, fc, err := nf.remote(ctx, env, codevsMatchKind, spec, *conc)
	if err != nil {
		return err
	}
	defer fc.Close()
	cfg.Remote = remote
	rep, err := arena.RunPairs(ctx, cfg, nil)
	if err != nil {
		return err
	}
	if *asJSON {
		return cli.WriteJSON(env.Stdout, rep)
	}
	rep.Write(env.Stdout)
	return nil
}

// flagSet reports whether the flag was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// shortCommandName names a command line by its first word (after any
// VAR=value prefixes): the last two path elements, e.g. "ysai/run.sh".
func shortCommandName(cmd string) string {
	for _, w := range strings.Fields(cmd) {
		if strings.Contains(w, "=") {
			continue
		}
		w = filepath.Clean(w)
		if dir := filepath.Base(filepath.Dir(w)); dir != "." && dir != "/" {
			return dir + "/" + filepath.Base(w)
		}
		return filepath.Base(w)
	}
	return "ai"
}

func runCodevsDummy(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi codevs dummy", "[flags]",
		`A stand-in AI speaking the contest protocol on stdin/stdout, for trying the referee and for
tests: it prints its name, then answers every turn with a random drop that does not kill it
at once (and the skill when the gauge allows and it explodes something), or always "0 0"
with --strategy left. Faults can be switched on at a given turn (0-based): crash, hang,
print garbage, or use the skill whatever the gauge.`)
	o := referee.NoFaults()
	name := fs.String("name", "dummy", "AI `name` line")
	strategy := fs.String("strategy", referee.DummyRandom, "`random` or left")
	seed := fs.Uint64("seed", 1, "random seed")
	delay := fs.Int64("delay-ms", 0, "think this many `ms` per turn")
	fs.IntVar(&o.CrashTurn, "crash-turn", -1, "exit with status 1 at this `turn`")
	fs.IntVar(&o.HangTurn, "hang-turn", -1, "never answer at this `turn`")
	fs.IntVar(&o.GarbageTurn, "garbage-turn", -1, "print --garbage at this `turn`")
	garbage := fs.String("garbage", "a 100", "the garbage `line`")
	fs.IntVar(&o.SkillTurn, "skill-turn", -1, "print S at this `turn` whatever the gauge")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	if *strategy != referee.DummyRandom && *strategy != referee.DummyLeft {
		return cli.Usagef("--strategy must be random or left")
	}
	if *delay < 0 {
		return cli.Usagef("--delay-ms must not be negative")
	}
	o.Name, o.Strategy, o.Seed, o.Garbage = *name, *strategy, *seed, *garbage
	o.Delay = time.Duration(*delay) * time.Millisecond
	return referee.RunDummy(ctx, cli.ContextReader(ctx, env.Stdin), env.Stdout, o)
}

func runCodevsPacks(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi codevs packs", "[--seed S] [--profile P] | --stats FILE...",
		`Prints the pack file generated from --seed with --profile (the game-start block: 500 × "a b",
"c d", "END"), or with --stats the counts that the profiles fix for each FILE: three- and
four-block packs, blocks of each digit, and where the empty cell of three-block packs is
(top-left, top-right, bottom-left, bottom-right).`)
	seed := fs.Uint64("seed", 1, "generator seed")
	profile := fs.String("profile", string(codevs.ProfileClient), "`profile`: client, tanzaku or pdf")
	stats := fs.Bool("stats", false, "print statistics of the FILE arguments (or of the generated set)")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	prof, err := codevs.ParseProfile(*profile)
	if err != nil {
		return cli.Usagef("--profile: %v", err)
	}
	if !*stats {
		if fs.NArg() != 0 {
			return cli.Usagef("files are only read with --stats")
		}
		packs, err := codevs.PacksForSeed(*seed, prof)
		if err != nil {
			return err
		}
		_, err = env.Stdout.Write(codevs.FormatPacks(packs))
		return err
	}
	sets := map[string][]sim.Pack{}
	var order []string
	if fs.NArg() == 0 {
		packs, err := codevs.PacksForSeed(*seed, prof)
		if err != nil {
			return err
		}
		name := fmt.Sprintf("seed %d (%s)", *seed, prof)
		sets[name], order = packs, []string{name}
	}
	for _, f := range fs.Args() {
		packs, err := codevs.ReadPackFile(f)
		if err != nil {
			return err
		}
		sets[f], order = packs, append(order, f)
	}
	fmt.Fprintln(env.Stdout, "set  3-block 4-block  digits 1..9  empty TL TR BL BR")
	for _, name := range order {
		s := codevs.Stats(sets[name])
		fmt.Fprintf(env.Stdout, "%s  %d %d  %v  %v\n", name, s.Threes, s.Fours, s.Digits[1:], s.Empty)
	}
	return nil
}

func runCodevsReplay(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi codevs replay", "[--turns] [--json] REPLAY.json | --timeline [--me NAME] [--json] REPLAY.json...",
		`Plays the moves of a replay written by the referee (--log-dir) through the game again, checks
every recorded turn (chains, explosions, ojama sent, stocks, gauges, scores) and the result, and
prints a summary; --turns also lists every turn.

--timeline takes any number of replays and prints one line per game from the view of the player
whose name contains --me (Y; the other is T): the result, who fired big first (Y, T or = for the
same turn), both clocks used, then each exchange of big fires (--big ojama or more; fires within
--gap turns group) as tN SIDE chains/ojama, "!" for a fire made with 10+ ojama in its own stock,
"*" before the exchange the loser came out of behind by --big or more, and the turn of death.
With --json, one timeline object per line instead.`)
	turns := fs.Bool("turns", false, "list every turn")
	asJSON := fs.Bool("json", false, "print the replay's result (or, with --timeline, each timeline) as JSON")
	timeline := fs.Bool("timeline", false, "print each game's fires, exchanges and death on one line")
	me := fs.String("me", "yomi", "with --timeline: the player shown as Y (a substring of its name; else player 1)")
	big := fs.Int("big", 30, "with --timeline: ojama sent by a big fire")
	gap := fs.Int("gap", 8, "with --timeline: turns between big fires of one exchange")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if *timeline {
		if fs.NArg() == 0 {
			return cli.Usagef("replay --timeline needs at least one file")
		}
		for _, name := range fs.Args() {
			rp, err := readCheckedReplay(name)
			if err != nil {
				return err
			}
			tl := referee.NewTimeline(rp, referee.TimelineOptions{BigSent: *big, Gap: *gap})
			if *asJSON {
				if err := cli.WriteJSON(env.Stdout, tl); err != nil {
					return err
				}
				continue
			}
			side := 0
			if !strings.Contains(tl.Names[0], *me) && strings.Contains(tl.Names[1], *me) {
				side = 1
			}
			res := "D"
			if tl.Winner == side {
				res = "W"
			} else if tl.Winner == 1-side {
				res = "L"
			}
			first := [...]string{"-", "Y", "T", "="}[1+map[int]int{-1: -1, side: 0, 1 - side: 1, 2: 2}[tl.FirstBig]]
			fmt.Fprintf(env.Stdout, "%s  %s p%d t%d first %s clock %3d/%3d s  %s\n", name, res, side+1, tl.Turns, first,
				tl.ThinkMs[side]/1000, tl.ThinkMs[1-side]/1000, tl.Line(side))
		}
		return nil
	}
	if fs.NArg() != 1 {
		return cli.Usagef("replay needs exactly one file")
	}
	rp, err := readCheckedReplay(fs.Arg(0))
	if err != nil {
		return err
	}
	if *asJSON {
		return cli.WriteJSON(env.Stdout, rp.Result)
	}
	if *turns {
		fmt.Fprintln(env.Stdout, "turn  moves      chains  sent    stock    gauge     score")
		for _, t := range rp.Turns {
			fmt.Fprintf(env.Stdout, "%4d  %-4s %-4s  %2d %2d  %3d %3d  %3d %3d  %3d %3d  %5d %5d\n", t.Turn, t.Moves[0], t.Moves[1],
				t.Chains[0], t.Chains[1], t.Sent[0], t.Sent[1], t.Ojama[0], t.Ojama[1], t.Gauge[0], t.Gauge[1], t.Score[0], t.Score[1])
		}
	}
	var think [2]int64
	for i := range 2 {
		for _, ns := range rp.Players[i].ThinkNs {
			think[i] += ns
		}
	}
	for i, p := range rp.Players {
		fmt.Fprintf(env.Stdout, "player %d  %-20s think %7d ms\n", i+1, p.Name, think[i]/1e6)
	}
	who := "draw"
	if rp.Result.Winner >= 0 {
		who = fmt.Sprintf("player %d wins", rp.Result.Winner+1)
	}
	fmt.Fprintf(env.Stdout, "%s after %d turns: %s (replay checked)\n", who, rp.Result.Turns, rp.Result.Reason)
	return nil
}

// readCheckedReplay reads a replay file and plays it again (VerifyReplay).
func readCheckedReplay(name string) (*referee.Replay, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rp, err := referee.ReadReplay(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := referee.VerifyReplay(rp); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return rp, nil
}

// codevsBenchGames is the fixed workload of the turn-loop benchmark: games
// on pack seeds 1..codevsBenchGames between two random dummies.
const codevsBenchGames = 8

// codevsBenchMoves plays the benchmark games once to fix their moves.
func codevsBenchMoves() ([][]sim.Pack, [][][2]codevs.Move, error) {
	var packs [][]sim.Pack
	var moves [][][2]codevs.Move
	for s := uint64(1); s <= codevsBenchGames; s++ {
		p, err := codevs.PacksForSeed(s, codevs.ProfileClient)
		if err != nil {
			return nil, nil, err
		}
		g, _ := codevs.NewGame(p)
		rng := rand.New(rand.NewPCG(s, 99))
		var ms [][2]codevs.Move
		for !g.Over {
			m := [2]codevs.Move{referee.DummyMove(&g.P[0], p[g.Turn], referee.DummyRandom, rng), referee.DummyMove(&g.P[1], p[g.Turn], referee.DummyRandom, rng)}
			if _, err := g.Step(m); err != nil {
				return nil, nil, err
			}
			ms = append(ms, m)
		}
		packs, moves = append(packs, p), append(moves, ms)
	}
	return packs, moves, nil
}

func codevsRefereeBenchmarks() []bench.Benchmark {
	return []bench.Benchmark{{
		Name:    "codevs/turnloop",
		Summary: "full turns (both players: ojama, drop/skill, chains, gauges, offset, death) per second, and with both turn blocks encoded, over 8 fixed games",
		Run: func(ctx context.Context) ([]bench.Figure, error) {
			packs, moves, err := codevsBenchMoves()
			if err != nil {
				return nil, err
			}
			var turns, chains, score int64
			for k := range packs {
				g, _ := codevs.NewGame(packs[k])
				for _, m := range moves[k] {
					h, _ := g.Step(m)
					turns++
					chains += int64(h[0].Chains + h[1].Chains)
				}
				score += g.P[0].Score + g.P[1].Score
			}
			step := func(encode bool) float64 {
				buf := make([]byte, 0, 8192)
				_, work, el := bench.Rate(time.Second, func() int64 {
					var n int64
					for k := range packs {
						g, _ := codevs.NewGame(packs[k])
						for _, m := range moves[k] {
							if encode {
								for i := range 2 {
									in := g.Input(i, [2]int64{1000, 1000})
									buf = protocol.AppendTurn(buf[:0], &in)
								}
							}
							if _, err := g.Step(m); err != nil {
								panic(err)
							}
							n++
						}
					}
					return n
				})
				return float64(work) / el.Seconds()
			}
			return []bench.Figure{
				{Name: "codevs/turnloop/turns", Value: float64(turns), Unit: "turns"},
				{Name: "codevs/turnloop/chains", Value: float64(chains), Unit: "chains"},
				{Name: "codevs/turnloop/score", Value: float64(score), Unit: "points"},
				{Name: "codevs/turnloop/step", Value: step(false), Unit: "turns/s"},
				{Name: "codevs/turnloop/step+encode", Value: step(true), Unit: "turns/s"},
			}, ctx.Err()
		},
	}, {
		Name:    "codevs/referee",
		Summary: "turns per second of a whole referee game between two `yomi codevs dummy` processes (pipes, parsing, timing)",
		Run: func(ctx context.Context) ([]bench.Figure, error) {
			exe, err := os.Executable()
			if err != nil {
				return nil, err
			}
			packs, err := codevs.PacksForSeed(1, codevs.ProfileClient)
			if err != nil {
				return nil, err
			}
			q := "'" + strings.ReplaceAll(exe, "'", `'\''`) + "'"
			cfg := referee.Config{Packs: packs, Cmd: [2]string{q + " codevs dummy --seed 1", q + " codevs dummy --seed 2"}}
			start := time.Now()
			res, err := referee.Play(ctx, cfg)
			if err != nil {
				return nil, err
			}
			el := time.Since(start)
			if res.Faults != [2]string{} {
				return nil, fmt.Errorf("dummy faulted: %s", res.Outcome.Reason)
			}
			return []bench.Figure{
				{Name: "codevs/referee/turns", Value: float64(res.Turns), Unit: "turns"},
				{Name: "codevs/referee/rate", Value: float64(res.Turns) / el.Seconds(), Unit: "turns/s"},
				{Name: "codevs/referee/game", Value: float64(el.Milliseconds()), Unit: "ms"},
			}, nil
		},
	}}
}

// codevsMatchKind is the job kind of one game of `yomi codevs match`.
const codevsMatchKind = "codevs.match"

// codevsMatchSpec is what a worker needs to play a game of a match: the
// referee settings and the packs' source (generated from the seed by
// Profile, or the files at PackFiles, which must have PackDigests there).
type codevsMatchSpec struct {
	Cmd          [2]string      `json:"cmd"`
	Dir          string         `json:"dir,omitempty"`
	Time         time.Duration  `json:"time"`
	TurnLimit    time.Duration  `json:"turn_limit,omitempty"`
	StartTimeout time.Duration  `json:"start_timeout"`
	Sequential   bool           `json:"sequential,omitempty"`
	Profile      codevs.Profile `json:"profile"`
	PackFiles    []string       `json:"pack_files,omitempty"`
	PackDigests  []string       `json:"pack_digests,omitempty"`
	LogDir       string         `json:"log_dir,omitempty"`
}

func codevsMatchFactory(b json.RawMessage) (arena.PlayFunc, error) {
	var s codevsMatchSpec
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	if len(s.PackFiles) != len(s.PackDigests) {
		return nil, errors.New("codevs match: pack files and digests differ in number")
	}
	return codevsMatchPlay(s), nil
}

// codevsMatchPlay plays one game of a match through the referee.
func codevsMatchPlay(s codevsMatchSpec) arena.PlayFunc {
	return func(ctx context.Context, seed uint64, swapped bool) (arena.Outcome, error) {
		c := referee.Config{Cmd: s.Cmd, Dir: s.Dir, Time: s.Time, TurnLimit: s.TurnLimit, StartTimeout: s.StartTimeout, Sequential: s.Sequential}
		desc := fmt.Sprintf("seed %d (%s)", seed, s.Profile)
		var err error
		if s.PackFiles != nil {
			if seed >= uint64(len(s.PackFiles)) {
				return arena.Outcome{}, fmt.Errorf("pack set %d of %d", seed, len(s.PackFiles))
			}
			desc = s.PackFiles[seed]
			b, err := os.ReadFile(desc)
			if err != nil {
				return arena.Outcome{}, err
			}
			if fabric.Digest(b) != s.PackDigests[seed] {
				return arena.Outcome{}, fmt.Errorf("%s differs from the match's pack file (digest)", desc)
			}
			if c.Packs, err = codevs.ReadPacks(bytes.NewReader(b)); err != nil {
				return arena.Outcome{}, fmt.Errorf("%s: %w", desc, err)
			}
		} else if c.Packs, err = codevs.PacksForSeed(seed, s.Profile); err != nil {
			return arena.Outcome{}, err
		}
		a := 0 // side of A
		if swapped {
			a = 1
			c.Cmd[0], c.Cmd[1] = c.Cmd[1], c.Cmd[0]
		}
		if s.LogDir != "" {
			c.LogDir = filepath.Join(s.LogDir, fmt.Sprintf("s%d_g%d", seed, a))
		}
		res, err := referee.Play(ctx, c)
		if err != nil {
			return arena.Outcome{}, err
		}
		info := matchInfo{Turns: res.Turns, Names: res.Names, Scores: res.Scores, Faults: res.Faults, Reason: res.Outcome.Reason, Packs: desc}
		for i := range 2 {
			info.TimeMs[i] = int64(res.TimeMs[i])
		}
		o := arena.Outcome{Info: info}
		switch res.Outcome.Winner {
		case -1:
			o.Result = arena.Draw
		case a:
			o.Result = arena.Win
		default:
			o.Result = arena.Loss
		}
		if res.Faults != [2]string{} {
			o.Reason = res.Outcome.Reason
		}
		return o, nil
	}
}

// makeLogDir creates --log-dir before any game, so that a path that cannot
// be a directory is a usage error and not a failed game.
func makeLogDir(dir string) error {
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return cli.Usagef("--log-dir: %v", err)
	}
	return nil
}
