package webapp

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/hatetris/webapp/api"
	"github.com/yomi-ai/yomi/hatetris/webapp/internal/gen"
	"github.com/yomi-ai/yomi/internal/wasmbuild"
)

// wasmMain is the WebAssembly program, as genwasm builds it (go:generate
// in webapp.go).
const wasmMain = "github.com/yomi-ai/yomi/hatetris/webapp/wasm"

// TestWasmFresh checks that static/hatetris.wasm was built from the current
// sources: run `go generate ./hatetris/webapp` after changing the engine,
// the codecs or the API.
func TestWasmFresh(t *testing.T) {
	if err := wasmbuild.Check(Static(), "hatetris.wasm", wasmMain); err != nil {
		t.Fatalf("static: %v: run `go generate ./hatetris/webapp` and commit the result", err)
	}
}

// TestRecordsFresh checks that static/records.json lists the current records
// and upstream replays, and that each replays to its score.
func TestRecordsFresh(t *testing.T) {
	want, err := gen.Records("..")
	if err != nil {
		t.Fatal(err)
	}
	got, err := fs.ReadFile(Static(), gen.RecordsFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("static/%s is stale: run `go generate ./hatetris/webapp` and commit the result", gen.RecordsFile)
	}
	var recs []gen.Record
	if err := json.Unmarshal(got, &recs); err != nil {
		t.Fatal(err)
	}
	groups := map[string]int{}
	for _, r := range recs {
		groups[r.Group]++
		if r.Score > 400 {
			continue // the 3711-line game takes a while; hatetris/replay checks it
		}
		res, err := api.Check(api.CheckRequest{Replay: r.Replay, AI: r.AI})
		if err != nil || res.Score != r.Score {
			t.Errorf("%s: replays to %d, %v", r.Name, res.Score, err)
		}
	}
	if groups["Yomi"] == 0 || groups["upstream"] < 20 {
		t.Errorf("records by group: %v", groups)
	}
}

func post(t *testing.T, h http.Handler, path, body string) (int, map[string]any) {
	t.Helper()
	req := httptest.NewRequest("POST", path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var out map[string]any
	json.Unmarshal(rec.Body.Bytes(), &out)
	return rec.Code, out
}

func TestCheck(t *testing.T) {
	h := Handler(Options{NoNet: true})
	rec, _ := os.ReadFile("../records/33-heuristic-beam10000.txt")
	body, _ := json.Marshal(api.CheckRequest{Replay: string(rec)})
	code, out := post(t, h, "/api/check", string(body))
	if code != 200 || out["score"] != 33.0 || out["over"] != true || out["encoding"] != "base2048" {
		t.Fatalf("check of the 33 record: %d %v", code, out)
	}
	for _, c := range []struct {
		name, body, want string
	}{
		{"not JSON", `{`, "bad request"},
		{"unknown field", `{"replay":"LLL","x":1}`, "unknown field"},
		{"empty replay", `{"replay":"  "}`, "empty replay"},
		{"bad AI", `{"replay":"LLL","ai":"nice"}`, "unknown AI"},
		{"bad replay", `{"replay":"!?!"}`, "replay"},
		{"too long", `{"replay":"` + strings.Repeat("L", api.MaxReplayBytes+1) + `"}`, "bytes"},
	} {
		code, out := post(t, h, "/api/check", c.body)
		if code != 400 || !strings.Contains(out["error"].(string), c.want) {
			t.Errorf("%s: %d %v, want 400 and %q", c.name, code, out, c.want)
		}
	}
}

func TestSearchAPI(t *testing.T) {
	h := Handler(Options{NoNet: true, MaxWidth: 100, MaxSearchTime: 5 * time.Second, SearchWorkers: 1})
	for _, c := range []struct {
		name, body, want string
	}{
		{"width 0", `{"width":0}`, "width 0"},
		{"too wide", `{"width":101}`, "width 101"},
		{"negative time", `{"width":10,"seconds":-1}`, "seconds"},
		{"bad eval", `{"width":10,"eval":"oracle"}`, "eval"},
		{"no net", `{"width":10,"eval":"net"}`, "no net"},
		{"bad AI", `{"width":10,"ai":"kind"}`, "unknown AI"},
		{"unknown field", `{"width":10,"depth":3}`, "unknown field"},
	} {
		code, out := post(t, h, "/api/search", c.body)
		if code != 400 || !strings.Contains(out["error"].(string), c.want) {
			t.Errorf("%s: %d %v, want 400 and %q", c.name, code, out, c.want)
		}
	}
	// A search far longer than allowed is cut at MaxSearchTime; a second one
	// is refused while it runs; stop ends it.
	start := time.Now()
	code, out := post(t, h, "/api/search", `{"width":100,"seconds":1000}`)
	if code != 200 || out["limitMs"] != 5000.0 {
		t.Fatalf("start: %d %v", code, out)
	}
	id := out["id"].(string)
	if code, out := post(t, h, "/api/search", `{"width":5}`); code != http.StatusConflict {
		t.Fatalf("second search: %d %v, want 409", code, out)
	}
	if code, _ := post(t, h, "/api/search/"+id+"/stop", `{}`); code != 200 {
		t.Fatalf("stop: %d", code)
	}
	var st SearchStatus
	for {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/search/"+id, nil))
		if rec.Code != 200 {
			t.Fatalf("status: %d %s", rec.Code, rec.Body)
		}
		st = SearchStatus{}
		json.Unmarshal(rec.Body.Bytes(), &st)
		if !st.Running {
			break
		}
		if time.Since(start) > 20*time.Second {
			t.Fatal("the search did not stop within 20 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if st.Error != "" || !st.Stopped {
		t.Fatalf("stopped search: %+v", st)
	}
	if st.Line != "" {
		if res, err := api.Check(api.CheckRequest{Replay: st.Line}); err != nil || res.Score != st.LineScore {
			t.Fatalf("line checks to %+v, %v; status says %d", res, err, st.LineScore)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/search/nosuch", nil))
	if rec.Code != 404 {
		t.Errorf("unknown search: %d", rec.Code)
	}
	// A short search runs to the end of its game (the beam dies).
	code, out = post(t, h, "/api/search", `{"width":3,"ai":"mild"}`)
	if code != 200 {
		t.Fatalf("start: %d %v", code, out)
	}
	id = out["id"].(string)
	for {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/search/"+id, nil))
		st = SearchStatus{}
		json.Unmarshal(rec.Body.Bytes(), &st)
		if !st.Running {
			break
		}
		if time.Since(start) > 30*time.Second {
			t.Fatal("width-3 search still running")
		}
		time.Sleep(20 * time.Millisecond)
	}
	res, err := api.Check(api.CheckRequest{Replay: st.Line, AI: "mild"})
	if err != nil || !st.GameOver || !res.Over || res.Score != st.LineScore || st.AI != "mild" {
		t.Fatalf("finished search %+v: check %+v, %v", st, res, err)
	}
}

func TestModeAndStatic(t *testing.T) {
	h := Handler(Options{NoNet: true})
	for path, want := range map[string]string{"/mode.js": "HATETRIS_SERVER = true", "/": "HATETRIS", "/hatetris.js": "hatetrisDo"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		b, _ := io.ReadAll(rec.Body)
		if rec.Code != 200 || !strings.Contains(string(b), want) {
			t.Errorf("GET %s: %d, lacks %q", path, rec.Code, want)
		}
	}
	b, _ := fs.ReadFile(Static(), "mode.js")
	if !strings.Contains(string(b), "HATETRIS_SERVER = false") {
		t.Errorf("exported mode.js: %s", b)
	}
}

// TestSearchNet: the embedded net loads and a small net search plays a game
// whose line replays to its score.
func TestSearchNet(t *testing.T) {
	h := Handler(Options{MaxWidth: 100, SearchWorkers: 1})
	code, out := post(t, h, "/api/search", `{"width":5,"eval":"net","seconds":20}`)
	if code != 200 || out["eval"] != "net" {
		t.Fatalf("start: %d %v", code, out)
	}
	id := out["id"].(string)
	start := time.Now()
	var st SearchStatus
	for {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/search/"+id, nil))
		st = SearchStatus{}
		json.Unmarshal(rec.Body.Bytes(), &st)
		if !st.Running {
			break
		}
		if time.Since(start) > 30*time.Second {
			t.Fatal("net search still running after 30 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	res, err := api.Check(api.CheckRequest{Replay: st.Line})
	if st.Error != "" || err != nil || res.Score != st.LineScore || st.Depth == 0 {
		t.Fatalf("net search %+v: check %+v, %v", st, res, err)
	}
	t.Logf("net width 5: depth %d, %d lines, %d ms, stopped %v", st.Depth, st.LineScore, st.ElapsedMS, st.Stopped)
}
