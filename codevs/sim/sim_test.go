// Tests of the simulator against the external vectors in testdata/.
package sim

import (
	"encoding/json"
	"math/rand/v2"
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

func TestRotate(t *testing.T) {
	p := Pack{Top: [2]int8{1, 2}, Bottom: [2]int8{3, 4}}
	want := [][4]int8{{1, 2, 3, 4}, {3, 1, 4, 2}, {4, 3, 2, 1}, {2, 4, 1, 3}}
	for r, w := range want {
		q := p.Rotate(r)
		if got := [4]int8{q.Top[0], q.Top[1], q.Bottom[0], q.Bottom[1]}; got != w {
			t.Errorf("r=%d got %v want %v", r, got, w)
		}
	}
}

// TestRandomPlayInvariants drops random packs and checks that after every
// turn no vanishing pair remains, columns have no holes and blocks are
// conserved when no chain happened.
func TestRandomPlayInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	turns := 2000
	if !testing.Short() {
		turns = 20000
	}
	var b Board
	for i := 0; i < turns; i++ {
		if b.Dead() {
			b = Board{}
		}
		var p Pack
		for j := 0; j < 4; j++ {
			v := int8(rng.IntN(10))
			if j < 2 {
				p.Top[j] = v
			} else {
				p.Bottom[j-2] = v
			}
		}
		before := count(&b) + count1(p)
		c, err := b.Drop(p, rng.IntN(9), rng.IntN(4))
		if err != nil {
			t.Fatal(err)
		}
		if c == 0 && count(&b) != before {
			t.Fatalf("turn %d: block count %d want %d", i, count(&b), before)
		}
		for x := 0; x < Width; x++ {
			for h := 1; h < Height+2; h++ {
				if b.Cell[x][h] != 0 && b.Cell[x][h-1] == 0 {
					t.Fatalf("turn %d: hole at %d,%d", i, x, h)
				}
			}
		}
		var chk Board = b
		if chk.Resolve() != 0 {
			t.Fatalf("turn %d: unresolved pair left", i)
		}
	}
}

func count(b *Board) int {
	n := 0
	for x := range b.Cell {
		for _, v := range b.Cell[x] {
			if v != 0 {
				n++
			}
		}
	}
	return n
}

func count1(p Pack) int {
	n := 0
	for _, v := range [4]int8{p.Top[0], p.Top[1], p.Bottom[0], p.Bottom[1]} {
		if v != 0 {
			n++
		}
	}
	return n
}

// BenchmarkDropRandom measures random pack drops including chain resolution.
func BenchmarkDropRandom(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	var bd Board
	for i := 0; i < b.N; i++ {
		if bd.Dead() {
			bd = Board{}
		}
		p := Pack{Top: [2]int8{int8(rng.IntN(10)), int8(1 + rng.IntN(9))}, Bottom: [2]int8{int8(1 + rng.IntN(9)), int8(1 + rng.IntN(9))}}
		if _, err := bd.Drop(p, rng.IntN(9), rng.IntN(4)); err != nil {
			b.Fatal(err)
		}
	}
}

func TestExplosionScoreTable(t *testing.T) {
	bs := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 24, 30, 36, 48, 60}
	es := []int64{0, 26, 28, 29, 31, 33, 35, 37, 39, 42, 44, 47, 50, 52, 56, 59, 62, 70, 79, 100, 141, 200, 400, 800}
	for i, b := range bs {
		if got := ExplosionScore(b); got != es[i] {
			t.Errorf("E(%d)=%d want %d", b, got, es[i])
		}
	}
}

func TestExplodeIncludesFiveAndSkipsOjama(t *testing.T) {
	var b Board
	b.Cell[0][0], b.Cell[0][1], b.Cell[1][0], b.Cell[1][1], b.Cell[2][0] = Ojama, 5, 3, 4, 2
	n, c := b.Explode()
	// 5 at (0,1) takes 5, 3 at (1,0), 4 at (1,1); ojama stays, 2 at (2,0) is not adjacent.
	if n != 3 || c != 0 {
		t.Fatalf("blocks %d chains %d, want 3 0", n, c)
	}
	if b.Cell[0][0] != Ojama || b.Cell[0][1] != 0 || b.Cell[2][0] != 2 || b.Cell[1][0] != 0 {
		t.Fatalf("board after explosion wrong: %v", b.Cell[:3])
	}
}
