package bot

import (
	"context"
	"testing"
)

// benchPositions are the positions of `yomi bench tetris/bot` (rows top
// to bottom, queue), so the thread-scaling profiles see the same search.
var benchPositions = []struct {
	rows  []string
	queue []Piece
}{
	{nil, []Piece{T, I, O, L, J, S, Z}},
	{[]string{"XX________", "X___XXXXXX", "XX_XXXXXXX"}, []Piece{T, O, I, L, J}},
	{[]string{"XXXXXXXXX_", "XXXXXXXXX_", "XXXXXXXXX_", "XXXXXXXXX_"}, []Piece{I, O, S, Z, L}},
	{[]string{"_X___XX___", "XXX_XXXX_X", "XXXX_XXXXX", "X_XXXXXXXX"}, []Piece{S, Z, J, L, T}},
}

// benchPositionsRun searches each bench position for 100k nodes with the
// given threads, as `yomi bench tetris/bot/1t` and `/2t` do.
func benchPositionsRun(b *testing.B, threads int) {
	var nodes int64
	var secs float64
	for b.Loop() {
		for i, pos := range benchPositions {
			board, err := ParseField(pos.rows)
			if err != nil {
				b.Fatal(err)
			}
			bt := New(Options{Threads: threads, Seed: uint64(i + 1)})
			if err := bt.Reset(board, pos.queue, NoPiece, 0); err != nil {
				b.Fatal(err)
			}
			st := bt.Think(context.Background(), Budget{Nodes: 100000})
			bt.Close()
			nodes += st.Nodes
			secs += st.Elapsed.Seconds()
		}
	}
	b.ReportMetric(float64(nodes)/secs, "nodes/s")
}

func BenchmarkBenchPositions1(b *testing.B) { benchPositionsRun(b, 1) }
func BenchmarkBenchPositions2(b *testing.B) { benchPositionsRun(b, 2) }
