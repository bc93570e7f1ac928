package web

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func testServer() *Server {
	app := &App{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "app:"+r.URL.Path) }),
		Static:  fstest.MapFS{"index.html": {Data: []byte("static page")}},
	}
	return &Server{Entries: []Entry{
		{Slug: "toy", Title: "Toy", Summary: "a toy game", App: app},
		{Slug: "cli", Title: "CLI only", Summary: "no page"},
		{Slug: "live", Title: "Server only", Summary: "a page that needs the server", App: &App{Handler: http.NotFoundHandler()}},
	}}
}

func TestLandingAndApps(t *testing.T) {
	ts := httptest.NewServer(testServer().Handler())
	defer ts.Close()
	get := func(p string) (int, string) {
		resp, err := http.Get(ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body := get("/")
	if code != 200 || !strings.Contains(body, `href="toy/"`) || !strings.Contains(body, "CLI only") || strings.Contains(body, `href="cli/"`) {
		t.Fatalf("landing: %d %s", code, body)
	}
	if _, body := get("/toy/x"); body != "app:/x" {
		t.Fatalf("app got %q", body)
	}
	if code, _ := get("/static/yomi.css"); code != 200 {
		t.Fatalf("css: %d", code)
	}
	if code, _ := get("/nope"); code != 404 {
		t.Fatalf("missing page: %d", code)
	}
}

func TestRunShutsDown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- testServer().Run(ctx, "127.0.0.1:0", func(a net.Addr) { addrc <- a }) }()
	addr := <-addrc
	resp, err := http.Get("http://" + addr.String() + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no shutdown")
	}
}

func TestExport(t *testing.T) {
	dir := t.TempDir()
	if err := testServer().Export(dir); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"index.html", "static/yomi.css", "toy/index.html"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Fatal(err)
		}
	}
	// A page without static files is listed, unlinked, as needing the server.
	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	if !strings.Contains(page, "Its page needs the server: <code>yomi serve</code>, then /live/") || strings.Contains(page, `href="live/"`) ||
		!strings.Contains(page, "Command line only for now: <code>yomi cli --help</code>") {
		t.Errorf("exported landing page:\n%s", page)
	}
}
