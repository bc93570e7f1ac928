package main

import (
	"github.com/yomi-ai/yomi/internal/cli"
	"github.com/yomi-ai/yomi/web"
)

// separoGame plugs SEPARO into the binary: its area, benchmarks and web entry.
func separoGame() game {
	return game{
		area: &cli.Area{
			Name:    "separo",
			Summary: "SEPARO: rules, UCT AI, web page",
		},
		entry: web.Entry{Slug: "separo", Title: "SEPARO", Summary: "A board game of roots and regions: rules, a UCT Monte-Carlo AI, and a page to play against it."},
	}
}
