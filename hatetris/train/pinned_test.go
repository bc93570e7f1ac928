// Pins the beam search's exact output: speed work on the search and the
// evaluator must not change a bit of it.
package train

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"testing"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/hatetris/player"
	"github.com/yomi-ai/yomi/nn"
)

// pinnedRun is what TestSearchPinned compares: the game, the stats after
// every depth and a hash of every depth's beam (its wells in beam order,
// which the values decide).
type pinnedRun struct {
	Name      string
	Score     int
	Pieces    int
	Replay    string
	Wells     int64
	BestValue string // bits, hex
	Depths    []string
}

// TestSearchPinned: short searches with the net (quiescence, 2 workers)
// and the heuristic give exactly the game, per-depth stats and beams of
// testdata/pinned-search.json, written by the search as of e330510 (before
// the quiescence memo, the moved-down evaluation and the chunked workers);
// the runs from "net-noq" on were added at 0b11835 (before the speed work
// of branch hatetris-speed) and written by that code.
// YOMI_PIN_UPDATE=1 rewrites the file.
func TestSearchPinned(t *testing.T) {
	net, err := nn.LoadFile("../nets/h24-run4-gen19.yomi")
	if err != nil {
		t.Fatal(err)
	}
	tab, err := NewTables(net)
	if err != nil {
		t.Fatal(err)
	}
	runs := []struct {
		name    string
		newEval func() player.Evaluator
		width   int
		depth   int
		workers int
		noQ     bool // without quiescence
	}{
		{"net", func() player.Evaluator { return tab.New() }, 300, 40, 2, false},
		{"net-1-worker", func() player.Evaluator { return tab.New() }, 120, 30, 1, false},
		{"heuristic", nil, 300, 40, 2, false},
		{"net-noq", func() player.Evaluator { return tab.New() }, 600, 45, 2, true},
		{"net-w1500", func() player.Evaluator { return tab.New() }, 1500, 30, 2, false},
		{"net-w40-long", func() player.Evaluator { return tab.New() }, 40, 120, 2, false},
		{"heuristic-noq", nil, 500, 40, 2, true},
	}
	var got []pinnedRun
	for _, r := range runs {
		run := pinnedRun{Name: r.name}
		res, err := player.Search(context.Background(), player.Options{
			Width: r.width, MaxDepth: r.depth, Workers: r.workers, Quiescence: !r.noQ, NewEval: r.newEval,
			OnDepth: func(depth int, beam []hatetris.Well) {
				h := fnv.New64a()
				for i := range beam {
					for _, row := range beam[i] {
						h.Write([]byte{byte(row), byte(row >> 8)})
					}
				}
				run.Depths = append(run.Depths, fmt.Sprintf("%d:%d:%016x", depth, len(beam), h.Sum64()))
			},
			Progress: func(s player.Stats) {
				run.Depths = append(run.Depths, fmt.Sprintf("%d:%d:%d:%d:%d", s.Depth, s.Beam, s.BestScore, s.Wells, s.Kept))
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		run.Score, run.Pieces, run.Wells = res.Score, res.Pieces, res.Wells
		run.Replay = hatetris.MovesString(res.Moves)
		run.BestValue = fmt.Sprintf("%016x", math.Float64bits(res.BestValue))
		got = append(got, run)
	}
	const file = "testdata/pinned-search.json"
	if os.Getenv("YOMI_PIN_UPDATE") == "1" {
		b, _ := json.MarshalIndent(got, "", " ")
		if err := os.WriteFile(file, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var want []pinnedRun
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(got) {
		t.Fatalf("%d runs, %s has %d", len(got), file, len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Score != w.Score || g.Pieces != w.Pieces || g.Replay != w.Replay || g.Wells != w.Wells || g.BestValue != w.BestValue {
			t.Errorf("%s: score %d pieces %d wells %d best value %s, want %d %d %d %s (or another replay)",
				g.Name, g.Score, g.Pieces, g.Wells, g.BestValue, w.Score, w.Pieces, w.Wells, w.BestValue)
		}
		for d := range min(len(g.Depths), len(w.Depths)) {
			if g.Depths[d] != w.Depths[d] {
				t.Errorf("%s: depth record %d is %s, want %s", g.Name, d, g.Depths[d], w.Depths[d])
				break
			}
		}
		if len(g.Depths) != len(w.Depths) {
			t.Errorf("%s: %d depth records, want %d", g.Name, len(g.Depths), len(w.Depths))
		}
	}
}
