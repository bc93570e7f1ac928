package bot

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkEvaluateChildren measures Evaluate as the search calls it: on
// every fast-mode placement of every piece on 64 fixed random boards (with
// holes, carved T-slots, a few tall stacks), each locked as place locks it
// (lockInto), with the child's heights passed in when no line is cleared
// and a queue that asks for two T-slot cut-outs. It reports ns per
// evaluation; for instructions per evaluation run the test binary under
// `valgrind --tool=cachegrind` with two -test.benchtime counts and divide
// the difference.
func BenchmarkEvaluateChildren(b *testing.B) {
	type job struct {
		board Board
		in    EvalInput
		h     [10]int
	}
	rng := rand.New(rand.NewPCG(41, 1))
	gen := NewGenerator()
	var jobs []*job
	for _, pb := range evalBoards(rng, 64) {
		clean := !pb.HasFullRow()
		var ph [10]int
		pb.Heights(&ph)
		for p := range Piece(7) {
			for _, mv := range gen.FastPlacements(nil, &pb, p) {
				j := &job{}
				res, _, _ := lockInto(&j.board, &pb, p, mv, clean, 0)
				if res.LockedOut {
					continue
				}
				j.in = EvalInput{Lock: res, Move: mv, NextBag: 0x7F, Hold: T, clean: true}
				if res.Lines == 0 {
					j.h = ph
					raiseHeights(&j.h, mv)
					j.in.Heights = &j.h
				}
				jobs = append(jobs, j)
			}
		}
	}
	e := Evaluator{W: DefaultWeights()}
	var sink int32
	b.ResetTimer()
	for b.Loop() {
		for _, j := range jobs {
			v, r := e.Evaluate(&j.board, &j.in)
			sink += v.V + r.V
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(jobs)), "ns/eval")
	b.ReportMetric(float64(len(jobs)), "evals/op")
	_ = sink
}

// BenchmarkExpand measures making the children of the four bench positions
// (generating, locking, hashing, evaluating and presorting them, as a
// search thread does outside the lock), both as known nodes and as
// speculated ones (the queue used up, the current piece held). It reports
// ns per child.
func BenchmarkExpand(b *testing.B) {
	bt := New(Options{})
	w := bt.wks[0]
	var states []State
	for _, pos := range benchPositions {
		board, err := ParseField(pos.rows)
		if err != nil {
			b.Fatal(err)
		}
		s := State{Board: board, Hold: NoPiece, Bag: 0x7F}
		for _, p := range pos.queue {
			s.push(p)
		}
		states = append(states, s)
		spec := State{Board: board, Hold: pos.queue[0], Bag: 0x7F}
		states = append(states, spec)
	}
	children := 0
	for b.Loop() {
		for i := range states {
			_, n := bt.expand(w, &states[i])
			children += n
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(children), "ns/child")
}
