// bench_test.go holds testing.B benchmarks of the generator, the evaluator
// and the search.

package bot

import (
	"context"
	"testing"
)

func BenchmarkPlacements(b *testing.B) {
	g := NewGenerator()
	board, _ := ParseField([]string{"_X___XX___", "XXX_XXXX_X", "XXXX_XXXXX", "X_XXXXXXXX"})
	var buf []Move
	for b.Loop() {
		for p := range Piece(7) {
			buf = g.Placements(buf[:0], &board, p)
		}
	}
}

func BenchmarkFastPlacements(b *testing.B) {
	g := NewGenerator()
	board, _ := ParseField([]string{"_X___XX___", "XXX_XXXX_X", "XXXX_XXXXX", "X_XXXXXXXX"})
	var buf []Move
	for b.Loop() {
		for p := range Piece(7) {
			buf = g.FastPlacements(buf[:0], &board, p)
		}
	}
}

func BenchmarkEvaluate(b *testing.B) {
	e := Evaluator{W: DefaultWeights()}
	board, _ := ParseField([]string{"_X___XX___", "XXX_XXXX_X", "XXXX_XXXXX", "X_XXXXXXXX"})
	in := EvalInput{Move: Move{Piece: S}, NextBag: 0x7F, Hold: NoPiece}
	for b.Loop() {
		e.Evaluate(&board, &in)
	}
}

func benchSearch(b *testing.B, threads int) {
	var nodes int64
	var secs float64
	for b.Loop() {
		bt := New(Options{Seed: 1, Threads: threads})
		bt.Reset(Board{}, []Piece{T, I, O, L, J, S, Z}, NoPiece, 0)
		st := bt.Think(context.Background(), Budget{Nodes: 50000})
		nodes += st.Nodes
		secs += st.Elapsed.Seconds()
	}
	b.ReportMetric(float64(nodes)/secs, "nodes/s")
}

func BenchmarkSearch1(b *testing.B) { benchSearch(b, 1) }
func BenchmarkSearch2(b *testing.B) { benchSearch(b, 2) }

func BenchmarkSearchBig2(b *testing.B) {
	for b.Loop() {
		bt := New(Options{Seed: 1, Threads: 2})
		bt.Reset(Board{}, []Piece{T, I, O, L, J, S, Z}, NoPiece, 0)
		st := bt.Think(context.Background(), Budget{Nodes: 1000000})
		b.ReportMetric(st.NodesPerSecond(), "nodes/s")
	}
}
