// Tests of BuildView and the viewer's API on two committed referee replays
// (yomi against its skill mode: 309 turns, chains up to 17; two dummies:
// skills and ojama): every turn's frames agree with the engine's own
// numbers, and bad requests are refused clearly.

package webapp

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/protocol"
	"github.com/yomi-ai/yomi/codevs/referee"
	"github.com/yomi-ai/yomi/codevs/sim"
)

func readReplay(t *testing.T, path string) *referee.Replay {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rp, err := referee.ReadReplay(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := referee.VerifyReplay(rp); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rp
}

func TestBuildView(t *testing.T) {
	for _, tc := range []struct {
		path              string
		maxChains, skills int
	}{
		{"testdata/chains/replay.json", 17, 0},
		{"testdata/skills/replay.json", 3, 14},
	} {
		rp := readReplay(t, tc.path)
		v, err := BuildView(rp, tc.path)
		if err != nil {
			t.Fatal(err)
		}
		if v.Check != "" || len(v.Turns) != len(rp.Turns) || v.Rows != sim.Height+2 {
			t.Fatalf("%s: check %q, %d turns of %d", tc.path, v.Check, len(v.Turns), len(rp.Turns))
		}
		// An independent replay through codevs.Game gives the numbers the
		// frames must show.
		g, _ := codevs.NewGame(codevs.SimPacks(rp.Packs))
		maxChains, skills := 0, 0
		for k, rec := range rp.Turns {
			var m [2]codevs.Move
			for i := range 2 {
				m[i], _ = protocol.ParseCommand(rec.Moves[i])
			}
			h, err := g.Step(m)
			if err != nil {
				t.Fatal(err)
			}
			for i := range 2 {
				p := v.Turns[k].Players[i]
				vanish, explode := 0, 0
				for _, f := range p.Frames {
					switch f.Stage {
					case sim.StageVanish:
						vanish++
					case sim.StageExplode:
						explode += len(f.Vanish)
					}
				}
				if vanish != h[i].Chains || p.Chains != h[i].Chains || explode != h[i].Exploded || p.Score != g.P[i].Score ||
					p.After != field(&g.P[i].Board) || p.OjamaFell != h[i].OjamaFell || p.Ojama != g.P[i].Ojama || p.Gauge != g.P[i].Gauge {
					t.Fatalf("%s turn %d player %d: view %+v with %d vanish frames, %d exploded; engine %+v", tc.path, k, i+1, p.codevsNumbers, vanish, explode, h[i])
				}
				maxChains = max(maxChains, h[i].Chains)
				if m[i].Skill {
					skills++
				}
			}
		}
		if maxChains != tc.maxChains || skills != tc.skills {
			t.Errorf("%s: max chains %d, skills %d; the fixture has %d and %d", tc.path, maxChains, skills, tc.maxChains, tc.skills)
		}
	}
}

func TestViewAPI(t *testing.T) {
	h := Handler(Options{LogDirs: []string{"testdata"}})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/replays", nil))
	var list []Replay
	if err := json.Unmarshal(rec.Body.Bytes(), &list); err != nil || len(list) != 3 || list[0].ID != "0/chains/replay.json" {
		t.Fatalf("replays: %v %s", err, rec.Body)
	}
	// A match's log directory: its results file labels the game.
	list = nil
	rec = httptest.NewRecorder()
	Handler(Options{LogDirs: []string{"testdata/match"}}).ServeHTTP(rec, httptest.NewRequest("GET", "/api/replays", nil))
	if err := json.Unmarshal(rec.Body.Bytes(), &list); err != nil || len(list) != 1 ||
		list[0].Match != "dummyA vs dummyB, seed 1 game 0: dummyA win (player 2 died)" {
		t.Fatalf("match replays: %v %s", err, rec.Body)
	}
	for _, tc := range []struct {
		body string
		code int
		want string
	}{
		{`{"file":"0/chains/replay.json"}`, 200, `"names":["yomi","skill"]`},
		{`{"file":"0/../../go.mod"}`, 404, "no replay"},
		{`{"name":"x.json","text":"{\"turns\":3}"}`, 400, "x.json: replay:"},
		{`{"name":"x.json","text":"{}"}`, 400, "need 500 packs"},
		{`{}`, 400, "no replay given"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/view", strings.NewReader(tc.body)))
		if rec.Code != tc.code || !strings.Contains(rec.Body.String(), tc.want) {
			t.Errorf("%s: %d %.200s, want %d and %q", tc.body, rec.Code, rec.Body.String(), tc.code, tc.want)
		}
	}
}
