// Tests of the server's session cache and of games that name themselves.

package webapp

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/separo/webapp/api"
)

func TestSessionCache(t *testing.T) {
	c := newSessionCache(2)
	t0 := time.Unix(0, 0)
	a := c.get("a", t0)
	b := c.get("b", t0.Add(time.Second))
	if c.get("a", t0.Add(2*time.Second)) != a {
		t.Fatal("a not kept")
	}
	c.get("c", t0.Add(3*time.Second)) // evicts b, the least recently used
	if c.len() != 2 {
		t.Fatalf("%d sessions, max 2", c.len())
	}
	if c.get("a", t0.Add(4*time.Second)) != a {
		t.Fatal("a evicted instead of b")
	}
	if c.get("b", t0.Add(5*time.Second)) == b {
		t.Fatal("b was not evicted")
	}
}

// TestHandlerGame plays a whole game AI against AI with a game id: the
// server replays every move as usual and the answers are the same kind.
func TestHandlerGame(t *testing.T) {
	ts := httptest.NewServer(Handler(Options{}))
	defer ts.Close()
	r := api.Response{Size: 7, Moves: []api.Move{}}
	for plies := 0; !r.Over; plies++ {
		if plies > 49 {
			t.Fatal("game too long")
		}
		name := []string{"uct", "yomi"}[r.Turn]
		body, _ := json.Marshal(map[string]any{"size": 7, "moves": r.Moves, "ai": name, "movetime_ms": 5, "game": "g1"})
		resp, err := http.Post(ts.URL+"/api/step", "application/json", strings.NewReader(string(body)))
		if err != nil {
			t.Fatal(err)
		}
		err = json.NewDecoder(resp.Body).Decode(&r)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 || r.AI == nil || r.AI.Name != name {
			t.Fatalf("%d %v %+v", resp.StatusCode, err, r.AI)
		}
	}
	resp, err := http.Post(ts.URL+"/api/step", "application/json", strings.NewReader(`{"size":7,"ai":"uct","game":"`+strings.Repeat("x", 65)+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Fatalf("long game id: %d", resp.StatusCode)
	}
}
