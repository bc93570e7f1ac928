// This file holds `yomi hatetris train`: the Search → Refine → Learn cycle
// in a resumable run directory, with a progress bar per phase and the
// per-generation table.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/schollz/progressbar/v3"
	"github.com/yomi-ai/yomi/hatetris/train"
	"github.com/yomi-ai/yomi/internal/cli"
)

func runHatetrisTrain(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi hatetris train", "--dir RUN [--start heuristic|solved|random] [--gens N] [--beam W] [--samples K] [--refine-width W] [--refine-depth D] [--hidden H] [--features knewjade|dnf] [--json]\n       yomi hatetris train --resume RUN [--gens N]",
		`Trains a HATETRIS evaluator net as in seed 001, one generation at a time:
  Search  plays a full game by beam search with the current net (RUN/gen-N/search.json,
          its replay) and samples K wells from every depth of the beam;
  Refine  runs a small beam (--refine-width, --refine-depth pieces) from each sample:
          y = its best net value at the end (-1 if it dies), target t = x + blend*(y - x)
          with x the sample's own value; targets are rescaled to [-1, 1] per generation;
  Learn   trains the net (MSE, Adam, mini-batches, early stop after 3 worse epochs) on
          the targets of the last --history generations -> RUN/gen-N+1/net.yomi.
Generation 0 is, by default (--start heuristic), a net distilled from the hand heuristic:
its values ranked within each depth (mapped to [-1, 1]) on all children of wells of its own
beam game (--distill-width, --distill-samples wells per depth); --start solved is knewjade's
initial net: every well reached in the small wells of 4..--solved-height rows below the bar is
solved exactly (as `+"`yomi hatetris solve`"+`; seconds up to height 5, 20 minutes and 8 GB at 6), and a share
--solved-frac of them is trained on, target (lines/--solved-norm - 0.5)*2 clamped to [-1, 1]
(norm 0: the deepest height's optimum), the small wells' fewer patterns fed as they are (a
better generation 0 than the heuristic's, campaigns mixed: BENCHMARKS.md, "The solved start");
--start random uses random weights (--seed). --features picks the net's inputs: knewjade
(default) counts row and 3x4 window patterns anywhere in the well, one weight per pattern
(5 119 inputs); dnf is David & Felipe's positional windows, each row and each 3x4 block
position with its own weights (442 368 inputs, 120 active; ~86 times the first layer: 42 MB
per net file at --hidden 24; not with --start solved). The net file records its set, and
Search and Refine evaluate a dnf net without the fast incremental evaluator (a plain sum of
its 120 rows). The defaults are the recipe measured in BENCHMARKS.md. After --gens generations the last net
plays one more Search game. Refine runs as jobs (kind hatetris.refine, 64 samples each, the
net shipped by digest) on the job fabric: an embedded one by default, run by --concurrency
goroutines here; with --nats URL, `+"`yomi worker --nats URL`"+` processes anywhere share them
(same targets). Every phase writes its results atomically (Search after every depth, with
its samples so far, in RUN/gen-N/search.ckpt; Refine every 64 samples), so a killed run resumes where it stopped: run the same command again, or
--resume RUN (a run's settings are kept in RUN/config.json; only --gens may change).
A campaign is a run directory committed to git (e.g. hatetris/campaigns/NAME): RUN/.gitignore
leaves out the scratch files (Search samples and checkpoint, Refine checkpoints), so a commit holds each
generation's net, search.json (its game), learn.json and gzipped targets (Learn reads the
last --history generations' targets); --resume on a fresh checkout plays the Search of a
generation still to refine again for its samples and continues bit-for-bit: the same nets as
an uninterrupted run. The table is printed at the end and kept in RUN/summary.txt (.csv,
.json), with RUN/progress.png (lines and loss by generation).
Use a net with: yomi hatetris search --eval nn:RUN/gen-N/net.yomi`)
	def := train.DefaultConfig()
	dir := fs.String("dir", "", "run directory (created; resumed if it exists)")
	resume := fs.String("resume", "", "resume the run (campaign) in this `DIR`, with its stored settings")
	gens := fs.Int("gens", def.Gens, "generations of Refine + Learn")
	beam := fs.Int("beam", def.Beam, "width of the Search game's beam")
	quiet := fs.Bool("quiescence", def.Quiescence, "Search values wells by their single-line-clear chains too")
	maxDepth := fs.Int("max-depth", def.MaxDepth, "cap on the Search game's pieces (0 = none)")
	samples := fs.Int("samples", def.Samples, "wells sampled from every depth of the Search beam")
	rw := fs.Int("refine-width", def.RefineWidth, "width of each Refine beam")
	rd := fs.Int("refine-depth", def.RefineDepth, "pieces each Refine beam plays")
	blend := fs.Float64("blend", def.Blend, "target t = x + blend*(y - x)")
	hidden := fs.Int("hidden", def.Hidden, "hidden units, 1..1024 (the seed used 24, later 48)")
	features := fs.String("features", string(train.Knewjade), "the net's inputs: knewjade (pattern counts) or dnf (D&F's positional windows)")
	history := fs.Int("history", def.History, "generations of targets Learn trains on")
	epochs := fs.Int("epochs", def.Epochs, "Learn's epoch limit")
	batch := fs.Int("batch", def.Batch, "Learn's mini-batch size")
	lr := fs.Float64("lr", float64(def.LR), "Adam step size")
	seed := fs.Uint64("seed", def.Seed, "the run's seed (initial net, sampling, validation split)")
	start := fs.String("start", def.Start, "generation 0's net: random, heuristic (distilled from the hand heuristic) or solved (trained on exactly solved small wells)")
	sh := fs.Int("solved-height", train.DefaultSolvedHeight, "--start solved: solve small wells of 4..H rows below the bar (4..7; 7 does not fit in 24 GiB)")
	sf := fs.Float64("solved-frac", train.DefaultSolvedFrac, "--start solved: share of the solved wells trained on, in (0, 1]")
	sn := fs.Float64("solved-norm", 0, "--start solved: lines that map to +1 (0: the deepest height's optimum)")
	dw := fs.Int("distill-width", def.DistillWidth, "--start heuristic: width of the heuristic beam game")
	ds := fs.Int("distill-samples", def.DistillSamples, "--start heuristic: beam wells per depth whose children are distilled")
	workers := fs.Int("workers", 0, "goroutines (0 = all cores); results do not depend on it")
	nf := addNATSFlags(fs, false)
	conc := fs.Int("concurrency", -1, "Refine jobs this process runs at once (default: --workers; 0 with --nats leaves Refine to yomi workers)")
	asJSON := fs.Bool("json", false, "print the per-generation table as JSON on stdout")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	if *resume != "" {
		if *dir != "" {
			return cli.Usagef("give --dir or --resume, not both")
		}
		if _, err := os.Stat(filepath.Join(*resume, "config.json")); err != nil {
			return cli.Usagef("--resume %s: not a training run (no config.json): %v", *resume, err)
		}
		*dir = *resume
	}
	if *dir == "" {
		return cli.Usagef("--dir or --resume is required")
	}
	if *workers < 0 {
		return cli.Usagef("--workers must not be negative (0: all cores)")
	}
	cfg := def
	// A resumed run starts from its stored settings; flags given now override them.
	if b, err := os.ReadFile(filepath.Join(*dir, "config.json")); err == nil {
		if err := json.Unmarshal(b, &cfg); err != nil {
			return fmt.Errorf("%s/config.json: %w", *dir, err)
		}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	apply := func(name string, f func()) {
		if set[name] {
			f()
		}
	}
	apply("gens", func() { cfg.Gens = *gens })
	apply("beam", func() { cfg.Beam = *beam })
	apply("quiescence", func() { cfg.Quiescence = *quiet })
	apply("max-depth", func() { cfg.MaxDepth = *maxDepth })
	apply("samples", func() { cfg.Samples = *samples })
	apply("refine-width", func() { cfg.RefineWidth = *rw })
	apply("refine-depth", func() { cfg.RefineDepth = *rd })
	apply("blend", func() { cfg.Blend = *blend })
	apply("hidden", func() { cfg.Hidden = *hidden })
	apply("features", func() {
		cfg.Features = *features
		if *features == string(train.Knewjade) {
			cfg.Features = "" // the default is stored as no entry, as before the flag
		}
	})
	apply("history", func() { cfg.History = *history })
	apply("epochs", func() { cfg.Epochs = *epochs })
	apply("batch", func() { cfg.Batch = *batch })
	apply("lr", func() { cfg.LR = float32(*lr) })
	apply("seed", func() { cfg.Seed = *seed })
	apply("start", func() { cfg.Start = *start })
	apply("distill-width", func() { cfg.DistillWidth = *dw })
	apply("distill-samples", func() { cfg.DistillSamples = *ds })
	if cfg.Start == train.StartSolved {
		apply("solved-height", func() { cfg.SolvedHeight = *sh })
		apply("solved-frac", func() { cfg.SolvedFrac = *sf })
		apply("solved-norm", func() { cfg.SolvedNorm = *sn })
		if cfg.SolvedHeight == 0 {
			cfg.SolvedHeight, cfg.SolvedFrac = *sh, *sf // stored in config.json
		}
		if *sf <= 0 {
			return cli.Usagef("--solved-frac %g: want (0, 1]", *sf)
		}
	} else if set["solved-height"] || set["solved-frac"] || set["solved-norm"] {
		return cli.Usagef("--solved-height, --solved-frac and --solved-norm need --start solved")
	}
	if err := cfg.Validate(); err != nil {
		return cli.Usagef("%v", err)
	}
	if *conc < 0 {
		*conc = *workers
		if *conc <= 0 {
			*conc = runtime.GOMAXPROCS(0)
		}
	}
	if err := nf.check(*conc); err != nil {
		return err
	}
	fc, err := nf.connect(ctx, "yomi hatetris train")
	if err != nil {
		return err
	}
	defer fc.Close()
	var bar *progressbar.ProgressBar
	curGen, curPhase := -1, ""
	rm := &train.Remote{Client: fc, Version: version(), Local: *conc, Log: env.Stderr}
	r := &train.Runner{Dir: *dir, Config: cfg, Workers: *workers, Remote: rm, Progress: func(g int, phase string, done, total int, note string) {
		if g != curGen || phase != curPhase {
			if bar != nil {
				_ = bar.Finish()
				fmt.Fprintln(env.Stderr)
			}
			bar = cli.Progress(env.Stderr, int64(total), fmt.Sprintf("gen %d %s", g, phase), false)
			curGen, curPhase = g, phase
		}
		bar.Describe(fmt.Sprintf("gen %d %-6s %s", g, phase, note))
		_ = bar.Set(done)
	}}
	table, err := r.Run(ctx)
	if bar != nil {
		_ = bar.Finish()
		fmt.Fprintln(env.Stderr)
	}
	if err != nil {
		if errors.Is(err, context.Canceled) {
			fmt.Fprintf(env.Stderr, "stopped; resume with: yomi hatetris train --resume %s\n", *dir)
		}
		return err
	}
	if *asJSON {
		return cli.WriteJSON(env.Stdout, table)
	}
	fmt.Fprint(env.Stdout, train.Table(table))
	fmt.Fprintf(env.Stdout, "nets: %s/gen-NNN/net.yomi; plot: %s/progress.png\n", *dir, *dir)
	return nil
}
