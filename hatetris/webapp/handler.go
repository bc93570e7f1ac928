// This file holds the HTTP side of the page: static files, mode.js saying a
// server is there, POST api/check, and the search endpoints (search.go).

package webapp

import (
	"io"
	"net/http"
	"runtime"
	"time"

	"github.com/yomi-ai/yomi/hatetris/webapp/api"
	"github.com/yomi-ai/yomi/web"
)

// Options configures Handler.
type Options struct {
	// MaxWidth caps a search's beam width (default 5000).
	MaxWidth int
	// MaxSearchTime caps a search's time (default and upper bound 60 s).
	MaxSearchTime time.Duration
	// SearchWorkers is the goroutines of one search (default half the
	// cores, at least 1: the page must not take the whole machine).
	SearchWorkers int
	// NoNet leaves the net evaluator out (tests that need no net file).
	NoNet bool
}

// DefaultMaxSearchTime is the longest a search may run.
const DefaultMaxSearchTime = 60 * time.Second

// maxBody bounds a request: a replay is at most api.MaxReplayBytes.
const maxBody = api.MaxReplayBytes + 4<<10

// Handler returns the page and its API, to be mounted with its prefix
// stripped: GET / and the static files, GET mode.js, POST api/check,
// POST api/search, GET api/search/{id}, POST api/search/{id}/stop.
func Handler(opt Options) http.Handler {
	if opt.MaxWidth <= 0 {
		opt.MaxWidth = 5000
	}
	if opt.MaxSearchTime <= 0 || opt.MaxSearchTime > DefaultMaxSearchTime {
		opt.MaxSearchTime = DefaultMaxSearchTime
	}
	if opt.SearchWorkers <= 0 {
		opt.SearchWorkers = max(1, runtime.GOMAXPROCS(0)/2)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /", http.FileServerFS(Static()))
	mux.HandleFunc("GET /mode.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		io.WriteString(w, "// Served by `yomi serve`: searches and replay checks run on the server.\nwindow.HATETRIS_SERVER = true;\n")
	})
	mux.HandleFunc("POST /api/check", func(w http.ResponseWriter, r *http.Request) {
		var req api.CheckRequest
		if !decodeBody(w, r, &req) {
			return
		}
		res, err := api.Check(req)
		if err != nil {
			web.WriteJSON(w, http.StatusBadRequest, errorBody{err.Error()})
			return
		}
		web.WriteJSON(w, http.StatusOK, res)
	})
	s := newSearches(opt)
	mux.HandleFunc("POST /api/search", s.start)
	mux.HandleFunc("GET /api/search/{id}", s.status)
	mux.HandleFunc("POST /api/search/{id}/stop", s.stop)
	return mux
}

// decodeBody reads one JSON object (no unknown fields) from a bounded body,
// answering 400 itself when it cannot.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	return web.ReadJSON(w, r, maxBody, v)
}

type errorBody struct {
	Error string `json:"error"`
}
