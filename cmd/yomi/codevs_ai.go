// codevs_ai.go plugs the CODE VS Reborn AI into the binary: the verb
// `yomi codevs ai` and the codevs/sim, codevs/exhaustive4, codevs/potential,
// codevs/erase-potential, codevs/chain12 and codevs/chokudai benchmarks.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/ai"
	"github.com/yomi-ai/yomi/codevs/sim"
	"github.com/yomi-ai/yomi/internal/bench"
	"github.com/yomi-ai/yomi/internal/cli"
)

// withCodevsAI adds the AI's verb and benchmarks to the codevs game.
func withCodevsAI(g game) game {
	g.area.Verbs = append(g.area.Verbs,
		&cli.Verb{Name: "ai", Summary: "Yomi's contest AI on stdin/stdout (chain beam, exhaustive both-sides search, counter and skill rules)", Run: runCodevsAI},
		&cli.Verb{Name: "holds", Summary: "how big a fire the chokudai builder holds at a fixed node budget: solo builds on pack seeds, real positions under the opponent's fire", Run: runCodevsHolds})
	g.benches = append(g.benches, codevsAIBenchmarks()...)
	return g
}

func runCodevsAI(ctx context.Context, env *cli.Env, args []string) error {
	cfg, err := codevsAIConfig(env, args)
	if err != nil {
		return err
	}
	return ai.Run(ctx, cli.ContextReader(ctx, env.Stdin), env.Stdout, cfg)
}

// codevsAIConfig parses the flags of `yomi codevs ai` into the AI's settings.
func codevsAIConfig(env *cli.Env, args []string) (ai.Config, error) {
	fs := cli.NewFlags(env, "yomi codevs ai", "[flags]",
		`Yomi's CODE VS Reborn AI, speaking the contest protocol on stdin/stdout: it prints its name,
reads the 500 packs, then answers each turn block with "x r" or "S". It plans its chains with
tanzaku-style per-ply priority queues (--builder chokudai; --builder beam: a wide beam with
states bucketed by their chain potential), replays the plan while the field is as expected,
searches every line of its own next --own-depth plies and the opponent's next --enemy-depth
plies each turn, and fires, counters or uses the skill by the rules described in README.md,
holding a fire the opponent would out-counter (--anti-counter) and answering its big fires
(--counter-mode). Time is managed from the remaining milliseconds in each turn block: every
decision ends within half of them, and under 1 s left a cheap emergency move is played.
With --node-rate R the AI runs on a virtual clock instead (fixed-work matches, issue 27):
every search budget of T seconds becomes T×R expanded states, and the remaining time the
budgets are shares of is the first turn block's clock less the states those searches spent
so far / R (the exhaustive tables, fixed work, are not charged), so with --threads 1 its
moves do not depend on the machine's speed or load; the real clock still bounds every
decision (the hard deadline, the watchdog, the emergency under 1 s).
The default before the 180 s matches against tanzaku (tuned at 60 s):
  --anti-pick=false --clock-budgets=false --chok-row 0 --chok-row-pack 0 --chok-row-from 0
The AI before the tanzaku work (the ysai matches):
  --builder beam --target 12 --opening-share 0.15 --replan-share 0 --chok-late-depth 0
  --anti-counter=false --counter-mode=false --race-late 0 --anti-pick=false
  --clock-budgets=false --chok-row 0 --chok-row-pack 0 --chok-row-from 0
Run it under the referee:
  yomi codevs referee --p1 "yomi codevs ai" --p2 "yomi codevs dummy"`)
	d := ai.ContestConfig()
	cfg := d
	defBuilder := "beam"
	if d.Chokudai {
		defBuilder = "chokudai"
	}
	fs.StringVar(&cfg.Name, "name", d.Name, "AI `name` line")
	fs.IntVar(&cfg.Threads, "threads", d.Threads, "search `threads`")
	fs.IntVar(&cfg.Target, "target", d.Target, "opening target `chains`")
	fs.IntVar(&cfg.MaxWidth, "max-width", d.MaxWidth, "widest beam `states` per depth")
	fs.IntVar(&cfg.FixedWidth, "width", 0, "fixed beam `width` without time budgets (deterministic; 0: time-managed)")
	fs.IntVar(&cfg.BeamDepth, "beam-depth", d.BeamDepth, "beam `plies`")
	fs.IntVar(&cfg.OwnDepth, "own-depth", d.OwnDepth, "exhaustive own `plies` (1..5)")
	fs.IntVar(&cfg.EnemyDepth, "enemy-depth", d.EnemyDepth, "exhaustive opponent `plies` (1..5)")
	fs.Float64Var(&cfg.OpeningShare, "opening-share", d.OpeningShare, "`share` of the remaining time for the opening beam")
	fs.IntVar(&cfg.OpeningHorizon, "opening-horizon", 0, "`plies` the opening beam plans its time budget over (0: --target+2; --beam-depth: all plies, as before session codevs-clock)")
	fs.DurationVar(&cfg.ReplanMax, "replan-max", d.ReplanMax, "longest replan beam `duration` (remaining/10 below it; 8s with remaining/12 before session codevs-clock)")
	fs.Float64Var(&cfg.ReplanShare, "replan-share", d.ReplanShare, "`share` of the remaining time a replan may use, up to --replan-max (0: 1/10)")
	fs.BoolVar(&cfg.WorstCase, "worst-case", false, "rank own moves by survival under the opponent's best fire within --enemy-depth (off in the measured match)")
	fs.BoolVar(&cfg.DenySkill, "deny-skill", d.DenySkill, "fire a 3+ chain to drain the opponent's gauge (64..79) before a 20+ ojama skill (--deny-skill=false: the AI of the first ysai match)")
	fs.BoolVar(&cfg.SkillMode, "skill-mode", false, "the seed's skill mode: when both sides' beams say the chain race is lost, build for the skill until a side fires (off in the measured match)")
	fs.BoolVar(&cfg.NextPackKey, "next-pack-key", false, "rank beam states by the chain the next pack triggers (the AI before issue 27) instead of the one-block potential")
	fs.BoolVar(&cfg.HoldAlways, "hold-always", false, "when the opponent could out-counter our fire, grow the chain even if the opponent can fire 20+ ojama first (the AI before issue 27)")
	fs.BoolVar(&cfg.NoRaceHorizon, "no-race-horizon", false, "replans plan their time budget over all their plies, not up to the opponent's fire ply (before session codevs-clock)")
	fs.BoolVar(&cfg.Counter, "counter", false, "counter stance: fire a ready chain first only when the opponent's answer (our ojama falling on it) is smaller or one ojama row breaks ours; else grow it and answer the opponent's fire (session codevs-counter; off: lost more vs tanzaku at 60 s)")
	fs.BoolVar(&cfg.FollowCounterPlan, "follow-counter-plan", false, "under ojama, make the counter plan once with a replan's budget and follow it (session codevs-counter; off by default)")
	fs.BoolVar(&cfg.RowProof, "row-proof", false, "own beams prefer, within a potential bucket, fields whose chain survives an ojama row (session codevs-counter; off by default)")
	fs.BoolVar(&cfg.RowKeep, "row-keep", false, "own beams bucket states by min(potential, potential after one ojama row + 1) (session codevs-row; off by default)")
	key := fs.String("potential", d.Key.String(), "potential own beams bucket states by: add (one block added on a column top), erase (one block erased inside a column, then add), max (max of both), sum (both added)")
	enemyKey := fs.String("enemy-potential", d.EnemyKey.String(), "potential the opponent's beams (its fire timing and answers) bucket states by: add, erase, max or sum, as --potential")
	fs.IntVar(&cfg.EarlyFire, "early-fire", 0, "fire the biggest chain this turn once it has this many `chains` and the opponent's answer to it is smaller (0: off)")
	fs.IntVar(&cfg.EarlyDepth, "early-depth", 0, "`plies` of the opponent's answer --early-fire reads (0: 8)")
	fs.BoolVar(&cfg.NoRace, "no-race", false, "replans aim at --target chains whenever the opponent can fire (the AI before issue 27)")
	stance := fs.String("stance", "default", "fire `stance`: default (the rules above), or kera (late, high counter: fire nothing of our own until ojama hits us, build the biggest potential below --late-height meanwhile, answer the hit at once or with the quickest bigger counter; fire first only at --late-big chains, a 13-row field or turn 30)")
	fs.IntVar(&cfg.LateHeight, "late-height", 0, "--stance kera: soft height cap in `rows` of the build beam (a chain off its bucket per row above; 0: 10)")
	fs.IntVar(&cfg.LateBig, "late-big", 0, "--stance kera: `chains` fired without being hit (0: 15)")
	fs.IntVar(&cfg.LateRows, "late-rows", 0, "--stance kera: build beam buckets by the potential left after this many ojama `rows` (0: --potential's key)")
	lateBuild := fs.String("late-build", "beam", "--stance kera: how the chain is built before the hit: beam (the low build beam) or plan (the usual --target plan, held at its fire by the move that keeps the biggest fire after an ojama row)")
	fs.BoolVar(&cfg.LateAgain, "late-again", false, "--stance kera: keep the stance after our fires (every exchange waits for the opponent's fire; else only the first)")
	builder := fs.String("builder", defBuilder, "own plan `builder`: beam (the chain beam) or chokudai (tanzaku's per-ply priority queues, all 9 columns, --chok-depth plies, ordered by the erase-one-block potential)")
	enemyBuilder := fs.String("enemy-builder", "beam", "`builder` of the opponent's reads (its fire timing and answers): beam or chokudai (as --builder, with the reads' own plies and budgets)")
	fs.IntVar(&cfg.ChokDepth, "chok-depth", 0, "--builder chokudai: `plies` at most (0: 13)")
	fs.IntVar(&cfg.ChokLateDepth, "chok-late-depth", d.ChokLateDepth, "--builder chokudai: `plies` at most after turn 10 (0: --chok-depth; tanzaku: 10)")
	fs.Float64Var(&cfg.NodeRate, "node-rate", 0, "virtual clock: a search budget of T seconds expands T×`R` states, and the budgets share the game's clock less the states spent / R instead of the reported time (deterministic with --threads 1; not with --width or --nodes; 0: the real clock)")
	fs.Int64Var(&cfg.ChokNodes, "nodes", 0, "--builder chokudai: expanded `states` per search instead of a time budget (deterministic; 0: time-managed, or --width × plies with --width)")
	fs.IntVar(&cfg.ChokRow, "chok-row", d.ChokRow, "--builder chokudai: own searches rank states partly by the chain left after one ojama row: the key's ojama is (100-W)% the erase-one-block potential's and W% the same potential's after a row (`W` 0..100; 0: off, tanzaku's key; session codevs-rowchok)")
	fs.IntVar(&cfg.ChokRowMin, "chok-row-min", d.ChokRowMin, "--chok-row: only states whose potential has this many `chains` pay for the row potential (0: all)")
	fs.IntVar(&cfg.ChokRowPack, "chok-row-pack", d.ChokRowPack, "--chok-row: the row term is the longest chain a known pack fires after the row instead of the row potential (`mode` 0): 1 the next pack, 2 the pack after it (wait a turn, then fire), 3 the lesser of both")
	fs.IntVar(&cfg.ChokRowFrom, "chok-row-from", d.ChokRowFrom, "--chok-row applies from this `turn` on (0: the opening too; 1: replans, counter-mode and grow plans only)")
	fs.IntVar(&cfg.ChokOpenX, "chok-open-x", d.ChokOpenX, "--builder chokudai: from an empty field the first ply tries only pack column `X`-1 (tanzaku: 6, column 5; session codevs-chain; 0: every column)")
	fs.IntVar(&cfg.ChokFree, "chok-free", d.ChokFree, "--builder chokudai: own searches add `W` to a state's key per empty column at a wall (the longer run), for room to extend a ready chain under ojama (a block counts 2000; session codevs-chain; 0: off)")
	fs.Int64Var(&cfg.ChokExt, "chok-ext", d.ChokExt, "--builder chokudai: plans choose among up to --chok-ext-k ready fields (every first move's best fire at least as long and early as the search's choice) by how far each grows in 10 plies under an opponent's fire of its size, read on this many `states` each (session codevs-chain; 0: off)")
	fs.IntVar(&cfg.ChokExtK, "chok-ext-k", d.ChokExtK, "--chok-ext: `candidates` read besides the search's choice (0: 4); as many again under --chok-ext-later or --chok-ext-shorter")
	fs.IntVar(&cfg.ChokExtLater, "chok-ext-later", d.ChokExtLater, "--chok-ext: also read fires up to this many `plies` later than the search's choice, after the as-long-and-early ones; one is taken only when its field grows more than all of those (session codevs-ext2; 0: off)")
	fs.IntVar(&cfg.ChokExtShorter, "chok-ext-shorter", d.ChokExtShorter, "--chok-ext: also read fires up to this many `chains` shorter than the search's choice, as --chok-ext-later (session codevs-ext2; 0: off)")
	fs.BoolVar(&cfg.ChokExtCounter, "chok-ext-counter", d.ChokExtCounter, "--chok-ext: counter plans (the counter mode's plan under the opponent's threatened fire, and its plan under our stock) pick by the extension too, read with their landing (session codevs-ext2; off: opening and replans only)")
	fs.BoolVar(&cfg.AntiCounter, "anti-counter", d.AntiCounter, "at the plan's fire, hold it when the opponent's answer (7 plies of the chokudai search, our ojama landing) has a chain more, and grow it into the biggest fire within 8 plies if the grow move keeps a chain under one ojama row (tanzaku's anti-counter; on by default since the 60 s matches against tanzaku)")
	fs.BoolVar(&cfg.AntiPick, "anti-pick", d.AntiPick, "--anti-counter: grow along the longest fire within 8 plies whose first move still fires chains-1 under one ojama row, among every first move's best fire per ply (session codevs-clock2; off: only the longest fire's first move is checked)")
	fs.IntVar(&cfg.AntiHold, "anti-hold", d.AntiHold, "--anti-counter: when the answer has a chain more and no grow move keeps our chain under one ojama row, still hold a fire of fewer than this many `ojama` and grow along the longest fire within 8 plies (tanzaku's extend; session codevs-study; 0: off, such a fire goes)")
	fs.BoolVar(&cfg.CounterMode, "counter-mode", d.CounterMode, "when the opponent's best fire this turn reaches 40 ojama (30 from turn 15) and exceeds its last 4 turns', plan 10 plies of the chokudai search with it landing and fire the earliest 1.5x answer (tanzaku's counter mode; on by default since the 60 s matches against tanzaku)")
	fs.BoolVar(&cfg.CounterStrict, "counter-strict", false, "--counter-mode: follow a counter plan (made with the opponent's fire landing) only while our stock is what it expected; else plan again (session codevs-clock2; off: the plan's moves made for a field with ojama rows are played without them)")
	fs.BoolVar(&cfg.CounterAgain, "counter-again", false, "--counter-mode --counter-strict: when a counter plan no longer applies because the opponent held its fire, plan the counter again while its fire now is still a threat (instead of the race replan; session codevs-clock2, off by default)")
	fs.BoolVar(&cfg.RaceCounter, "race-counter", d.RaceCounter, "when a race replan's fire comes after the opponent's read fire of --race-late ojama (40 before turn 15), plan again with the biggest such fire landing at its ply, aiming at 1.5x it, and take that line when it fires after the landing with at least the plan's chains and no later; it is followed while our stock is as it expects (session codevs-fire; off by default)")
	fs.BoolVar(&cfg.ReplanAnti, "replan-anti", d.ReplanAnti, "--anti-counter: a replan whose plan fires this turn asks the anti-counter first, as a followed plan's fire does (else it fires unasked; session codevs-fire, off by default)")
	fs.IntVar(&cfg.RaceLate, "race-late", d.RaceLate, "from turn 15, replans race opponent fires of this many `ojama` (0: 40 throughout)")
	fs.BoolVar(&cfg.ClockBudgets, "clock-budgets", d.ClockBudgets, "every search budget as a share of the game's total clock (caps: --opening-cap, --replan-cap, reads 5/180) and of the remaining time less a reserve of --reserve-share for turns 30-80 (--opening-share and --replan-share then share that free time; --replan-max is not used); session codevs-clock2; the default since the 180 s matches")
	fs.Float64Var(&cfg.ReserveShare, "reserve-share", 0, "--clock-budgets: `share` of the total clock kept to turn 30 and released linearly to turn 80 (0: 0.2)")
	fs.Float64Var(&cfg.OpeningCap, "opening-cap", 0, "--clock-budgets: the opening search's cap as a `share` of the total clock (0: 0.2)")
	fs.Float64Var(&cfg.ReplanCap, "replan-cap", 0, "--clock-budgets: a replan's (counter-mode, grow) cap as a `share` of the total clock (0: 0.1)")
	verbose := fs.Bool("v", false, "log decisions on stderr")
	if err := cli.Parse(fs, args); err != nil {
		return ai.Config{}, err
	}
	if fs.NArg() != 0 {
		return ai.Config{}, cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	switch {
	case cfg.Threads < 1 || cfg.Threads > 256:
		return ai.Config{}, cli.Usagef("--threads must be 1..256")
	case cfg.Target < 1 || cfg.Target > 40:
		return ai.Config{}, cli.Usagef("--target must be 1..40")
	case cfg.OwnDepth < 1 || cfg.OwnDepth > ai.MaxPly || cfg.EnemyDepth < 1 || cfg.EnemyDepth > ai.MaxPly:
		return ai.Config{}, cli.Usagef("--own-depth and --enemy-depth must be 1..%d", ai.MaxPly)
	case cfg.MaxWidth < 1 || cfg.FixedWidth < 0 || cfg.BeamDepth < 1:
		return ai.Config{}, cli.Usagef("--max-width and --beam-depth must be positive, --width not negative")
	case cfg.OpeningShare <= 0 || cfg.OpeningShare >= 1:
		return ai.Config{}, cli.Usagef("--opening-share must be in (0, 1)")
	case cfg.EarlyFire < 0 || cfg.EarlyFire > 40 || cfg.EarlyDepth < 0 || cfg.EarlyDepth > 16:
		return ai.Config{}, cli.Usagef("--early-fire must be 0..40, --early-depth 0..16")
	case cfg.ReplanShare < 0 || cfg.ReplanShare >= 1:
		return ai.Config{}, cli.Usagef("--replan-share must be in [0, 1)")
	case cfg.OpeningHorizon < 0 || cfg.ReplanMax <= 0:
		return ai.Config{}, cli.Usagef("--opening-horizon must not be negative, --replan-max must be positive")
	case cfg.ChokDepth < 0 || cfg.ChokDepth > 20 || cfg.ChokLateDepth < 0 || cfg.ChokLateDepth > 20 || cfg.ChokNodes < 0:
		return ai.Config{}, cli.Usagef("--chok-depth and --chok-late-depth must be 0..20, --nodes not negative")
	case cfg.ReserveShare < 0 || cfg.ReserveShare >= 1 || cfg.OpeningCap < 0 || cfg.OpeningCap >= 1 || cfg.ReplanCap < 0 || cfg.ReplanCap >= 1:
		return ai.Config{}, cli.Usagef("--reserve-share, --opening-cap and --replan-cap must be in [0, 1)")
	case cfg.ChokRow < 0 || cfg.ChokRow > 100 || cfg.ChokRowMin < 0 || cfg.ChokRowMin > 40 || cfg.ChokRowPack < 0 || cfg.ChokRowPack > 3 || cfg.ChokRowFrom < 0:
		return ai.Config{}, cli.Usagef("--chok-row must be 0..100, --chok-row-min 0..40, --chok-row-pack 0..3, --chok-row-from not negative")
	case cfg.ChokOpenX < 0 || cfg.ChokOpenX > 9 || cfg.ChokFree < 0 || cfg.ChokFree > 1e6 || cfg.ChokExt < 0 || cfg.ChokExtK < 0 || cfg.ChokExtK > 36 ||
		cfg.ChokExtLater < 0 || cfg.ChokExtLater > 10 || cfg.ChokExtShorter < 0 || cfg.ChokExtShorter > 10:
		return ai.Config{}, cli.Usagef("--chok-open-x must be 0..9, --chok-free 0..1000000, --chok-ext not negative, --chok-ext-k 0..36, --chok-ext-later and --chok-ext-shorter 0..10")
	case cfg.NodeRate < 0 || cfg.NodeRate > 1e9 || cfg.NodeRate > 0 && (cfg.FixedWidth > 0 || cfg.ChokNodes > 0):
		return ai.Config{}, cli.Usagef("--node-rate must be 0..1e9 and goes without --width and --nodes")
	case cfg.RaceLate < 0 || cfg.RaceLate > 200:
		return ai.Config{}, cli.Usagef("--race-late must be 0..200")
	case cfg.LateHeight < 0 || cfg.LateHeight > 16 || cfg.LateBig < 0 || cfg.LateBig > 40 || cfg.LateRows < 0 || cfg.LateRows > 8:
		return ai.Config{}, cli.Usagef("--late-height must be 0..16, --late-big 0..40, --late-rows 0..8")
	}
	switch *stance {
	case "default":
	case "kera":
		cfg.Late = true
	default:
		return ai.Config{}, cli.Usagef("--stance must be default or kera, not %q", *stance)
	}
	switch *builder {
	case "beam":
		cfg.Chokudai = false
	case "chokudai":
		cfg.Chokudai = true
	default:
		return ai.Config{}, cli.Usagef("--builder must be beam or chokudai, not %q", *builder)
	}
	switch *enemyBuilder {
	case "beam":
	case "chokudai":
		cfg.ChokEnemy = true
	default:
		return ai.Config{}, cli.Usagef("--enemy-builder must be beam or chokudai, not %q", *enemyBuilder)
	}
	switch *lateBuild {
	case "beam":
	case "plan":
		cfg.LatePlan = true
	default:
		return ai.Config{}, cli.Usagef("--late-build must be beam or plan, not %q", *lateBuild)
	}
	k, ok := ai.PotentialKeys[*key]
	if !ok {
		return ai.Config{}, cli.Usagef("--potential must be add, erase, max or sum, not %q", *key)
	}
	cfg.Key = k
	if cfg.EnemyKey, ok = ai.PotentialKeys[*enemyKey]; !ok {
		return ai.Config{}, cli.Usagef("--enemy-potential must be add, erase, max or sum, not %q", *enemyKey)
	}
	if *verbose {
		cfg.Log = env.Stderr
	}
	return cfg, nil
}

// codevsChokNodes is the expansions per pack file of codevs/chokudai.
const codevsChokNodes = 20000

// codevsChain12Width is the fixed beam width of the codevs/chain12 benchmark.
const codevsChain12Width = 1000

func codevsAIBenchmarks() []bench.Benchmark {
	bs := []bench.Benchmark{{
		Name:    "codevs/sim",
		Summary: "pack drops resolved per second (sim.Fast and sim.Board) on 64 fixed mid-game fields, all 36 placements of 8 packs",
		Run: func(ctx context.Context) ([]bench.Figure, error) {
			ps, packs, err := ai.BenchPositions(1, 64)
			if err != nil {
				return nil, err
			}
			var chains int64
			fast := make([]sim.Fast, len(ps))
			for i := range ps {
				fast[i] = sim.FastFrom(&ps[i].Board)
			}
			run := func(useFast bool) func() int64 {
				return func() int64 {
					var n int64
					for i := range ps {
						for k := 0; k < 8; k++ {
							for m := 0; m < 36; m++ {
								var c int
								if useFast {
									f := fast[i]
									c, _ = f.Drop(packs[i][k], m>>2, m&3)
								} else {
									b := ps[i].Board
									c, _ = b.Drop(packs[i][k], m>>2, m&3)
								}
								chains += int64(c)
								n++
							}
						}
					}
					return n
				}
			}
			drops := run(true)()
			c0 := chains
			_, wf, ef := bench.Rate(time.Second, run(true))
			_, wb, eb := bench.Rate(time.Second, run(false))
			return []bench.Figure{
				{Name: "codevs/sim/drops", Value: float64(drops), Unit: "drops"},
				{Name: "codevs/sim/chains", Value: float64(c0), Unit: "chains"},
				{Name: "codevs/sim/fast", Value: float64(wf) / ef.Seconds(), Unit: "drops/s"},
				{Name: "codevs/sim/board", Value: float64(wb) / eb.Seconds(), Unit: "drops/s"},
			}, ctx.Err()
		},
	}, {
		Name:    "codevs/exhaustive4",
		Summary: "full 4-ply own search (36 drops + skill per ply) from 4 fixed mid-game positions, one thread",
		Run: func(ctx context.Context) ([]bench.Figure, error) {
			ps, packs, err := ai.BenchPositions(2, 4)
			if err != nil {
				return nil, err
			}
			var nodes int64
			var best int
			start := time.Now()
			for i := range ps {
				t := ai.Exhaust(ctx, &ps[i], packs[i], 4, 1)
				nodes += t.Nodes
				best += t.BestUpTo(4).Sent
			}
			el := time.Since(start)
			return []bench.Figure{
				{Name: "codevs/exhaustive4/nodes", Value: float64(nodes), Unit: "positions"},
				{Name: "codevs/exhaustive4/best", Value: float64(best), Unit: "ojama"},
				{Name: "codevs/exhaustive4/time", Value: float64(el.Milliseconds()) / float64(len(ps)), Unit: "ms/position"},
				{Name: "codevs/exhaustive4/rate", Value: float64(nodes) / el.Seconds(), Unit: "positions/s"},
			}, ctx.Err()
		},
	}, {
		Name:    "codevs/chain12",
		Summary: fmt.Sprintf("turn at which the opening chain beam (width %d, columns 2..6, 2 threads) first reaches a 12-chain, over the testdata pack files; the AI's potential key and the next-pack key", codevsChain12Width),
		Run: func(ctx context.Context) ([]bench.Figure, error) {
			files, err := filepath.Glob(filepath.Join(codevsTestdataDir(), "packs", "*.pack"))
			if err != nil || len(files) == 0 {
				return nil, fmt.Errorf("no pack files under %s (run from the repository)", codevsTestdataDir())
			}
			sort.Strings(files)
			var figs []bench.Figure
			for _, key := range []struct {
				prefix    string
				potential bool
			}{{"codevs/chain12/", false}, {"codevs/chain12/potential-", true}} {
				var reached, sumTurn, nodes int64
				start := time.Now()
				for _, f := range files {
					packs, err := codevs.ReadPackFile(f)
					if err != nil {
						return nil, err
					}
					cfg := ai.BeamConfig{Depth: 20, Width: codevsChain12Width, BucketWidth: codevsChain12Width * 3 / 10, XMin: 2, XMax: 6, Target: 12, Threads: 2, Potential: key.potential}
					res := ai.ChainBeam(ctx, &codevs.Player{}, packs, cfg)
					nodes += res.Nodes
					if res.Best.Chains >= 12 {
						reached++
						sumTurn += int64(res.Best.Ply - 1) // turn of the fire, 0-based
					}
				}
				el := time.Since(start)
				mean := 0.0
				if reached > 0 {
					mean = float64(sumTurn) / float64(reached)
				}
				if !key.potential {
					figs = append(figs, bench.Figure{Name: "codevs/chain12/files", Value: float64(len(files)), Unit: "pack files"})
				}
				figs = append(figs,
					bench.Figure{Name: key.prefix + "reached", Value: float64(reached), Unit: "files"},
					bench.Figure{Name: key.prefix + "turn", Value: mean, Unit: "mean turn"},
					bench.Figure{Name: key.prefix + "nodes", Value: float64(nodes), Unit: "states"},
					bench.Figure{Name: key.prefix + "time", Value: float64(el.Milliseconds()) / float64(len(files)), Unit: "ms/file"})
			}
			return figs, ctx.Err()
		},
	}}
	bs = append(bs, bench.Benchmark{
		Name:    "codevs/chokudai",
		Summary: fmt.Sprintf("the chokudai builder (--builder chokudai) from an empty field over the testdata pack files, %d expansions each, 13 plies, 2 threads: expansions per second and the first ply with a 12-chain", codevsChokNodes),
		Run: func(ctx context.Context) ([]bench.Figure, error) {
			files, err := filepath.Glob(filepath.Join(codevsTestdataDir(), "packs", "*.pack"))
			if err != nil || len(files) == 0 {
				return nil, fmt.Errorf("no pack files under %s (run from the repository)", codevsTestdataDir())
			}
			sort.Strings(files)
			var c ai.Chokudai
			var reached, sumPly, best13, nodes int64
			start := time.Now()
			for _, f := range files {
				packs, err := codevs.ReadPackFile(f)
				if err != nil {
					return nil, err
				}
				cfg := ai.ChokudaiConfig{Depth: 13, Nodes: codevsChokNodes, XMin: 0, XMax: 8, Target: 12, Threads: 2}
				res := c.Plan(ctx, &codevs.Player{}, packs, cfg)
				nodes += res.Nodes
				if res.Best.Chains >= 12 {
					reached++
					sumPly += int64(res.Best.Ply)
				}
				best13 += int64(res.PerPly[len(res.PerPly)-1].Chains)
			}
			el := time.Since(start)
			mean := 0.0
			if reached > 0 {
				mean = float64(sumPly) / float64(reached)
			}
			n := float64(len(files))
			return []bench.Figure{
				{Name: "codevs/chokudai/files", Value: n, Unit: "pack files"},
				{Name: "codevs/chokudai/reached12", Value: float64(reached), Unit: "files"},
				{Name: "codevs/chokudai/ply12", Value: mean, Unit: "mean ply"},
				{Name: "codevs/chokudai/chains13", Value: float64(best13) / n, Unit: "mean chains at ply 13"},
				{Name: "codevs/chokudai/rate", Value: float64(nodes) / el.Seconds(), Unit: "expansions/s"},
			}, ctx.Err()
		},
	})
	return append(bs,
		potentialBench("codevs/potential", "one-block chain potentials (sim.Fast.Potential) per second on 64 fixed mid-game fields", (*sim.Fast).Potential),
		potentialBench("codevs/erase-potential", "erase-one-block chain potentials (sim.Fast.ErasePotential) per second on the 64 fields of codevs/potential", (*sim.Fast).ErasePotential))
}

// codevsTestdataDir finds codevs/testdata from the working directory or
// one of its parents (the repository root or a package directory).
func codevsTestdataDir() string {
	dir, _ := os.Getwd()
	for range 6 {
		p := filepath.Join(dir, "codevs", "testdata")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p
		}
		dir = filepath.Dir(dir)
	}
	return filepath.Join("codevs", "testdata")
}

// potentialBench measures a chain-potential kernel of sim.Fast on the 64
// fixed mid-game fields: the mean chains, fields per second and CPU time.
func potentialBench(name, summary string, potential func(*sim.Fast) (int, int, int)) bench.Benchmark {
	return bench.Benchmark{
		Name:    name,
		Summary: summary,
		Run: func(ctx context.Context) ([]bench.Figure, error) {
			ps, _, err := ai.BenchPositions(1, 64)
			if err != nil {
				return nil, err
			}
			fast := make([]sim.Fast, len(ps))
			for i := range ps {
				fast[i] = sim.FastFrom(&ps[i].Board)
			}
			var sum int64
			for i := range fast {
				c, _, _ := potential(&fast[i])
				sum += int64(c)
			}
			_, n, el, cpu, cpuOK := bench.RateCPU(time.Second, func() int64 {
				for i := range fast {
					potential(&fast[i])
				}
				return int64(len(fast))
			})
			figs := []bench.Figure{
				{Name: name + "/chains", Value: float64(sum) / float64(len(fast)), Unit: "mean chains"},
				{Name: name + "/rate", Value: float64(n) / el.Seconds(), Unit: "fields/s"},
			}
			if cpuOK {
				figs = append(figs, bench.Figure{Name: name + "/cpu", Value: float64(cpu.Nanoseconds()) / float64(n), Unit: "ns CPU/field"})
			}
			return figs, ctx.Err()
		},
	}
}
