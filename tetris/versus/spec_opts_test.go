// spec_opts_test.go checks the "builtin:K=V,..." player specs: parsing,
// their errors, and that a node budget makes a one-thread game repeat
// exactly whatever the think time and machine load.

package versus

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/tetris/bot"
)

func TestParseSpecOptions(t *testing.T) {
	dir := t.TempDir()
	wf := filepath.Join(dir, "w.json")
	if err := os.WriteFile(wf, []byte(`{"jeopardy":-30}`), 0o644); err != nil {
		t.Fatal(err)
	}
	base := bot.Options{Threads: 2}
	for _, tc := range []struct {
		in       string
		nodes    int64
		jeopardy int32 // 0: no weights set
		rank     float64
		err      string
	}{
		{in: "builtin"},
		{in: "builtin:nodes=250000", nodes: 250000},
		{in: "yomi:nodes=7,weights=" + wf, nodes: 7, jeopardy: -30},
		{in: "builtin:weights=" + wf, jeopardy: -30},
		{in: "builtin:rank=0.69,nodes=9", nodes: 9, rank: 0.69},
		{in: "builtin:rank=-1", err: "rank must"},
		{in: "builtin:rank=NaN", err: "rank must"},
		{in: "builtin:nodes=0", err: "positive"},
		{in: "builtin:nodes=x", err: "positive"},
		{in: "builtin:nodes", err: "KEY=VALUE"},
		{in: "builtin:depth=3", err: "unknown option"},
		{in: "builtin:weights=" + filepath.Join(dir, "none.json"), err: "none.json"},
	} {
		sp, err := ParseSpec(tc.in, base)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want one containing %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		o := sp.Options
		if sp.Cmd != "" || o.Threads != 2 || o.MaxNodes != tc.nodes || o.RankSelect != tc.rank || (o.Weights == nil) != (tc.jeopardy == 0) ||
			o.Weights != nil && (o.Weights.Jeopardy != tc.jeopardy || o.Weights.TopQuarter != bot.DefaultWeights().TopQuarter) {
			t.Errorf("%s: %+v", tc.in, sp)
		}
	}
}

// TestNodeBudgetRepeats plays one short game twice between node-budget
// built-in players with a long think time: the games are identical, and
// each move stopped at its budget rather than at the clock.
func TestNodeBudgetRepeats(t *testing.T) {
	spec, err := ParseSpec("builtin:nodes=3000", bot.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	play := func() (Record, time.Duration) {
		var ps [2]Player
		for i := range ps {
			p, err := spec.Open(context.Background(), uint64(i+1), time.Second)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			ps[i] = p
		}
		start := time.Now()
		rec, err := PlayVersus(context.Background(), Config{Think: 10 * time.Second, MaxPieces: 12, Record: true}, ps, 5, 6)
		if err != nil {
			t.Fatal(err)
		}
		return rec, time.Since(start)
	}
	a, ta := play()
	b, tb := play()
	if strings.Join(a.Sides[0].Moves, " ") != strings.Join(b.Sides[0].Moves, " ") || strings.Join(a.Sides[1].Moves, " ") != strings.Join(b.Sides[1].Moves, " ") {
		t.Fatalf("games differ:\n%v\n%v", a.Sides, b.Sides)
	}
	// 24 moves at a 10 s clock would take minutes: the budget ended them
	if ta > time.Minute || tb > time.Minute {
		t.Fatalf("games took %v and %v", ta, tb)
	}
	if n := a.Sides[0].Nodes; n > 3000*int64(a.Sides[0].Pieces+1)+5000 {
		t.Fatalf("side 0 searched %d nodes in %d moves", n, a.Sides[0].Pieces)
	}
}
