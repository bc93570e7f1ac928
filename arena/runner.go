// This file holds the match runner: game pairs on shared seeds with sides
// swapped (RunPairs), score games on the same seeds (RunScores), concurrency,
// progress, JSON-lines results, resume and SPRT early stop.

package arena

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/sync/errgroup"
)

// Outcome is one two-player game's result from A's point of view.
type Outcome struct {
	Result Result
	Reason string // why it ended, e.g. "B crashed: exit status 2"; "" for a normal end
	Info   any    // game-specific record, written to the results file
}

// PlayFunc plays one game on seed: A on side 0 when swapped is false, on
// side 1 when it is true. A player's crash, hang or illegal answer is a lost
// game (an Outcome with a Reason), not an error; an error (or AbortMatch,
// which StartProcess calls for a command the shell cannot run) means the
// harness itself failed and stops the match.
type PlayFunc func(ctx context.Context, seed uint64, swapped bool) (Outcome, error)

// ScoreOutcome is one single-player game's score.
type ScoreOutcome struct {
	Score  float64
	Reason string
	Info   any
}

// ScoreFunc plays one single-player game on seed for player 0 (A) or 1 (B).
type ScoreFunc func(ctx context.Context, seed uint64, player int) (ScoreOutcome, error)

// Config describes a match.
type Config struct {
	NameA, NameB string
	// Seed is the first seed: pair i plays seed Seed+i, unless Seeds is set.
	Seed  uint64
	Pairs int      // number of seeds to play
	Seeds []uint64 // explicit seed list (overrides Seed and Pairs)
	// Concurrency is the number of games played at once (default 1).
	Concurrency int
	// Results is a JSON-lines file, one line per game. Existing lines for
	// this match are kept and their seeds are not played again.
	Results string
	// SPRT stops the match early once decided (nil = play every seed).
	SPRT *SPRT
	// GameTimeout bounds one game as a safety net (0 = none); the PlayFunc
	// should enforce the players' own time limits.
	GameTimeout time.Duration
	Progress    io.Writer // progress bar destination (nil = none)
	// Remote, if set, plays the games as jobs on the job fabric (workers
	// in this process and elsewhere) instead of calling the play function
	// here; results, resume, progress and SPRT are the same.
	Remote *Remote
}

func (c Config) seeds() []uint64 {
	if c.Seeds != nil {
		return c.Seeds
	}
	s := make([]uint64, c.Pairs)
	for i := range s {
		s[i] = c.Seed + uint64(i)
	}
	return s
}

// GameRecord is one line of the results file.
type GameRecord struct {
	NameA  string          `json:"a"`
	NameB  string          `json:"b"`
	Seed   uint64          `json:"seed"`
	Game   int             `json:"game"` // 0: A on side 0; 1: sides swapped (two-player); player index (score games)
	Result string          `json:"result,omitempty"`
	Score  *float64        `json:"score,omitempty"`
	Reason string          `json:"reason,omitempty"`
	Millis int64           `json:"ms"`
	Info   json.RawMessage `json:"info,omitempty"`
}

// PairReport is the outcome of RunPairs.
type PairReport struct {
	Summary Summary      `json:"summary"`
	Games   []GameRecord `json:"-"`
	Stopped string       `json:"stopped,omitempty"` // why the match ended early, if it did
}

// ScoreReport is the outcome of RunScores.
type ScoreReport struct {
	NameA   string       `json:"nameA"`
	NameB   string       `json:"nameB,omitempty"`
	Seeds   []uint64     `json:"seeds"`
	A       Sample       `json:"a"`
	Paired  *Paired      `json:"paired,omitempty"` // nil for a single player
	Duels   *Summary     `json:"duels,omitempty"`  // seed duels as W/L/D, with SPRT if configured
	Games   []GameRecord `json:"-"`
	Stopped string       `json:"stopped,omitempty"`
}

// Write prints the report.
func (r *ScoreReport) Write(w io.Writer) {
	if r.Paired == nil {
		fmt.Fprintf(w, "Scores of %s over %d seeds:\n", r.NameA, r.A.N)
		writeSample(w, r.NameA, r.A)
		return
	}
	fmt.Fprintf(w, "Scores of %s vs %s over %d seeds (paired):\n", r.NameA, r.NameB, r.Paired.A.N)
	r.Paired.Write(w, r.NameA, r.NameB)
	if r.Duels != nil && r.Duels.SPRT != nil {
		st := r.Duels.SPRT
		fmt.Fprintf(w, "Seed-duel LLR: %s (%.1f%%) (%s, %s) [%s, %s] %s\n", FormatFloat(st.LLR), 100*st.Progress,
			FormatFloat(st.Lower), FormatFloat(st.Upper), FormatFloat(st.Elo0), FormatFloat(st.Elo1), st.Verdict)
	}
	if r.Stopped != "" {
		fmt.Fprintf(w, "Stopped early: %s\n", r.Stopped)
	}
}

// Write prints the fastchess-style block and the stop reason.
func (r *PairReport) Write(w io.Writer) {
	r.Summary.Write(w)
	if r.Stopped != "" {
		fmt.Fprintf(w, "Stopped early: %s\n", r.Stopped)
	}
}

// results is the shared, locked state of a running match.
type results struct {
	mu    sync.Mutex
	file  *os.File
	games map[[2]uint64]GameRecord // (seed, game) → record
}

// loadResults reads an existing results file, keeping lines of this match.
// A torn last line (a killed run) is dropped and the file truncated there.
func loadResults(path, nameA, nameB string) (*results, error) {
	r := &results{games: map[[2]uint64]GameRecord{}}
	if path == "" {
		return r, nil
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(f)
	var good int64
	lineNo := 0
	for {
		line, err := br.ReadString('\n')
		if err == io.EOF {
			if strings.TrimSpace(line) != "" {
				// Unterminated last line: a killed run. Drop it.
				break
			}
			break
		}
		if err != nil {
			f.Close()
			return nil, err
		}
		lineNo++
		var g GameRecord
		if jerr := json.Unmarshal([]byte(line), &g); jerr != nil {
			f.Close()
			return nil, fmt.Errorf("%s:%d: not a game record: %v", path, lineNo, jerr)
		}
		if g.NameA != nameA || g.NameB != nameB {
			f.Close()
			return nil, fmt.Errorf("%s:%d: record of %q vs %q, but this match is %q vs %q (use another --results file)", path, lineNo, g.NameA, g.NameB, nameA, nameB)
		}
		r.games[[2]uint64{g.Seed, uint64(g.Game)}] = g
		good += int64(len(line))
	}
	if err := f.Truncate(good); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	r.file = f
	return r, nil
}

func (r *results) add(g GameRecord) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.games[[2]uint64{g.Seed, uint64(g.Game)}] = g
	if r.file == nil {
		return nil
	}
	b, err := json.Marshal(g)
	if err != nil {
		return err
	}
	_, err = r.file.Write(append(b, '\n'))
	return err
}

func (r *results) get(seed uint64, game int) (GameRecord, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	g, ok := r.games[[2]uint64{seed, uint64(game)}]
	return g, ok
}

func (r *results) close() {
	if r.file != nil {
		r.file.Close()
	}
}

func marshalInfo(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	return b
}

// gameKey is one game of a match: a seed and a side (or player) index.
type gameKey struct {
	seed uint64
	game int
}

// runJobs plays the jobs not already recorded, at most conc at once, calling
// after() under a lock when each finishes; after returning true stops the
// match. It returns the stop reason.
func runJobs(ctx context.Context, cfg Config, res *results, jobs []gameKey, play func(context.Context, gameKey) (GameRecord, error), after func() (stop, status string)) (string, error) {
	conc := max(cfg.Concurrency, 1)
	var todo []gameKey
	for _, j := range jobs {
		if _, ok := res.get(j.seed, j.game); !ok {
			todo = append(todo, j)
		}
	}
	var bar *progressbar.ProgressBar
	if cfg.Progress != nil {
		bar = progressbar.NewOptions(len(jobs),
			progressbar.OptionSetWriter(cfg.Progress),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(cfg.Progress) }))
		_ = bar.Set(len(jobs) - len(todo))
	}
	var mu sync.Mutex
	stop, status := after()
	if bar != nil {
		bar.Describe(status)
	}
	if stop != "" {
		return stop, nil
	}
	if cfg.Remote != nil {
		err := runRemote(ctx, cfg, res, todo, func(j gameKey, rec GameRecord) (bool, error) {
			rec.Seed, rec.Game, rec.NameA, rec.NameB = j.seed, j.game, cfg.NameA, cfg.NameB
			if err := res.add(rec); err != nil {
				return false, err
			}
			s, status := after()
			if bar != nil {
				bar.Describe(status)
				_ = bar.Add(1)
			}
			if s != "" {
				stop = s
				return true, nil
			}
			return false, nil
		})
		if bar != nil {
			_ = bar.Exit()
		}
		if err != nil {
			return stop, err
		}
		if stop == "" && ctx.Err() != nil {
			return "", ctx.Err()
		}
		return stop, nil
	}
	gctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ab := &aborter{cancel: cancel}
	g, gctx := errgroup.WithContext(gctx)
	g.SetLimit(conc)
	for _, j := range todo {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			if gctx.Err() != nil {
				return nil
			}
			pctx := context.WithValue(gctx, abortKey{}, func(err error) {
				ab.abort(fmt.Errorf("seed %d game %d: %w", j.seed, j.game, err))
			})
			if cfg.GameTimeout > 0 {
				var c context.CancelFunc
				pctx, c = context.WithTimeout(pctx, cfg.GameTimeout)
				defer c()
			}
			start := time.Now()
			rec, err := safePlay(pctx, j, play)
			if err != nil {
				if gctx.Err() != nil && errors.Is(err, context.Canceled) {
					return nil // stopped by SPRT or the user
				}
				return fmt.Errorf("seed %d game %d: %w", j.seed, j.game, err)
			}
			if gctx.Err() != nil {
				return nil // stopped (SPRT or user): a game cut short is not a result
			}
			rec.Seed, rec.Game, rec.NameA, rec.NameB = j.seed, j.game, cfg.NameA, cfg.NameB
			rec.Millis = time.Since(start).Milliseconds()
			if err := res.add(rec); err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			s, status := after()
			if bar != nil {
				bar.Describe(status)
				_ = bar.Add(1)
			}
			if s != "" && stop == "" {
				stop = s
				cancel()
			}
			return nil
		})
	}
	err := g.Wait()
	if bar != nil {
		_ = bar.Exit()
	}
	if aerr := ab.error(); aerr != nil {
		return stop, aerr
	}
	if err != nil {
		return stop, err
	}
	if stop == "" && ctx.Err() != nil {
		return "", ctx.Err()
	}
	return stop, nil
}

// abortKey is the context key of a game's abort function.
type abortKey struct{}

// AbortMatch reports a harness error in the game ctx belongs to (for
// example a bot command the shell cannot run): RunPairs or RunScores stop
// the match without counting that game and return err. It reports whether
// a match was listening; outside a match it does nothing. StartProcess
// calls it for commands that end with ErrCannotRun.
func AbortMatch(ctx context.Context, err error) bool {
	if f, ok := ctx.Value(abortKey{}).(func(error)); ok && f != nil {
		f(err)
		return true
	}
	return false
}

// aborter keeps the first harness error reported by a game.
type aborter struct {
	mu     sync.Mutex
	err    error
	cancel context.CancelFunc
}

func (a *aborter) abort(err error) {
	a.mu.Lock()
	if a.err == nil {
		a.err = err
	}
	a.mu.Unlock()
	a.cancel()
}

func (a *aborter) error() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}

func safePlay(ctx context.Context, j gameKey, play func(context.Context, gameKey) (GameRecord, error)) (rec GameRecord, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic in game: %v", p)
		}
	}()
	return play(ctx, j)
}

func (cfg Config) check() error {
	if cfg.NameA == "" {
		return errors.New("arena: NameA is empty")
	}
	if cfg.SPRT != nil {
		if err := cfg.SPRT.Validate(); err != nil {
			return err
		}
	}
	if len(cfg.seeds()) == 0 {
		return errors.New("arena: no seeds to play (set Pairs or Seeds)")
	}
	return nil
}

// RunPairs plays every seed twice with sides swapped and reports W/L/D,
// pentanomial counts, Elo and the SPRT.
func RunPairs(ctx context.Context, cfg Config, play PlayFunc) (*PairReport, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if cfg.NameB == "" {
		return nil, errors.New("arena: NameB is empty")
	}
	res, err := loadResults(cfg.Results, cfg.NameA, cfg.NameB)
	if err != nil {
		return nil, err
	}
	defer res.close()
	return runPairsOn(ctx, cfg, res, play)
}

func runPairsOn(ctx context.Context, cfg Config, res *results, play PlayFunc) (*PairReport, error) {
	seeds := cfg.seeds()
	var jobs []gameKey
	for _, s := range seeds {
		jobs = append(jobs, gameKey{s, 0}, gameKey{s, 1})
	}
	summarize := func() (Summary, []GameRecord) {
		var wdl WDL
		var p Ptnml
		var games []GameRecord
		for _, s := range seeds {
			g0, ok0 := res.get(s, 0)
			g1, ok1 := res.get(s, 1)
			var r0, r1 Result
			if ok0 {
				r0, _ = ParseResult(g0.Result)
				wdl = wdl.Add(r0)
				games = append(games, g0)
			}
			if ok1 {
				r1, _ = ParseResult(g1.Result)
				wdl = wdl.Add(r1)
				games = append(games, g1)
			}
			if ok0 && ok1 {
				p = p.AddPair(r0, r1)
			}
		}
		return Summarize(cfg.NameA, cfg.NameB, wdl, &p, cfg.SPRT), games
	}
	after := func() (string, string) {
		sum, _ := summarize()
		status := fmt.Sprintf("%s vs %s %.1f/%d", cfg.NameA, cfg.NameB, float64(sum.WDL.W)+float64(sum.WDL.D)/2, sum.WDL.N())
		if st := sum.SPRT; st != nil {
			status += fmt.Sprintf(" LLR %.2f (%.0f%%)", st.LLR, 100*st.Progress)
			if st.Verdict != Continue {
				return fmt.Sprintf("SPRT accepted %s (LLR %.2f)", st.Verdict, st.LLR), status
			}
		}
		return "", status
	}
	wrapped := func(ctx context.Context, j gameKey) (GameRecord, error) {
		o, err := play(ctx, j.seed, j.game == 1)
		if err != nil {
			return GameRecord{}, err
		}
		if o.Result < Loss || o.Result > Win {
			return GameRecord{}, fmt.Errorf("play returned invalid result %d", o.Result)
		}
		return GameRecord{Result: o.Result.String(), Reason: o.Reason, Info: marshalInfo(o.Info)}, nil
	}
	stop, err := runJobs(ctx, cfg, res, jobs, wrapped, after)
	sum, games := summarize()
	rep := &PairReport{Summary: sum, Games: games, Stopped: stop}
	return rep, err
}

// RunScores plays every seed once per player (A, and B when NameB is set)
// and reports per-player samples, paired differences and seed duels.
func RunScores(ctx context.Context, cfg Config, play ScoreFunc) (*ScoreReport, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	res, err := loadResults(cfg.Results, cfg.NameA, cfg.NameB)
	if err != nil {
		return nil, err
	}
	defer res.close()
	return runScoresOn(ctx, cfg, res, play)
}

func runScoresOn(ctx context.Context, cfg Config, res *results, play ScoreFunc) (*ScoreReport, error) {
	seeds := cfg.seeds()
	players := 1
	if cfg.NameB != "" {
		players = 2
	}
	var jobs []gameKey
	for _, s := range seeds {
		for p := range players {
			jobs = append(jobs, gameKey{s, p})
		}
	}
	build := func() *ScoreReport {
		rep := &ScoreReport{NameA: cfg.NameA, NameB: cfg.NameB}
		var a, b []float64
		for _, s := range seeds {
			g0, ok0 := res.get(s, 0)
			if players == 1 {
				if ok0 {
					a = append(a, *g0.Score)
					rep.Seeds = append(rep.Seeds, s)
					rep.Games = append(rep.Games, g0)
				}
				continue
			}
			g1, ok1 := res.get(s, 1)
			if ok0 && ok1 {
				a = append(a, *g0.Score)
				b = append(b, *g1.Score)
				rep.Seeds = append(rep.Seeds, s)
				rep.Games = append(rep.Games, g0, g1)
			}
		}
		rep.A = Describe(a)
		if players == 2 {
			p, _ := ComparePaired(a, b)
			rep.Paired = &p
			d := Summarize(cfg.NameA, cfg.NameB, p.Duels, nil, cfg.SPRT)
			rep.Duels = &d
		}
		return rep
	}
	after := func() (string, string) {
		rep := build()
		status := fmt.Sprintf("%s mean %s", cfg.NameA, fmtG(rep.A.Mean))
		if players == 1 {
			return "", status
		}
		status += fmt.Sprintf(", diff %s", fmtG(rep.Paired.Diff.Mean))
		if st := rep.Duels.SPRT; st != nil {
			status += fmt.Sprintf(" LLR %.2f", st.LLR)
			if st.Verdict != Continue {
				return fmt.Sprintf("seed-duel SPRT accepted %s (LLR %.2f)", st.Verdict, st.LLR), status
			}
		}
		return "", status
	}
	wrapped := func(ctx context.Context, j gameKey) (GameRecord, error) {
		o, err := play(ctx, j.seed, j.game)
		if err != nil {
			return GameRecord{}, err
		}
		sc := o.Score
		return GameRecord{Score: &sc, Reason: o.Reason, Info: marshalInfo(o.Info)}, nil
	}
	stop, err := runJobs(ctx, cfg, res, jobs, wrapped, after)
	rep := build()
	rep.Stopped = stop
	sort.Slice(rep.Games, func(i, j int) bool {
		if rep.Games[i].Seed != rep.Games[j].Seed {
			return rep.Games[i].Seed < rep.Games[j].Seed
		}
		return rep.Games[i].Game < rep.Games[j].Game
	})
	return rep, err
}

// ReadResults reads a results file written by RunPairs or RunScores.
func ReadResults(path string) ([]GameRecord, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseResults(f, path)
}

// ParseResults reads the game records of a results file from r (an upload,
// say); name prefixes the line numbers of errors.
func ParseResults(r io.Reader, name string) ([]GameRecord, error) {
	path := name
	var out []GameRecord
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var g GameRecord
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			return out, fmt.Errorf("%s:%d: not a game record: %v", path, n, err)
		}
		out = append(out, g)
	}
	return out, sc.Err()
}

// SummarizeRecords rebuilds a match's statistics from its game records:
// a *PairReport for two-player games, a *ScoreReport for score games.
func SummarizeRecords(games []GameRecord, s *SPRT) (any, error) {
	if len(games) == 0 {
		return nil, errors.New("no games")
	}
	nameA, nameB := games[0].NameA, games[0].NameB
	var seeds []uint64
	seen := map[uint64]bool{}
	for _, g := range games {
		if g.NameA != nameA || g.NameB != nameB {
			return nil, fmt.Errorf("records of two matches mixed: %q vs %q and %q vs %q", nameA, nameB, g.NameA, g.NameB)
		}
		if !seen[g.Seed] {
			seen[g.Seed] = true
			seeds = append(seeds, g.Seed)
		}
	}
	res := &results{games: map[[2]uint64]GameRecord{}}
	for _, g := range games {
		res.games[[2]uint64{g.Seed, uint64(g.Game)}] = g
	}
	cfg := Config{NameA: nameA, NameB: nameB, Seeds: seeds, SPRT: s}
	// Only what was recorded counts: with a cancelled context the runner plays
	// nothing, so the game missing from a pair cut in half (a match stopped
	// mid-pair) is left out, and that pair's one game counts in W/L/D only.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	never := func() error { return errors.New("not replayed") }
	var rep any
	var err error
	if games[0].Score != nil {
		rep, err = runScoresOn(ctx, cfg, res, func(context.Context, uint64, int) (ScoreOutcome, error) { return ScoreOutcome{}, never() })
	} else {
		rep, err = runPairsOn(ctx, cfg, res, func(context.Context, uint64, bool) (Outcome, error) { return Outcome{}, never() })
	}
	if errors.Is(err, context.Canceled) {
		err = nil
	}
	return rep, err
}
