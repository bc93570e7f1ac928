package webapp

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/tetris/bot"
	"github.com/yomi-ai/yomi/tetris/tbp"
	"github.com/yomi-ai/yomi/tetris/webapp/api"
)

// TestMain doubles as a TBP bot process for TestExternalBot.
func TestMain(m *testing.M) {
	if os.Getenv("YOMI_TETRIS_WEB_TBP_CHILD") == "1" {
		tbp.Serve(context.Background(), os.Stdin, os.Stdout, tbp.Config{Name: "child", Bot: bot.Options{Threads: 1, Reserve: -1}})
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestExternalBot plays the server's TBP bot process through api/bot: its
// info, ready and suggestions come back, its moves are legal, and a
// server without one refuses the request.
func TestExternalBot(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(Handler(Options{ExternalBot: "YOMI_TETRIS_WEB_TBP_CHILD=1 exec " + exe}))
	defer ts.Close()
	code, out := post(t, ts.URL+"/api/bot", `{"bot":"external","messages":[{"type":"rules","randomizer":"seven_bag"},`+startJSON(t)+`,{"type":"suggest"}],"think_ms":20}`)
	if code != 200 {
		t.Fatalf("%d %v", code, out)
	}
	b, _ := json.Marshal(out["messages"])
	var msgs []api.Message
	if err := json.Unmarshal(b, &msgs); err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 3 || msgs[0].Name != "child" || msgs[1].Type != "ready" || msgs[2].Type != "suggestion" || len(msgs[2].Moves) == 0 {
		t.Fatalf("replies %+v", msgs)
	}
	g, _ := api.NewGame(api.Config{Seed: 4, Sides: 2})
	turn, err := g.Play(1, msgs[2].Moves[0])
	if err != nil {
		t.Fatalf("the bot's move %+v: %v", msgs[2].Moves[0], err)
	}
	mv, _ := json.Marshal(msgs[2].Moves[0])
	id := out["session"].(string)
	code, out = post(t, ts.URL+"/api/bot", `{"session":"`+id+`","messages":[{"type":"play","move":`+string(mv)+`},{"type":"new_piece","piece":"`+turn.Fresh[0]+`"},{"type":"suggest"}],"think_ms":10}`)
	if code != 200 || len(out["messages"].([]any)) != 1 {
		t.Fatalf("second move: %d %v", code, out)
	}
	resp, err := http.Get(ts.URL + "/mode.js")
	if err != nil {
		t.Fatal(err)
	}
	js, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(js), "TETRIS_EXTERNAL") {
		t.Fatalf("mode.js does not offer the bot: %s", js)
	}

	plain := httptest.NewServer(Handler(Options{}))
	defer plain.Close()
	for _, body := range []string{`{"bot":"external","messages":[]}`, `{"bot":"stockfish","messages":[]}`} {
		if code, out := post(t, plain.URL+"/api/bot", body); code != 400 || out["error"] == "" {
			t.Errorf("%s: %d %v", body, code, out)
		}
	}
}
