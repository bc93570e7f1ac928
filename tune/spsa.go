// Package tune tunes an evaluator's weights by SPSA as fishtest runs it:
// each iteration perturbs every tuned weight by ±c_k at once (signs from a
// PCG seeded by the run seed and the iteration), plays game pairs (or
// paired seeds of a score game) between θ+c_kδ and θ−c_kδ on the same
// seeds, and steps θ by a_k/c_k · result · δ, clipped to the bounds. With N
// the run's game pairs and k the pairs played before the iteration:
//
//	c_k = c/(k+1)^γ,  c = c_end·N^γ
//	a_k = a/(A+k+1)^α, a = r_end·c_end²·(A+N)^α
//
// so c_k ends at c_end and a_k/c_k² at r_end. The run's state (θ, the
// iteration, the trajectory) is written atomically to the run directory
// after each iteration; Run with the same directory resumes it. Games are
// the caller's (a Game function: cmd/yomi plays them as fabric jobs).
//
// A tuned weights file is a candidate, not a result: it becomes a default
// only after a confirming match against the start on seeds the run did not
// use (State.Seeds tells which it did; `yomi tune confirm` plays it).
package tune

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/yomi-ai/yomi/internal/atomicfile"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Iteration is one iteration's games to play.
type Iteration struct {
	Index int // 0-based
	// Plus and Minus are θ+c_kδ and θ−c_kδ, clipped, in spec order.
	Plus, Minus []float64
	// Seeds get one game pair each: both sides of a versus game, or both
	// players of a score game.
	Seeds []uint64
}

// Outcome is an iteration's games from θ+'s side.
type Outcome struct {
	// Result is the sum over the pairs of θ+'s wins minus losses (versus)
	// or of ScoreResult (score games).
	Result float64 `json:"result"`
	Wins   int     `json:"wins"`
	Losses int     `json:"losses"`
	Draws  int     `json:"draws"`
	// PlusScore and MinusScore are the mean scores of score games.
	PlusScore  float64 `json:"plus_score,omitempty"`
	MinusScore float64 `json:"minus_score,omitempty"`
	Scored     bool    `json:"scored,omitempty"`
	// Notes are game-specific counts (seigot: each side's game overs).
	Notes map[string]float64 `json:"notes,omitempty"`
}

// Game plays an iteration's games.
type Game func(ctx context.Context, it Iteration) (Outcome, error)

// ScoreResult is one paired seed's result for θ+: the sign of plus−minus
// with scale 0, else clamp((plus−minus)/scale, −1, 1).
func ScoreResult(plus, minus, scale float64) float64 {
	d := plus - minus
	if scale <= 0 {
		switch {
		case d > 0:
			return 1
		case d < 0:
			return -1
		}
		return 0
	}
	return max(-1, min(1, d/scale))
}

// Config is a tuning run.
type Config struct {
	Spec         Spec
	Iterations   int    // N/PairsPerIter
	PairsPerIter int    // game pairs (seeds) per iteration
	Seed         uint64 // perturbation signs
	// SeedBase is the first game seed: iteration i plays seeds SeedBase +
	// i·PairsPerIter onwards, so a run uses [SeedBase, SeedBase +
	// Iterations·PairsPerIter).
	SeedBase uint64
	// Dir is the run directory (state.json, trajectory.csv, weights.json,
	// trajectory.png).
	Dir string
	// Weights points at the evaluator's weights struct the tuned values
	// are written into for weights.json (it is not modified).
	Weights any
	// Setup records the game's settings; a resume with other ones is
	// refused.
	Setup json.RawMessage
	// After, if set, is called after each iteration is saved.
	After func(*State)
}

// State is a run's saved state (state.json).
type State struct {
	Spec         Spec            `json:"spec"`
	Setup        json.RawMessage `json:"setup,omitempty"`
	Seed         uint64          `json:"seed"`
	SeedBase     uint64          `json:"seed_base"`
	Iterations   int             `json:"iterations"`
	PairsPerIter int             `json:"pairs_per_iter"`
	// Done is the number of iterations played.
	Done  int       `json:"done"`
	Theta []float64 `json:"theta"`
	Steps []Step    `json:"steps"`
}

// Step is one played iteration.
type Step struct {
	Index   int       `json:"iter"`
	C       []float64 `json:"c"`     // c_k per parameter
	Delta   []int     `json:"delta"` // ±1 per parameter
	Outcome Outcome   `json:"outcome"`
	Theta   []float64 `json:"theta"` // after the step
	Millis  int64     `json:"ms"`
}

// Seeds returns the game seeds the run uses, [first, end).
func (s *State) Seeds() (first, end uint64) {
	return s.SeedBase, s.SeedBase + uint64(s.Iterations*s.PairsPerIter)
}

// File names in a run directory.
const (
	StateFile      = "state.json"
	TrajectoryFile = "trajectory.csv"
	WeightsFile    = "weights.json"
	PlotFile       = "trajectory.png"
)

// LoadState reads a run directory's state.
func LoadState(dir string) (*State, error) {
	b, err := os.ReadFile(filepath.Join(dir, StateFile))
	if err != nil {
		return nil, err
	}
	var s State
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, StateFile), err)
	}
	return &s, nil
}

func (c Config) fresh() *State {
	s := &State{Spec: c.Spec, Setup: c.Setup, Seed: c.Seed, SeedBase: c.SeedBase, Iterations: c.Iterations, PairsPerIter: c.PairsPerIter}
	for _, p := range c.Spec.Params {
		s.Theta = append(s.Theta, *p.Start)
	}
	return s
}

// sameRun tells why the saved state s is not the run c describes.
func (c Config) sameRun(s *State) error {
	want := c.fresh()
	a, _ := json.Marshal(struct {
		Spec                     Spec
		Setup                    json.RawMessage
		Seed, SeedBase           uint64
		Iterations, PairsPerIter int
	}{want.Spec, compact(want.Setup), want.Seed, want.SeedBase, want.Iterations, want.PairsPerIter})
	b, _ := json.Marshal(struct {
		Spec                     Spec
		Setup                    json.RawMessage
		Seed, SeedBase           uint64
		Iterations, PairsPerIter int
	}{s.Spec, compact(s.Setup), s.Seed, s.SeedBase, s.Iterations, s.PairsPerIter})
	if !bytes.Equal(a, b) {
		return fmt.Errorf("tune: %s holds another run (spec, game settings, seeds or iterations differ): resume it with its own settings (--resume) or use another --run-dir", c.Dir)
	}
	if len(s.Theta) != len(c.Spec.Params) || s.Done < 0 || s.Done > s.Iterations || len(s.Steps) != s.Done {
		return fmt.Errorf("tune: %s: state.json is inconsistent", c.Dir)
	}
	return nil
}

func compact(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return b
	}
	return out.Bytes()
}

func (c Config) check() error {
	switch {
	case c.Iterations < 1:
		return errors.New("tune: want at least 1 iteration")
	case c.PairsPerIter < 1:
		return errors.New("tune: want at least 1 game pair per iteration")
	case c.Dir == "":
		return errors.New("tune: no run directory")
	case len(c.Spec.Params) == 0 || c.Spec.Alpha == 0:
		return errors.New("tune: spec not checked (use ParseSpec or Spec.Check)")
	}
	return nil
}

// schedule returns c_k and a_k of parameter p before the iteration that
// starts after k game pairs of n.
func (s Spec) schedule(p Param, k, n int) (ck, ak float64) {
	A := s.A
	if A == 0 {
		A = 0.1 * float64(n)
	}
	c := p.CEnd * math.Pow(float64(n), s.Gamma)
	a := p.REnd * p.CEnd * p.CEnd * math.Pow(A+float64(n), s.Alpha)
	return c / math.Pow(float64(k+1), s.Gamma), a / math.Pow(A+float64(k+1), s.Alpha)
}

// signs returns iteration i's perturbation: ±1 per parameter from a PCG
// seeded by (seed, i), so a resumed run draws what the first one would.
func signs(seed uint64, i, n int) []int {
	r := rand.New(rand.NewPCG(seed, uint64(i)))
	d := make([]int, n)
	for j := range d {
		d[j] = 1 - 2*int(r.Uint64()>>63)
	}
	return d
}

// plotEvery is the least time between two plots of a running run.
const plotEvery = 10 * time.Second

func clip(x float64, p Param) float64 { return max(p.Min, min(p.Max, x)) }

// Run plays the run c describes from where its directory left off, to
// the last iteration or until ctx ends (then the state saved after the last
// finished iteration stands, and ctx's error is returned).
func Run(ctx context.Context, c Config, play Game) (*State, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return nil, err
	}
	st, err := LoadState(c.Dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		st = c.fresh()
		if err := st.save(c); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, err
	default:
		if err := c.sameRun(st); err != nil {
			return nil, err
		}
	}
	n := c.Iterations * c.PairsPerIter
	sp := c.Spec
	// The plot is drawn at most every plotEvery (it costs about as much
	// as a toy iteration) and when the run stops.
	var plotted time.Time
	plot := func(force bool) error {
		if st.Done == 0 || (!force && time.Since(plotted) < plotEvery) {
			return nil
		}
		plotted = time.Now()
		return Plot(filepath.Join(c.Dir, PlotFile), st)
	}
	defer plot(true)
	for st.Done < c.Iterations {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		i := st.Done
		k := i * c.PairsPerIter
		delta := signs(c.Seed, i, len(sp.Params))
		it := Iteration{Index: i}
		cs := make([]float64, len(sp.Params))
		as := make([]float64, len(sp.Params))
		for j, p := range sp.Params {
			cs[j], as[j] = sp.schedule(p, k, n)
			it.Plus = append(it.Plus, clip(st.Theta[j]+cs[j]*float64(delta[j]), p))
			it.Minus = append(it.Minus, clip(st.Theta[j]-cs[j]*float64(delta[j]), p))
		}
		for j := range c.PairsPerIter {
			it.Seeds = append(it.Seeds, c.SeedBase+uint64(k+j))
		}
		start := time.Now()
		out, err := play(ctx, it)
		if err != nil {
			if ctx.Err() != nil {
				return st, ctx.Err()
			}
			return st, fmt.Errorf("iteration %d: %w", i+1, err)
		}
		if ctx.Err() != nil {
			// the games may be incomplete: the iteration is played again
			return st, ctx.Err()
		}
		theta := make([]float64, len(st.Theta))
		for j, p := range sp.Params {
			theta[j] = clip(st.Theta[j]+as[j]/cs[j]*out.Result*float64(delta[j]), p)
		}
		next := *st
		next.Theta = theta
		next.Done = i + 1
		next.Steps = append(st.Steps[:i:i], Step{Index: i, C: cs, Delta: delta, Outcome: out, Theta: theta, Millis: time.Since(start).Milliseconds()})
		if err := next.save(c); err != nil {
			return st, err
		}
		st = &next
		if err := plot(st.Done == c.Iterations); err != nil {
			return st, err
		}
		if c.After != nil {
			c.After(st)
		}
	}
	return st, nil
}

// save writes state.json (atomically, last: it is what a resume trusts),
// after the trajectory and the weights.
func (s *State) save(c Config) error {
	if err := atomicfile.Write(filepath.Join(c.Dir, TrajectoryFile), s.CSV()); err != nil {
		return err
	}
	if c.Weights != nil {
		w, err := s.WeightsJSON(c.Weights)
		if err != nil {
			return err
		}
		if err := atomicfile.Write(filepath.Join(c.Dir, WeightsFile), w); err != nil {
			return err
		}
	}
	b, err := json.MarshalIndent(s, "", " ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(c.Dir, StateFile), append(b, '\n'))
}

// Weights returns a copy of *base with θ written in (integers rounded).
func (s *State) Weights(base any) (any, error) {
	v := reflect.New(reflect.TypeOf(base).Elem())
	v.Elem().Set(reflect.ValueOf(base).Elem())
	w := v.Interface()
	for j, p := range s.Spec.Params {
		if err := SetWeight(w, p.Name, s.Theta[j]); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// WeightsJSON is Weights as the evaluator's full JSON weights object.
func (s *State) WeightsJSON(base any) ([]byte, error) {
	w, err := s.Weights(base)
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(w, "", " ")
	return append(b, '\n'), err
}

// CSV is the trajectory: one row per iteration with its outcome and θ
// after it (row 0: the start).
func (s *State) CSV() []byte {
	var b bytes.Buffer
	b.WriteString("iter,pairs,result,wins,losses,draws,plus_score,minus_score,ms")
	// the game's notes, every name any iteration gave
	var notes []string
	seen := map[string]bool{}
	for _, st := range s.Steps {
		for k := range st.Outcome.Notes {
			if !seen[k] {
				seen[k] = true
				notes = append(notes, k)
			}
		}
	}
	sort.Strings(notes)
	for _, k := range notes {
		b.WriteString("," + csvQuote(k))
	}
	for _, p := range s.Spec.Params {
		b.WriteString("," + csvQuote(p.Name))
	}
	b.WriteByte('\n')
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 8, 64) }
	b.WriteString("0,0,,,,,,," + strings.Repeat(",", len(notes)))
	for _, p := range s.Spec.Params {
		b.WriteString("," + f(*p.Start))
	}
	b.WriteByte('\n')
	for _, st := range s.Steps {
		o := st.Outcome
		ps, ms := "", ""
		if o.Scored {
			ps, ms = f(o.PlusScore), f(o.MinusScore)
		}
		fmt.Fprintf(&b, "%d,%d,%s,%d,%d,%d,%s,%s,%d", st.Index+1, (st.Index+1)*s.PairsPerIter, f(o.Result), o.Wins, o.Losses, o.Draws, ps, ms, st.Millis)
		for _, k := range notes {
			b.WriteByte(',')
			if x, ok := o.Notes[k]; ok {
				b.WriteString(f(x))
			}
		}
		for _, t := range st.Theta {
			b.WriteString("," + f(t))
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func csvQuote(s string) string {
	for _, r := range s {
		if r == ',' || r == '"' || r == '\n' {
			return strconv.Quote(s)
		}
	}
	return s
}
