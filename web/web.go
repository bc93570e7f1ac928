// Package web is Yomi's HTTP server: a landing page listing the games and one
// mounted app per game that has a page (SEPARO first). Static files are
// embedded, so `yomi serve` needs nothing else installed.
//
// Start with Server: give it the Entries (one per game) and call Run.
package web

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

//go:embed static
var staticFS embed.FS

// App is a game's web app, mounted under /Slug/.
type App struct {
	// Handler serves requests under /Slug/ with that prefix stripped.
	Handler http.Handler
	// Static, if set, holds the files of a page that works without the
	// server (the AI runs in the browser); `yomi serve --export` writes them.
	Static fs.FS
}

// Entry is one line of the landing page.
type Entry struct {
	Slug    string // URL path segment, e.g. "separo"
	Title   string // e.g. "SEPARO"
	Summary string // one sentence
	App     *App   // nil when the game has no page yet
	// ServerOnly is set by Export for a page that exists but needs the
	// server (an App without Static files), so the copy says so.
	ServerOnly bool
}

// Server serves the landing page and the apps. Every request must name the
// server in its Host header (the address it was received on, localhost for a
// loopback address, or one of AllowedHosts); POST and the other unsafe methods
// must also come from the server's own pages (Sec-Fetch-Site, Origin) and
// carry a JSON body, so that pages of other sites cannot use the server.
type Server struct {
	Entries []Entry
	Logger  *log.Logger // nil: no request log
	// AllowedHosts lists further Host header values to answer: NAME (any
	// port), NAME:PORT, [IPv6] or [IPv6]:PORT (see CheckAllowedHost; invalid
	// entries allow nothing).
	AllowedHosts []string
	// AnyHost turns the Host check off, for a reverse proxy that checks Host
	// itself; the cross-origin and content-type checks stay.
	AnyHost bool
}

var landing = template.Must(template.ParseFS(staticFS, "static/index.html"))

// Handler returns the HTTP handler of the whole site, every request passing
// the Host, cross-origin and content-type checks first (guard.go).
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	static, _ := fs.Sub(staticFS, "static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	for _, e := range s.Entries {
		if e.App == nil || e.App.Handler == nil {
			continue
		}
		prefix := "/" + e.Slug
		mux.Handle(prefix+"/", http.StripPrefix(prefix, e.App.Handler))
		mux.Handle("GET "+prefix, http.RedirectHandler(prefix+"/", http.StatusMovedPermanently))
	}
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if err := landing.Execute(w, s.Entries); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok\n") })
	h := s.guard(mux)
	if s.Logger != nil {
		h = logRequests(s.Logger, h)
	}
	return h
}

func logRequests(l *log.Logger, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		h.ServeHTTP(w, r)
		l.Printf("%s %s %v", r.Method, r.URL.Path, time.Since(start).Round(time.Microsecond))
	})
}

// Run listens on addr and serves until ctx is cancelled, then shuts down
// gracefully (in-flight requests get 5 s). ready, if not nil, receives the
// bound address once listening.
func (s *Server) Run(ctx context.Context, addr string, ready func(net.Addr)) error {
	for _, a := range s.AllowedHosts {
		if err := CheckAllowedHost(a); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	if ready != nil {
		ready(ln.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			return err
		}
		if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}

// Export writes a static copy of the site to dir: the landing page, the
// shared static files, and each app's Static files under dir/Slug/. Apps
// without Static files are listed but not linked.
func (s *Server) Export(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	static, _ := fs.Sub(staticFS, "static")
	if err := copyFS(filepath.Join(dir, "static"), static); err != nil {
		return err
	}
	entries := make([]Entry, len(s.Entries))
	for i, e := range s.Entries {
		entries[i] = e
		if e.App == nil || e.App.Static == nil {
			entries[i].App = nil
			entries[i].ServerOnly = e.App != nil
			continue
		}
		if err := copyFS(filepath.Join(dir, e.Slug), e.App.Static); err != nil {
			return fmt.Errorf("export %s: %w", e.Slug, err)
		}
	}
	f, err := os.Create(filepath.Join(dir, "index.html"))
	if err != nil {
		return err
	}
	if err := landing.Execute(f, entries); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func copyFS(dst string, src fs.FS) error {
	return fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") && p != "." {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		out := filepath.Join(dst, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		b, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
}

// WriteJSON answers a page's API request: v as JSON with status, never
// cached.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// ReadJSON decodes one JSON object, without unknown fields, from a request
// body of at most max bytes; when it cannot, it answers 400 with
// {"error": "bad request: …"} itself and returns false.
func ReadJSON(w http.ResponseWriter, r *http.Request, max int64, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, max))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		WriteJSON(w, http.StatusBadRequest, map[string]string{"error": "bad request: " + err.Error()})
		return false
	}
	return true
}
