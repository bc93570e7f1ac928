// This file mounts the Guideline Tetris page (tetris/webapp) in `yomi
// serve`: the bot thinks on the server there, and in a TBP Web Worker in
// `yomi serve --export`.
package main

import (
	"github.com/yomi-ai/yomi/tetris/webapp"
	"github.com/yomi-ai/yomi/web"
)

// tetrisWebApp returns the page and its API for the landing page's entry.
func tetrisWebApp() *web.App {
	return &web.App{Handler: webapp.Handler(webapp.Options{}), Static: webapp.Static()}
}

// withTetrisExternalBot returns entries with the Tetris page's server offering the
// TBP bot cmd (`yomi serve --tetris-bot CMD`).
func withTetrisExternalBot(entries []web.Entry, cmd string) []web.Entry {
	out := append([]web.Entry(nil), entries...)
	for i, e := range out {
		if e.Slug == "tetris" && e.App != nil {
			out[i].App = &web.App{Handler: webapp.Handler(webapp.Options{ExternalBot: cmd}), Static: webapp.Static()}
		}
	}
	return out
}
