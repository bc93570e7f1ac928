// Tests of the seigot viewer's games and API: the streamed AI game ends as
// ai.Play's game does, the recordings replay to their real scores, every
// tick is consistent, and bad requests are refused.

package webapp

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/seigot"
	"github.com/yomi-ai/yomi/seigot/ai"
)

func TestPlayMatchesAIPlay(t *testing.T) {
	cfg, _ := seigot.LevelConfig(2, 1, false)
	c, err := AIConfig("fast", 2)
	if err != nil {
		t.Fatal(err)
	}
	want := ai.Play(context.Background(), cfg, ai.New(c)).Stats
	var ticks []Tick
	got, err := Play(context.Background(), cfg, ai.New(c), func(t Tick) error { ticks = append(ticks, t); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("streamed game %+v, ai.Play %+v", got, want)
	}
	drop, lines := 0, 0
	for i, tk := range ticks {
		drop += tk.Dropped
		lines += tk.Lines
		if tk.N != i || len(tk.Board) != seigot.Cells || tk.Stats.DropScore != drop || tk.Stats.Lines != lines {
			t.Fatalf("tick %d: n %d, board of %d cells, drop %d (sum %d), lines %d (sum %d)", i, tk.N, len(tk.Board), tk.Stats.DropScore, drop, tk.Stats.Lines, lines)
		}
		if tk.Lines == 0 && !tk.HoldOnly && !tk.GameOver && len(tk.New) != 4 {
			t.Fatalf("tick %d: %d new cells for a placed piece", i, len(tk.New))
		}
	}
	if last := ticks[len(ticks)-1]; last.Piece != 180 || last.Stats != want {
		t.Fatalf("last tick: piece %d, stats %+v", last.Piece, last.Stats)
	}
}

func TestReplayRecordings(t *testing.T) {
	for _, r := range seigot.Recordings() {
		cfg, _ := seigot.LevelConfig(r.Level, r.Seed, false)
		n := 0
		st, err := Replay(cfg, r.Moves, func(Tick) error { n++; return nil })
		if err != nil || st.Score != r.Score || st.BlockIndex != 180 {
			t.Errorf("%s: %v, score %d after %d pieces (%d ticks), real game %d", r.ID, err, st.Score, st.BlockIndex, n, r.Score)
		}
	}
}

// readStream reads a POST's answer: the header, the ticks, the end line.
func readStream(t *testing.T, h *httptest.ResponseRecorder) (Header, []Tick, map[string]any) {
	t.Helper()
	sc := bufio.NewScanner(h.Body)
	sc.Buffer(nil, 1<<20)
	var hd Header
	var ticks []Tick
	var end map[string]any
	for i := 0; sc.Scan(); i++ {
		switch {
		case i == 0:
			json.Unmarshal(sc.Bytes(), &hd)
		case strings.Contains(sc.Text(), `"done"`) || strings.HasPrefix(sc.Text(), `{"error"`):
			json.Unmarshal(sc.Bytes(), &end)
		default:
			var tk Tick
			json.Unmarshal(sc.Bytes(), &tk)
			ticks = append(ticks, tk)
		}
	}
	return hd, ticks, end
}

func TestAPI(t *testing.T) {
	h := Handler(Options{})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/replay", strings.NewReader(`{"recording":"winner-l1s0"}`)))
	hd, ticks, end := readStream(t, rec)
	if rec.Code != 200 || hd.Kind != "recording" || hd.Score != 26059 || len(hd.Start) != seigot.Cells || end["done"] != true ||
		ticks[len(ticks)-1].Stats.Score != 26059 {
		t.Fatalf("replay: %d %+v, %d ticks, end %v", rec.Code, hd, len(ticks), end)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/play", strings.NewReader(`{"level":3,"seed":2,"ai":"greedy"}`)))
	hd, ticks, end = readStream(t, rec)
	if hd.Kind != "ai" || !strings.ContainsAny(hd.Start, "1234567") || end["done"] != true || ticks[len(ticks)-1].Piece != 180 {
		t.Fatalf("play: %+v (level 3 starts with garbage), %d ticks, end %v", hd, len(ticks), end)
	}
	for _, tc := range []struct{ path, body, want string }{
		{"/api/play", `{"level":9,"seed":1}`, "level 9: want 1..4"},
		{"/api/play", `{"level":1,"seed":1,"ai":"x"}`, `AI \"x\": want beam`},
		{"/api/play", `{"level":1,"sed":1}`, "unknown field"},
		{"/api/replay", `{"recording":"nope"}`, `no recording \"nope\"`},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", tc.path, strings.NewReader(tc.body)))
		if rec.Code/100 != 4 || !strings.Contains(rec.Body.String(), tc.want) {
			t.Errorf("%s %s: %d %s, want %q", tc.path, tc.body, rec.Code, rec.Body, tc.want)
		}
	}
}
