// Tests the training cycle: a tiny run is deterministic, does not depend on
// the number of workers, and a run killed in any phase resumes to the same
// files as an uninterrupted one.
package train

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/hatetris/replay"
)

func tinyConfig() Config {
	c := DefaultConfig()
	c.Gens, c.Beam, c.MaxDepth, c.Samples, c.RefineWidth, c.RefineDepth = 2, 12, 20, 2, 4, 3
	c.Hidden, c.Epochs, c.Batch, c.Quiescence = 8, 4, 8, true
	c.Start, c.DistillWidth, c.DistillSamples = StartHeuristic, 6, 2
	return c
}

// runFiles returns the run's deterministic files (nets, samples, targets,
// refine chunks and targets without their timings) by name.
func runFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	for _, pat := range []string{"gen-*/net.yomi", "gen-*/samples.bin", "gen-*/refine-*.bin", "gen-*/distill.bin", "gen-*/" + TargetsFile} {
		fs, _ := filepath.Glob(filepath.Join(dir, pat))
		for _, f := range fs {
			rel, _ := filepath.Rel(dir, f)
			if strings.Contains(rel, "refine-") {
				c, err := readChunk(f)
				if err != nil {
					t.Fatal(err)
				}
				c.Seconds = 0
				var b bytes.Buffer
				for i := range c.X {
					putF32(&b, c.X[i])
					putF32(&b, c.Y[i])
				}
				m[rel] = b.Bytes()
				continue
			}
			if strings.HasSuffix(rel, TargetsFile) {
				ts, err := readTargets(f)
				if err != nil {
					t.Fatal(err)
				}
				var b bytes.Buffer
				for i := range ts.Wells {
					putWell(&b, &ts.Wells[i])
					putF32(&b, ts.T[i])
				}
				b.WriteByte(byte(ts.Died))
				m[rel] = b.Bytes()
				continue
			}
			b, _ := os.ReadFile(f)
			m[rel] = b
		}
	}
	return m
}

func TestRunResumesAfterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three small training cycles")
	}
	cfg := tinyConfig()
	full := t.TempDir()
	r := &Runner{Dir: full, Config: cfg, Workers: 2, chunk: 8}
	table, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(table) != cfg.Gens+1 || table[0].Samples == 0 || table[1].TrainSet <= table[0].TrainSet || table[2].Samples != 0 {
		t.Fatalf("table:\n%s", Table(table))
	}
	t.Logf("\n%s", Table(table))
	want := runFiles(t, full)
	if len(want) < 3+2+4+1 {
		t.Fatalf("only %d files: %v", len(want), want)
	}
	// Every Search replay reaches the score it claims.
	for _, g := range table {
		ms, _, err := replay.Decode(g.Replay)
		if err != nil {
			t.Fatal(err)
		}
		game := hatetris.NewGame(hatetris.Hatetris)
		game.Play(ms)
		if game.Score != g.Score {
			t.Errorf("gen %d: replay scores %d, table says %d", g.Gen, game.Score, g.Score)
		}
	}
	if f, err := os.Open(filepath.Join(full, "progress.png")); err != nil {
		t.Error(err)
	} else if _, err := png.Decode(f); err != nil {
		t.Errorf("progress.png: %v", err)
	}

	// Kill (cancel) the run in each phase in turn, resuming each time, with
	// one worker: the files must equal the uninterrupted two-worker run's.
	dir := t.TempDir()
	type point struct {
		gen   int
		phase string
		done  int
	}
	// A Search killed at depth d resumes from its checkpoint at d+1.
	var searchKilled *point
	firstSearch := -1
	checkResumed := func() {
		if searchKilled != nil && firstSearch != searchKilled.done+1 {
			t.Errorf("search killed at %+v: the next run searched from depth %d, want %d", *searchKilled, firstSearch, searchKilled.done+1)
		}
	}
	for _, kill := range []point{{0, "distill", 2}, {0, "search", 5}, {0, "refine", 16}, {1, "refine", 8}, {1, "learn", 2}, {2, "search", 10}} {
		ctx, cancel := context.WithCancel(context.Background())
		killed := false
		firstSearch = -1
		r := &Runner{Dir: dir, Config: cfg, Workers: 1, chunk: 8, Progress: func(g int, ph string, done, total int, _ string) {
			if searchKilled != nil && g == searchKilled.gen && ph == "search" && firstSearch < 0 {
				firstSearch = done
			}
			if g == kill.gen && ph == kill.phase && done == kill.done {
				killed = true
				cancel()
			}
		}}
		_, err := r.Run(ctx)
		cancel()
		if !killed || !errors.Is(err, context.Canceled) {
			t.Fatalf("kill at %+v: killed %v err %v", kill, killed, err)
		}
		checkResumed()
		searchKilled = nil
		if kill.phase == "search" {
			searchKilled = &kill
			for _, f := range []string{searchCheckpoint, samplesLogFile} {
				if _, err := os.Stat(filepath.Join(r.genDir(kill.gen), f)); err != nil {
					t.Errorf("search killed at %+v: %v", kill, err)
				}
			}
		}
	}
	firstSearch = -1
	r = &Runner{Dir: dir, Config: cfg, Workers: 1, chunk: 8, Progress: func(g int, ph string, done, _ int, _ string) {
		if searchKilled != nil && g == searchKilled.gen && ph == "search" && firstSearch < 0 {
			firstSearch = done
		}
	}}
	table2, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkResumed()
	if left, _ := filepath.Glob(filepath.Join(dir, "gen-*", "search*")); len(left) != len(table) {
		t.Errorf("after the run: %v, want only each generation's search.json", left)
	}
	got := runFiles(t, dir)
	for name, b := range want {
		if !bytes.Equal(got[name], b) {
			t.Errorf("%s differs after kills and resumes", name)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d files, uninterrupted run has %d", len(got), len(want))
	}
	for i := range table {
		if table[i].Score != table2[i].Score || table[i].ValLoss != table2[i].ValLoss {
			t.Errorf("gen %d: %+v vs %+v", i, table[i], table2[i])
		}
	}
	// A resumed run with other settings is refused; more generations are fine.
	bad := cfg
	bad.Beam++
	if _, err := (&Runner{Dir: dir, Config: bad}).Run(context.Background()); err == nil || !strings.Contains(err.Error(), "same settings") {
		t.Errorf("changed settings: %v", err)
	}
}

func TestConfigValidate(t *testing.T) {
	for _, f := range []func(*Config){
		func(c *Config) { c.Beam = 0 },
		func(c *Config) { c.Samples = 0 },
		func(c *Config) { c.RefineDepth = 0 },
		func(c *Config) { c.Hidden = 0 },
		func(c *Config) { c.Blend = 0 },
		func(c *Config) { c.LR = 0 },
		func(c *Config) { c.Gens = -1 },
	} {
		c := DefaultConfig()
		f(&c)
		if c.Validate() == nil {
			t.Errorf("bad config accepted: %+v", c)
		}
	}
	if err := DefaultConfig().Validate(); err != nil {
		t.Error(err)
	}
}

func TestBlendTargets(t *testing.T) {
	ws := make([]hatetris.Well, 3)
	ts := blendTargets(ws, []float32{0.2, 0.4, -0.2}, []float32{0.6, -1, 0}, 0.5)
	// raw: 0.4, -0.3, -0.1 → min −0.3 → −1, max 0.4 → +1.
	want := []float32{1, -1, float32(2*(0.2/0.7) - 1)}
	for i := range want {
		if d := ts.T[i] - want[i]; d > 1e-6 || d < -1e-6 {
			t.Errorf("target %d: %g want %g", i, ts.T[i], want[i])
		}
	}
	if ts.Died != 1 {
		t.Errorf("died %d", ts.Died)
	}
}

func TestBinaryFilesRejectDamage(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "w.bin")
	ws := []hatetris.Well{{}, {19: 5}}
	if err := writeWells(p, ws); err != nil {
		t.Fatal(err)
	}
	got, err := readWells(p)
	if err != nil || len(got) != 2 || got[1] != ws[1] {
		t.Fatalf("round trip: %v %v", got, err)
	}
	b, _ := os.ReadFile(p)
	for name, d := range map[string][]byte{"truncated": b[:len(b)-1], "flipped": append(append([]byte(nil), b[:10]...), append([]byte{b[10] ^ 1}, b[11:]...)...), "kind": append([]byte("XXXX"), b[4:]...)} {
		os.WriteFile(p, d, 0o644)
		if _, err := readWells(p); err == nil {
			t.Errorf("%s file accepted", name)
		}
	}
}

// copyCommitted copies the run's files that RUN/.gitignore keeps (what a
// fresh checkout of a committed campaign has) into a new directory.
func copyCommitted(t *testing.T, from string) string {
	t.Helper()
	to := t.TempDir()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		for _, pat := range Ignored {
			if ok, _ := filepath.Match(pat, d.Name()); ok {
				return nil
			}
		}
		rel, _ := filepath.Rel(from, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		os.MkdirAll(filepath.Join(to, filepath.Dir(rel)), 0o755)
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return to
}

// A campaign resumed from its committed files alone (no samples, no
// Refine checkpoints), after a run of fewer generations or one stopped
// mid-Refine, makes the nets and targets of an uninterrupted run.
func TestCampaignResumesFromCommittedFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs small training cycles")
	}
	cfg := tinyConfig()
	full := t.TempDir()
	if _, err := (&Runner{Dir: full, Config: cfg, Workers: 2, chunk: 8}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(full, ".gitignore")); err != nil || !strings.Contains(string(b), "samples.bin") {
		t.Fatalf(".gitignore: %q %v", b, err)
	}
	want := runFiles(t, full)
	check := func(name, dir string) {
		got := runFiles(t, dir)
		n := 0
		for f, b := range want {
			if strings.HasSuffix(f, "net.yomi") || strings.HasSuffix(f, TargetsFile) {
				n++
				if !bytes.Equal(got[f], b) {
					t.Errorf("%s: %s differs from the uninterrupted run's", name, f)
				}
			}
		}
		if n != 2*(cfg.Gens+1)-1 {
			t.Errorf("%s: compared %d files", name, n)
		}
	}

	// One generation fewer, then the rest from a fresh checkout.
	short := cfg
	short.Gens = 1
	part := t.TempDir()
	if _, err := (&Runner{Dir: part, Config: short, Workers: 1, chunk: 8}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	fresh := copyCommitted(t, part)
	if _, err := os.Stat(filepath.Join(fresh, "gen-001", "samples.bin")); err == nil {
		t.Fatal("samples were copied")
	}
	table, err := (&Runner{Dir: fresh, Config: cfg, Workers: 2, chunk: 8}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(table) != cfg.Gens+1 {
		t.Fatalf("table has %d rows", len(table))
	}
	check("more generations", fresh)

	// Stopped mid-Refine of generation 1: the checkout has no checkpoints.
	part = t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	_, err = (&Runner{Dir: part, Config: cfg, Workers: 1, chunk: 8, Progress: func(g int, ph string, done, _ int, _ string) {
		if g == 1 && ph == "refine" && done == 8 {
			cancel()
		}
	}}).Run(ctx)
	cancel()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("stop mid-refine: %v", err)
	}
	fresh = copyCommitted(t, part)
	if _, err := (&Runner{Dir: fresh, Config: cfg, Workers: 1, chunk: 8}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	check("stopped mid-refine", fresh)
}
