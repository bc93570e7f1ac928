// tetris_tbp_test.go runs `yomi tetris tbp`, `versus` and `solo` end to
// end in process: a scripted TBP exchange on stdin, a tiny built-in match
// and solo run with JSON output, and usage errors.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/internal/cli"
)

func TestTetrisTBPVerb(t *testing.T) {
	row := "[null,null,null,null,null,null,null,null,null,null]"
	board := "[" + strings.TrimSuffix(strings.Repeat(row+",", 40), ",") + "]"
	in := strings.Join([]string{
		`{"type":"rules","randomizer":"seven_bag"}`,
		`{"type":"start","hold":null,"queue":["T","I","O","S","Z"],"combo":0,"back_to_back":false,"board":` + board + `,"randomizer":{"type":"seven_bag","bag_state":["L","J"]}}`,
		`this is not json`,
		`{"type":"suggest"}`,
		`{"type":"quit"}`,
	}, "\n") + "\n"
	var out, errb bytes.Buffer
	code := newApp().Main(context.Background(), &cli.Env{Stdin: strings.NewReader(in), Stdout: &out, Stderr: &errb}, []string{"tetris", "tbp", "--max-nodes", "2000"})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], `{"type":"info"`) || lines[1] != `{"type":"ready"}` || !strings.HasPrefix(lines[2], `{"type":"suggestion","moves":[{"location":{"type":"`) {
		t.Fatalf("output:\n%s", out.String())
	}
	if !strings.Contains(errb.String(), "bad message") {
		t.Fatalf("stderr lacks the bad-line report: %s", errb.String())
	}
}

func TestTetrisVersusSoloVerbs(t *testing.T) {
	code, out, errs := run(t, "tetris", "versus", "--p2", "builtin", "--games", "1", "--think-ms", "2", "--max-pieces", "20", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("versus exit %d: %s", code, errs)
	}
	var rep arena.PairReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if w := rep.Summary.WDL; w.W+w.L+w.D != 2 {
		t.Fatalf("versus: %+v", rep.Summary)
	}
	code, out, errs = run(t, "tetris", "versus", "--p2", "builtin", "--games", "1", "--think-ms", "2", "--max-pieces", "10", "--json", "--quiet", "--rules", "guideline")
	if code != 0 || !strings.Contains(out, "yomi#1 [guideline]") {
		t.Fatalf("versus --rules guideline: exit %d, names not tagged: %s %s", code, out, errs)
	}
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "w.json"), filepath.Join(dir, "bad.json")
	if err := os.WriteFile(good, []byte(`{"jeopardy":-30}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte(`{"no_such_weight":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = run(t, "tetris", "versus", "--p2", "builtin", "--games", "1", "--think-ms", "2", "--max-pieces", "10", "--json", "--quiet", "--weights", good)
	if code != 0 {
		t.Fatalf("versus --weights: exit %d: %s", code, errs)
	}
	for _, w := range []string{bad, filepath.Join(dir, "missing.json")} {
		if code, _, errs := run(t, "tetris", "versus", "--p2", "builtin", "--weights", w); code != 2 || !strings.Contains(errs, "--weights") {
			t.Errorf("versus --weights %s: exit %d (%s), want 2", w, code, errs)
		}
	}
	code, out, errs = run(t, "tetris", "solo", "--games", "2", "--think-ms", "2", "--max-pieces", "30", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("solo exit %d: %s", code, errs)
	}
	var solo struct {
		Totals map[string]soloTotals `json:"totals"`
	}
	if err := json.Unmarshal([]byte(out), &solo); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if tot := solo.Totals["yomi"]; tot.Games != 2 || tot.Pieces == 0 || tot.PPS <= 0 {
		t.Fatalf("solo totals %+v", solo.Totals)
	}
	for _, bad := range [][]string{
		{"tetris", "versus"},
		{"tetris", "versus", "--p2", "builtin", "--games", "0"},
		{"tetris", "versus", "--p2", "builtin", "--sprt", "5"},
		{"tetris", "versus", "--p2", "builtin", "--think-ms", "0"},
		{"tetris", "solo", "--concurrency", "0"},
		{"tetris", "solo", "extra"},
		{"tetris", "solo", "--preview", "0"},
		{"tetris", "versus", "--p2", "builtin", "--preview", "21"},
		{"tetris", "tbp", "--threads", "0"},
		{"tetris", "versus", "--p2", "builtin", "--rules", "tetrio"},
		{"tetris", "solo", "--rules", ""},
	} {
		if code, _, errs := run(t, bad...); code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", bad, code, errs)
		}
	}
}
