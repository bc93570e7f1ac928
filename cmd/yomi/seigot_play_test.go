// This file tests `yomi seigot play` and the controller protocol end to end.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/internal/cli"
	"github.com/yomi-ai/yomi/seigot"
	"github.com/yomi-ai/yomi/seigot/ai"
)

func TestSeigotPlayUsage(t *testing.T) {
	for _, args := range [][]string{
		{"seigot", "play", "--level", "5"},
		{"seigot", "play", "--ai", "nosuch"},
		{"seigot", "play", "--seeds", "0"},
		{"seigot", "play", "extra"},
		{"seigot", "play", "--well", "5"},
		{"seigot", "controller", "--level", "9"},
	} {
		if code, _, _ := run(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, _, errs := run(t, "seigot", "play", "--help"); code != 0 || !strings.Contains(errs, "180") {
		t.Errorf("help: %d %q", code, errs)
	}
}

func TestSeigotPlayJSON(t *testing.T) {
	code, out, _ := run(t, "seigot", "play", "--level", "2", "--seed", "5", "--seeds", "2", "--ai", "greedy", "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 2 games + summary, got %q", out)
	}
	for _, l := range lines[:2] {
		var r seigotGameResult
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		// The score is exactly lines + drop bonus - game overs.
		want := r.LineStat[0]*100 + r.LineStat[1]*300 + r.LineStat[2]*700 + r.LineStat[3]*1300 + r.DropScore - 500*r.GameOvers
		if r.Score != want || r.Pieces != 180 || r.Lines != r.LineStat[0]+2*r.LineStat[1]+3*r.LineStat[2]+4*r.LineStat[3] {
			t.Fatalf("inconsistent result %+v (want score %d)", r, want)
		}
	}
}

// TestSeigotControllerProtocol plays a game through the controller's pipe
// protocol and checks it matches the same AI playing in-process.
func TestSeigotControllerProtocol(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		level int
		seed  uint64
		ai    string
		tune  seigotTuning
	}{
		{[]string{"--ai", "fast"}, 2, 11, "fast", seigotTuning{}},
		// Seed 0 is taken for level 1, whose default sees the fixed order.
		{[]string{"--depth", "9", "--width", "12"}, 1, 0, "beam", seigotTuning{depth: 9, width: 12}},
		{[]string{"--future=false", "--depth", "9", "--width", "12"}, 1, 0, "beam", seigotTuning{future: levelBool{set: true}, depth: 9, width: 12}},
	} {
		controllerMatchesPlay(t, tc.args, tc.level, tc.seed, tc.ai, tc.tune)
	}
}

func controllerMatchesPlay(t *testing.T, args []string, level int, seed uint64, name string, tune seigotTuning) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int)
	go func() {
		var errb bytes.Buffer
		done <- newApp().Main(context.Background(), &cli.Env{Stdin: inR, Stdout: outW, Stderr: &errb},
			append([]string{"seigot", "controller"}, args...))
		outW.Close()
	}()
	replies := bufio.NewScanner(outR)
	ask := func(line []byte) []byte {
		if _, err := inW.Write(append(line, '\n')); err != nil {
			t.Fatal(err)
		}
		if !replies.Scan() {
			t.Fatal("no reply")
		}
		return replies.Bytes()
	}
	// Bad input gets an error line, not a crash.
	for _, bad := range []string{"{", `{"field_info":{"backboard":[1,2]}}`} {
		if r := ask([]byte(bad)); !strings.Contains(string(r), `"error"`) {
			t.Fatalf("bad input %q: reply %s", bad, r)
		}
	}
	cfg, _ := seigot.LevelConfig(level, seed, false)
	cfg.BlockNumMax = 60
	g := seigot.NewGame(cfg)
	for !g.Done {
		g.BeginTick()
		b, _ := json.Marshal(g.Status(0))
		var s seigot.Strategy
		if err := json.Unmarshal(ask(b), &s); err != nil {
			t.Fatal(err)
		}
		m, err := seigot.MoveOf(s)
		if err != nil {
			t.Fatal(err)
		}
		g.ApplyMove(m)
	}
	inW.Close()
	if code := <-done; code != 0 {
		t.Fatalf("controller exit %d", code)
	}
	pl, _ := seigotPlayer(name, level, tune)
	want := ai.Play(context.Background(), cfg, pl)
	if g.Stats != want.Stats {
		t.Fatalf("%v: through the protocol %+v, in process %+v", args, g.Stats, want.Stats)
	}
}

func TestSeigotReplay(t *testing.T) {
	// A move list recorded while the real board_manager.py (numpy 1.24.2)
	// played level 2 seed 1 with the 2023 winner's controller; it scored 25519
	// there (see README, "Checking against the original").
	code, out, errs := run(t, "seigot", "replay", "--level", "2", "--seed", "1", "--moves", "../../seigot/testdata/real_l2_seed1_moves.json", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r seigotGameResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Score != 25519 || r.Lines != 70 || r.LineStat != [4]int{0, 1, 0, 17} || r.DropScore != 3119 || r.Pieces != 180 {
		t.Fatalf("replay gives %+v, the original scored 25519 (0/1/0/17, drop 3119)", r)
	}
	// Level 1 (fixed order, with hold): 26059 in the real board_manager.
	code, out, errs = run(t, "seigot", "replay", "--level", "1", "--seed", "0", "--moves", "../../seigot/testdata/real_l1_seed0_moves.json", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	r = seigotGameResult{}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Score != 26059 || r.LineStat != [4]int{0, 0, 1, 17} || r.DropScore != 3259 {
		t.Fatalf("level 1 replay gives %+v, the original scored 26059", r)
	}
	for _, args := range [][]string{
		{"seigot", "replay", "--level", "2"},
		{"seigot", "replay", "--level", "0", "--moves", "x"},
	} {
		if code, _, _ := run(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, _, _ := run(t, "seigot", "replay", "--moves", "/nonexistent/file"); code != 1 {
		t.Errorf("missing file: exit %d, want 1", code)
	}
}

// TestSeigotPlayLevel1SeedZero plays the contest's level-1 game (seed 0)
// through the CLI, with the level-1 default (which sees the fixed order past
// the previews, as the status's random_seed 0 announces it) and with
// --future=false, then both in process: the default must match a game in
// which the AI is shown the order, --future=false one in which the order is
// hidden (the AI uses only the current piece, the previews and hold), and
// the printed scores must add up (lines + drop bonus). Four whole games, so
// -short skips it.
func TestSeigotPlayLevel1SeedZero(t *testing.T) {
	if testing.Short() {
		t.Skip("four whole level-1 games")
	}
	for _, tc := range []struct {
		args []string
		tune seigotTuning
		show bool // the position says FixedOrder
	}{
		{nil, seigotTuning{}, true},
		{[]string{"--future=false"}, seigotTuning{future: levelBool{set: true}}, false},
	} {
		args := append([]string{"seigot", "play", "--level", "1", "--seed", "0", "--json"}, tc.args...)
		code, out, errs := run(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errs)
		}
		var r seigotGameResult
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		want := r.LineStat[0]*100 + r.LineStat[1]*300 + r.LineStat[2]*700 + r.LineStat[3]*1300 + r.DropScore - 500*r.GameOvers
		if r.Score != want || r.Pieces != 180 {
			t.Fatalf("%v: inconsistent result %+v (want score %d)", tc.args, r, want)
		}
		// In process the AI is the level-1 default either way; only what
		// the position tells it differs.
		pl, err := seigotPlayer("beam", 1)
		if err != nil {
			t.Fatal(err)
		}
		cfg, _ := seigot.LevelConfig(1, 0, false)
		g := seigot.NewGame(cfg)
		for !g.Done {
			g.BeginTick()
			pos := g.Position()
			pos.FixedOrder = pos.FixedOrder && tc.show
			g.ApplyMove(pl.Decide(context.Background(), &pos))
		}
		if g.Stats.Score != r.Score || g.Stats.LineStat != r.LineStat || g.Stats.DropScore != r.DropScore {
			t.Fatalf("%v: in process (order shown %v) %+v, play printed %+v", tc.args, tc.show, g.Stats, r)
		}
	}
}

func TestSeigotWellFlag(t *testing.T) {
	for _, tc := range []struct {
		well     string
		col      int
		leafWell bool
	}{
		{"0", 0, false}, {"9", 9, false}, {"auto", -1, false}, {"leaf", -1, true}, {"leaf0", 0, true},
	} {
		// Level 2 defaults to the leaf well, level 3 to a per-decision one:
		// the flag sets the well the same way over either.
		for _, level := range []int{2, 3} {
			pl, err := seigotPlayer("beam", level, seigotTuning{well: tc.well})
			if err != nil {
				t.Fatalf("--well %s: %v", tc.well, err)
			}
			if c := pl.Config(); c.Well != tc.col || c.LeafWell != tc.leafWell {
				t.Errorf("level %d, --well %s: Well %d LeafWell %v, want %d %v", level, tc.well, c.Well, c.LeafWell, tc.col, tc.leafWell)
			}
		}
	}
}

func TestSeigotExhaustFlag(t *testing.T) {
	for _, n := range []int{0, 1, 2} {
		pl, err := seigotPlayer("beam", 1, seigotTuning{exhaust: n})
		if err != nil {
			t.Fatal(err)
		}
		if got := pl.Config().ExhaustPlies; got != n {
			t.Errorf("--exhaust %d: ExhaustPlies %d", n, got)
		}
	}
}

// TestSeigotLevelBoolFlags checks the flags whose default is the level's:
// unset they keep it, given they override it either way.
func TestSeigotLevelBoolFlags(t *testing.T) {
	on, off := levelBool{set: true, v: true}, levelBool{set: true}
	for _, tc := range []struct {
		name  string
		level int
		tune  seigotTuning
		get   func(ai.Config) bool
		want  bool
	}{
		{"HoldFirstI", 1, seigotTuning{}, holdFirstI, true}, // level 1's default
		{"HoldFirstI", 2, seigotTuning{}, holdFirstI, true}, // level 2's (issue 23)
		{"HoldFirstI", 3, seigotTuning{}, holdFirstI, false},
		{"HoldFirstI", 1, seigotTuning{holdFirstI: off}, holdFirstI, false},
		{"HoldFirstI", 2, seigotTuning{holdFirstI: off}, holdFirstI, false},
		{"HoldFirstI", 3, seigotTuning{holdFirstI: on}, holdFirstI, true},
		{"Future", 1, seigotTuning{}, future, true}, // level 1's default
		{"Future", 2, seigotTuning{}, future, false},
		{"Future", 1, seigotTuning{future: off}, future, false}, // --future=false
		{"Future", 2, seigotTuning{future: on}, future, true},
	} {
		pl, err := seigotPlayer("beam", tc.level, tc.tune)
		if err != nil {
			t.Fatal(err)
		}
		if got := tc.get(pl.Config()); got != tc.want {
			t.Errorf("level %d, %+v: %s %v, want %v", tc.level, tc.tune, tc.name, got, tc.want)
		}
	}
	// Through the command line: --flag, --flag=false, absent.
	for _, tc := range []struct {
		args []string
		want levelBool
	}{
		{nil, levelBool{}},
		{[]string{"--future"}, on},
		{[]string{"--future=false"}, off},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		var b levelBool
		fs.Var(&b, "future", "")
		if err := fs.Parse(tc.args); err != nil || b != tc.want {
			t.Errorf("%v: %+v, %v; want %+v", tc.args, b, err, tc.want)
		}
	}
}

func holdFirstI(c ai.Config) bool { return c.HoldFirstI }
func future(c ai.Config) bool     { return c.Future }

func TestSeigotOracleFlag(t *testing.T) {
	pl, err := seigotPlayer("beam", 1)
	if err != nil {
		t.Fatal(err)
	}
	pl, err = withOracle(pl, 12345, 2)
	if err != nil {
		t.Fatal(err)
	}
	// The spec's vector: seed 12345, level 2 starts J S S L O L Z Z S J.
	got := pl.Config().Oracle
	want := []uint8{3, 6, 6, 2, 5, 2, 7, 7, 6, 3}
	if len(got) < 180 || !slices.Equal(got[:len(want)], want) {
		t.Fatalf("oracle %v... (%d pieces), want %v...", got[:min(len(got), 10)], len(got), want)
	}
	code, out, _ := run(t, "seigot", "play", "--level", "2", "--seed", "5", "--width", "4", "--depth", "8", "--oracle", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	var r seigotGameResult
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.Pieces != 180 {
		t.Fatalf("--oracle game: %+v %v", r, err)
	}
}
