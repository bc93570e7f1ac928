// codevs_holds.go: `yomi codevs holds`, how big a fire the chokudai
// builder's plans hold at a fixed node budget (session codevs-chain).
package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/ai"
	"github.com/yomi-ai/yomi/internal/cli"
)

// holdsSolo is one pack seed's solo build: the best fire at each asked turn.
type holdsSolo struct {
	Seed   uint64     `json:"seed"`
	Fires  []holdFire `json:"fires"`  // one per --turns entry
	Nodes  int64      `json:"nodes"`  // of the per-turn search
	Chains int        `json:"chains"` // the longest fire of the per-turn search
	// Plan is the opening plan's fire (--target, 13 plies); Ext the
	// longest fire after ply 1 of the counter search from the field just
	// before it, with --ext-incoming landing (0: the plan did not fire).
	Plan holdFire `json:"plan"`
	Ext  holdFire `json:"ext"`
	// PlanReads is the plan's extension reads (--chok-ext; 0: none).
	PlanReads int `json:"plan_reads,omitempty"`
	// SecondTurn, Second and SecondExt are the replan after the plan's
	// fire (--second): its turn, its fire and that fire's extension.
	SecondTurn int      `json:"second_turn,omitempty"`
	Second     holdFire `json:"second"`
	SecondExt  holdFire `json:"second_ext"`
}

// holdFire is a best fire: chains, ojama and its ply (turn+1 in the solo build).
type holdFire struct {
	Ply    int `json:"ply"`
	Chains int `json:"chains"`
	Sent   int `json:"sent"`
}

// holdsPressure is one fixture's result.
type holdsPressure struct {
	Name     string   `json:"name"`
	Side     string   `json:"side"`
	Turn     int      `json:"turn"`
	Incoming int      `json:"incoming"`
	FireNow  int      `json:"fire_now"`
	PerPly   []int    `json:"per_ply"` // our best chains per ply
	Best     holdFire `json:"best"`    // our longest (earliest of equals)
	Later    holdFire `json:"later"`   // our longest after ply 1
	Ref      []int    `json:"ref,omitempty"`
	RefBest  holdFire `json:"ref_best"` // tanzaku's longest in the same situation
	// Counter is the counter mode's plan (the earliest fire sending 1.5×
	// the landing, else the longest; picked by the extension under
	// --chok-ext-counter), CounterExt its ready field's extension.
	Counter    holdFire `json:"counter"`
	CounterExt holdFire `json:"counter_ext"`
	Nodes      int64    `json:"nodes"`
	Note       string   `json:"note"`
}

// holdsReport is the --json output.
type holdsReport struct {
	Nodes    int64       `json:"nodes"`
	Solo     []holdsSolo `json:"solo,omitempty"`
	Turns    []int       `json:"turns,omitempty"`
	SoloMean []float64   `json:"solo_mean_chains,omitempty"` // per --turns entry
	// PlanMean and ExtMean are the mean chains of the solo plans' fires
	// and of their extensions under pressure.
	PlanMean float64 `json:"plan_mean,omitempty"`
	ExtMean  float64 `json:"ext_mean,omitempty"`
	// SecondMean and SecondExtMean are the same of the replans (--second).
	SecondMean    float64         `json:"second_mean,omitempty"`
	SecondExtMean float64         `json:"second_ext_mean,omitempty"`
	Pressure      []holdsPressure `json:"pressure,omitempty"`
	// OursMean and RefMean are the mean longest fires over the fixtures
	// with a reference (ours within the same plies).
	OursMean float64 `json:"ours_mean,omitempty"`
	RefMean  float64 `json:"ref_mean,omitempty"`
	// CounterMean and CounterExtMean are the mean chains of the counter
	// plans and of their extensions over all fixtures.
	CounterMean    float64 `json:"counter_mean,omitempty"`
	CounterExtMean float64 `json:"counter_ext_mean,omitempty"`
}

func runCodevsHolds(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi codevs holds", "[flags]",
		`Measures how big a fire the chokudai builder (yomi codevs ai --builder chokudai) holds, on a
fixed node budget per search (deterministic):
  solo: from an empty field on each pack seed of --seeds (client profile), one search of
    --depth plies: the best fire (chains/ojama) at each turn of --turns (turn t = ply t+1);
    then the opening plan (--target, 13 plies) and its extension: the longest fire after ply 1
    of a 10-ply search from the field before the plan's fire with --ext-incoming ojama landing
    after ply 1 (how far the ready field grows under an opponent's fire; read with tanzaku's
    key whatever the --chok-* flags, which set the other searches). With --second, also the
    replan from the field after the plan's fire (target --target, 13 plies to turn 10, then
    10, as yomi codevs ai's) and its extension.
  pressure: from each position of --fixtures (turn blocks of real games against tanzaku), the
    counter mode's search (10 plies) with the other side's best fire now landing after ply 1;
    our longest fire against what tanzaku's own search found in the same situation (its
    "counter done" list; fixtures on tanzaku's field, side opp, read our search on its field).
    Then the counter mode's plan itself (the earliest fire sending 1.5 times the landing) and
    its extension as above (the landing taken first).
The --chok-* flags are those of yomi codevs ai; --mode picks the parts.
  yomi codevs holds --seeds 9000-9015 --nodes 20000 --json`)
	mode := fs.String("mode", "both", "`parts` to run: solo, pressure or both")
	seeds := fs.String("seeds", "9000-9015", "pack seeds of the solo build: `A-B` or a comma list")
	turns := fs.String("turns", "8,10,12,14,16", "`turns` of the solo build to report (0-based; each below --depth; empty: only the plan and its extension)")
	depth := fs.Int("depth", 17, "solo build: search `plies` of the per-turn best fires")
	target := fs.Int("target", 13, "solo build: the opening plan's target `chains` (13 plies, as yomi codevs ai's opening)")
	extIn := fs.Int("ext-incoming", 60, "solo build: `ojama` landing after ply 1 of the counter search from the plan's ready field")
	fixtures := fs.String("fixtures", filepath.Join(codevsAITestdataDir(), "chains", "fixtures.json"), "pressure fixtures: a JSON `manifest`")
	nodes := fs.Int64("nodes", 20000, "expanded `states` per search")
	threads := fs.Int("threads", 2, "search `threads` (results do not depend on them)")
	var cfg ai.ChokudaiConfig
	fs.IntVar(&cfg.RowW, "chok-row", 0, "row term `W` (yomi codevs ai --chok-row; the default AI's replans and counter plans use 50)")
	fs.IntVar(&cfg.RowMin, "chok-row-min", 0, "--chok-row's smallest potential in `chains`")
	fs.IntVar(&cfg.RowPack, "chok-row-pack", 0, "--chok-row's `mode` (the default AI: 2)")
	fs.IntVar(&cfg.FreeW, "chok-free", 0, "queue key bonus per empty column at a wall (`W`; yomi codevs ai --chok-free; a block is 2000; 0: off)")
	fs.Int64Var(&cfg.ExtNodes, "chok-ext", 0, "the solo plan picks among ready fields by their extension read on this many `states` (yomi codevs ai --chok-ext; 0: off)")
	fs.IntVar(&cfg.ExtK, "chok-ext-k", 0, "--chok-ext's `candidates` (0: 4)")
	fs.IntVar(&cfg.ExtLater, "chok-ext-later", 0, "--chok-ext also reads fires up to this many `plies` later (yomi codevs ai --chok-ext-later)")
	fs.IntVar(&cfg.ExtShorter, "chok-ext-shorter", 0, "--chok-ext also reads fires up to this many `chains` shorter (yomi codevs ai --chok-ext-shorter)")
	extCounter := fs.Bool("chok-ext-counter", false, "pressure: the counter plans pick by the extension too (yomi codevs ai --chok-ext-counter)")
	rowFrom := fs.Int("chok-row-from", 0, "--chok-row applies to searches from this `turn` on (yomi codevs ai --chok-row-from; the default AI: 1, the opening without it)")
	second := fs.Bool("second", false, "solo build: also measure the replan after the opening plan's fire")
	fs.IntVar(&cfg.OpenX, "chok-open-x", 0, "the first ply from an empty field tries only pack column `X`-1 (yomi codevs ai --chok-open-x; tanzaku: 6, column 5; 0: all)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	quiet := fs.Bool("quiet", false, "no progress bar")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	if *nodes < 1 || *threads < 1 || *threads > 256 || *depth < 1 || *depth > 20 {
		return cli.Usagef("--nodes must be positive, --threads 1..256, --depth 1..20")
	}
	if cfg.RowW < 0 || cfg.RowW > 100 || cfg.RowPack < 0 || cfg.RowPack > 3 || cfg.RowMin < 0 || cfg.OpenX < 0 || cfg.OpenX > 9 {
		return cli.Usagef("--chok-row must be 0..100, --chok-row-pack 0..3, --chok-row-min not negative, --chok-open-x 0..9")
	}
	doSolo, doPressure := *mode == "solo" || *mode == "both", *mode == "pressure" || *mode == "both"
	if !doSolo && !doPressure {
		return cli.Usagef("--mode must be solo, pressure or both, not %q", *mode)
	}
	if *rowFrom < 0 || cfg.ExtLater < 0 || cfg.ExtLater > 10 || cfg.ExtShorter < 0 || cfg.ExtShorter > 10 {
		return cli.Usagef("--chok-row-from must not be negative, --chok-ext-later and --chok-ext-shorter 0..10")
	}
	cfg.Nodes, cfg.Threads, cfg.XMin, cfg.XMax = *nodes, *threads, 0, 8
	// rowAt is cfg with the row term at turn (--chok-row-from).
	rowAt := func(c ai.ChokudaiConfig, turn int) ai.ChokudaiConfig {
		if turn < *rowFrom {
			c.RowW = 0
		}
		return c
	}
	// The extension is read with tanzaku's key whatever the plan's:
	// a fixed yardstick of the planned field.
	xc := ai.ChokudaiConfig{Depth: 10, Nodes: cfg.Nodes, Threads: cfg.Threads, XMax: 8}
	var nSecond int
	rep := holdsReport{Nodes: *nodes}
	var seedList []uint64
	if doSolo {
		var err error
		if seedList, err = parseSeedList(*seeds); err != nil {
			return err
		}
		if *turns != "" {
			if rep.Turns, err = parseIntList(*turns); err != nil {
				return err
			}
		}
		for _, t := range rep.Turns {
			if t < 0 || t >= *depth {
				return cli.Usagef("--turns entries must be 0..%d (below --depth)", *depth-1)
			}
		}
	}
	var fxs []ai.HoldFixture
	if doPressure {
		var err error
		if fxs, err = ai.LoadHoldFixtures(*fixtures); err != nil {
			return err
		}
	}
	bar := cli.Progress(env.Stderr, int64(len(seedList)+len(fxs)), "codevs holds", *quiet)
	var c ai.Chokudai
	sums := make([]float64, len(rep.Turns))
	for _, s := range seedList {
		packs, err := codevs.PacksForSeed(s, codevs.ProfileClient)
		if err != nil {
			return err
		}
		row := holdsSolo{Seed: s}
		if len(rep.Turns) > 0 {
			sc := rowAt(cfg, 0)
			sc.Depth = *depth
			res := c.Plan(ctx, &codevs.Player{}, packs, sc)
			row.Nodes = res.Nodes
			for i, t := range rep.Turns {
				f := res.PerPly[t]
				row.Fires = append(row.Fires, holdFire{Ply: t + 1, Chains: f.Chains, Sent: f.Sent})
				sums[i] += float64(f.Chains)
			}
			row.Chains, _ = longestFire(res.PerPly, 0)
		}
		pc := rowAt(cfg, 0)
		pc.Depth, pc.Target = 13, *target
		plan, ext := c.SoloHold(ctx, packs, pc, xc, *extIn)
		row.Plan, row.Ext, row.PlanReads = fireOf(plan.Best), extOf(ext), plan.ExtReads
		rep.PlanMean += float64(row.Plan.Chains)
		rep.ExtMean += float64(row.Ext.Chains)
		if *second && plan.Best.Chains > 0 {
			sc := cfg
			sc.Depth, sc.Target = 13, *target
			if len(plan.Best.Moves) > 10 {
				sc.Depth = 10 // yomi codevs ai's plies after turn 10
			}
			turn, res, x := c.SecondHold(ctx, packs, plan.Best, sc, xc, *extIn, *rowFrom)
			row.SecondTurn, row.Second, row.SecondExt = turn, fireOf(res.Best), extOf(x)
			rep.SecondMean += float64(row.Second.Chains)
			rep.SecondExtMean += float64(row.SecondExt.Chains)
			nSecond++
		}
		rep.Solo = append(rep.Solo, row)
		bar.Add(1)
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	if n := float64(len(seedList)); n > 0 {
		for i := range sums {
			rep.SoloMean = append(rep.SoloMean, sums[i]/n)
		}
		rep.PlanMean /= n
		rep.ExtMean /= n
	}
	if nSecond > 0 {
		rep.SecondMean /= float64(nSecond)
		rep.SecondExtMean /= float64(nSecond)
	}
	var nRef int
	for _, fx := range fxs {
		pos, err := fx.Load()
		if err != nil {
			return err
		}
		pc := rowAt(cfg, pos.Turn)
		pc.Depth = fx.Plies
		kc := pc
		pc.ExtNodes = 0 // the longest fire: the search alone
		res := c.Holds(ctx, pos, pc)
		if !*extCounter {
			kc.ExtNodes = 0
		}
		kres, kx := c.CounterHold(ctx, pos, kc, xc, *extIn)
		row := holdsPressure{Name: fx.Name, Side: fx.Side, Turn: pos.Turn, Incoming: pos.Incoming, FireNow: pos.FireNow, Ref: fx.Ref, Nodes: res.Nodes, Note: fx.Note}
		for _, f := range res.PerPly {
			row.PerPly = append(row.PerPly, f.Chains)
		}
		row.Best.Chains, row.Best.Ply = longestFire(res.PerPly, 0)
		row.Later.Chains, row.Later.Ply = longestFire(res.PerPly, 1)
		if row.Best.Ply > 0 {
			row.Best.Sent = res.PerPly[row.Best.Ply-1].Sent
		}
		if row.Later.Ply > 0 {
			row.Later.Sent = res.PerPly[row.Later.Ply-1].Sent
		}
		row.Counter, row.CounterExt = fireOf(kres.Best), extOf(kx)
		rep.CounterMean += float64(row.Counter.Chains)
		rep.CounterExtMean += float64(row.CounterExt.Chains)
		if len(fx.Ref) > 0 {
			for p, ch := range fx.Ref {
				if ch > row.RefBest.Chains {
					row.RefBest = holdFire{Ply: p + 1, Chains: ch, Sent: codevs.ChainOjama(ch)}
				}
			}
			nRef++
			rep.OursMean += float64(row.Best.Chains)
			rep.RefMean += float64(row.RefBest.Chains)
		}
		rep.Pressure = append(rep.Pressure, row)
		bar.Add(1)
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	if nRef > 0 {
		rep.OursMean /= float64(nRef)
		rep.RefMean /= float64(nRef)
	}
	if n := float64(len(rep.Pressure)); n > 0 {
		rep.CounterMean /= n
		rep.CounterExtMean /= n
	}
	bar.Finish()
	if *asJSON {
		return cli.WriteJSON(env.Stdout, rep)
	}
	w := env.Stdout
	if len(rep.Solo) > 0 {
		fmt.Fprintf(w, "solo build, %d states per search, %d plies: best fire (chains/ojama) at turn\n", *nodes, *depth)
		fmt.Fprintf(w, "%-6s", "seed")
		for _, t := range rep.Turns {
			fmt.Fprintf(w, " %8s", "t"+strconv.Itoa(t))
		}
		fmt.Fprintf(w, " %8s %8s %8s", "longest", "plan", "ext")
		if *second {
			fmt.Fprintf(w, " %8s %8s", "second", "ext")
		}
		fmt.Fprintln(w)
		for _, r := range rep.Solo {
			fmt.Fprintf(w, "%-6d", r.Seed)
			for _, f := range r.Fires {
				fmt.Fprintf(w, " %8s", fmt.Sprintf("%d/%d", f.Chains, f.Sent))
			}
			fmt.Fprintf(w, " %8d %8s %8s", r.Chains, fmt.Sprintf("%d@%d", r.Plan.Chains, r.Plan.Ply), fmt.Sprintf("%d@%d", r.Ext.Chains, r.Ext.Ply))
			if *second {
				fmt.Fprintf(w, " %8s %8s", fmt.Sprintf("%d@%d", r.Second.Chains, r.SecondTurn+r.Second.Ply), fmt.Sprintf("%d@%d", r.SecondExt.Chains, r.SecondExt.Ply))
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%-6s", "mean")
		for _, m := range rep.SoloMean {
			fmt.Fprintf(w, " %8.2f", m)
		}
		fmt.Fprintf(w, " %8s %8.2f %8.2f", "", rep.PlanMean, rep.ExtMean)
		if *second {
			fmt.Fprintf(w, " %8.2f %8.2f", rep.SecondMean, rep.SecondExtMean)
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "plan: the opening plan's fire (target %d, 13 plies); ext: the longest fire after ply 1 of a 10-ply search from the field before it, %d ojama landing after ply 1\n", *target, *extIn)
	}
	if len(rep.Pressure) > 0 {
		fmt.Fprintf(w, "pressure, %d states per search: longest fire (chains/ojama at ply) with the landing after ply 1\n", *nodes)
		for _, r := range rep.Pressure {
			ref := "-"
			if len(r.Ref) > 0 {
				ref = fmt.Sprintf("%d@%d", r.RefBest.Chains, r.RefBest.Ply)
			}
			fmt.Fprintf(w, "%-16s t%-3d in %3d  ours %2d/%-3d@%-2d later %2d@%-2d  tanzaku %-5s  counter %2d@%-2d ext %2d  %v\n", r.Name, r.Turn, r.Incoming, r.Best.Chains, r.Best.Sent, r.Best.Ply, r.Later.Chains, r.Later.Ply, ref, r.Counter.Chains, r.Counter.Ply, r.CounterExt.Chains, r.PerPly)
		}
		if nRef > 0 {
			fmt.Fprintf(w, "mean longest over the %d fixtures with tanzaku's list: ours %.2f, tanzaku %.2f\n", nRef, rep.OursMean, rep.RefMean)
		}
		fmt.Fprintf(w, "counter plans (earliest fire sending 1.5x the landing): mean %.2f chains, extension %.2f (%d ojama landing after it)\n", rep.CounterMean, rep.CounterExtMean, *extIn)
	}
	return nil
}

// fireOf is f's chains, ojama and ply.
func fireOf(f ai.Fire) holdFire { return holdFire{Ply: f.Ply, Chains: f.Chains, Sent: f.Sent} }

// extOf is the longest fire after ply 1 of an extension search (none: zero).
func extOf(x ai.BeamResult) holdFire {
	if ch, p := longestFire(x.PerPly, 1); p > 0 {
		return holdFire{Ply: p, Chains: ch, Sent: x.PerPly[p-1].Sent}
	}
	return holdFire{}
}

// longestFire is the longest of per-ply fires after ply from (0: all) and
// its ply, the earliest of equals (ply 0: none).
func longestFire(perPly []ai.Fire, from int) (chains, ply int) {
	for p := from; p < len(perPly); p++ {
		if c := perPly[p].Chains; c > chains {
			chains, ply = c, p+1
		}
	}
	return chains, ply
}

// parseSeedList reads "A-B" or "a,b,c".
func parseSeedList(s string) ([]uint64, error) {
	if a, b, ok := strings.Cut(s, "-"); ok {
		lo, err1 := strconv.ParseUint(a, 10, 64)
		hi, err2 := strconv.ParseUint(b, 10, 64)
		if err1 != nil || err2 != nil || hi < lo || hi-lo > 10000 {
			return nil, cli.Usagef("bad seed range %q", s)
		}
		var out []uint64
		for x := lo; x <= hi; x++ {
			out = append(out, x)
		}
		return out, nil
	}
	var out []uint64
	for _, f := range strings.Split(s, ",") {
		x, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
		if err != nil {
			return nil, cli.Usagef("bad seed %q", f)
		}
		out = append(out, x)
	}
	return out, nil
}

// parseIntList reads "a,b,c".
func parseIntList(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		x, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, cli.Usagef("bad number %q", f)
		}
		out = append(out, x)
	}
	return out, nil
}

// codevsAITestdataDir is codevs/ai/testdata beside codevsTestdataDir.
func codevsAITestdataDir() string {
	return filepath.Join(filepath.Dir(codevsTestdataDir()), "ai", "testdata")
}
