package player

import (
	"math"
	"runtime"
	"testing"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/internal/bench"
)

// refQuiesce is the quiescence lookahead written plainly from D&F's rule
// with the exact engine: every future of each piece in the enemy's order
// (hatetris.Futures); a piece with a future clearing 2+ lines is skipped;
// the first other piece's single-line clears are followed, and the chain
// stops when it clears nothing. It counts the chain wells it values.
func refQuiesce(e Evaluator, well *hatetris.Well, score int, valued *int) float64 {
	best := math.Inf(-1)
	for p := hatetris.Piece(0); p < hatetris.NumPieces; p++ {
		futs := hatetris.Futures(nil, well, p)
		multi, any := false, false
		for _, f := range futs {
			multi = multi || f.Lines >= 2
			any = any || f.Lines == 1
		}
		if multi {
			continue
		}
		if !any {
			return best
		}
		for _, f := range futs {
			if f.Lines != 1 || f.Well.Over() {
				continue
			}
			*valued++
			best = max(best, e.Eval(&f.Well, score+1), refQuiesce(e, &f.Well, score+1, valued))
		}
		return best
	}
	return best
}

// quiesceCases returns the children of the enemy's piece for every step-th
// well of the 289 game, and the children of every piece for every 10th of
// those (more rows S or Z can complete), none of them game over.
func quiesceCases(t testing.TB, step int) []hatetris.Well {
	wells, err := BenchGame()
	if err != nil {
		t.Fatal(err)
	}
	var out []hatetris.Well
	var exp hatetris.Expander
	for i := 0; i < len(wells); i += step {
		_, futs := exp.Choose(&wells[i], nil)
		for _, f := range futs {
			if !f.Well.Over() {
				out = append(out, f.Well)
			}
		}
		if i%(10*step) == 0 {
			for p := hatetris.Piece(0); p < hatetris.NumPieces; p++ {
				for _, f := range hatetris.Futures(nil, &wells[i], p) {
					if !f.Well.Over() {
						out = append(out, f.Well)
					}
				}
			}
		}
	}
	return out
}

// TestQuiesceMatchesReference: the beam's quiescence (Clearer-based, with
// the shortcut) gives exactly the reference's value on the children of the
// 289 game's wells, with the hand heuristic (whose value depends on the
// score) as the evaluator; chains of several steps occur.
func TestQuiesceMatchesReference(t *testing.T) {
	w := &worker{eval: DefaultHeuristic()}
	chains, valued := 0, 0
	step := 24
	if testing.Short() {
		step = 96
	}
	for i, well := range quiesceCases(t, step) {
		n := 0
		want := refQuiesce(w.eval, &well, 3, &n)
		if got := w.quiesce(&well, 3, 0); got != want {
			t.Fatalf("child %d: quiesce %g, reference %g\n%v", i, got, want, well)
		}
		if n > 0 {
			chains++
		}
		valued += n
	}
	if chains == 0 || valued <= chains {
		t.Fatalf("%d children with chains, %d chain wells: the cases test nothing", chains, valued)
	}
	t.Logf("%d children with chains, %d chain wells valued", chains, valued)
}

// BenchmarkQuiesce values the quiescence chains of the children of the 289
// game's wells (the enemy's piece; every piece for every 40th well) with
// the hand heuristic, on one locked thread; compare cpu-ns/child.
func BenchmarkQuiesce(b *testing.B) {
	cases := quiesceCases(b, 4)
	w := &worker{eval: DefaultHeuristic()}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, ok0 := bench.ThreadCPU()
	b.ResetTimer()
	for b.Loop() {
		for i := range cases {
			w.quiesce(&cases[i], 0, 0)
		}
	}
	c1, ok1 := bench.ThreadCPU()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cases)), "ns/child")
	if ok0 && ok1 {
		b.ReportMetric(float64((c1-c0).Nanoseconds())/float64(b.N*len(cases)), "cpu-ns/child")
	}
}

// BenchmarkQuiesceReference is BenchmarkQuiesce with refQuiesce (a full
// flood and every future materialised per chain well), for comparison.
func BenchmarkQuiesceReference(b *testing.B) {
	cases := quiesceCases(b, 4)
	e := DefaultHeuristic()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, ok0 := bench.ThreadCPU()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		for i := range cases {
			refQuiesce(e, &cases[i], 0, &n)
		}
	}
	c1, ok1 := bench.ThreadCPU()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cases)), "ns/child")
	if ok0 && ok1 {
		b.ReportMetric(float64((c1-c0).Nanoseconds())/float64(b.N*len(cases)), "cpu-ns/child")
	}
}
