// Tests of HATETRIS's page in `yomi serve`: the page, its engine and its API
// answer through the whole site, and `yomi serve --export` writes a page
// whose search is off.
package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHatetrisServed(t *testing.T) {
	ts := httptest.NewServer(separoSite().Handler())
	defer ts.Close()
	req, _ := http.NewRequest("POST", ts.URL+"/hatetris/api/check", strings.NewReader(`{"replay":"DDDDDDDDDDDDDDDDDDDD"}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("api/check: %d", resp.StatusCode)
	}
	for _, p := range []string{"/hatetris/", "/hatetris/hatetris.wasm", "/hatetris/mode.js", "/hatetris/records.json"} {
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

func TestHatetrisExport(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := run(t, "serve", "--export", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	for _, f := range []string{"hatetris/index.html", "hatetris/hatetris.js", "hatetris/wasm_exec.js", "hatetris/hatetris.wasm", "hatetris/records.json"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("export lacks %s: %v", f, err)
		}
	}
	mode, _ := os.ReadFile(filepath.Join(dir, "hatetris", "mode.js"))
	landing, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	if !strings.Contains(string(mode), "HATETRIS_SERVER = false") || !strings.Contains(string(landing), `href="hatetris/"`) {
		t.Errorf("exported mode.js %q; landing links hatetris: %v", mode, strings.Contains(string(landing), `href="hatetris/"`))
	}
}
