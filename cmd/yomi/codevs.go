// `yomi codevs`: the CODE VS Reborn area; its verbs are added by the other
// cmd/yomi/codevs_*.go files.

package main

import (
	"github.com/yomi-ai/yomi/internal/cli"
	"github.com/yomi-ai/yomi/web"
)

// codevsGame plugs CODE VS Reborn into the binary: its area, benchmarks and web entry.
func codevsGame() game {
	return withCodevsAI(withCodevsReferee(game{
		area: &cli.Area{
			Name:    "codevs",
			Summary: "CODE VS Reborn: simulator, referee, AI",
		},
		entry: web.Entry{Slug: "codevs", Title: "CODE VS Reborn", Summary: "The 2019 contest game: exact simulator, a referee speaking the contest protocol, a chain-search AI, and a replay viewer (yomi serve --codevs-logs DIR)."},
	}))
}
