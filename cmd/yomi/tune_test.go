package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/internal/cli"
	"github.com/yomi-ai/yomi/tune"
)

func writeSpec(t *testing.T, dir, spec string) string {
	t.Helper()
	p := filepath.Join(dir, "spec.json")
	if err := os.WriteFile(p, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const seigotTestSpec = `{"params": [
 {"name": "Hole", "min": -600, "max": 0, "c_end": 25, "r_end": 0.05},
 {"name": "Burn[0]", "min": -1000, "max": 0, "c_end": 50},
 {"name": "Safe", "min": 5, "max": 18, "c_end": 1}
]}`

func TestTuneBadInput(t *testing.T) {
	dir := t.TempDir()
	good := writeSpec(t, dir, seigotTestSpec)
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"params": [{"name": "Hol", "min": -600, "max": 0, "c_end": 25}]}`), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tune", "spsa", "--game", "seigot", "--spec", bad, "--iterations", "3"}, `unknown weight "Hol"`},
		{[]string{"tune", "spsa", "--game", "tetris", "--spec", good, "--iterations", "3"}, `unknown weight "Hole"`},
		{[]string{"tune", "spsa", "--game", "codevs", "--spec", good, "--iterations", "3"}, "no weights struct"},
		{[]string{"tune", "spsa", "--game", "chess", "--spec", good, "--iterations", "3"}, "want seigot or tetris"},
		{[]string{"tune", "spsa", "--game", "seigot", "--iterations", "3"}, "--spec"},
		{[]string{"tune", "spsa", "--game", "seigot", "--spec", filepath.Join(dir, "none.json"), "--iterations", "3"}, "no such file"},
		{[]string{"tune", "spsa", "--game", "seigot", "--spec", good, "--iterations", "3", "--level", "7"}, "--level"},
		{[]string{"tune", "spsa", "--resume", dir, "--spec", good}, "drop --spec"},
		{[]string{"tune", "spsa", "--resume", dir}, "--resume"},
		{[]string{"tune", "confirm", "--run-dir", dir}, "--run-dir"},
		{[]string{"tune", "confirm"}, "--run-dir is required"},
		{[]string{"tune", "spsa", "--game", "tetris", "--spec", good, "--iterations", "3", "--nodes", "0"}, "--nodes too unless --opponent"},
		{[]string{"tune", "spsa", "--game", "tetris", "--spec", good, "--iterations", "3", "--opponent", "builtin"}, "want a TBP command line"},
	} {
		code, _, stderr := run(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

// TestTuneSeigot runs a tiny SPSA with the greedy AI through the embedded
// fabric, checks a changed command is refused in the same run directory,
// resumes it, and confirms it on other seeds.
func TestTuneSeigot(t *testing.T) {
	dir := t.TempDir()
	spec := writeSpec(t, dir, seigotTestSpec)
	rd := filepath.Join(dir, "run")
	args := []string{"tune", "spsa", "--game", "seigot", "--ai", "greedy", "--level", "3", "--spec", spec, "--iterations", "3", "--pairs-per-iter", "2", "--run-dir", rd, "--quiet"}
	code, out, stderr := run(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	st, err := tune.LoadState(rd)
	if err != nil || st.Done != 3 || len(st.Steps) != 3 {
		t.Fatalf("state %+v, %v", st, err)
	}
	for _, s := range st.Steps {
		o := s.Outcome
		if _, ok := o.Notes["gameovers_plus"]; !ok || !o.Scored || o.Wins+o.Losses+o.Draws != 2 || o.PlusScore <= 0 {
			t.Errorf("iteration %d: %+v", s.Index, o)
		}
	}
	if !strings.Contains(out, "Burn[0]") {
		t.Errorf("summary lacks the parameters:\n%s", out)
	}
	// the weights file is the AI's full weights, read by --weights
	w, err := os.ReadFile(filepath.Join(rd, tune.WeightsFile))
	if err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "seigot", "play", "--ai", "greedy", "--level", "3", "--seed", "5", "--weights", string(w), "--quiet"); code != 0 {
		t.Errorf("seigot play --weights weights.json: exit %d: %s", code, stderr)
	}

	// another command in the same directory is refused
	other := append(append([]string{}, args...), "--seed", "9")
	if code, _, stderr := run(t, other...); code == 0 || !strings.Contains(stderr, "another run") {
		t.Errorf("changed run: exit %d, %s", code, stderr)
	}
	// --resume of a finished run is a no-op that succeeds
	if code, _, stderr := run(t, "tune", "spsa", "--resume", rd, "--quiet"); code != 0 {
		t.Errorf("resume: exit %d: %s", code, stderr)
	}

	// confirmation: refused on the tuning seeds, played on others
	if code, _, stderr := run(t, "tune", "confirm", "--run-dir", rd, "--seed", "1000004", "--seeds", "3"); code != 2 || !strings.Contains(stderr, "overlap") {
		t.Errorf("confirm on tuning seeds: exit %d, %s", code, stderr)
	}
	code, out, stderr = run(t, "tune", "confirm", "--run-dir", rd, "--seeds", "3", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("confirm: exit %d: %s", code, stderr)
	}
	var v tuneVerdict
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if v.Seeds[0] != 1 || v.Seeds[1] != 3 || v.Unit != "points" || v.Why == "" {
		t.Errorf("verdict %+v", v)
	}
	if _, err := os.Stat(filepath.Join(rd, confirmFile)); err != nil {
		t.Error(err)
	}
}

// TestTuneTetris runs one iteration of the versus adapter with a tiny node
// budget.
func TestTuneTetris(t *testing.T) {
	dir := t.TempDir()
	spec := writeSpec(t, dir, `{"params": [{"name": "cavity_cells", "min": -400, "max": 0, "c_end": 20}, {"name": "tslot[3]", "min": 0, "max": 800, "c_end": 40}]}`)
	rd := filepath.Join(dir, "run")
	code, _, stderr := run(t, "tune", "spsa", "--game", "tetris", "--spec", spec, "--iterations", "1", "--pairs-per-iter", "1", "--nodes", "300", "--max-pieces", "40", "--run-dir", rd, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	st, err := tune.LoadState(rd)
	if err != nil || st.Done != 1 {
		t.Fatalf("state %+v, %v", st, err)
	}
	if o := st.Steps[0].Outcome; o.Scored || o.Wins+o.Losses+o.Draws != 2 {
		t.Errorf("outcome %+v: want 2 versus games", o)
	}
}

// TestTuneTetrisOpponent tunes against a TBP bot (our own server, a
// node-capped stand-in for Cold Clear 2): each seed is a pair for θ+ and a
// pair for θ− against it, and such a run is confirmed in that match, not
// by tune confirm.
func TestTuneTetrisOpponent(t *testing.T) {
	dir := t.TempDir()
	spec := writeSpec(t, dir, `{"params": [{"name": "cavity_cells", "min": -400, "max": 0, "c_end": 20}]}`)
	rd := filepath.Join(dir, "run")
	opp := selfCmd(t, "tetris tbp --threads 1 --max-nodes 300")
	code, _, stderr := run(t, "tune", "spsa", "--game", "tetris", "--spec", spec, "--iterations", "1", "--pairs-per-iter", "2", "--nodes", "300", "--think-ms", "5", "--max-pieces", "30", "--opponent", opp, "--run-dir", rd, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	st, err := tune.LoadState(rd)
	if err != nil || st.Done != 1 {
		t.Fatalf("state %+v, %v", st, err)
	}
	o := st.Steps[0].Outcome
	if o.Wins+o.Losses+o.Draws != 2 {
		t.Errorf("outcome %+v: want 2 seeds compared", o)
	}
	plus, minus := o.Notes["plus_vs_opponent"], o.Notes["minus_vs_opponent"]
	if plus < -4 || plus > 4 || minus < -4 || minus > 4 || o.Result != (plus-minus)/2 {
		t.Errorf("outcome %+v: want each side's points vs the opponent in [-4, 4] and result (plus-minus)/2", o)
	}
	code, _, stderr = run(t, "tune", "confirm", "--run-dir", rd, "--seeds", "4", "--seed", "1")
	if code != 2 || !strings.Contains(stderr, "tetris versus --p1 builtin:weights=") {
		t.Errorf("confirm of an opponent run: exit %d, %q; want 2 and the versus command", code, stderr)
	}
}

// TestSeigotTuneFactory checks that player 0 plays θ+ and player 1 θ−.
func TestSeigotTuneFactory(t *testing.T) {
	mk := func(w string) seigotPlaySpec {
		return seigotPlaySpec{AI: "greedy", Level: 3, Tuning: seigotTuningSpec{Weights: w}}
	}
	plus, minus := mk(`{"Hole":0,"HoleRow":0,"Bump":0}`), mk(``)
	b, _ := json.Marshal(seigotTuneSpec{Plus: plus, Minus: minus})
	play, err := seigotTuneFactory(b)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i, want := range []seigotPlaySpec{plus, minus} {
		got, err := play(ctx, 3, i)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := seigotPlayGame(want)(ctx, 3, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got.Score != ref.Score {
			t.Errorf("player %d scored %g, its weights alone %g", i, got.Score, ref.Score)
		}
	}
	a, _ := play(ctx, 3, 0)
	b2, _ := play(ctx, 3, 1)
	if a.Score == b2.Score {
		t.Fatalf("θ+ and θ− scored the same (%g): pick weights that the test can tell apart", a.Score)
	}
}

// TestTuneInterruptResume stops a run as Ctrl-C does once an iteration is
// saved, resumes it with --resume and compares θ with an uninterrupted run.
func TestTuneInterruptResume(t *testing.T) {
	dir := t.TempDir()
	spec := writeSpec(t, dir, seigotTestSpec)
	args := func(rd string) []string {
		return []string{"tune", "spsa", "--game", "seigot", "--ai", "greedy", "--level", "3", "--spec", spec, "--iterations", "4", "--pairs-per-iter", "1", "--run-dir", rd, "--quiet"}
	}
	whole := filepath.Join(dir, "whole")
	if code, _, stderr := run(t, args(whole)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want, err := tune.LoadState(whole)
	if err != nil {
		t.Fatal(err)
	}

	rd := filepath.Join(dir, "killed")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if st, err := tune.LoadState(rd); err == nil && st.Done >= 1 {
				cancel()
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	var out, errb bytes.Buffer
	code := newApp().Main(ctx, &cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, args(rd))
	st, err := tune.LoadState(rd)
	if err != nil {
		t.Fatal(err)
	}
	if st.Done == 4 {
		t.Skip("the run finished before the cancel landed")
	}
	if code != 1 || !strings.Contains(errb.String(), "--resume "+rd) {
		t.Errorf("interrupted: exit %d, stderr %q", code, errb.String())
	}
	if code, _, stderr := run(t, "tune", "spsa", "--resume", rd, "--quiet"); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	got, err := tune.LoadState(rd)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Theta, want.Theta) || got.Done != 4 {
		t.Errorf("resumed θ %v (%d done), uninterrupted %v", got.Theta, got.Done, want.Theta)
	}
}
