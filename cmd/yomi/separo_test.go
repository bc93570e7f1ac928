// This file tests the separo verbs: match JSON, game output, usage errors
// and the benchmarks' registration.

package main

import (
	"encoding/json"
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/separo/ai"
)

func TestSeparoMatchJSON(t *testing.T) {
	code, out, errOut := run(t, "separo", "match", "--red", "uct", "--blue", "random", "--games", "2",
		"--iterations", "300", "--movetime", "0", "--size", "7", "--quiet", "--json")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	var r struct {
		Games, Wins, Losses, Draws int
		Points                     float64
		CI                         [2]float64 `json:"pointsCI95"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if r.Games != 4 || r.Wins+r.Losses+r.Draws != 4 {
		t.Errorf("counts %+v", r)
	}
	if want := (float64(r.Wins) + 0.5*float64(r.Draws)) / 4; r.Points != want || r.CI[0] > r.Points || r.CI[1] < r.Points {
		t.Errorf("points %v (CI %v), want %v", r.Points, r.CI, want)
	}
	// Same seed, same iterations: the same result.
	_, out2, _ := run(t, "separo", "match", "--red", "uct", "--blue", "random", "--games", "2",
		"--iterations", "300", "--movetime", "0", "--size", "7", "--quiet", "--json")
	if out2 != out {
		t.Errorf("not deterministic:\n%s\n%s", out, out2)
	}
}

func TestSeparoGame(t *testing.T) {
	code, out, errOut := run(t, "separo", "game", "--red", "random", "--blue", "naive", "--iterations", "50", "--movetime", "0", "--size", "5")
	if code != 0 || !strings.Contains(out, "  1 R:") || !strings.Contains(out, "Red (random)") {
		t.Fatalf("code %d out %q err %q", code, out, errOut)
	}
}

func TestSeparoUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"separo", "match", "--red", "gnugo"},
		{"separo", "match", "--size", "3"},
		{"separo", "match", "--games", "0"},
		{"separo", "match", "--sprt", "5,0"},
		{"separo", "match", "--sprt", "0"},
		{"separo", "match", "--movetime", "0"},
		{"separo", "game", "--blue", "x"},
		{"separo", "game", "extra"},
	} {
		if code, _, _ := run(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// --iterations alone bounds a search by playouts only, so that games do not
// depend on the machine's load; --movetime given too keeps both limits.
func TestSeparoBudgetFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want ai.Budget
		bad  bool
	}{
		{nil, ai.Budget{Time: 200 * time.Millisecond}, false},
		{[]string{"--iterations", "500"}, ai.Budget{Iterations: 500}, false},
		{[]string{"--iterations", "500", "--movetime", "1s"}, ai.Budget{Time: time.Second, Iterations: 500}, false},
		{[]string{"--movetime", "0"}, ai.Budget{}, true},
		{[]string{"--iterations", "-1"}, ai.Budget{}, true},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		bf := addSeparoBudget(fs, 200*time.Millisecond)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		got, err := bf.budget()
		if (err != nil) != tc.bad || !tc.bad && got != tc.want {
			t.Errorf("%v: %+v, %v; want %+v (error %v)", tc.args, got, err, tc.want, tc.bad)
		}
	}
}

// TestSeparoMatchPairsSPRT: --games counts pairs (as in tetris versus and
// codevs match) and --sprt reports the test's state.
func TestSeparoMatchPairsSPRT(t *testing.T) {
	code, out, errOut := run(t, "separo", "match", "--red", "uct", "--blue", "random", "--games", "1",
		"--iterations", "100", "--movetime", "0", "--size", "5", "--quiet", "--json", "--sprt", "0,50")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	var r struct {
		Games   int
		Summary struct {
			SPRT *struct{ Elo0, Elo1 float64 }
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if r.Games != 2 || r.Summary.SPRT == nil || r.Summary.SPRT.Elo1 != 50 {
		t.Errorf("--games 1 --sprt 0,50: %s", out)
	}
}
