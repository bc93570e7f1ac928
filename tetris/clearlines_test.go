package tetris

import (
	"math/rand/v2"
	"testing"
)

// TestClearLinesRandom compares ClearLines with a plain filter (keep the
// rows that are not full, in order, then empty rows) on random matrices
// with full rows anywhere, none, or all.
func TestClearLinesRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for i := range 3000 {
		var b Board
		pFull := []float64{0, 0.05, 0.3, 1}[i%4]
		for y := range Height {
			switch {
			case rng.Float64() < pFull:
				b.Rows[y] = FullRow
			case y < 20:
				b.Rows[y] = uint16(rng.IntN(int(FullRow)))
			}
		}
		var want [Height]uint16
		n, lines := 0, 0
		for _, r := range b.Rows {
			if r == FullRow {
				lines++
				continue
			}
			want[n] = r
			n++
		}
		got := b
		if l := got.ClearLines(); l != lines || got.Rows != want {
			t.Fatalf("case %d: %d lines, want %d; rows %v, want %v", i, l, lines, got.Rows, want)
		}
	}
}
