package player

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/hatetris/replay"
	"github.com/yomi-ai/yomi/internal/bench"
)

// TestSearchReplays: the search's replay, played by the real game, reaches
// the score the search reports, for both AIs, and results do not depend on
// the number of workers.
func TestSearchReplays(t *testing.T) {
	for _, c := range []struct {
		ai    hatetris.AIKind
		width int
		quiet bool
	}{
		{hatetris.Hatetris, 20, false},
		{hatetris.Mild, 20, false},
		{hatetris.Hatetris, 8, true},
	} {
		var first *Result
		for _, workers := range []int{1, 3} {
			res, err := Search(context.Background(), Options{Width: c.width, AI: c.ai, Workers: workers, Quiescence: c.quiet, MaxDepth: 400})
			if err != nil {
				t.Fatal(err)
			}
			g := hatetris.NewGame(c.ai)
			g.Play(res.Moves)
			if g.Score != res.Score {
				t.Fatalf("%v w%d: replay scores %d, search says %d", c.ai, c.width, g.Score, res.Score)
			}
			if g.Over != res.GameOver {
				t.Errorf("%v: replay over=%v, search says %v", c.ai, g.Over, res.GameOver)
			}
			if first == nil {
				first = res
				t.Logf("%v width %d quiescence %v: %d lines, %d pieces, %d wells", c.ai, c.width, c.quiet, res.Score, res.Pieces, res.Wells)
			} else if hatetris.MovesString(first.Moves) != hatetris.MovesString(res.Moves) {
				t.Errorf("%v: result depends on the number of workers", c.ai)
			}
		}
	}
}

func BenchmarkExpand(b *testing.B) {
	wells, err := BenchGame()
	if err != nil {
		b.Fatal(err)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, ok0 := bench.ThreadCPU()
	b.ResetTimer()
	for b.Loop() {
		ExpandAll(wells, 1)
	}
	c1, ok1 := bench.ThreadCPU()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(wells)), "ns/well")
	if ok0 && ok1 {
		b.ReportMetric(float64((c1-c0).Nanoseconds())/float64(b.N*len(wells)), "cpu-ns/well")
	}
}

func BenchmarkBeam(b *testing.B) {
	for b.Loop() {
		res, err := Search(context.Background(), Options{Width: 500, MaxDepth: 60, Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Wells)/res.Elapsed.Seconds(), "wells/s")
	}
}

// TestSearchFromStart: a search from a given well reports every beam through
// OnDepth, its BestValue is the evaluator's best over the children of the
// enemy's piece (width 1, one piece, so the deepest beam is those children's
// best), and its replay is rebuilt from the start well.
func TestSearchFromStart(t *testing.T) {
	wells, err := BenchGame()
	if err != nil {
		t.Fatal(err)
	}
	h := DefaultHeuristic()
	for _, k := range []int{40, 200, 500} {
		start := wells[k]
		var depths []int
		res, err := Search(context.Background(), Options{Width: 1, MaxDepth: 1, AI: hatetris.Mild, Start: start,
			OnDepth: func(d int, beam []hatetris.Well) {
				depths = append(depths, d)
				if len(beam) != 1 {
					t.Errorf("beam of %d wells at width 1", len(beam))
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		var exp hatetris.Expander
		_, futs := exp.Choose(&start, nil)
		want := math.Inf(-1)
		for _, f := range futs {
			if !f.Well.Over() {
				want = max(want, h.Eval(&f.Well, int(f.Lines)))
			}
		}
		if res.BestValue != want || len(depths) != 1 || depths[0] != 1 {
			t.Errorf("well %d: BestValue %g want %g, depths %v", k, res.BestValue, want, depths)
		}
		if len(res.Spawned) != 1 {
			t.Errorf("well %d: %d pieces in the replay", k, len(res.Spawned))
		}
	}
	var over hatetris.Well
	over[hatetris.Bar-1] = 1
	if _, err := Search(context.Background(), Options{Width: 1, Start: over}); err == nil {
		t.Error("game-over start accepted")
	}
}

// TestQuiesceShortcut: the sCanFill shortcut never changes a quiescence
// value: on every child of the 289 game's wells (and their children), the
// full chain search gives the same value, and it is −Inf whenever the
// shortcut fires; both cases occur.
func TestQuiesceShortcut(t *testing.T) {
	wells, err := BenchGame()
	if err != nil {
		t.Fatal(err)
	}
	w := &worker{eval: DefaultHeuristic()}
	var futs []hatetris.Future
	fired, full := 0, 0
	for i := 0; i < len(wells); i += 10 {
		for p := hatetris.Piece(0); p < hatetris.NumPieces; p += 3 {
			futs = hatetris.Futures(futs[:0], &wells[i], p)
			for k := range futs {
				f := &futs[k].Well
				if f.Over() {
					continue
				}
				got, want := w.quiesce(f, 0, 0), w.quiesceAll(f, 0, 0)
				if got != want {
					t.Fatalf("well %d piece %d: shortcut %g, full %g", i, p, got, want)
				}
				if sCanFill(f) {
					full++
				} else {
					fired++
				}
			}
		}
	}
	if fired == 0 || full == 0 {
		t.Fatalf("shortcut fired %d times, skipped %d: both cases must occur", fired, full)
	}
	t.Logf("shortcut fired on %d of %d wells", fired, fired+full)
}

func TestSCanFill(t *testing.T) {
	for _, c := range []struct {
		row  uint16
		want bool
	}{
		{0, false}, {hatetris.FullRow &^ 1, true}, {hatetris.FullRow &^ 3, true}, {hatetris.FullRow &^ 5, false},
		{hatetris.FullRow &^ (3 << 8), true}, {hatetris.FullRow &^ (1 << 9), true}, {hatetris.FullRow &^ 7, false},
		{hatetris.FullRow &^ (0x201), false},
	} {
		var w hatetris.Well
		w[hatetris.Height-1] = c.row
		if got := sCanFill(&w); got != c.want {
			t.Errorf("row %010b: got %v", c.row, got)
		}
	}
}

// TestSelectFirst: the k first elements after selectFirst are the k
// smallest (as a set), for random data with many ties broken by index.
func TestSelectFirst(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 200; trial++ {
		n := 1 + r.IntN(3000)
		vals := make([]int, n)
		for i := range vals {
			vals[i] = r.IntN(1 + r.IntN(50))
		}
		cmp := func(a, b int32) int {
			if vals[a] != vals[b] {
				return vals[a] - vals[b]
			}
			return int(a - b)
		}
		x := make([]int32, n)
		for i := range x {
			x[i] = int32(i)
		}
		r.Shuffle(n, func(i, j int) { x[i], x[j] = x[j], x[i] })
		k := r.IntN(n + 1)
		selectFirst(x, k, cmp)
		got := slices.Clone(x[:k])
		slices.SortFunc(got, cmp)
		all := make([]int32, n)
		for i := range all {
			all[i] = int32(i)
		}
		slices.SortFunc(all, cmp)
		if !slices.Equal(got, all[:k]) {
			t.Fatalf("n %d k %d: wrong set", n, k)
		}
	}
}

// TestSearchLine: with LineEvery 0 the line is reported after every depth,
// each replays (stopped, so without the finishing piece) to its score, the
// lines grow, and the last equals the result's replay up to its last piece.
func TestSearchLine(t *testing.T) {
	var lines []*Result
	res, err := Search(context.Background(), Options{Width: 10, Workers: 1, MaxDepth: 40, Line: func(r *Result) { lines = append(lines, r) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != res.Depth {
		t.Fatalf("%d lines for %d depths", len(lines), res.Depth)
	}
	for i, r := range lines {
		g := hatetris.NewGame(hatetris.Hatetris)
		g.Play(r.Moves)
		if g.Score != r.Score || r.GameOver {
			t.Fatalf("line %d: replays to %d, says %d (game over %v)", i, g.Score, r.Score, r.GameOver)
		}
		if i > 0 && r.Pieces < lines[i-1].Pieces {
			t.Fatalf("line %d has %d pieces, the one before %d", i, r.Pieces, lines[i-1].Pieces)
		}
	}
	last := lines[len(lines)-1]
	if last.Score != res.Score || hatetris.MovesString(last.Moves) != hatetris.MovesString(res.Moves) {
		t.Errorf("last line %d lines %d moves, result %d lines %d moves", last.Score, len(last.Moves), res.Score, len(res.Moves))
	}
}

// The kept layers' compact entries change no game: the heuristic beam of
// width 300 with quiescence plays (40 pieces) the game the engine played with full
// nodes (testdata/beam300-quiescence.txt, written before the change), and
// an entry takes 44 bytes (a node 64).
func TestCompactLayers(t *testing.T) {
	if n, e := unsafe.Sizeof(node{}), unsafe.Sizeof(entry{}); e != 44 || n != 64 {
		t.Errorf("node %d bytes, entry %d: want 64 and 44", n, e)
	}
	b, err := os.ReadFile("testdata/beam300-quiescence.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.TrimSpace(string(b))
	res, err := Search(context.Background(), Options{Width: 300, Quiescence: true, Workers: 2, MaxDepth: 40})
	if err != nil {
		t.Fatal(err)
	}
	got, err := replay.Encode(res.Moves, replay.Base2048)
	if err != nil {
		t.Fatal(err)
	}
	if got != want || res.Score != 8 {
		t.Errorf("score %d, replay differs from the fixture: %v", res.Score, got != want)
	}
}
