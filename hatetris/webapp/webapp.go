// Package webapp is HATETRIS's web page: play against the HATETRIS (or Mild)
// AI with the original's keys, view any replay (paste one, pick one of
// Yomi's or the upstream records, share it through the URL), and, on the
// server, watch a beam search grow its best line.
//
// The exact engine decides everything the page shows: it runs in the browser
// as WebAssembly (wasm/main.go over package api), under `yomi serve` and in
// the static export alike; the server also replays a finished game (POST
// api/check) and runs searches (POST api/search). Start with Handler and
// Static. The WebAssembly binary and records.json in static/ are made by
// `go generate ./hatetris/webapp` and committed; TestWasmFresh and
// TestRecordsFresh check that they match the sources.
package webapp

//go:generate go run ./internal/genwasm

import (
	"embed"
	"io/fs"
)

//go:embed static
var staticFS embed.FS

// Static returns the files of the page as a static site (static/mode.js says
// there is no server: no search, no server check).
func Static() fs.FS {
	sub, err := fs.Sub(staticFS, "static")
	if err != nil {
		panic(err) // the embedded directory always exists
	}
	return sub
}
