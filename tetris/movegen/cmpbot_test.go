package movegen_test

import (
	"testing"

	"github.com/yomi-ai/yomi/tetris"
	"github.com/yomi-ai/yomi/tetris/movegen"
)

// BenchmarkBotBoard runs all 7 pieces on tetris/bot's benchmark board
// (bot's BenchmarkPlacements/BenchmarkFastPlacements) for comparison.
func BenchmarkBotBoardFast(b *testing.B) { benchBotBoard(b, true) }

// BenchmarkBotBoardComplete is the complete-mode twin of BenchmarkBotBoardFast.
func BenchmarkBotBoardComplete(b *testing.B) { benchBotBoard(b, false) }

func benchBotBoard(b *testing.B, fast bool) {
	board, err := tetris.ParseField("_X___XX___/XXX_XXXX_X/XXXX_XXXXX/X_XXXXXXXX")
	if err != nil {
		b.Fatal(err)
	}
	g := movegen.New(movegen.Options{})
	buf := make([]movegen.Move, 0, 256)
	for b.Loop() {
		for p := tetris.I; p <= tetris.Z; p++ {
			if fast {
				buf = g.FastGenerate(buf[:0], &board, p)
			} else {
				buf = g.Generate(buf[:0], &board, p)
			}
		}
	}
}
