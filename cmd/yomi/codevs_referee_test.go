// codevs_referee_test.go runs `yomi codevs referee`, `match`, `dummy` and
// `packs` end to end, with tiny /bin/sh AIs as players.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/internal/cli"
)

// shAI is a protocol-speaking AI in plain sh: it counts END lines (500 in
// the start block, then 2 per turn) and answers "x 0" after each turn
// block, x cycling from start.
func shAI(name string, start int) string {
	return `echo ` + name + `; n=0; while read -r l; do if [ "$l" = END ]; then n=$((n+1)); ` +
		`if [ $n -gt 500 ] && [ $(( (n-500) % 2 )) -eq 0 ]; then echo "$(( (n/2 + ` + string(rune('0'+start)) + `) % 9 )) 0"; fi; fi; done`
}

func TestCodevsRefereeVerb(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := run(t, "codevs", "referee", "--p1", shAI("left", 0), "--p2", shAI("right", 4),
		"--packs", "../../codevs/testdata/packs/pack_0000.pack", "--log-dir", dir, "--json", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var o refereeOutput
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if o.Names != [2]string{"left", "right"} || o.Faults != [2]string{} || o.Turns < 10 || !strings.Contains(o.Reason, "died") {
		t.Fatalf("%+v", o)
	}
	for _, f := range []string{"p1_stdin.txt", "p2_stdin.txt", "replay.json", "p1_stderr.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	code, out, errs = run(t, "codevs", "replay", "--turns", filepath.Join(dir, "replay.json"))
	if code != 0 || !strings.Contains(out, "(replay checked)") || !strings.Contains(out, "   0  8 0  3 0 ") {
		t.Fatalf("replay verb: exit %d: %s %s", code, out, errs)
	}
	code, out, errs = run(t, "codevs", "replay", "--timeline", "--me", "right", filepath.Join(dir, "replay.json"))
	if code != 0 || !strings.Contains(out, " p2 t") || !strings.Contains(out, " dies t") {
		t.Fatalf("replay --timeline: exit %d: %s %s", code, out, errs)
	}
	in, _ := os.ReadFile(filepath.Join(dir, "p1_stdin.txt"))
	pack, _ := os.ReadFile("../../codevs/testdata/packs/pack_0000.pack")
	if !strings.HasPrefix(string(in), string(pack)+"0\n180000\n0\n0\n0\n") {
		t.Errorf("p1_stdin.txt does not start with the pack file and turn 0")
	}
	if n := strings.Count(string(in), "END\n"); n != 500+2*o.Turns {
		t.Errorf("%d END lines for %d turns", n, o.Turns)
	}
	// Text output, crash reason.
	code, out, errs = run(t, "codevs", "referee", "--p1", "echo crasher; exit 3", "--p2", shAI("ok", 1), "--seed", "9", "--quiet")
	if code != 0 || !strings.Contains(out, "player 2 wins after 0 turns: player 1 crashed on turn 0") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
}

func TestCodevsMatchVerb(t *testing.T) {
	res := filepath.Join(t.TempDir(), "r.jsonl")
	code, out, errs := run(t, "codevs", "match", "--p1", shAI("a", 0), "--p2", shAI("b", 5), "--games", "2",
		"--seed", "3", "--concurrency", "2", "--results", res, "--name1", "A", "--name2", "B", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "Results of A vs B") || !strings.Contains(out, "Games: 4") {
		t.Fatalf("%s", out)
	}
	data, _ := os.ReadFile(res)
	if n := strings.Count(string(data), "\n"); n != 4 {
		t.Fatalf("%d result lines", n)
	}
	// Usage errors.
	for _, bad := range [][]string{
		{"codevs", "match", "--p1", "x"},
		{"codevs", "match", "--p1", "x", "--p2", "y", "--games", "0"},
		{"codevs", "match", "--p1", "x", "--p2", "y", "--sprt", "5"},
		{"codevs", "match", "--p1", "x", "--p2", "y", "--packs", "/nonexistent/*.pack"},
		{"codevs", "referee", "--p1", "x", "--p2", "y", "--profile", "nope"},
		{"codevs", "referee", "--p1", "x", "--p2", "y", "--time-ms", "0"},
		{"codevs", "referee", "--p2", "y"},
		{"codevs", "referee", "--p1", "x", "--p2", "y", "--packs", "f.pack", "--seed", "3"},
		{"codevs", "match", "--p1", "x", "--p2", "y", "--packs", "*.pack", "--profile", "pdf"},
		{"codevs", "dummy", "--strategy", "clever"},
		{"codevs", "packs", "--profile", "nope"},
	} {
		if code, _, errs := run(t, bad...); code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", bad, code, errs)
		}
	}
}

func TestCodevsPacksAndDummyVerbs(t *testing.T) {
	code, out, _ := run(t, "codevs", "packs", "--seed", "4", "--profile", "tanzaku")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	packs, err := codevs.ReadPacks(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := codevs.PacksForSeed(4, codevs.ProfileTanzaku); packs[0] != want[0] || packs[499] != want[499] {
		t.Fatal("packs verb differs from the generator")
	}
	code, out, _ = run(t, "codevs", "packs", "--stats", "../../codevs/testdata/packs/pack_0002.pack")
	if code != 0 || !strings.Contains(out, "pack_0002.pack  407 93  [177 177 177 177 177 177 177 177 177]") {
		t.Fatalf("exit %d: %s", code, out)
	}
	// The dummy on a one-turn input: name, then a legal answer.
	in := string(codevs.FormatPacks(packs)) + "0\n180000\n0\n0\n0\n" + strings.Repeat("0 0 0 0 0 0 0 0 0 0\n", 16) + "END\n" +
		"180000\n0\n0\n0\n" + strings.Repeat("0 0 0 0 0 0 0 0 0 0\n", 16) + "END\n"
	code, out, errs := codevsRunIn(t, in, "codevs", "dummy", "--name", "dd", "--strategy", "left")
	if code != 0 || out != "dd\n0 0\n" {
		t.Fatalf("exit %d: %q %s", code, out, errs)
	}
}

// codevsRunIn is run with stdin.
func codevsRunIn(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := newApp().Main(context.Background(), &cli.Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb}, args)
	return code, out.String(), errb.String()
}

func TestShortCommandName(t *testing.T) {
	for in, want := range map[string]string{
		"/work/peers/ysai/run.sh -x": "ysai/run.sh",
		"X=1 ./ai --fast":            "ai",
		"yomi codevs ai":             "yomi",
		"/bin":                       "bin",
		"   ":                        "ai",
	} {
		if got := shortCommandName(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
