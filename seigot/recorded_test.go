// Tests of the recorded games: both replay to the scores the real game gave.

package seigot

import (
	"strings"
	"testing"
)

func TestRecordings(t *testing.T) {
	for _, r := range Recordings() {
		cfg, err := LevelConfig(r.Level, r.Seed, false)
		if err != nil {
			t.Fatal(err)
		}
		g := NewGame(cfg)
		for _, m := range r.Moves {
			if g.Done {
				break
			}
			g.Tick(m)
		}
		if g.Stats.Score != r.Score || g.Stats.BlockIndex != 180 {
			t.Errorf("%s: replays to %d after %d pieces, recorded %d", r.ID, g.Stats.Score, g.Stats.BlockIndex, r.Score)
		}
	}
}

func TestParseMoveListErrors(t *testing.T) {
	for in, want := range map[string]string{
		`[[0, 1.5, 1, 1, "n"]]`: "move 0: field 1 is 1.5",
		`[[0, 1, 2, 1, "n"]]`:   "y_operation 2",
		`[[0, 1, 1, 1, "x"]]`:   `use_hold_function "x"`,
		`{}`:                    "moves:",
	} {
		if _, err := ParseMoveList([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", in, err, want)
		}
	}
}

// FuzzParseMoveList checks that any input is refused cleanly or gives moves
// the game accepts.
func FuzzParseMoveList(f *testing.F) {
	f.Add([]byte(`[[0, 5, 1, 1, "n"], [1, 0, 0, 3, "y"]]`))
	f.Add([]byte(`[[0, 1e3, 1, 1, "n"]]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		moves, err := ParseMoveList(data)
		if err != nil {
			return
		}
		g := NewGame(Config{Seed: 1, BlockNumMax: 180})
		for _, m := range moves {
			if _, err := MoveOf(StrategyOf(m)); err != nil {
				t.Fatalf("move %+v does not round-trip: %v", m, err)
			}
			if g.Done {
				break
			}
			g.Tick(m)
		}
	})
}
