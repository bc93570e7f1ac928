// tetris_tbp.go plugs the Tetris Bot Protocol (tetris/tbp) and the versus
// and solo harnesses (tetris/versus) into the binary: the `yomi tetris
// tbp`, `yomi tetris versus` and `yomi tetris solo` verbs.

package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/tetris/versus"

	"github.com/yomi-ai/yomi/internal/cli"
	"github.com/yomi-ai/yomi/tetris"
	"github.com/yomi-ai/yomi/tetris/bot"
	"github.com/yomi-ai/yomi/tetris/tbp"
)

// withTetrisTBP adds the TBP, versus, solo and tbp-speed verbs.
func withTetrisTBP(g game) game {
	g.area.Verbs = append(g.area.Verbs,
		&cli.Verb{Name: "tbp", Summary: "run the bot on stdin/stdout speaking the Tetris Bot Protocol", Run: runTetrisTBP},
		&cli.Verb{Name: "versus", Summary: "play game pairs between two bots (built-in or TBP commands): W/L/D, Elo, SPRT", Run: runTetrisVersus},
		&cli.Verb{Name: "solo", Summary: "score a bot alone over a fixed seed set: attack per piece, pieces/s, deaths", Run: runTetrisSolo},
		&cli.Verb{Name: "tbp-speed", Summary: "time a TBP bot's nodes/s on the tetris/bot benchmark positions", Run: runTetrisTBPSpeed},
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
	reserve := reserveFlag(fs)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	if *threads < 1 || *maxMS < 0 || *maxNodes < 0 || *reserve < 0 {
		return cli.Usagef("--threads must be ≥ 1, --max-ms, --max-nodes and --reserve ≥ 0")
	}
	opt := bot.Options{Threads: *threads, Seed: *seed, PerfectClear: *pcMode, Reserve: reserveOption(*reserve)}
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

// matchFlags are the flags versus and solo share.
type matchFlags struct {
	thinkMS, pieces, threads, conc, preview int
	seed                                    uint64
	results, rules, weights                 string
	record, asJSON, quiet, pc               bool
	nats                                    *natsFlags
}

func addMatchFlags(fs *flag.FlagSet, pieces int) *matchFlags {
	m := &matchFlags{}
	fs.IntVar(&m.thinkMS, "think-ms", 20, "think time per move in `MS`, equal for every bot")
	fs.IntVar(&m.pieces, "max-pieces", pieces, "game length cap in pieces per side")
	fs.IntVar(&m.threads, "threads", 1, "search threads of the built-in bot")
	fs.IntVar(&m.conc, "concurrency", 1, "games at once in this process (0 with --nats: leave them to yomi workers, which need the TBP bot commands at the same paths)")
	fs.Uint64Var(&m.seed, "seed", 1, "first seed (seed i gives the pieces and garbage holes of game pair i)")
	fs.StringVar(&m.results, "results", "", "append per-game JSON lines to `FILE` (a rerun resumes)")
	fs.BoolVar(&m.record, "record", false, "keep every move in the game records")
	fs.BoolVar(&m.asJSON, "json", false, "print the summary as one JSON object")
	fs.BoolVar(&m.quiet, "quiet", false, "no progress bar")
	fs.IntVar(&m.preview, "preview", 5, "visible next pieces (`N`, 1..20); the perfect-clear mode needs 10 or more")
	fs.BoolVar(&m.pc, "pc", false, "perfect-clear mode for the built-in bot (see yomi tetris think --pc)")
	fs.StringVar(&m.weights, "weights", "", "evaluator weights JSON `FILE` of the built-in bot (default: Cold Clear's)")
	fs.StringVar(&m.rules, "rules", "cc1", "rule set `R`: "+strings.Join(tetris.RuleNames, " or ")+
		" (CC1's battle rules; guideline: the same with the modern guideline combo table)")
	m.nats = addNATSFlags(fs, true)
	return m
}

func (m *matchFlags) check() error {
	if m.thinkMS < 1 || m.pieces < 1 || m.threads < 1 || m.conc < 0 || m.conc > 64 {
		return cli.Usagef("--think-ms, --max-pieces and --threads must be ≥ 1, --concurrency 0..64")
	}
	if err := m.nats.check(m.conc); err != nil {
		return err
	}
	if m.preview < 1 || m.preview > 20 {
		return cli.Usagef("--preview must be 1..20, got %d", m.preview)
	}
	if _, err := tetris.NamedRules(m.rules); err != nil {
		return cli.Usagef("--rules: %v", err)
	}
	return nil
}

// botOptions returns the built-in bot's options from the flags (an
// unreadable or invalid --weights file is a usage error).
func (m *matchFlags) botOptions() (bot.Options, error) {
	opt := bot.Options{Threads: m.threads, PerfectClear: m.pc}
	if m.weights != "" {
		w, err := bot.LoadWeights(m.weights)
		if err != nil {
			return opt, cli.Usagef("--weights: %v", err)
		}
		opt.Weights = &w
	}
	return opt, nil
}

func (m *matchFlags) game() versus.Config {
	rules, _ := tetris.NamedRules(m.rules) // checked by check
	rules.QueueSize = m.preview
	return versus.Config{Rules: rules, Think: time.Duration(m.thinkMS) * time.Millisecond, MaxPieces: m.pieces, Record: m.record}
}

// checkSpecs runs checkBots on the TBP commands among the players named
// by flag.
func checkSpecs(ctx context.Context, specs map[string]versus.Spec) error {
	var bots []botCmd
	for _, f := range []string{"--p1", "--p2"} {
		if s, ok := specs[f]; ok && s.Cmd != "" {
			bots = append(bots, botCmd{flag: f, cmd: s.Cmd})
		}
	}
	return checkBots(ctx, bots...)
}

// playerName shortens a player spec for reports.
func playerName(s versus.Spec) string {
	if s.Cmd == "" {
		return "yomi"
	}
	f := strings.Fields(s.Cmd)
	for _, w := range f {
		if !strings.Contains(w, "=") {
			if i := strings.LastIndexByte(w, '/'); i >= 0 {
				w = w[i+1:]
			}
			return w
		}
	}
	return s.Cmd
}

func runTetrisVersus(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi tetris versus", "--p1 BOT --p2 BOT --games N [flags]",
		`Plays N game pairs of guideline versus between two bots under --rules: cc1 (default; CC1's
battle rules: garbage with cancelling, messiness 0.3, CC1's timing model and attack table, which
our evaluator was tuned for) or guideline (the same with the modern guideline combo table). BOT
is "builtin" (Yomi's bot in process; "builtin:nodes=N,rank=C,weights=FILE" caps each move at N
nodes, which with --threads 1 and a long --think-ms plays the same games at any machine load,
draws children by rank as Cold Clear 2 does (C = 0.693 is CC2's; 0: CC1's draw), and/or sets
its weights) or a Tetris Bot Protocol command line (run with /bin/sh -c;
"tbp:" prefix optional), e.g. "yomi tetris tbp" or a Cold Clear TBP binary. Pair i uses seed S+i
for both sides' pieces and garbage holes and is played twice with sides swapped. Fairness: each
bot gets --think-ms per move on its own clock, which holds all its work since its last move —
the built-in bot rebuilds its tree there; a TBP bot is stopped (SIGSTOP) between its moves and
reads start/play/new_piece when resumed. The clock stops when the bot is asked for its move (the
built-in search's deadline; suggest sent to a TBP bot); answering — for TBP the reply's round
trip — is on neither clock and is recorded as late_ms. Both sides know the same: the board,
queue, hold, combo and back-to-back, not the pending garbage (no TBP message carries it); a TBP
bot that lists "garbage" in its info features gets inserted rows as tbp-spec PR #2 garbage
messages, others a mid-game start. Every placement is checked against the move generator (cells
and spin); an impossible move, a crash, a hang or a death (lock out, block out, top out, named
in the record) loses that game, not the match. A game where both sides reach --max-pieces is a
draw. Prints W/L/D, pentanomial pair counts, Elo with 95 % intervals and, with --sprt, the SPRT
state (the match stops once it decides). With --rules other than cc1 the players' names carry
the rules, so one --results file never mixes rule sets.`)
	p1 := fs.String("p1", "builtin", "first `BOT`")
	p2 := fs.String("p2", "", "second `BOT`")
	games := fs.Int("games", 10, "number of game pairs `N` (2N games)")
	sprt := fs.String("sprt", "", "stop early by SPRT `elo0,elo1` (normalized model, alpha = beta = 0.05)")
	name1 := fs.String("name1", "", "report name of --p1")
	name2 := fs.String("name2", "", "report name of --p2")
	mf := addMatchFlags(fs, 1000)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	if err := mf.check(); err != nil {
		return err
	}
	if *games < 1 {
		return cli.Usagef("--games must be at least 1")
	}
	if *p2 == "" {
		return cli.Usagef("--p2 is required")
	}
	sp, err := parseSPRTPair(*sprt)
	if err != nil {
		return err
	}
	opt, err := mf.botOptions()
	if err != nil {
		return err
	}
	a, err := versus.ParseSpec(*p1, opt)
	if err != nil {
		return cli.Usagef("--p1: %v", err)
	}
	b, err := versus.ParseSpec(*p2, opt)
	if err != nil {
		return cli.Usagef("--p2: %v", err)
	}
	names := [2]string{*name1, *name2}
	for i, s := range []versus.Spec{a, b} {
		if names[i] == "" {
			names[i] = playerName(s)
		}
	}
	if names[0] == names[1] {
		names[0], names[1] = names[0]+"#1", names[1]+"#2"
	}
	if mf.conc > 0 {
		if err := checkSpecs(ctx, map[string]versus.Spec{"--p1": a, "--p2": b}); err != nil {
			return err
		}
	}
	cfg := arena.Config{NameA: names[0], NameB: names[1], Seed: mf.seed, Pairs: *games, Concurrency: mf.conc, Results: mf.results, SPRT: sp}
	if !mf.quiet {
		cfg.Progress = env.Stderr
	}
	remote, fc, err := mf.nats.remote(ctx, env, versus.MatchKind, versus.MatchSpec{Game: mf.game(), A: a, B: &b}, mf.conc)
	if err != nil {
		return err
	}
	defer fc.Close()
	cfg.Remote = remote
	rep, err := versus.Match(ctx, cfg, mf.game(), a, b)
	if err != nil {
		return err
	}
	if mf.asJSON {
		return cli.WriteJSON(env.Stdout, rep)
	}
	rep.Write(env.Stdout)
	return nil
}

func runTetrisSolo(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi tetris solo", "[--p1 BOT] [--p2 BOT] [--games N] [flags]",
		`Plays a bot alone (no garbage) for --max-pieces pieces on each of N fixed seeds (S..S+N-1) and
reports attack per piece (the score), with pieces per second in the timing model's game time,
perfect clears per 100 pieces and deaths in each game's record. BOT is as for versus. With --p2
both bots play the same seeds and the report compares them pair by pair.`)
	p1 := fs.String("p1", "builtin", "the `BOT` to score")
	p2 := fs.String("p2", "", "a second `BOT` to compare on the same seeds")
	games := fs.Int("games", 10, "number of seeds `N`")
	mf := addMatchFlags(fs, 500)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	if err := mf.check(); err != nil {
		return err
	}
	if *games < 1 {
		return cli.Usagef("--games must be at least 1")
	}
	opt, err := mf.botOptions()
	if err != nil {
		return err
	}
	a, err := versus.ParseSpec(*p1, opt)
	if err != nil {
		return cli.Usagef("--p1: %v", err)
	}
	cfg := arena.Config{NameA: playerName(a), Seed: mf.seed, Pairs: *games, Concurrency: mf.conc, Results: mf.results}
	var b *versus.Spec
	if *p2 != "" {
		bs, err := versus.ParseSpec(*p2, opt)
		if err != nil {
			return cli.Usagef("--p2: %v", err)
		}
		b = &bs
		cfg.NameB = playerName(bs)
		if cfg.NameB == cfg.NameA {
			cfg.NameA, cfg.NameB = cfg.NameA+"#1", cfg.NameB+"#2"
		}
	}
	specs := map[string]versus.Spec{"--p1": a}
	if b != nil {
		specs["--p2"] = *b
	}
	if mf.conc > 0 {
		if err := checkSpecs(ctx, specs); err != nil {
			return err
		}
	}
	if !mf.quiet {
		cfg.Progress = env.Stderr
	}
	remote, fc, err := mf.nats.remote(ctx, env, versus.SoloKind, versus.MatchSpec{Game: mf.game(), A: a, B: b}, mf.conc)
	if err != nil {
		return err
	}
	defer fc.Close()
	cfg.Remote = remote
	rep, err := versus.Solo(ctx, cfg, mf.game(), &a, b)
	if err != nil {
		return err
	}
	agg := soloAggregate(rep.Games)
	if mf.asJSON {
		return cli.WriteJSON(env.Stdout, struct {
			Report *arena.ScoreReport    `json:"report"`
			Totals map[string]soloTotals `json:"totals"`
		}{rep, agg})
	}
	rep.Write(env.Stdout)
	for _, name := range []string{cfg.NameA, cfg.NameB} {
		if t, ok := agg[name]; ok {
			fmt.Fprintf(env.Stdout, "%s: %d games, %d pieces, attack/piece %.3f, pieces/s %.2f (game time), PC/100 pieces %.2f, deaths %d\n",
				name, t.Games, t.Pieces, t.APP, t.PPS, t.PCPer100, t.Deaths)
		}
	}
	return nil
}

// soloTotals pools a player's solo games.
type soloTotals struct {
	Games    int     `json:"games"`
	Pieces   int     `json:"pieces"`
	Attack   int     `json:"attack"`
	APP      float64 `json:"attack_per_piece"`
	PPS      float64 `json:"pieces_per_second"`
	PCPer100 float64 `json:"pc_per_100"`
	Deaths   int     `json:"deaths"`
}

func soloAggregate(games []arena.GameRecord) map[string]soloTotals {
	out := map[string]soloTotals{}
	ticks := map[string]int{}
	pcs := map[string]int{}
	for _, g := range games {
		var r versus.SoloRecord
		if json.Unmarshal(g.Info, &r) != nil {
			continue
		}
		name := g.NameA
		if g.Game == 1 {
			name = g.NameB
		}
		t := out[name]
		t.Games++
		t.Pieces += r.Side.Pieces
		t.Attack += r.Side.Attack
		if r.Died {
			t.Deaths++
		}
		ticks[name] += r.Side.Ticks
		pcs[name] += r.Side.PerfectClears
		out[name] = t
	}
	for name, t := range out {
		if t.Pieces > 0 {
			t.APP = float64(t.Attack) / float64(t.Pieces)
			t.PCPer100 = 100 * float64(pcs[name]) / float64(t.Pieces)
		}
		if ticks[name] > 0 {
			t.PPS = float64(t.Pieces) / (float64(ticks[name]) / 60)
		}
		out[name] = t
	}
	return out
}
