package main

import (
	"github.com/yomi-ai/yomi/internal/cli"
	"github.com/yomi-ai/yomi/web"
)

// seigotGame plugs seigot/tetris into the binary: its area, benchmarks and web entry.
func seigotGame() game {
	return game{
		area: &cli.Area{
			Name:    "seigot",
			Summary: "seigot/tetris contest: engine, AI, Python bridge",
		},
		entry: web.Entry{Slug: "seigot", Title: "seigot/tetris", Summary: "The seigot/tetris Python contest: exact engine with numpy's random sequences, an AI for every level, a bridge into the real game."},
	}
}
