// Tests of the HTTP handler (static files, mode.js, api/step and its
// errors) and of the committed WebAssembly binary's freshness.

package webapp

import (
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/internal/wasmbuild"
	"github.com/yomi-ai/yomi/separo/webapp/api"
)

func TestHandler(t *testing.T) {
	ts := httptest.NewServer(Handler(Options{}))
	defer ts.Close()
	get := func(path string) (*http.Response, string) {
		t.Helper()
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	gets := []struct {
		path, ctype, contains string
	}{
		{"/", "text/html", `<canvas id="board"`},
		{"/mode.js", "javascript", `"server"`},
		{"/separo.js", "javascript", "class WorkerEngine"},
		{"/worker.js", "javascript", "separoStep"},
		{"/wasm_exec.js", "javascript", "Go"},
		{"/separo.wasm", "application/wasm", "\x00asm"},
	}
	for _, g := range gets {
		resp, body := get(g.path)
		if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), g.ctype) || !strings.Contains(body, g.contains) {
			t.Errorf("GET %s: %d %s, body has %q: %v", g.path, resp.StatusCode, resp.Header.Get("Content-Type"), g.contains, strings.Contains(body, g.contains))
		}
	}
	post := func(body string) (int, map[string]any) {
		t.Helper()
		resp, err := http.Post(ts.URL+"/api/step", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
			t.Fatalf("POST %s: undecodable answer: %v", body, err)
		}
		return resp.StatusCode, out
	}
	posts := []struct {
		body   string
		status int
		check  string // a key of the answer
	}{
		{`{"size": 9, "moves": []}`, 200, "legal"},
		{`{"size": 9, "moves": [], "play": [0,0,1,1,2,1]}`, 200, "last"},
		{`{"size": 5, "moves": [], "ai": "random", "movetime_ms": 10}`, 200, "ai"},
		{`{"size": 9, "moves": [[0,0,1,1,0,1]]}`, 400, "error"},
		{`{"size": 9, "moves": [[0,0,1,1,2]]}`, 400, "error"},
		{`{"size": 99}`, 400, "error"},
		{`{"size": 9, "cheat": true}`, 400, "error"},
		{`{"size": 9, "ai": "nope"}`, 400, "error"},
		{`not json`, 400, "error"},
		{`{"size": 9, "moves": [` + strings.Repeat(`[0,0,1,1,2,1],`, 6000) + `[0,0,1,1,2,1]]}`, 400, "error"},
	}
	for _, p := range posts {
		code, out := post(p.body)
		if _, ok := out[p.check]; code != p.status || !ok {
			t.Errorf("POST %.60s: %d %v, want %d with %q", p.body, code, out, p.status, p.check)
		}
	}
	resp, err := http.Get(ts.URL + "/api/step")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		t.Errorf("GET api/step: %d", resp.StatusCode)
	}
}

// TestStaticFiles checks that the static site has everything the worker
// needs and says so in mode.js.
func TestStaticFiles(t *testing.T) {
	for _, name := range []string{"index.html", "separo.js", "separo.css", "worker.js", "wasm_exec.js", "separo.wasm", "mode.js"} {
		b, err := fs.ReadFile(Static(), name)
		if err != nil || len(b) == 0 {
			t.Errorf("static %s: %v", name, err)
		}
	}
	b, _ := fs.ReadFile(Static(), "mode.js")
	if !strings.Contains(string(b), `"worker"`) {
		t.Errorf("static mode.js does not select the worker: %s", b)
	}
}

// wasmMain is the WebAssembly program, as genwasm builds it (go:generate
// in webapp.go).
const wasmMain = "github.com/yomi-ai/yomi/separo/webapp/wasm"

// TestWasmFresh checks that static/separo.wasm was built from the current
// sources: run `go generate ./separo/webapp` after changing the engine, the
// AIs or the API.
func TestWasmFresh(t *testing.T) {
	if err := wasmbuild.Check(Static(), "separo.wasm", wasmMain); err != nil {
		t.Fatalf("static: %v: run `go generate ./separo/webapp` and commit the result", err)
	}
}

// TestHandlerMoveTimeCap checks that the server caps the thinking time a
// client asks for (here 60 s asked, 30 ms allowed).
func TestHandlerMoveTimeCap(t *testing.T) {
	ts := httptest.NewServer(Handler(Options{MaxMoveTime: 30 * time.Millisecond, MaxSearches: 1}))
	defer ts.Close()
	resp, err := http.Post(ts.URL+"/api/step", "application/json", strings.NewReader(`{"size":9,"moves":[],"ai":"naive","movetime_ms":60000}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r api.Response
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || resp.StatusCode != 200 {
		t.Fatalf("%d %v", resp.StatusCode, err)
	}
	if r.AI == nil || r.AI.Millis > 20_000 || len(r.Moves) != 1 {
		t.Fatalf("AI info %+v after asking for 60 s with a 30 ms cap", r.AI)
	}
}
