// This file checks random-playout statistics against the spec's §9 figures
// and benchmarks playouts.

package separo

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPlayoutStatistics: 4000 random 9×9 games; the spec measured mean
// 31.4 plies and Red 46.5 % / Blue 36.1 % / draw 17.4 % over 20 000.
func TestPlayoutStatistics(t *testing.T) {
	n := 4000
	if testing.Short() {
		n = 1000
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var buf PlayoutBuf
	start := MustNew(9)
	plies := 0
	var res [3]int
	for range n {
		b := start
		r := b.Playout(Red, rng, &buf)
		res[r]++
		plies += b.Plies()
	}
	mean := float64(plies) / float64(n)
	// The ply standard deviation is about 3.6; 5 standard errors.
	if tol := 5 * 3.6 / math.Sqrt(float64(n)); math.Abs(mean-31.4) > tol {
		t.Errorf("mean plies %.2f, want 31.4 ± %.2f", mean, tol)
	}
	for _, c := range []struct {
		r    Result
		want float64
	}{{RedWin, 0.465}, {BlueWin, 0.361}, {Draw, 0.174}} {
		p := float64(res[c.r]) / float64(n)
		tol := 5 * math.Sqrt(c.want*(1-c.want)/float64(n))
		if math.Abs(p-c.want) > tol {
			t.Errorf("%v rate %.3f, want %.3f ± %.3f", c.r, p, c.want, tol)
		}
	}
	t.Logf("mean plies %.2f, red %d blue %d draw %d", mean, res[RedWin], res[BlueWin], res[Draw])
}

func BenchmarkPlayout9(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var buf PlayoutBuf
	start := MustNew(9)
	plies := 0
	for b.Loop() {
		x := start
		x.Playout(Red, rng, &buf)
		plies += x.Plies()
	}
	b.ReportMetric(float64(plies)/float64(b.N), "plies/op")
}

func BenchmarkMoves9(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 3))
	var buf PlayoutBuf
	x := MustNew(9)
	for range 12 {
		buf.codes = x.genCodes(Red, buf.codes)
		x.applyCode(Red, buf.codes[rng.IntN(len(buf.codes))])
		buf.codes = x.genCodes(Blue, buf.codes)
		x.applyCode(Blue, buf.codes[rng.IntN(len(buf.codes))])
	}
	for b.Loop() {
		y := x
		buf.codes = y.genCodes(Red, buf.codes)
	}
}

func BenchmarkScore9(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 4))
	var buf PlayoutBuf
	x := MustNew(9)
	x.Playout(Red, rng, &buf)
	var s Scratch
	for b.Loop() {
		x.ScoreWith(Red, &s)
	}
}

// TestTracedPlayoutReplays: every traced step is legal when replayed with
// Play, its Key is MoveKey, and the replay ends on the playout's board.
func TestTracedPlayoutReplays(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	buf := PlayoutBuf{Trace: true}
	for g := range 200 {
		size := 5 + g%10
		start := MustNew(size)
		end := start
		res := end.Playout(Color(g&1), rng, &buf)
		x := start
		for i, s := range buf.Steps {
			if err := x.Play(s.Color, s.Move); err != nil {
				t.Fatalf("game %d step %d: %v", g, i, err)
			}
			if int(s.Key) != x.MoveKey(s.Move) {
				t.Fatalf("game %d step %d: key %d, MoveKey %d", g, i, s.Key, x.MoveKey(s.Move))
			}
		}
		if !x.Equal(&end) || x.Winner() != res || !x.GameOver() {
			t.Fatalf("game %d: replay differs from the playout", g)
		}
	}
}
