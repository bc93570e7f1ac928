// Tests the heuristic start: rank targets, the score from cells and depth,
// and a deterministic distilled generation 0.
package train

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/yomi-ai/yomi/hatetris/player"
)

func TestRankTargets(t *testing.T) {
	for _, c := range []struct {
		vals []float64
		want []float32
	}{
		{[]float64{3, 1, 2, 1}, []float32{1, -1, 1.0 / 3, -1.0 / 3}},
		{[]float64{5}, []float32{0}},
		{[]float64{2, 1}, []float32{1, -1}},
	} {
		got := make([]float32, len(c.vals))
		rankTargets(got, c.vals)
		for i := range got {
			if d := got[i] - c.want[i]; d > 1e-6 || d < -1e-6 {
				t.Fatalf("%v: got %v want %v", c.vals, got, c.want)
			}
		}
	}
}

// TestScoreAt: along knewjade's 289 game the score from cells and depth
// never decreases and ends at 289.
func TestScoreAt(t *testing.T) {
	wells, err := player.BenchGame()
	if err != nil {
		t.Fatal(err)
	}
	prev := 0
	for i := range wells {
		s := scoreAt(&wells[i], i)
		if s < prev || s > prev+4 {
			t.Fatalf("spawn %d: score %d after %d", i, s, prev)
		}
		prev = s
	}
	if prev != 289 {
		t.Fatalf("final score %d, want 289", prev)
	}
}

// TestHeuristicStart: a run with --start heuristic distills generation 0
// (distill.bin, distill.json) and is deterministic.
func TestHeuristicStart(t *testing.T) {
	var nets [][]byte
	for range 2 {
		c := tinyConfig()
		c.Gens, c.Start, c.DistillWidth, c.DistillSamples, c.MaxDepth = 0, StartHeuristic, 6, 2, 8
		dir := t.TempDir()
		r := &Runner{Dir: dir, Config: c, Workers: 2}
		if _, err := r.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		var out distillOut
		if err := readJSON(filepath.Join(dir, "gen-000", "distill.json"), &out); err != nil || out.Samples < 50 || out.Epochs < 1 {
			t.Fatalf("distill.json %+v, %v", out, err)
		}
		b, err := os.ReadFile(filepath.Join(dir, "gen-000", "net.yomi"))
		if err != nil {
			t.Fatal(err)
		}
		nets = append(nets, b)
	}
	if !bytes.Equal(nets[0], nets[1]) {
		t.Fatal("distilled nets differ between identical runs")
	}
}
