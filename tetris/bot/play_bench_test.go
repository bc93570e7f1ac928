package bot

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/internal/bench"
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

// BenchmarkGameCatchUp plays 40 moves of a solo game (seed 7, 150k nodes
// a move, about an in-game 50 ms search) with 1 and 2 threads and reports
// per move the time of what a game does between searches (Play and the
// new piece's AddPiece), that plus the search (the whole move), and at 1
// thread a hash of the moves played, which speed work must not change,
// and the catch-up's CPU time (this thread's: at 1 thread it does it
// all), the less load-sensitive figure on a shared machine, and the
// search's (the process's, garbage collection included: at 1 thread
// nothing else runs then).
func BenchmarkGameCatchUp(b *testing.B) {
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("%dt", threads), func(b *testing.B) { benchGame(b, threads, false, 150000) })
	}
	// one search thread (the same trees and moves as 1t) with the
	// rebuild's second goroutine, as at 2 threads: the parallel
	// catch-up's wall time on trees that do not vary from run to run;
	// and both with 450k nodes a move, about an in-game 200 ms search
	b.Run("1t-par", func(b *testing.B) { benchGame(b, 1, true, 150000) })
	b.Run("1t-450k", func(b *testing.B) { benchGame(b, 1, false, 450000) })
	b.Run("1t-par-450k", func(b *testing.B) { benchGame(b, 1, true, 450000) })
}

func benchGame(b *testing.B, threads int, parallel bool, nodes int64) {
	var catchUp, total, cpu, searchCPU time.Duration
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var moves int
	var sum uint64
	b.StopTimer()
	for range b.N {
		next := bagFeed(7)
		queue := make([]Piece, 6)
		for i := range queue {
			queue[i] = next()
		}
		bt := New(Options{Seed: 7, Threads: threads})
		bt.parallel = parallel
		bt.Reset(Board{}, queue, NoPiece, 0)
		sum = 0
		for range 40 {
			b.StartTimer()
			p0, _ := bench.ProcessCPU()
			t0 := time.Now()
			bt.Think(context.Background(), Budget{Nodes: nodes})
			ms := bt.Suggest(0)
			t1 := time.Now()
			b.StopTimer()
			p1, _ := bench.ProcessCPU()
			searchCPU += p1 - p0
			total += t1.Sub(t0)
			if len(ms) == 0 {
				break
			}
			m := ms[0]
			sum = sum*31 + uint64(m.Piece)<<24 + uint64(m.Rot)<<16 + uint64(uint8(m.X))<<8 + uint64(uint8(m.Y))
			b.StartTimer()
			c0, _ := bench.ThreadCPU()
			t0 = time.Now()
			if err := bt.Play(m); err != nil {
				b.Fatal(err)
			}
			for s := bt.State(); s.QLen < 6; s = bt.State() {
				if err := bt.AddPiece(next()); err != nil {
					b.Fatal(err)
				}
			}
			d := time.Since(t0)
			c1, _ := bench.ThreadCPU()
			b.StopTimer()
			cpu += c1 - c0
			catchUp += d
			total += d
			moves++
		}
		bt.Close()
	}
	b.ReportMetric(float64(catchUp.Microseconds())/float64(moves), "catchup-µs/move")
	b.ReportMetric(float64(total.Microseconds())/float64(moves), "µs/move")
	if threads == 1 {
		b.ReportMetric(float64(sum%1000000), "movehash")
		b.ReportMetric(float64(cpu.Microseconds())/float64(moves), "catchup-cpu-µs/move")
		b.ReportMetric(float64(searchCPU.Microseconds())/float64(moves), "search-cpu-µs/move")
	}
}
