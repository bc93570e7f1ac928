// bench_test.go benchmarks the generator on the fixed board set.

package movegen

import (
	"testing"

	"github.com/yomi-ai/yomi/tetris"
)

func BenchmarkGenerate(b *testing.B) {
	boards := BenchBoards()
	g := New(Options{})
	dst := make([]Move, 0, 1024)
	total, calls := 0, 0
	b.ResetTimer()
	for b.Loop() {
		n, c := BenchWorkload(g, boards, dst)
		total += n
		calls += c
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "placements/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(calls), "ns/piece")
}

func BenchmarkGenerateEmptyT(b *testing.B) {
	g := New(Options{})
	var bd tetris.Board
	dst := make([]Move, 0, 64)
	for b.Loop() {
		dst = g.Generate(dst[:0], &bd, tetris.T)
	}
}

func TestBenchBoardsDeterministic(t *testing.T) {
	a, c := BenchBoards(), BenchBoards()
	if len(a) != 64 {
		t.Fatalf("%d boards", len(a))
	}
	for i := range a {
		if a[i] != c[i] {
			t.Fatalf("board %d differs between calls", i)
		}
	}
	g := New(Options{})
	n, calls := BenchWorkload(g, a, nil)
	if calls != 64*7 || n == 0 {
		t.Fatalf("workload %d placements, %d calls", n, calls)
	}
	t.Logf("bench workload: %d placements over %d calls", n, calls)
}

func BenchmarkFastGenerate(b *testing.B) {
	boards := BenchBoards()
	g := New(Options{})
	dst := make([]Move, 0, 1024)
	total, calls := 0, 0
	for b.Loop() {
		for i := range boards {
			for p := tetris.I; p <= tetris.Z; p++ {
				dst = g.FastGenerate(dst[:0], &boards[i], p)
				total += len(dst)
				calls++
			}
		}
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "placements/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(calls), "ns/piece")
}
