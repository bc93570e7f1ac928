// Package webapp is SEPARO's web page: a static page (HTML, CSS, JavaScript,
// the engine compiled to WebAssembly) and an HTTP API that replays and
// validates every move a client sends (it keeps only the AI players of
// recent games, so that they reuse their search trees).
//
// Start with api.Step (package api), the one operation the page needs (the server's POST
// api/step and the WebAssembly build's separoStep both call it), then Handler
// (the server) and Static (the files of a page that runs the AI in a Web
// Worker, for `yomi serve --export`). The WebAssembly binary in static/ is
// built by `go generate ./separo/webapp` and committed; TestWasmFresh checks
// that it matches the sources.
package webapp

//go:generate go run github.com/yomi-ai/yomi/internal/wasmbuild/genwasm -wasm separo.wasm github.com/yomi-ai/yomi/separo/webapp/wasm

import (
	"embed"
	"io/fs"
)

//go:embed static
var staticFS embed.FS

// Static returns the files of the page as a static site: the AI runs in the
// browser (static/mode.js selects the Web Worker). Two generated scripts
// (fileexport.go) let the copy run from file:// too.
func Static() fs.FS { return withFileScripts{staticSub()} }

// staticSub is the embedded static directory as it is.
func staticSub() fs.FS {
	sub, err := fs.Sub(staticFS, "static")
	if err != nil {
		panic(err) // the embedded directory always exists
	}
	return sub
}
