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
		buf.moves = x.Moves(Red, buf.moves)
		x.Apply(Red, buf.moves[rng.IntN(len(buf.moves))])
		buf.moves = x.Moves(Blue, buf.moves)
		x.Apply(Blue, buf.moves[rng.IntN(len(buf.moves))])
	}
	for b.Loop() {
		y := x
		buf.moves = y.Moves(Red, buf.moves)
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
