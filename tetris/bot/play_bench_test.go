package bot

import (
	"context"
	"testing"
	"time"
)

// BenchmarkPlay measures advancing the tree by the best move after a
// 100k-node search from the opening (the per-move bookkeeping cost):
// Play and AddPiece are reported separately.
func BenchmarkPlay(b *testing.B) {
	var tp, ta time.Duration
	for b.Loop() {
		b.StopTimer()
		bt := New(Options{Seed: 1, Threads: 1})
		bt.Reset(Board{}, []Piece{T, I, O, L, J, S, Z}, NoPiece, 0)
		bt.Think(context.Background(), Budget{Nodes: 100000})
		mv := bt.Suggest(0)[0]
		b.StartTimer()
		t0 := time.Now()
		if err := bt.Play(mv); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if err := bt.AddPiece(T); err != nil {
			b.Fatal(err)
		}
		tp += t1.Sub(t0)
		ta += time.Since(t1)
	}
	b.ReportMetric(float64(tp.Microseconds())/float64(b.N), "play-µs")
	b.ReportMetric(float64(ta.Microseconds())/float64(b.N), "addpiece-µs")
}
