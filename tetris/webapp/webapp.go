// Package webapp is the Guideline Tetris page: play against Yomi's bot
// under the versus rules of `yomi tetris versus`, watch bots play, and the
// perfect-clear finder form. The game runs in the browser on the engine
// compiled to WebAssembly (api.Game: every lock is checked by the move
// generator); the bot thinks on the server (POST api/bot, TBP messages in
// sessions that expire) or, in the exported site, in a Web Worker that
// speaks the Tetris Bot Protocol (static/tbp-worker.js), which other TBP
// frontends can use as well.
//
// The WebAssembly binary in static/ is built by `go generate
// ./tetris/webapp` and committed; TestWasmFresh checks that it matches the
// sources.
package webapp

//go:generate go run github.com/yomi-ai/yomi/internal/wasmbuild/genwasm -wasm tetris.wasm github.com/yomi-ai/yomi/tetris/webapp/wasm

import (
	"embed"
	"io/fs"
)

//go:embed static
var staticFS embed.FS

// Static returns the files of the page as a static site (static/mode.js
// selects the Web Worker bot; the PC finder needs the server).
func Static() fs.FS {
	sub, err := fs.Sub(staticFS, "static")
	if err != nil {
		panic(err) // the embedded directory always exists
	}
	return sub
}
