// Tests the solved start: small-well features, targets, and a generation 0
// trained on the solved wells of height 4.
package train

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/yomi-ai/yomi/hatetris"
)

// TestSmallFeaturesOfFullHeight: a "small" well of 16 rows is a whole well,
// so its features are Features'; smaller ones have h + 10·(h−2) patterns.
func TestSmallFeaturesOfFullHeight(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for range 50 {
		var w hatetris.Well
		for y := hatetris.Bar; y < hatetris.Height; y++ {
			w[y] = uint16(r.IntN(hatetris.FullRow))
		}
		a, _, err := Features(nil, nil, &w)
		if err != nil {
			t.Fatal(err)
		}
		b, _, err := SmallFeatures(nil, nil, &w, Rows)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a, b) {
			t.Fatalf("well\n%v: Features %v, SmallFeatures %v", w, a, b)
		}
	}
	for _, h := range []int{3, 4, 5, 6, 7} {
		w := hatetris.SmallWell(h)
		w[hatetris.Bar+h-1] = 0b1011
		f, _, err := SmallFeatures(nil, nil, &w, h)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, x := range f {
			n += int(x.Count)
		}
		if want := h + hatetris.Width*(h-2); n != want {
			t.Errorf("height %d: %d patterns, want %d", h, n, want)
		}
	}
	for _, h := range []int{2, 17} {
		w := hatetris.SmallWell(4)
		if _, _, err := SmallFeatures(nil, nil, &w, h); err == nil {
			t.Errorf("height %d: no error", h)
		}
	}
}

func TestSolvedTarget(t *testing.T) {
	for _, c := range []struct {
		lines int
		norm  float64
		want  float32
	}{{0, 12, -1}, {6, 12, 0}, {12, 12, 1}, {3, 12, -0.5}, {9, 4, 1}, {1, 4, -0.5}} {
		if got := solvedTarget(c.lines, c.norm); got != c.want {
			t.Errorf("lines %d norm %g: %g, want %g", c.lines, c.norm, got, c.want)
		}
	}
}

// TestSolvedStart: a run with --start solved (height 4 only) solves the
// small wells, trains on about half of them and writes solved.json.
func TestSolvedStart(t *testing.T) {
	c := tinyConfig()
	c.Gens, c.Start, c.SolvedHeight, c.MaxDepth, c.Epochs = 0, StartSolved, 4, 8, 2
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	r := &Runner{Dir: dir, Config: c, Workers: 2}
	if _, err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	var out solvedOut
	if err := readJSON(filepath.Join(dir, "gen-000", "solved.json"), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Heights) != 1 || out.Heights[0].Best != 1 || out.Heights[0].Wells != 26809 || out.Norm != 1 || out.Epochs < 1 {
		t.Fatalf("solved.json %+v", out)
	}
	if half := 26809 / 2; out.Samples < half*9/10 || out.Samples > half*11/10 {
		t.Fatalf("%d samples, want about %d", out.Samples, half)
	}
}

func TestSolvedConfig(t *testing.T) {
	for _, f := range []func(*Config){
		func(c *Config) { c.Start = "solve" },
		func(c *Config) { c.Start, c.SolvedHeight = StartSolved, 3 },
		func(c *Config) { c.Start, c.SolvedHeight = StartSolved, 8 },
		func(c *Config) { c.Start, c.SolvedFrac = StartSolved, 1.5 },
		func(c *Config) { c.Start, c.SolvedNorm = StartSolved, -1 },
	} {
		c := DefaultConfig()
		f(&c)
		if c.Validate() == nil {
			t.Errorf("%+v: no error", c)
		}
	}
}

// TestSolvedStartResumesAfterKill: a run with the solved start killed while
// it solves and while it trains generation 0 resumes to the same net,
// solved.json (but its time) and game as an uninterrupted run.
func TestSolvedStartResumesAfterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("solves the height-4 wells three times")
	}
	c := tinyConfig()
	c.Gens, c.Start, c.SolvedHeight, c.MaxDepth, c.Epochs = 0, StartSolved, 4, 8, 3
	full := t.TempDir()
	want, err := (&Runner{Dir: full, Config: c, Workers: 2}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, kill := range []struct {
		phase string
		done  int
	}{{"solved", 0}, {"solved", 2}} {
		ctx, cancel := context.WithCancel(context.Background())
		killed := false
		r := &Runner{Dir: dir, Config: c, Workers: 1, Progress: func(_ int, ph string, done, _ int, _ string) {
			if ph == kill.phase && done == kill.done {
				killed = true
				cancel()
			}
		}}
		_, err := r.Run(ctx)
		cancel()
		if !killed || !errors.Is(err, context.Canceled) {
			t.Fatalf("kill at %+v: killed %v, err %v", kill, killed, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "gen-000", "net.yomi")); err == nil {
			t.Fatalf("kill at %+v: net.yomi written by a killed start", kill)
		}
	}
	got, err := (&Runner{Dir: dir, Config: c, Workers: 1}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	a, b := runFiles(t, full), runFiles(t, dir)
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("%d files after kills, %d uninterrupted", len(b), len(a))
	}
	for name, x := range a {
		if !bytes.Equal(b[name], x) {
			t.Errorf("%s differs after kills and resumes", name)
		}
	}
	var so, sg solvedOut
	if err := readJSON(filepath.Join(full, "gen-000", "solved.json"), &so); err != nil {
		t.Fatal(err)
	}
	if err := readJSON(filepath.Join(dir, "gen-000", "solved.json"), &sg); err != nil {
		t.Fatal(err)
	}
	so.Seconds, sg.Seconds = 0, 0
	for _, o := range []*solvedOut{&so, &sg} {
		for i := range o.Heights {
			o.Heights[i].Seconds = 0
		}
	}
	if !reflect.DeepEqual(so, sg) {
		t.Errorf("solved.json %+v after kills, %+v uninterrupted", sg, so)
	}
	if want[0].Score != got[0].Score || want[0].ValLoss != got[0].ValLoss {
		t.Errorf("gen 0: %+v after kills, %+v uninterrupted", got[0], want[0])
	}
}
