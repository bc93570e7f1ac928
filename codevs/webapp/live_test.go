// Tests of live games: the test binary doubles as a dummy AI (TestMain), the
// server referees two of them and streams every turn.

package webapp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/codevs/referee"
)

func TestMain(m *testing.M) {
	if seed, ok := os.LookupEnv("CODEVS_WEBAPP_DUMMY"); ok {
		o := referee.NoFaults()
		fmt.Sscan(seed, &o.Seed)
		o.Name = "dummy" + seed
		if err := referee.RunDummy(context.Background(), os.Stdin, os.Stdout, o); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// DummyCommand is the command line running this test binary as a dummy AI
// with the given seed (exported for the browser test).
func DummyCommand(seed int) string {
	return fmt.Sprintf("CODEVS_WEBAPP_DUMMY=%d exec '%s' -test.run='^$'", seed, os.Args[0])
}

func TestLiveGame(t *testing.T) {
	h := Handler(Options{Players: map[string]string{"one": DummyCommand(3), "two": DummyCommand(4)}})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/live", strings.NewReader(`{"p1":"one","p2":"two","seed":7,"time_ms":20000}`)))
	sc := bufio.NewScanner(rec.Body)
	sc.Buffer(nil, 1<<22)
	var head View
	var turns []TurnView
	var end LiveEnd
	for i := 0; sc.Scan(); i++ {
		line := sc.Bytes()
		switch {
		case i == 0:
			if err := json.Unmarshal(line, &head); err != nil {
				t.Fatalf("%v: %s", err, line)
			}
		case strings.HasPrefix(string(line), `{"turn"`):
			var m struct{ Turn TurnView }
			json.Unmarshal(line, &m)
			turns = append(turns, m.Turn)
		default:
			if err := json.Unmarshal(line, &end); err != nil || end.Result.Reason == "" {
				t.Fatalf("end line %s", line)
			}
		}
	}
	if head.Names != [2]string{"dummy3", "dummy4"} || len(turns) == 0 || len(turns) != end.Result.Turns {
		t.Fatalf("names %v, %d turns streamed, result %+v", head.Names, len(turns), end.Result)
	}
	last := turns[len(turns)-1]
	if end.Result.Winner >= 0 && !last.Players[1-end.Result.Winner].Dead && !strings.Contains(end.Result.Reason, "turn limit") {
		t.Errorf("result %+v but the loser is not dead after the last turn", end.Result)
	}
	for _, tc := range []struct{ body, want string }{
		{`{"p1":"one","p2":"three"}`, `unknown player \"three\"`},
		{`{"p1":"one","p2":"two","time_ms":5}`, "time_ms 5: want 100..180000"},
		{`{"p1":"one","p2":"two","x":1}`, "unknown field"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/live", strings.NewReader(tc.body)))
		if rec.Code != 400 || !strings.Contains(rec.Body.String(), tc.want) {
			t.Errorf("%s: %d %s, want %q", tc.body, rec.Code, rec.Body, tc.want)
		}
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/players", nil))
	if strings.TrimSpace(rec.Body.String()) != `["one","two"]` {
		t.Errorf("players %s", rec.Body)
	}
}
