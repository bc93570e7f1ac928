// bench.go holds the fixed board set and workload behind the movegen
// benchmarks (`yomi bench tetris/movegen` and BenchmarkGenerate).

package movegen

import (
	"math/rand/v2"

	"github.com/yomi-ai/yomi/tetris"
)

// BenchBoards returns the fixed benchmark board set: the empty board, the
// spec's SpinChecker field, and 62 boards from random play (seeded PCG:
// 0–39 random reachable placements of random pieces each, lines cleared).
func BenchBoards() []tetris.Board {
	out := []tetris.Board{{}}
	b, _ := tetris.ParseField("X__XX_X___/X___XXXXXX/XX_XXXXXXX")
	out = append(out, b)
	rng := rand.New(rand.NewPCG(2026, 11))
	g := New(Options{})
	var ms []Move
	for len(out) < 64 {
		var b tetris.Board
		n := rng.IntN(40)
		for range n {
			ms = g.Generate(ms[:0], &b, tetris.Piece(rng.IntN(7)))
			if len(ms) == 0 {
				break
			}
			b.Place(ms[rng.IntN(len(ms))].Placement)
		}
		out = append(out, b)
	}
	return out
}

// BenchWorkload generates the placements of all seven pieces on every
// board with g and dst, returning the number of placements and of
// Generate calls.
func BenchWorkload(g *Generator, boards []tetris.Board, dst []Move) (placements, calls int) {
	for i := range boards {
		for p := tetris.I; p <= tetris.Z; p++ {
			dst = g.Generate(dst[:0], &boards[i], p)
			placements += len(dst)
			calls++
		}
	}
	return placements, calls
}
