package webapp

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/internal/wasmbuild"
	"github.com/yomi-ai/yomi/tetris/webapp/api"
)

func post(t *testing.T, url, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return resp.StatusCode, out
}

func startJSON(t *testing.T) string {
	g, err := api.NewGame(api.Config{Seed: 4, Sides: 2})
	if err != nil {
		t.Fatal(err)
	}
	st, _ := g.Start(1)
	b, _ := json.Marshal(st)
	return string(b)
}

// TestBotAPI plays a session: rules, start and a suggest in one request,
// then play, new_piece and suggest in the next.
func TestBotAPI(t *testing.T) {
	ts := httptest.NewServer(Handler(Options{MaxThink: 50 * time.Millisecond}))
	defer ts.Close()
	code, out := post(t, ts.URL+"/api/bot", `{"messages":[{"type":"rules","randomizer":"seven_bag"},`+startJSON(t)+`,{"type":"suggest"}],"think_ms":30}`)
	if code != 200 {
		t.Fatalf("%d %v", code, out)
	}
	msgs := out["messages"].([]any)
	types := []string{}
	for _, m := range msgs {
		types = append(types, m.(map[string]any)["type"].(string))
	}
	if strings.Join(types, " ") != "info ready suggestion" {
		t.Fatalf("replies %v", types)
	}
	sug := msgs[2].(map[string]any)
	move, _ := json.Marshal(sug["moves"].([]any)[0])
	id := out["session"].(string)
	code, out = post(t, ts.URL+"/api/bot", `{"session":"`+id+`","messages":[{"type":"play","move":`+string(move)+`},{"type":"new_piece","piece":"T"},{"type":"suggest"}],"think_ms":10}`)
	if code != 200 || len(out["messages"].([]any)) != 1 {
		t.Fatalf("%d %v", code, out)
	}
}

// TestBotAPIRefuses: bad JSON, oversized bodies, too many messages,
// unknown sessions, illegal moves and out-of-order messages get 4xx with
// a message, and the server goes on.
func TestBotAPIRefuses(t *testing.T) {
	ts := httptest.NewServer(Handler(Options{}))
	defer ts.Close()
	many := strings.Repeat(`{"type":"stop"},`, 40)
	huge := `{"messages":[{"type":"new_piece","piece":"` + strings.Repeat("T", 100<<10) + `"}]}`
	for _, c := range []struct {
		name, body string
		code       int
	}{
		{"bad JSON", `{"messages":[`, 400},
		{"not an object", `[1,2]`, 400},
		{"oversized", huge, 413},
		{"too many messages", `{"messages":[` + many + `{"type":"stop"}]}`, 400},
		{"unknown session", `{"session":"nope","messages":[]}`, 404},
		{"suggest before start", `{"messages":[{"type":"suggest"}]}`, 400},
		{"illegal move", `{"messages":[` + startJSON(t) + `,{"type":"play","move":{"location":{"type":"T","orientation":"north","x":4,"y":30},"spin":"none"}}]}`, 400},
		{"bad piece", `{"messages":[` + startJSON(t) + `,{"type":"new_piece","piece":"Q"}]}`, 400},
		{"short board", `{"messages":[{"type":"start","queue":["T"],"board":[]}]}`, 400},
	} {
		code, out := post(t, ts.URL+"/api/bot", c.body)
		if code != c.code || out["error"] == "" {
			t.Errorf("%s: %d %v, want %d and an error", c.name, code, out, c.code)
		}
	}
	resp, err := http.Get(ts.URL + "/mode.js")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"server"`) {
		t.Fatalf("mode.js: %s", b)
	}
}

// TestSessionsExpire: a session unused for the TTL is gone (404 over
// HTTP, so the page starts a new one), and at most MaxSessions are kept.
// Times are explicit where the machine's load could make them flaky.
func TestSessionsExpire(t *testing.T) {
	ts := httptest.NewServer(Handler(Options{SessionTTL: time.Millisecond}))
	defer ts.Close()
	_, out := post(t, ts.URL+"/api/bot", `{"messages":[`+startJSON(t)+`]}`)
	id := out["session"].(string)
	time.Sleep(50 * time.Millisecond)
	if code, out := post(t, ts.URL+"/api/bot", `{"session":"`+id+`","messages":[]}`); code != 404 {
		t.Fatalf("expired session: %d %v", code, out)
	}
	c := newSessions(2, time.Minute, sessionsTestOptions)
	now := time.Now()
	a, _ := c.create(now, nil)
	if c.get(a, now.Add(59*time.Second)) == nil {
		t.Fatal("a session used 59 s ago is gone (TTL 1 min)")
	}
	if c.get(a, now.Add(59*time.Second+61*time.Second)) != nil {
		t.Fatal("a session unused for 61 s is still there")
	}
	a, _ = c.create(now, nil)
	c.create(now.Add(time.Second), nil)
	c.create(now.Add(2*time.Second), nil)
	if c.len() != 2 || c.get(a, now.Add(3*time.Second)) != nil {
		t.Fatalf("%d sessions kept, the least recently used one still there", c.len())
	}
}

// TestThinkCapped: a suggest asking a minute of thinking gets MaxThink.
func TestThinkCapped(t *testing.T) {
	ts := httptest.NewServer(Handler(Options{MaxThink: 30 * time.Millisecond}))
	defer ts.Close()
	start := time.Now()
	code, out := post(t, ts.URL+"/api/bot", `{"messages":[`+startJSON(t)+`,{"type":"suggest"}],"think_ms":60000}`)
	if code != 200 {
		t.Fatalf("%d %v", code, out)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
	// Many suggests in one request think once.
	many := strings.Repeat(`{"type":"suggest"},`, 20)
	ts2 := httptest.NewServer(Handler(Options{MaxThink: 500 * time.Millisecond}))
	defer ts2.Close()
	start = time.Now()
	code, out = post(t, ts2.URL+"/api/bot", `{"messages":[`+startJSON(t)+`,`+many+`{"type":"suggest"}],"think_ms":500}`)
	if code != 200 || len(out["messages"].([]any)) != 22 {
		t.Fatalf("%d %v", code, out)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("21 suggests took %v (20 × 500 ms would be 10 s)", d)
	}
}

// TestPCAPI answers the form, refuses bad input and bounds the search time.
func TestPCAPI(t *testing.T) {
	ts := httptest.NewServer(Handler(Options{PCTime: 5 * time.Millisecond}))
	defer ts.Close()
	code, out := post(t, ts.URL+"/api/pc", `{"field":"XXXXXX____\nXXXXXX____","pattern":"*p2","height":2}`)
	if code != 200 || out["total"].(float64) == 0 {
		t.Fatalf("%d %v", code, out)
	}
	if code, out := post(t, ts.URL+"/api/pc", `{"pattern":"Q"}`); code != 400 || out["error"] == "" {
		t.Fatalf("bad pattern: %d %v", code, out)
	}
	// The finder notices its context late; the answer must not wait for it.
	defer func(f func(context.Context, api.PCRequest) (*api.PCResponse, error)) { pcSearch = f }(pcSearch)
	pcSearch = func(ctx context.Context, req api.PCRequest) (*api.PCResponse, error) {
		<-ctx.Done()
		time.Sleep(3 * time.Second)
		return nil, ctx.Err()
	}
	start := time.Now()
	code, out = post(t, ts.URL+"/api/pc", `{"pattern":"*p7,*p4","height":4}`)
	if code != 422 || time.Since(start) > 2*time.Second {
		t.Fatalf("a long search: %d %v after %v", code, out, time.Since(start))
	}
}

// wasmMain is the WebAssembly program, as genwasm builds it (go:generate
// in webapp.go).
const wasmMain = "github.com/yomi-ai/yomi/tetris/webapp/wasm"

// TestWasmFresh checks that static/tetris.wasm was built from the current
// sources: run `go generate ./tetris/webapp` after changing the engine,
// the bot, the finder or the page's Go code.
func TestWasmFresh(t *testing.T) {
	if err := wasmbuild.Check(Static(), "tetris.wasm", wasmMain); err != nil {
		t.Fatalf("static: %v: run `go generate ./tetris/webapp` and commit the result", err)
	}
}
