// crosscheck_test.go compares the placement sets of tetris/bot's own
// generator (complete mode) with this package on random boards.

package movegen_test

import (
	"math/rand/v2"
	"testing"

	"github.com/yomi-ai/yomi/tetris"
	"github.com/yomi-ai/yomi/tetris/bot"
	"github.com/yomi-ai/yomi/tetris/movegen"
)

type key struct {
	y0   int
	mask uint64
	spin tetris.Spin
}

func TestBotGeneratorAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	boards := movegen.BenchBoards()
	g := movegen.New(movegen.Options{})
	bg := bot.NewGenerator()
	diff := 0
	for i := range 500 {
		b := boards[i%len(boards)]
		if i >= len(boards) { // add random noise rows
			for y := range rng.IntN(8) {
				b.Rows[y] |= uint16(rng.IntN(1 << 10))
				if b.Rows[y] == tetris.FullRow {
					b.Rows[y] &^= 1 << uint(rng.IntN(10))
				}
			}
		}
		bb := bot.Board{Rows: b.Rows}
		for p := tetris.I; p <= tetris.Z; p++ {
			want := map[key]bool{}
			for _, m := range g.Generate(nil, &b, p) {
				y0, mk := m.CellMask()
				want[key{y0, mk, m.Spin}] = true
			}
			got := map[key]bool{}
			for _, m := range bg.Placements(nil, &bb, bot.Piece(p)) {
				pl := tetris.Placement{Piece: p, Rot: tetris.Rot(m.Rot), X: m.X, Y: m.Y, Spin: tetris.Spin(m.Spin)}
				y0, mk := pl.CellMask()
				got[key{y0, mk, pl.Spin}] = true
			}
			for k := range want {
				if !got[k] {
					diff++
					if diff <= 5 {
						t.Errorf("board %d %v: bot generator misses %+v on\n%s", i, p, k, &b)
					}
				}
			}
			for k := range got {
				if !want[k] {
					diff++
					if diff <= 5 {
						t.Errorf("board %d %v: bot generator has extra %+v on\n%s", i, p, k, &b)
					}
				}
			}
		}
	}
	if diff > 0 {
		t.Errorf("%d differences", diff)
	}
}
