package tune

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// toyWeights is a toy evaluator's weights struct.
type toyWeights struct {
	X    float64 `json:"x"`
	Y    int     `json:"y"`
	Arr  [2]float64
	Flag bool `json:"flag"`
}

// toyGame is a score game whose score is a noisy concave function of the
// weights, best at x = 3, y = −2: a paired seed gives both sides the same
// noise draw plus a side-specific one.
func toyGame(scale float64) Game {
	score := func(x, y float64, seed uint64, side uint64) float64 {
		r := rand.New(rand.NewPCG(seed, side))
		return 100 - (x-3)*(x-3) - (y+2)*(y+2) + 2*r.NormFloat64()
	}
	return func(ctx context.Context, it Iteration) (Outcome, error) {
		var o Outcome
		o.Scored = true
		for _, s := range it.Seeds {
			// integer weights are played rounded, as the bots read them
			p := score(it.Plus[0], math.Round(it.Plus[1]), s, 0)
			m := score(it.Minus[0], math.Round(it.Minus[1]), s, 1)
			r := ScoreResult(p, m, scale)
			o.Result += r
			switch {
			case r > 0:
				o.Wins++
			case r < 0:
				o.Losses++
			default:
				o.Draws++
			}
			o.PlusScore += p / float64(len(it.Seeds))
			o.MinusScore += m / float64(len(it.Seeds))
		}
		return o, nil
	}
}

const toySpec = `{"params": [
 {"name": "x", "start": 0, "min": -10, "max": 10, "c_end": 0.5, "r_end": 0.5},
 {"name": "y", "min": -10, "max": 10, "c_end": 0.5, "r_end": 0.5}
]}`

func toyConfig(t *testing.T, dir string) Config {
	t.Helper()
	base := toyWeights{X: 0, Y: 4}
	sp, err := ParseSpec([]byte(toySpec), &base)
	if err != nil {
		t.Fatal(err)
	}
	return Config{Spec: sp, Iterations: 60, PairsPerIter: 4, Seed: 7, SeedBase: 1000, Dir: dir, Weights: &base, Setup: json.RawMessage(`{"game":"toy"}`)}
}

func TestSPSAMovesTowardOptimum(t *testing.T) {
	for _, scale := range []float64{0, 10} {
		c := toyConfig(t, t.TempDir())
		st, err := Run(context.Background(), c, toyGame(scale))
		if err != nil {
			t.Fatal(err)
		}
		d0 := math.Hypot(0-3, 4+2)
		d := math.Hypot(st.Theta[0]-3, st.Theta[1]+2)
		t.Logf("scale %g: θ = %.2f, %.2f (distance to the optimum %.2f, from %.2f)", scale, st.Theta[0], st.Theta[1], d, d0)
		if d > d0/3 {
			t.Errorf("scale %g: θ = %v ended %.2f from the optimum (3, −2), started %.2f away", scale, st.Theta, d, d0)
		}
		if st.Done != c.Iterations || len(st.Steps) != c.Iterations {
			t.Errorf("done %d, %d steps; want %d", st.Done, len(st.Steps), c.Iterations)
		}
		// the outputs are there and the weights file is the evaluator's
		var w toyWeights
		b, err := os.ReadFile(filepath.Join(c.Dir, WeightsFile))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &w); err != nil {
			t.Fatal(err)
		}
		if w.X != st.Theta[0] || w.Y != int(math.Round(st.Theta[1])) {
			t.Errorf("weights.json %+v, θ %v", w, st.Theta)
		}
		csv, err := os.ReadFile(filepath.Join(c.Dir, TrajectoryFile))
		if err != nil {
			t.Fatal(err)
		}
		if lines := strings.Count(string(csv), "\n"); lines != c.Iterations+2 {
			t.Errorf("trajectory.csv has %d lines, want %d", lines, c.Iterations+2)
		}
		if fi, err := os.Stat(filepath.Join(c.Dir, PlotFile)); err != nil || fi.Size() == 0 {
			t.Errorf("no plot: %v", err)
		}
	}
}

func TestSPSAResumeAfterKill(t *testing.T) {
	whole := toyConfig(t, t.TempDir())
	want, err := Run(context.Background(), whole, toyGame(0))
	if err != nil {
		t.Fatal(err)
	}

	c := toyConfig(t, t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	c.After = func(s *State) {
		if s.Done == 7 {
			cancel()
		}
	}
	// the kill lands mid-iteration too: the game sees the cancel and the
	// iteration is not counted
	game := toyGame(0)
	killed := 0
	mid := func(ctx context.Context, it Iteration) (Outcome, error) {
		if it.Index == 7 && killed == 0 {
			killed++
			return Outcome{}, context.Canceled
		}
		return game(ctx, it)
	}
	st, err := Run(ctx, c, mid)
	if !errors.Is(err, context.Canceled) || st.Done != 7 {
		t.Fatalf("killed run: done %d, err %v; want 7, canceled", st.Done, err)
	}
	saved, err := LoadState(c.Dir)
	if err != nil || saved.Done != 7 {
		t.Fatalf("saved state: %v, %v", saved, err)
	}
	c.After = nil
	got, err := Run(context.Background(), c, game)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Theta, want.Theta) {
		t.Errorf("resumed θ %v, uninterrupted %v", got.Theta, want.Theta)
	}
	a, _ := os.ReadFile(filepath.Join(whole.Dir, WeightsFile))
	b, _ := os.ReadFile(filepath.Join(c.Dir, WeightsFile))
	if string(a) != string(b) {
		t.Errorf("weights differ:\n%s\n%s", a, b)
	}

	// another run in the same directory is refused
	other := toyConfig(t, c.Dir)
	other.Seed = 8
	if _, err := Run(context.Background(), other, game); err == nil || !strings.Contains(err.Error(), "another run") {
		t.Errorf("a different run in the same dir: err %v", err)
	}
}

func TestSPSADeterministicSigns(t *testing.T) {
	a, b := signs(1, 5, 8), signs(1, 5, 8)
	if !slices.Equal(a, b) {
		t.Fatalf("signs differ: %v %v", a, b)
	}
	if slices.Equal(signs(1, 5, 64), signs(1, 6, 64)) || slices.Equal(signs(1, 5, 64), signs(2, 5, 64)) {
		t.Error("signs do not depend on the iteration or the seed")
	}
	for _, s := range signs(3, 0, 64) {
		if s != 1 && s != -1 {
			t.Fatalf("sign %d", s)
		}
	}
}

func TestScheduleEnds(t *testing.T) {
	sp := Spec{Alpha: DefaultAlpha, Gamma: DefaultGamma}
	p := Param{CEnd: 2, REnd: 0.01}
	n := 1000
	ck, ak := sp.schedule(p, n-1, n)
	if math.Abs(ck-2) > 1e-9 || math.Abs(ak/(ck*ck)-0.01) > 1e-9 {
		t.Errorf("last iteration: c_k %g (want 2), a_k/c_k² %g (want 0.01)", ck, ak/(ck*ck))
	}
	c0, _ := sp.schedule(p, 0, n)
	if c0 <= ck {
		t.Errorf("c_0 %g not above c_end %g", c0, ck)
	}
}

func TestBadSpecs(t *testing.T) {
	base := toyWeights{X: 1, Y: 2}
	for _, tc := range []struct{ spec, want string }{
		{`{"params": [{"name": "z", "min": 0, "max": 1, "c_end": 0.1}]}`, `unknown weight "z"`},
		{`{"params": [{"name": "flag", "min": 0, "max": 1, "c_end": 0.1}]}`, `not a number`},
		{`{"params": [{"name": "Arr", "min": 0, "max": 1, "c_end": 0.1}]}`, `is an array`},
		{`{"params": [{"name": "Arr[2]", "min": 0, "max": 1, "c_end": 0.1}]}`, `out of range`},
		{`{"params": [{"name": "x", "min": 1, "max": 1, "c_end": 0.1}]}`, `min < max`},
		{`{"params": [{"name": "x", "min": 5, "max": 6, "c_end": 0.1}]}`, `start 1 is outside`},
		{`{"params": [{"name": "x", "min": 0, "max": 6}]}`, `c_end must be > 0`},
		{`{"params": [{"name": "x", "min": 0, "max": 6, "c_end": 1, "r_end": -1}]}`, `r_end`},
		{`{"params": [{"name": "x", "min": 0, "max": 6, "c_end": 1}, {"name": "x", "min": 0, "max": 6, "c_end": 1}]}`, `twice`},
		{`{"params": [{"name": "x", "min": 0, "max": 6, "cend": 1}]}`, `unknown field "cend"`},
		{`{"params": []}`, `no params`},
		{`{"params": [{"name": "x", "min": 0, "max": 6, "c_end": 1}], "alpha": 2}`, `alpha`},
		{`[1]`, `spec:`},
	} {
		_, err := ParseSpec([]byte(tc.spec), &base)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.spec, err, tc.want)
		}
	}
	sp, err := ParseSpec([]byte(`{"params": [{"name": "Arr[1]", "min": -1, "max": 1, "c_end": 0.1}]}`), &base)
	if err != nil || *sp.Params[0].Start != 0 || sp.Params[0].REnd != DefaultREnd {
		t.Errorf("array element: %+v, %v", sp, err)
	}
}
