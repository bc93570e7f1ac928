// This file holds recorded games: move lists as the headless harness records
// them (one [direction, x, y_operation, y_moveblocknum, use_hold_function]
// per tick), their parser, and the two games recorded in the real
// board_manager.py that are committed as replay vectors.

package seigot

import (
	"embed"
	"encoding/json"
	"fmt"
	"math"
)

//go:embed testdata/real_l1_seed0_moves.json testdata/real_l2_seed1_moves.json
var recordedFS embed.FS

// Recording is a game recorded in the real game, with what it scored there.
type Recording struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Level int    `json:"level"`
	Seed  uint64 `json:"seed"`
	Score int    `json:"score"` // in the real board_manager.py
	Moves []Move `json:"-"`
}

// Recordings returns the committed recorded games: the 2023 winner's
// controller at level 1 seed 0 (26 059) and at level 2 seed 1 (25 519).
func Recordings() []Recording {
	out := []Recording{
		{ID: "winner-l1s0", Name: "2023 winner (mattshamrock), level 1 seed 0", Level: 1, Seed: 0, Score: 26059},
		{ID: "winner-l2s1", Name: "2023 winner's controller, level 2 seed 1", Level: 2, Seed: 1, Score: 25519},
	}
	files := []string{"testdata/real_l1_seed0_moves.json", "testdata/real_l2_seed1_moves.json"}
	for i, f := range files {
		data, err := recordedFS.ReadFile(f)
		if err != nil {
			panic(err) // embedded
		}
		if out[i].Moves, err = ParseMoveList(data); err != nil {
			panic(fmt.Sprintf("%s: %v", f, err)) // committed and tested
		}
	}
	return out
}

// ParseMoveList reads a JSON list of moves, each [direction, x,
// y_operation, y_moveblocknum, use_hold_function] ("y" or "n"), one per tick.
func ParseMoveList(data []byte) ([]Move, error) {
	var raw [][5]any
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("moves: %w", err)
	}
	out := make([]Move, 0, len(raw))
	for i, r := range raw {
		var s Strategy
		for k, p := range [4]*int{&s.Direction, &s.X, &s.YOperation, &s.YMoveBlockNum} {
			f, ok := r[k].(float64)
			if !ok || f != math.Trunc(f) {
				return nil, fmt.Errorf("move %d: field %d is %v, want an integer", i, k, r[k])
			}
			*p = int(f)
		}
		if s.YOperation == 1 && s.YMoveBlockNum < 1 {
			s.YMoveBlockNum = 1
		}
		s.UseHoldFunction, _ = r[4].(string)
		m, err := MoveOf(s)
		if err != nil {
			return nil, fmt.Errorf("move %d: %w", i, err)
		}
		out = append(out, m)
	}
	return out, nil
}
