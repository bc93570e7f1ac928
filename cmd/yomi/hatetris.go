package main

import (
	"github.com/yomi-ai/yomi/internal/cli"
	"github.com/yomi-ai/yomi/web"
)

// hatetrisGame plugs HATETRIS into the binary: its area, benchmarks and web entry.
func hatetrisGame() game {
	return game{
		area: &cli.Area{
			Name:    "hatetris",
			Summary: "HATETRIS: emulator, replays, beam search, NN training",
		},
		entry: web.Entry{Slug: "hatetris", Title: "HATETRIS", Summary: "The hardest Tetris: exact emulator and replays, beam search, and a small neural net trained by Search/Refine/Learn."},
	}
}
