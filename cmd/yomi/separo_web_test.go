// Tests of SEPARO's page in `yomi serve`: the API answers through the whole
// site, and `yomi serve --export` writes a static page whose AI runs in the
// browser.
package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/web"
)

func separoSite() *web.Server {
	var entries []web.Entry
	for _, g := range games() {
		entries = append(entries, g.entry)
	}
	return &web.Server{Entries: entries}
}

func TestSeparoServed(t *testing.T) {
	ts := httptest.NewServer(separoSite().Handler())
	defer ts.Close()
	resp, err := http.Post(ts.URL+"/separo/api/step", "application/json", strings.NewReader(`{"size":9,"moves":[],"play":[0,0,1,1,2,1]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("api/step: %d", resp.StatusCode)
	}
	for _, p := range []string{"/separo/", "/separo/separo.wasm", "/separo/mode.js"} {
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

func TestSeparoExport(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := run(t, "serve", "--export", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	for _, f := range []string{"index.html", "static/yomi.css", "separo/index.html", "separo/separo.js", "separo/worker.js", "separo/wasm_exec.js", "separo/separo.wasm"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("export lacks %s: %v", f, err)
		}
	}
	mode, _ := os.ReadFile(filepath.Join(dir, "separo", "mode.js"))
	landing, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	if !strings.Contains(string(mode), `"worker"`) || !strings.Contains(string(landing), `href="separo/"`) {
		t.Fatalf("mode.js %q; landing links separo: %v", mode, strings.Contains(string(landing), `href="separo/"`))
	}
}
