// Tests of the simulator against the external vectors in testdata/.
package sim

import (
	"encoding/json"
	"os"
	"testing"
)

type vector struct {
	Name     string   `json:"name"`
	Board    [][]int8 `json:"board_top_to_bottom"`
	Pack     [][]int8 `json:"pack_rows"`
	Rotation int      `json:"rotation"`
	Position int      `json:"position"`
	OjamaRow bool     `json:"drop_ojama_row_first"`
	Chains   int      `json:"expected_chains"`
	Score    int64    `json:"expected_score"`
	Expected [][]int8 `json:"expected_board_top_to_bottom"`
	FromSrc  bool     `json:"expected_board_from_source"`
	Dead     bool     `json:"dead"`
}

func load(rows [][]int8) Board {
	var b Board
	n := len(rows)
	for i, row := range rows {
		for x, v := range row {
			b.Cell[x][n-1-i] = v
		}
	}
	return b
}

func TestVectors(t *testing.T) {
	data, err := os.ReadFile("testdata/simulator_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		t.Run(v.Name, func(t *testing.T) {
			b := load(v.Board)
			if v.OjamaRow {
				b.DropOjamaRow()
			}
			p := Pack{Top: [2]int8{v.Pack[0][0], v.Pack[0][1]}, Bottom: [2]int8{v.Pack[1][0], v.Pack[1][1]}}
			c, err := b.Drop(p, v.Position, v.Rotation)
			if err != nil {
				t.Fatal(err)
			}
			if c != v.Chains || ChainScore(c) != v.Score {
				t.Errorf("chains %d score %d, want %d %d", c, ChainScore(c), v.Chains, v.Score)
			}
			if b.Dead() != v.Dead {
				t.Errorf("dead %v want %v", b.Dead(), v.Dead)
			}
			if v.Expected != nil {
				// Vectors show the 16 visible rows only.
				want, got := load(v.Expected), b
				for x := 0; x < Width; x++ {
					for h := Visible; h < Height+2; h++ {
						got.Cell[x][h] = 0
					}
				}
				if want != got {
					t.Errorf("board mismatch")
				}
			}
		})
	}
}

func TestChainScoreTable(t *testing.T) {
	for c, want := range map[int]int64{1: 1, 3: 4, 10: 50, 20: 810, 25: 3042, 30: 11335, 40: 156491} {
		if got := ChainScore(c); got != want {
			t.Errorf("S(%d)=%d want %d", c, got, want)
		}
	}
}
