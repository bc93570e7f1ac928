// This file mounts SEPARO's web page (separo/webapp) in `yomi serve`: the AI
// runs on the server there, and in a Web Worker in `yomi serve --export`.
package main

import (
	"github.com/yomi-ai/yomi/separo/webapp"
	"github.com/yomi-ai/yomi/web"
)

// separoWebApp returns the page and its API for the landing page's entry.
func separoWebApp() *web.App {
	return &web.App{Handler: webapp.Handler(webapp.Options{}), Static: webapp.Static()}
}
