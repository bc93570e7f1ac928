// This file holds the HTTP side of the page: the static files, mode.js
// saying the bot runs on the server, POST api/bot (TBP messages to a bot
// session) and POST api/pc (the perfect-clear finder).

package webapp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"time"

	"github.com/yomi-ai/yomi/tetris/bot"
	"github.com/yomi-ai/yomi/tetris/webapp/api"
	"github.com/yomi-ai/yomi/web"
)

// Options configures Handler; zero fields take the defaults.
type Options struct {
	MaxThink    time.Duration // think time a suggest may ask for (default and cap 2 s)
	MaxSearches int           // searches running at once, others wait (default GOMAXPROCS)
	MaxSessions int           // bots kept (default 8; the least recently used is dropped)
	SessionTTL  time.Duration // a bot unused this long is dropped (default 10 min)
	PCTime      time.Duration // time bound of a perfect-clear search (default 10 s)
	MaxNodes    int64         // nodes a bot searches per move at most (default 1M, ≈150 MB of tree)
	// ExternalBot, if set, is a TBP bot command line the page may play
	// against Yomi (`yomi serve --tetris-bot CMD`): one process per session,
	// at most 4 at once.
	ExternalBot string
}

// maxBody bounds a request: a start message is about 3 KiB.
const maxBody = 64 << 10

// maxMessages bounds the TBP messages of one request.
const maxMessages = 32

// BotRequest is POST api/bot's body: TBP frontend messages for the bot of
// Session ("" starts a session), handled in order; a suggest first thinks
// for ThinkMS milliseconds (at most Options.MaxThink).
type BotRequest struct {
	Session string `json:"session"`
	// Bot chooses a new session's bot: "" or "yomi", or "external" for
	// Options.ExternalBot.
	Bot      string        `json:"bot,omitempty"`
	Messages []api.Message `json:"messages"`
	ThinkMS  int           `json:"think_ms"`
}

// BotResponse is POST api/bot's answer: the session and the bot's replies.
type BotResponse struct {
	Session  string        `json:"session"`
	Messages []api.Message `json:"messages"`
}

// Handler returns the page and its API, to be mounted with its prefix
// stripped.
func Handler(opt Options) http.Handler {
	if opt.MaxThink <= 0 || opt.MaxThink > 2*time.Second {
		opt.MaxThink = 2 * time.Second
	}
	if opt.MaxSearches <= 0 {
		opt.MaxSearches = runtime.GOMAXPROCS(0)
	}
	if opt.MaxSessions <= 0 {
		opt.MaxSessions = 8
	}
	if opt.SessionTTL <= 0 {
		opt.SessionTTL = 10 * time.Minute
	}
	if opt.PCTime <= 0 {
		opt.PCTime = 10 * time.Second
	}
	if opt.MaxNodes <= 0 {
		opt.MaxNodes = 1_000_000
	}
	sem := make(chan struct{}, opt.MaxSearches)
	bots := newSessions(opt.MaxSessions, opt.SessionTTL, bot.Options{Threads: 1, Seed: 1, MaxNodes: opt.MaxNodes})
	mux := http.NewServeMux()
	mux.Handle("GET /", http.FileServerFS(Static()))
	mux.HandleFunc("GET /mode.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		io.WriteString(w, "// Served by `yomi serve`: the bot thinks on the server.\nwindow.TETRIS_BOT = \"server\";\n")
		if opt.ExternalBot != "" {
			name, _ := json.Marshal(opt.ExternalBot)
			fmt.Fprintf(w, "// The server also runs a TBP bot for the page to watch against Yomi.\nwindow.TETRIS_EXTERNAL = %s;\n", name)
		}
	})
	mux.HandleFunc("POST /api/bot", func(w http.ResponseWriter, r *http.Request) {
		var req BotRequest
		if !decode(w, r, &req) {
			return
		}
		if len(req.Messages) > maxMessages {
			web.WriteJSON(w, http.StatusBadRequest, errorBody{fmt.Sprintf("%d messages, at most %d", len(req.Messages), maxMessages)})
			return
		}
		now := time.Now()
		var s *session
		id := req.Session
		if id == "" {
			var ext *external
			switch req.Bot {
			case "", "yomi":
			case "external":
				if opt.ExternalBot == "" {
					web.WriteJSON(w, http.StatusBadRequest, errorBody{errNoExternal.Error()})
					return
				}
				var err error
				if ext, err = launchExternal(opt.ExternalBot); err != nil {
					web.WriteJSON(w, http.StatusBadGateway, errorBody{err.Error()})
					return
				}
			default:
				web.WriteJSON(w, http.StatusBadRequest, errorBody{fmt.Sprintf("unknown bot %q (yomi or external)", req.Bot)})
				return
			}
			id, s = bots.create(now, ext)
		} else if s = bots.get(id, now); s == nil {
			web.WriteJSON(w, http.StatusNotFound, errorBody{"unknown or expired session: start a new one"})
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.gone {
			web.WriteJSON(w, http.StatusNotFound, errorBody{"unknown or expired session: start a new one"})
			return
		}
		ctx := r.Context()
		think := min(time.Duration(max(req.ThinkMS, 0))*time.Millisecond, opt.MaxThink)
		resp := BotResponse{Session: id, Messages: []api.Message{}}
		if req.Session == "" {
			if s.ext != nil {
				resp.Messages = append(resp.Messages, s.ext.info())
			} else {
				resp.Messages = append(resp.Messages, s.s.Info())
			}
		}
		for i, m := range req.Messages {
			if s.ext != nil {
				out, err := s.ext.handle(ctx, m, think, opt.MaxThink+2*time.Second)
				if m.Type == "suggest" {
					think = 0
				}
				if err != nil {
					web.WriteJSON(w, http.StatusBadGateway, errorBody{fmt.Sprintf("message %d (%s) to the TBP bot: %v", i, m.Type, err)})
					return
				}
				resp.Messages = append(resp.Messages, out...)
				continue
			}
			if m.Type == "suggest" && think > 0 && s.s.Active() {
				// one think per request: more suggests answer at once
				select {
				case sem <- struct{}{}:
				case <-ctx.Done():
					return
				}
				s.s.Think(ctx, bot.Budget{Duration: think})
				<-sem
				think = 0
			}
			out, err := s.s.Handle(ctx, m)
			if err != nil {
				status := http.StatusBadRequest
				if errors.Is(err, context.Canceled) {
					status = 499 // the client went away
				}
				web.WriteJSON(w, status, errorBody{fmt.Sprintf("message %d (%s): %v", i, m.Type, err)})
				return
			}
			resp.Messages = append(resp.Messages, out...)
		}
		web.WriteJSON(w, http.StatusOK, resp)
	})
	mux.HandleFunc("POST /api/pc", func(w http.ResponseWriter, r *http.Request) {
		var req api.PCRequest
		if !decode(w, r, &req) {
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), opt.PCTime)
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			cancel()
			web.WriteJSON(w, http.StatusServiceUnavailable, errorBody{"the server is busy: try again"})
			return
		}
		// The finder checks its context only now and then (seconds apart in
		// its first phase), so the answer does not wait for it: a search
		// that overruns keeps its search slot until it notices.
		type result struct {
			resp *api.PCResponse
			err  error
		}
		done := make(chan result, 1)
		go func() {
			defer func() { <-sem }()
			defer cancel()
			resp, err := pcSearch(ctx, req)
			done <- result{resp, err}
		}()
		var resp *api.PCResponse
		var err error
		select {
		case res := <-done:
			resp, err = res.resp, res.err
		case <-ctx.Done():
			err = ctx.Err()
		}
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			web.WriteJSON(w, http.StatusUnprocessableEntity, errorBody{fmt.Sprintf("the search took longer than %v: try a shorter pattern or a lower height", opt.PCTime)})
		case err != nil:
			web.WriteJSON(w, http.StatusBadRequest, errorBody{err.Error()})
		default:
			web.WriteJSON(w, http.StatusOK, resp)
		}
	})
	return mux
}

// pcSearch is api.PC; tests replace it with a search that overruns.
var pcSearch = api.PC

// decode reads a JSON body of at most maxBody bytes into v, answering 400
// (413 when too large) itself when it cannot.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			web.WriteJSON(w, http.StatusRequestEntityTooLarge, errorBody{fmt.Sprintf("request larger than %d bytes", maxBody)})
			return false
		}
		web.WriteJSON(w, http.StatusBadRequest, errorBody{"bad request: " + err.Error()})
		return false
	}
	return true
}

type errorBody struct {
	Error string `json:"error"`
}
