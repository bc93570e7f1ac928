// Tests of the Guideline Tetris page in `yomi serve`: the bot API answers
// through the whole site (and its guard), and `yomi serve --export` writes
// the page with its TBP Web Worker.
package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/web"
)

func TestTetrisServed(t *testing.T) {
	ts := httptest.NewServer(separoSite().Handler())
	defer ts.Close()
	resp, err := http.Post(ts.URL+"/tetris/api/bot", "application/json", strings.NewReader(`{"messages":[{"type":"rules"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("api/bot: %d", resp.StatusCode)
	}
	for _, p := range []string{"/tetris/", "/tetris/tetris.wasm", "/tetris/mode.js", "/tetris/tbp-worker.js"} {
		resp, err := http.Get(ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("GET %s: %d", p, resp.StatusCode)
		}
	}
}

func TestTetrisExport(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := run(t, "serve", "--export", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	for _, f := range []string{"tetris/index.html", "tetris/tetris.js", "tetris/tbp-worker.js", "tetris/wasm_exec.js", "tetris/tetris.wasm"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("export lacks %s: %v", f, err)
		}
	}
	mode, _ := os.ReadFile(filepath.Join(dir, "tetris", "mode.js"))
	landing, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	if !strings.Contains(string(mode), `"worker"`) || !strings.Contains(string(landing), `href="tetris/"`) {
		t.Fatalf("mode.js %q; landing links tetris: %v", mode, strings.Contains(string(landing), `href="tetris/"`))
	}
}

// TestTetrisBotFlag: --tetris-bot reaches the page's server (mode.js
// offers the bot).
func TestTetrisBotFlag(t *testing.T) {
	ts := httptest.NewServer((&web.Server{Entries: withTetrisExternalBot(separoSite().Entries, "yomi tetris tbp")}).Handler())
	defer ts.Close()
	resp, err := http.Get(ts.URL + "/tetris/mode.js")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `window.TETRIS_EXTERNAL = "yomi tetris tbp"`) {
		t.Fatalf("mode.js: %s", b)
	}
}
