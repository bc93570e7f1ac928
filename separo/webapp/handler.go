// This file holds the HTTP side of the page: static files, mode.js saying the
// AI runs on the server, and POST api/step.

package webapp

import (
	"context"
	"errors"
	"io"
	"net/http"
	"runtime"
	"time"

	"github.com/yomi-ai/yomi/separo/webapp/api"
	"github.com/yomi-ai/yomi/web"
)

// Options configures Handler.
type Options struct {
	// MaxMoveTime caps the time an AI may think per request (default and
	// upper bound: api.MaxMoveTime, the page's maximum).
	MaxMoveTime time.Duration
	// MaxSearches is how many AI searches run at once; more requests wait
	// (default GOMAXPROCS).
	MaxSearches int
	// MaxSessions is how many games' AI players (and search trees) the
	// server keeps for requests that name their game (default 16; the least
	// recently used is dropped).
	MaxSessions int
}

// maxBody bounds a request: a full 19×19 game is well under 10 KiB.
const maxBody = 64 << 10

// Handler returns the page and its API, to be mounted with its prefix
// stripped: GET / and the static files, GET mode.js, POST api/step.
func Handler(opt Options) http.Handler {
	if opt.MaxMoveTime <= 0 || opt.MaxMoveTime > api.MaxMoveTime {
		opt.MaxMoveTime = api.MaxMoveTime
	}
	if opt.MaxSearches <= 0 {
		opt.MaxSearches = runtime.GOMAXPROCS(0)
	}
	if opt.MaxSessions <= 0 {
		opt.MaxSessions = 16
	}
	sem := make(chan struct{}, opt.MaxSearches)
	sessions := newSessionCache(opt.MaxSessions)
	mux := http.NewServeMux()
	mux.Handle("GET /", http.FileServerFS(staticSub()))
	mux.HandleFunc("GET /mode.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		io.WriteString(w, "// Served by `yomi serve`: the AI runs on the server.\nwindow.SEPARO_ENGINE = \"server\";\n")
	})
	mux.HandleFunc("POST /api/step", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			api.Request
			// Game, if set, names the game so that its AIs keep their trees.
			Game string `json:"game,omitempty"`
		}
		if !web.ReadJSON(w, r, maxBody, &req) {
			return
		}
		if len(req.Game) > 64 {
			web.WriteJSON(w, http.StatusBadRequest, errorBody{"game id longer than 64 bytes"})
			return
		}
		ctx := r.Context()
		step := api.Step
		if req.AI != "" {
			if time.Duration(req.MoveTimeMS)*time.Millisecond > opt.MaxMoveTime {
				req.MoveTimeMS = int(opt.MaxMoveTime / time.Millisecond)
			}
			select {
			case sem <- struct{}{}:
				defer func() { <-sem }()
			case <-ctx.Done():
				return
			}
			if req.Game != "" {
				sess := sessions.get(req.Game, time.Now())
				sess.mu.Lock()
				defer sess.mu.Unlock()
				step = sess.s.Step
			}
		}
		resp, err := step(ctx, req.Request)
		if err != nil {
			status := http.StatusBadRequest
			if errors.Is(err, context.Canceled) {
				status = 499 // client went away; nobody reads this
			}
			web.WriteJSON(w, status, errorBody{err.Error()})
			return
		}
		web.WriteJSON(w, http.StatusOK, resp)
	})
	return mux
}

type errorBody struct {
	Error string `json:"error"`
}
