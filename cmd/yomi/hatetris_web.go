// This file mounts HATETRIS's web page (hatetris/webapp) in `yomi serve`: the
// engine runs in the browser as WebAssembly; the server adds replay checks and
// beam searches (off in `yomi serve --export`).
package main

import (
	"github.com/yomi-ai/yomi/hatetris/webapp"
	"github.com/yomi-ai/yomi/web"
)

// hatetrisWebApp returns the page and its API for the landing page's entry.
func hatetrisWebApp() *web.App {
	return &web.App{Handler: webapp.Handler(webapp.Options{}), Static: webapp.Static()}
}
