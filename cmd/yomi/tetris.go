// `yomi tetris`: the guideline Tetris area; its verbs are added by the other
// cmd/yomi/tetris_*.go files.

package main

import (
	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/fabric"
	"github.com/yomi-ai/yomi/internal/cli"
	"github.com/yomi-ai/yomi/tetris/versus"
	"github.com/yomi-ai/yomi/web"
)

// tetrisGame plugs Guideline Tetris into the binary: its area, benchmarks and web entry.
func tetrisGame() game {
	return withTetrisTBP(withTetrisPlacements(withTetrisBot(game{
		area: &cli.Area{
			Name:    "tetris",
			Summary: "guideline Tetris: engine, move generator, bot, TBP",
			Verbs:   []*cli.Verb{tetrisPCVerb()},
		},
		benches: tetrisPCBenchmarks(),
		jobs: map[string]fabric.Handler{
			versus.MatchKind: arena.PairHandler(versus.PairFactory),
			versus.SoloKind:  arena.ScoreHandler(versus.SoloFactory),
		},
		entry: web.Entry{Slug: "tetris", Title: "Guideline Tetris", Summary: "Modern guideline Tetris: SRS engine, move generator, a Cold-Clear-class bot speaking the Tetris Bot Protocol, perfect clears; a page to play against the bot and watch it.", App: tetrisWebApp()},
	})))
}
