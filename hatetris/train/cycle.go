// This file holds the Search → Refine → Learn cycle (Run) and its run
// directory: every phase writes its outputs atomically, so a killed run
// resumes at the phase (Search depth, Refine chunk) where it stopped.
package train

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/yomi-ai/yomi/internal/atomicfile"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/hatetris/player"
	"github.com/yomi-ai/yomi/hatetris/replay"
	"github.com/yomi-ai/yomi/nn"
)

// Config is a training run's settings; it is stored in RUN/config.json and
// a resumed run must use the same values (only Gens may grow).
type Config struct {
	Gens        int     `json:"gens"`        // generations of Refine + Learn (Gens+1 searches)
	Beam        int     `json:"beam"`        // width of the Search game
	Quiescence  bool    `json:"quiescence"`  // Search values wells by their single-clear chains too
	MaxDepth    int     `json:"maxDepth"`    // cap on the Search game's pieces (0 = none)
	Samples     int     `json:"samples"`     // wells sampled from every depth of the Search beam
	RefineWidth int     `json:"refineWidth"` // width of each Refine beam
	RefineDepth int     `json:"refineDepth"` // pieces each Refine beam plays
	Blend       float64 `json:"blend"`       // target t = x + Blend·(y − x)
	Hidden      int     `json:"hidden"`      // hidden units of the net
	History     int     `json:"history"`     // generations of targets Learn trains on
	Epochs      int     `json:"epochs"`      // Learn's epoch limit (early stop after 3 worse)
	Batch       int     `json:"batch"`       // Learn's mini-batch
	LR          float32 `json:"lr"`          // Adam step size
	Seed        uint64  `json:"seed"`        // the run's seed (net init, sampling, splits)
	// Start is how generation 0's net is made: StartRandom, StartHeuristic
	// (distilled from DistillSamples wells per depth of a heuristic beam
	// game of width DistillWidth, plus one random child of each) or
	// StartSolved.
	Start          string `json:"start"`
	DistillWidth   int    `json:"distillWidth"`
	DistillSamples int    `json:"distillSamples"`
	// StartSolved: the small wells of heights 4..SolvedHeight are solved
	// exactly and a share SolvedFrac of them trained on, with targets
	// (lines/SolvedNorm − 0.5)·2 (0 = DefaultSolvedHeight,
	// DefaultSolvedFrac, and the deepest height's optimum). Omitted when 0,
	// so runs of other starts keep their config.json.
	SolvedHeight int     `json:"solvedHeight,omitempty"`
	SolvedFrac   float64 `json:"solvedFrac,omitempty"`
	SolvedNorm   float64 `json:"solvedNorm,omitempty"`
	// Features is the nets' feature set ("" = Knewjade; see FeatureSet),
	// omitted when empty so that the runs before it keep their config.json.
	Features string `json:"features,omitempty"`
}

// featureSet is the run's feature set (Validate has checked the name).
func (c Config) featureSet() FeatureSet {
	f, _ := ParseFeatureSet(c.Features)
	return f
}

// DefaultConfig returns the defaults of `yomi hatetris train`: the recipe
// measured in BENCHMARKS.md (heuristic start, quiescence, width 10 000,
// 300 samples per depth refined by width-50 beams 10 pieces deep; the run
// with these settings played 74 lines at generation 8, 18 minutes in).
func DefaultConfig() Config {
	return Config{Gens: 12, Beam: 10000, Quiescence: true, Samples: 300, RefineWidth: 50, RefineDepth: 10,
		Blend: 0.5, Hidden: 24, History: 3, Epochs: 100, Batch: 256, LR: 1e-3, Seed: 1,
		Start: StartHeuristic, DistillWidth: 2000, DistillSamples: 64}
}

// Validate reports the first bad setting.
func (c Config) Validate() error {
	switch {
	case c.Gens < 0:
		return errors.New("gens must be at least 0")
	case c.Beam < 1 || c.RefineWidth < 1:
		return errors.New("beam widths must be at least 1")
	case c.Samples < 1:
		return errors.New("samples must be at least 1")
	case c.RefineDepth < 1:
		return errors.New("refine depth must be at least 1")
	case c.Hidden < 1 || c.Hidden > 1024:
		return errors.New("hidden must be in 1..1024")
	case c.History < 1:
		return errors.New("history must be at least 1")
	case c.Epochs < 1 || c.Batch < 1 || !(c.LR > 0):
		return errors.New("epochs, batch and lr must be positive")
	case !(c.Blend > 0 && c.Blend <= 1):
		return errors.New("blend must be in (0, 1]")
	case c.MaxDepth < 0:
		return errors.New("max depth must be at least 0")
	case c.Start != StartRandom && c.Start != StartHeuristic && c.Start != StartSolved:
		return fmt.Errorf("start %q: want %s, %s or %s", c.Start, StartRandom, StartHeuristic, StartSolved)
	case c.SolvedHeight != 0 && (c.SolvedHeight < MinSolvedHeight || c.SolvedHeight > 7):
		return fmt.Errorf("solved height %d: want %d..7", c.SolvedHeight, MinSolvedHeight)
	case c.SolvedFrac < 0 || c.SolvedFrac > 1 || c.SolvedNorm < 0:
		return errors.New("solved fraction must be in (0, 1] and the norm not negative")
	case c.Start == StartHeuristic && (c.DistillWidth < 1 || c.DistillSamples < 1):
		return errors.New("distill width and samples must be at least 1")
	}
	f, err := ParseFeatureSet(c.Features)
	if err != nil {
		return err
	}
	if f == DNF && c.Start == StartSolved {
		// The solved start's small wells are described by knewjade's
		// floor-padded windows; positional windows have no such reading.
		return fmt.Errorf("start %s needs %s features", StartSolved, Knewjade)
	}
	return nil
}

// Progress reports a phase's progress: total < 0 when unknown.
type Progress func(gen int, phase string, done, total int, note string)

// GenSummary is one generation's row of the run's table.
type GenSummary struct {
	Gen         int     `json:"gen"`
	Score       int     `json:"score"`  // lines of the Search game with this generation's net
	Pieces      int     `json:"pieces"` // its pieces
	SearchSecs  float64 `json:"searchSeconds"`
	WellsPerSec float64 `json:"wellsPerSecond"` // Search beam throughput
	Samples     int     `json:"samples"`        // wells sampled and refined (0 for the last search)
	Died        int     `json:"died"`           // refine beams that died (target −1 before blending)
	RefineSecs  float64 `json:"refineSeconds"`
	TrainSet    int     `json:"trainSet"` // samples Learn used (last History generations)
	TrainLoss   float64 `json:"trainLoss"`
	ValLoss     float64 `json:"valLoss"` // best validation MSE of Learn
	Epochs      int     `json:"epochs"`
	LearnSecs   float64 `json:"learnSeconds"`
	Replay      string  `json:"replay,omitempty"` // Base2048 replay of the Search game
}

// Runner runs a training cycle in a directory.
type Runner struct {
	Dir      string
	Config   Config
	Workers  int // goroutines (0 = GOMAXPROCS); results do not depend on it
	Progress Progress
	// Remote, if set, runs Refine as jobs on the job fabric (the same
	// targets as in this process).
	Remote *Remote
	chunk  int // samples per Refine checkpoint (0 = refineChunk); tests make it small
}

func (r *Runner) chunkPath(g, k int) string {
	return filepath.Join(r.genDir(g), fmt.Sprintf("refine-%04d.bin", k))
}

func (r *Runner) genDir(g int) string { return filepath.Join(r.Dir, fmt.Sprintf("gen-%03d", g)) }

func (r *Runner) progress(g int, phase string, done, total int, note string) {
	if r.Progress != nil {
		r.Progress(g, phase, done, total, note)
	}
}

// Run starts or resumes the run and returns the per-generation table.
func (r *Runner) Run(ctx context.Context) ([]GenSummary, error) {
	if err := r.Config.Validate(); err != nil {
		return nil, err
	}
	if r.Workers <= 0 {
		r.Workers = runtime.GOMAXPROCS(0)
	}
	if err := os.MkdirAll(r.Dir, 0o755); err != nil {
		return nil, err
	}
	if err := r.checkConfig(); err != nil {
		return nil, err
	}
	if err := r.writeIgnore(); err != nil {
		return nil, err
	}
	var table []GenSummary
	for g := 0; g <= r.Config.Gens; g++ {
		if err := os.MkdirAll(r.genDir(g), 0o755); err != nil {
			return table, err
		}
		net, err := r.net(ctx, g)
		if err != nil {
			return table, err
		}
		var sum GenSummary
		// Samples are scratch (not committed): a generation still to refine
		// whose samples are gone (a fresh checkout) plays its Search again,
		// which gives the same samples.
		_, terr := r.readTargets(g)
		needSamples := g < r.Config.Gens && terr != nil
		if err := r.search(ctx, g, net, needSamples, &sum); err != nil {
			return table, err
		}
		if g < r.Config.Gens {
			if err := r.refine(ctx, g, net, &sum); err != nil {
				return table, err
			}
			if err := r.learn(ctx, g, net, &sum); err != nil {
				return table, err
			}
		}
		table = append(table, sum)
		if err := writeTable(r.Dir, table); err != nil {
			return table, err
		}
	}
	return table, nil
}

// Ignored lists the run directory's scratch files: what a resume can do
// without (Search samples, an unfinished Search's checkpoint, Refine
// checkpoints, distillation data), kept out of git by RUN/.gitignore.
// Everything else is the campaign's committed state.
var Ignored = []string{"samples.bin", "refine-*.bin", "distill.bin", "*.tmp", searchCheckpoint, samplesLogFile}

// writeIgnore writes RUN/.gitignore.
func (r *Runner) writeIgnore() error {
	p := filepath.Join(r.Dir, ".gitignore")
	var b strings.Builder
	b.WriteString("# Scratch files of `yomi hatetris train`: a resume regenerates them.\n")
	for _, pat := range Ignored {
		b.WriteString(pat + "\n")
	}
	if old, err := os.ReadFile(p); err == nil && string(old) == b.String() {
		return nil
	}
	// Written again when Ignored has grown (runs started by older versions).
	return atomicfile.Write(p, []byte(b.String()))
}

// TargetsFile is a generation's refined samples (gzipped, committed: Learn
// of the next History−1 generations reads them).
const TargetsFile = "targets.bin.gz"

// readTargets reads generation g's targets (targets.bin in runs made before
// they were compressed).
func (r *Runner) readTargets(g int) (*targets, error) {
	ts, err := readTargets(filepath.Join(r.genDir(g), TargetsFile))
	if errors.Is(err, os.ErrNotExist) {
		if old, err2 := readTargets(filepath.Join(r.genDir(g), "targets.bin")); err2 == nil {
			return old, nil
		}
	}
	return ts, err
}

// checkConfig stores the config of a new run or checks a resumed one.
func (r *Runner) checkConfig() error {
	p := filepath.Join(r.Dir, "config.json")
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return writeJSON(p, r.Config)
	}
	if err != nil {
		return err
	}
	var old Config
	if err := json.Unmarshal(b, &old); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	a, b2 := old, r.Config
	a.Gens, b2.Gens = 0, 0
	if a != b2 {
		return fmt.Errorf("%s: the run was started with %+v; resume it with the same settings (only --gens may change)", p, old)
	}
	if r.Config.Gens != old.Gens {
		return writeJSON(p, r.Config)
	}
	return nil
}

// net returns generation g's net: for g = 0 random, distilled from the
// heuristic or trained on solved small wells (written on first use), else
// the one Learn wrote.
func (r *Runner) net(ctx context.Context, g int) (*nn.Net, error) {
	p := filepath.Join(r.genDir(g), "net.yomi")
	fs := r.Config.featureSet()
	if _, err := os.Stat(p); err == nil {
		net, f, err := LoadNet(p)
		if err == nil && f != fs {
			err = fmt.Errorf("%s uses %s features, the run %s", p, f, fs)
		}
		return net, err
	}
	if g > 0 {
		return nil, fmt.Errorf("%s is missing: the run directory is damaged", p)
	}
	net, err := fs.NewNet(r.Config.Hidden, r.Config.Seed)
	if err != nil {
		return nil, err
	}
	switch r.Config.Start {
	case StartHeuristic:
		if err := r.distill(ctx, net); err != nil {
			return nil, err
		}
	case StartSolved:
		if err := r.solvedStart(ctx, net); err != nil {
			return nil, err
		}
	}
	return net, net.SaveFile(p)
}

// distillOut is RUN/gen-000/distill.json.
type distillOut struct {
	Samples   int     `json:"samples"`
	TrainLoss float64 `json:"trainLoss"`
	ValLoss   float64 `json:"valLoss"`
	Epochs    int     `json:"epochs"`
	Seconds   float64 `json:"seconds"`
}

// distill trains net on the heuristic's rank-normalised values of wells
// from its own beam game (RUN/gen-000/distill.bin, then distill.json).
func (r *Runner) distill(ctx context.Context, net *nn.Net) error {
	c := r.Config
	dp := filepath.Join(r.genDir(0), "distill.bin")
	start := time.Now()
	ts, err := readTargets(dp)
	if err != nil {
		r.progress(0, "distill", 0, -1, fmt.Sprintf("heuristic game, width %d", c.DistillWidth))
		if ts, err = distillData(ctx, c.DistillWidth, c.DistillSamples, r.Workers, c.Seed); err != nil {
			return err
		}
		if err := writeTargets(dp, ts); err != nil {
			return err
		}
	}
	samples, err := samplesOf(ts, c.featureSet())
	if err != nil {
		return err
	}
	var out distillOut
	out.Samples = len(samples)
	out.Epochs, out.TrainLoss, out.ValLoss, err = r.trainStart(ctx, net, samples, "distill", 0xd15711)
	if err != nil {
		return err
	}
	out.Seconds = time.Since(start).Seconds()
	return writeJSON(filepath.Join(r.genDir(0), "distill.json"), out)
}

// trainStart trains a generation-0 net on samples with Learn's settings,
// reporting each epoch as phase; seedMix keeps each start's shuffle its own.
func (r *Runner) trainStart(ctx context.Context, net *nn.Net, samples []nn.Sample, phase string, seedMix uint64) (epochs int, trainLoss, valLoss float64, err error) {
	c := r.Config
	valLoss, err = net.Train(ctx, samples, nn.TrainConfig{Epochs: c.Epochs, Batch: c.Batch, LR: c.LR,
		ValFrac: 0.1, Shards: 8, Workers: r.Workers, Seed: c.Seed ^ seedMix,
		OnEpoch: func(ep int, tl, vl float64) {
			epochs, trainLoss = ep+1, tl
			r.progress(0, phase, ep+1, c.Epochs, fmt.Sprintf("%d samples train %.4f val %.4f", len(samples), tl, vl))
		}})
	return epochs, trainLoss, valLoss, err
}

type searchOut struct {
	Score   int     `json:"score"`
	Pieces  int     `json:"pieces"`
	Depth   int     `json:"depth"`
	Wells   int64   `json:"wells"`
	Seconds float64 `json:"seconds"`
	Samples int     `json:"samples"`
	Replay  string  `json:"replay"`
}

// search plays the generation's game and samples Samples wells from every
// depth of its beam (RUN/gen-N/samples.bin, then search.json as the marker).
// With needSamples and samples.bin gone, a finished search is played again
// for its samples; it must give the stored game.
func (r *Runner) search(ctx context.Context, g int, net *nn.Net, needSamples bool, sum *GenSummary) error {
	p := filepath.Join(r.genDir(g), "search.json")
	var out searchOut
	done := readJSON(p, &out) == nil
	if done && needSamples {
		if _, err := os.Stat(filepath.Join(r.genDir(g), "samples.bin")); err != nil {
			done = false
		}
	}
	if !done {
		old := out
		res, samples, err := r.playSearch(ctx, g, net)
		if err != nil {
			return err
		}
		code, err := replay.Encode(res.Moves, replay.Base2048)
		if err != nil {
			return err
		}
		out = searchOut{Score: res.Score, Pieces: res.Pieces, Depth: res.Depth, Wells: res.Wells, Seconds: res.Elapsed.Seconds(), Samples: len(samples), Replay: code}
		if old.Replay != "" {
			// Played again for its samples: the stored game (and its time) stays.
			if old.Replay != out.Replay || old.Samples != out.Samples {
				return fmt.Errorf("gen %d: the Search played again gives %d lines and %d samples, %s says %d and %d: not deterministic", g, out.Score, out.Samples, p, old.Score, old.Samples)
			}
			out = old
		}
		if err := writeWells(filepath.Join(r.genDir(g), "samples.bin"), samples); err != nil {
			return err
		}
		if err := writeJSON(p, out); err != nil {
			return err
		}
		for _, f := range []string{searchCheckpoint, samplesLogFile} {
			if err := os.Remove(filepath.Join(r.genDir(g), f)); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
		}
	}
	*sum = GenSummary{Gen: g, Score: out.Score, Pieces: out.Pieces, SearchSecs: out.Seconds,
		WellsPerSec: float64(out.Wells) / max(out.Seconds, 1e-9), Replay: out.Replay}
	return nil
}

// playSearch plays generation g's Search game and returns it with the
// wells sampled from every depth. It checkpoints itself (RUN/gen-N/
// search.ckpt, with the samples in search-samples.log) after every depth
// and resumes from there, so a kill loses at most the depth in progress.
// A checkpoint whose sample log does not reach its depth is removed and the
// game started again.
func (r *Runner) playSearch(ctx context.Context, g int, net *nn.Net) (*player.Result, []hatetris.Well, error) {
	tab, err := NewEvaluators(net)
	if err != nil {
		return nil, nil, err
	}
	raw, err := net.MarshalBinary()
	if err != nil {
		return nil, nil, err
	}
	ckpt, logPath := filepath.Join(r.genDir(g), searchCheckpoint), filepath.Join(r.genDir(g), samplesLogFile)
	for attempt := 0; ; attempt++ {
		var (
			log     *sampleLog
			samples []hatetris.Well
			logErr  error
			picked  []hatetris.Well
		)
		sctx, cancel := context.WithCancel(ctx)
		open := func(upto int) {
			if log, samples, logErr = openSampleLog(logPath, upto); logErr != nil {
				cancel()
			}
		}
		res, err := player.Search(sctx, player.Options{
			Width: r.Config.Beam, Quiescence: r.Config.Quiescence, Workers: r.Workers, MaxDepth: r.Config.MaxDepth,
			NewEval:    func() player.Evaluator { return tab.NewValuer() },
			Checkpoint: ckpt, EvalID: fmt.Sprintf("nn:sha256:%x", sha256.Sum256(raw)),
			Resumed: func(s player.Stats) { open(s.Depth) },
			OnDepth: func(d int, beam []hatetris.Well) {
				if log == nil && logErr == nil {
					open(0)
				}
				if logErr != nil {
					return
				}
				rng := rand.New(rand.NewPCG(r.Config.Seed, uint64(g)<<32|uint64(d)))
				picked = picked[:0]
				if len(beam) <= r.Config.Samples {
					picked = append(picked, beam...)
				} else {
					for _, i := range rng.Perm(len(beam))[:r.Config.Samples] {
						picked = append(picked, beam[i])
					}
				}
				if logErr = log.add(d, picked); logErr != nil {
					cancel()
					return
				}
				samples = append(samples, picked...)
			},
			Progress: func(s player.Stats) {
				r.progress(g, "search", s.Depth, -1, fmt.Sprintf("lines %d beam %d %.0f wells/s", s.BestScore, s.Beam, float64(s.Wells)/max(s.Elapsed.Seconds(), 1e-9)))
			},
		})
		cancel()
		if log != nil {
			if cerr := log.close(); err == nil && logErr == nil {
				logErr = cerr
			}
		}
		switch {
		case errors.Is(logErr, errLogBehind) && attempt == 0:
			// The checkpoint cannot be resumed without its samples: start over.
			for _, f := range []string{ckpt, logPath} {
				if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
					return nil, nil, err
				}
			}
			continue
		case logErr != nil:
			return nil, nil, fmt.Errorf("gen %d search: %w", g, logErr)
		case err != nil:
			return nil, nil, err
		case ctx.Err() != nil:
			return nil, nil, ctx.Err()
		}
		return res, samples, nil
	}
}

// refineChunk is the number of samples per checkpoint file of Refine.
const refineChunk = 64

// refine computes every sample's target in chunks (RUN/gen-N/refine-K.bin),
// then normalises them into targets.bin.gz.
func (r *Runner) refine(ctx context.Context, g int, net *nn.Net, sum *GenSummary) error {
	dir := r.genDir(g)
	tp := filepath.Join(dir, TargetsFile)
	if ts, err := r.readTargets(g); err == nil {
		sum.Samples = len(ts.Wells)
		sum.Died = ts.Died
		sum.RefineSecs = ts.Seconds
		return nil
	}
	wells, err := readWells(filepath.Join(dir, "samples.bin"))
	if err != nil {
		return err
	}
	tab, err := NewEvaluators(net)
	if err != nil {
		return err
	}
	xs := make([]float32, len(wells))
	ys := make([]float32, len(wells))
	var secs float64
	size := r.chunk
	if size <= 0 {
		size = refineChunk
	}
	if r.Remote != nil {
		if secs, err = r.refineRemote(ctx, g, net, wells, xs, ys, size); err != nil {
			return err
		}
	}
	nChunks := (len(wells) + size - 1) / size
	for c := 0; c < nChunks && r.Remote == nil; c++ {
		lo, hi := c*size, min((c+1)*size, len(wells))
		cp := r.chunkPath(g, c)
		if ch, err := readChunk(cp); err == nil && len(ch.X) == hi-lo {
			copy(xs[lo:], ch.X)
			copy(ys[lo:], ch.Y)
			secs += ch.Seconds
			r.progress(g, "refine", hi, len(wells), "resumed")
			continue
		}
		start := time.Now()
		var next sync.WaitGroup
		var firstErr error
		var mu sync.Mutex
		jobs := make(chan int)
		for w := 0; w < r.Workers; w++ {
			next.Add(1)
			go func() {
				defer next.Done()
				e := tab.NewValuer()
				for i := range jobs {
					x, y, err := refineOne(ctx, tab, e, &wells[i], r.Config)
					if err != nil {
						mu.Lock()
						firstErr = cmpErr(firstErr, err)
						mu.Unlock()
						continue
					}
					xs[i], ys[i] = x, y
				}
			}()
		}
		for i := lo; i < hi; i++ {
			jobs <- i
		}
		close(jobs)
		next.Wait()
		if firstErr != nil {
			return firstErr
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		el := time.Since(start).Seconds()
		secs += el
		if err := writeChunk(cp, chunk{X: xs[lo:hi], Y: ys[lo:hi], Seconds: el}); err != nil {
			return err
		}
		r.progress(g, "refine", hi, len(wells), "")
	}
	ts := blendTargets(wells, xs, ys, r.Config.Blend)
	ts.Seconds = secs
	if err := writeTargets(tp, ts); err != nil {
		return err
	}
	sum.Samples, sum.Died, sum.RefineSecs = len(wells), ts.Died, secs
	return nil
}

func cmpErr(old, err error) error {
	if old != nil {
		return old
	}
	return err
}

// refineOne returns the net's value x of w and y, the best value after a
// small beam RefineDepth pieces deep (−1 if that beam dies).
func refineOne(ctx context.Context, tab Evaluators, e Valuer, w *hatetris.Well, c Config) (x, y float32, err error) {
	x, err = e.Value(w)
	if err != nil {
		return 0, 0, err
	}
	res, err := player.Search(ctx, player.Options{Width: c.RefineWidth, MaxDepth: c.RefineDepth, Workers: 1, Start: *w,
		NewEval: func() player.Evaluator { return tab.NewValuer() }})
	if err != nil {
		return 0, 0, err
	}
	if ctx.Err() != nil {
		return 0, 0, ctx.Err()
	}
	if res.Depth < c.RefineDepth {
		return x, -1, nil
	}
	return x, float32(res.BestValue), nil
}

// blendTargets makes t = x + blend·(y − x) and rescales this generation's
// targets linearly so that their minimum is −1 and their maximum +1.
func blendTargets(wells []hatetris.Well, xs, ys []float32, blend float64) *targets {
	ts := &targets{Wells: wells, T: make([]float32, len(wells))}
	lo, hi := math.Inf(1), math.Inf(-1)
	raw := make([]float64, len(wells))
	for i := range wells {
		if ys[i] == -1 {
			ts.Died++
		}
		raw[i] = float64(xs[i]) + blend*float64(ys[i]-xs[i])
		lo, hi = min(lo, raw[i]), max(hi, raw[i])
	}
	for i, t := range raw {
		if hi > lo {
			t = 2*(t-lo)/(hi-lo) - 1
		}
		ts.T[i] = float32(t)
	}
	return ts
}

type learnOut struct {
	TrainSet  int     `json:"trainSet"`
	TrainLoss float64 `json:"trainLoss"`
	ValLoss   float64 `json:"valLoss"`
	Epochs    int     `json:"epochs"`
	Seconds   float64 `json:"seconds"`
}

// learnNet trains a copy of generation g's net on the targets of the last
// History generations and returns it, writing nothing.
func (r *Runner) learnNet(ctx context.Context, g int, net *nn.Net) (*nn.Net, learnOut, error) {
	var samples []nn.Sample
	fs := r.Config.featureSet()
	for k := max(0, g-r.Config.History+1); k <= g; k++ {
		ts, err := r.readTargets(k)
		if err != nil {
			return nil, learnOut{}, err
		}
		for i := range ts.Wells {
			f, _, err := fs.Extract(nil, nil, &ts.Wells[i])
			if err != nil {
				return nil, learnOut{}, fmt.Errorf("gen %d sample %d: %w", k, i, err)
			}
			samples = append(samples, nn.Sample{Features: f, Target: ts.T[i]})
		}
	}
	n := net.Clone()
	start := time.Now()
	epochs, trainLoss := 0, 0.0
	val, err := n.Train(ctx, samples, nn.TrainConfig{Epochs: r.Config.Epochs, Batch: r.Config.Batch, LR: r.Config.LR,
		ValFrac: 0.1, Shards: 8, Workers: r.Workers, Seed: r.Config.Seed ^ uint64(g+1)*0x9e3779b97f4a7c15,
		OnEpoch: func(ep int, tl, vl float64) {
			epochs, trainLoss = ep+1, tl
			r.progress(g, "learn", ep+1, r.Config.Epochs, fmt.Sprintf("train %.4f val %.4f", tl, vl))
		}})
	if err != nil {
		return nil, learnOut{}, err
	}
	return n, learnOut{TrainSet: len(samples), TrainLoss: trainLoss, ValLoss: val, Epochs: epochs, Seconds: time.Since(start).Seconds()}, nil
}

// learn trains generation g's net on the targets of the last History
// generations and writes it as generation g+1's net (learn.json is the marker).
func (r *Runner) learn(ctx context.Context, g int, net *nn.Net, sum *GenSummary) error {
	p := filepath.Join(r.genDir(g), "learn.json")
	var out learnOut
	if readJSON(p, &out) != nil {
		n, o, err := r.learnNet(ctx, g, net)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(r.genDir(g+1), 0o755); err != nil {
			return err
		}
		if err := n.SaveFile(filepath.Join(r.genDir(g+1), "net.yomi")); err != nil {
			return err
		}
		out = o
		if err := writeJSON(p, out); err != nil {
			return err
		}
	}
	sum.TrainSet, sum.TrainLoss, sum.ValLoss, sum.Epochs, sum.LearnSecs = out.TrainSet, out.TrainLoss, out.ValLoss, out.Epochs, out.Seconds
	return nil
}
