// Differential tests of Fast against Board (itself checked against the slow
// reference in package codevs) and the external vectors, plus benchmarks.
package sim

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"testing"
)

func randPack(rng *rand.Rand) Pack {
	var p Pack
	cells := []*int8{&p.Top[0], &p.Top[1], &p.Bottom[0], &p.Bottom[1]}
	for _, c := range cells {
		if rng.IntN(10) != 0 {
			*c = int8(1 + rng.IntN(9))
		}
	}
	return p
}

func TestFastVectors(t *testing.T) {
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
			f := FastFrom(&b)
			if v.OjamaRow {
				f.DropOjamaRow()
			}
			p := Pack{Top: [2]int8{v.Pack[0][0], v.Pack[0][1]}, Bottom: [2]int8{v.Pack[1][0], v.Pack[1][1]}}
			c, err := f.Drop(p, v.Position, v.Rotation)
			if err != nil {
				t.Fatal(err)
			}
			if c != v.Chains || f.Dead() != v.Dead {
				t.Errorf("chains %d dead %v, want %d %v", c, f.Dead(), v.Chains, v.Dead)
			}
			if v.Expected != nil {
				want, got := load(v.Expected), f.Board()
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
	if _, err := new(Fast).Drop(Pack{}, 9, 0); err == nil {
		t.Error("x=9 accepted")
	}
}

// TestFastMatchesBoard plays 100k random turns (ojama rows, skills, drops)
// on both simulators and compares chains, explosion sizes and whole fields.
func TestFastMatchesBoard(t *testing.T) {
	turns := 100000
	if testing.Short() {
		turns = 10000
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var b Board
	f := FastFrom(&b)
	maxChain, skills, ojamaRows := 0, 0, 0
	for i := 0; i < turns; i++ {
		if b.Dead() || rng.IntN(200) == 0 {
			b = Board{}
			f = FastFrom(&b)
		}
		if rng.IntN(8) == 0 {
			b.DropOjamaRow()
			f.DropOjamaRow()
			ojamaRows++
		}
		var bc, fc int
		switch rng.IntN(12) {
		case 0:
			bb, bch := b.Explode()
			fb, fch := f.Explode()
			if bb != fb || bch != fch {
				t.Fatalf("turn %d: explode %d/%d chains, fast %d/%d", i, bb, bch, fb, fch)
			}
			skills++
		default:
			p, x, r := randPack(rng), rng.IntN(9), rng.IntN(4)
			bc, _ = b.Drop(p, x, r)
			fc, _ = f.Drop(p, x, r)
		}
		if bc != fc {
			t.Fatalf("turn %d: chains %d, fast %d", i, bc, fc)
		}
		maxChain = max(maxChain, bc)
		if f.Board() != b || f.Dead() != b.Dead() {
			t.Fatalf("turn %d: fields differ", i)
		}
		if g := FastFrom(&b); g != f {
			t.Fatalf("turn %d: FastFrom differs from the played field", i)
		}
	}
	if maxChain < 3 || skills == 0 || ojamaRows == 0 {
		t.Fatalf("weak coverage: max chain %d, skills %d, ojama rows %d", maxChain, skills, ojamaRows)
	}
	t.Logf("max chain %d, %d skills, %d ojama rows", maxChain, skills, ojamaRows)
}

func TestFastSkillBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 2000; i++ {
		var f Fast
		for j := 0; j < 20+rng.IntN(30); j++ {
			f.Drop(randPack(rng), rng.IntN(9), rng.IntN(4))
			if rng.IntN(10) == 0 {
				f.DropOjamaRow()
			}
		}
		want := f.SkillBlocks()
		g := f
		got, _ := g.Explode()
		if got != want {
			t.Fatalf("SkillBlocks %d, Explode removed %d", want, got)
		}
	}
}

// benchBoards returns n deterministic mid-game fields (30–60 blocks) for
// benchmarks.
func benchBoards(n int) []Fast {
	rng := rand.New(rand.NewPCG(7, 7))
	out := make([]Fast, 0, n)
	for len(out) < n {
		var f Fast
		for f.blockCount() < 30+rng.IntN(30) {
			f.Drop(randPack(rng), rng.IntN(9), rng.IntN(4))
		}
		if !f.Dead() {
			out = append(out, f)
		}
	}
	return out
}

// blockCount returns the number of blocks on the field.
func (f *Fast) blockCount() int { b, _ := f.Count(); return b }

func BenchmarkFastDrop(b *testing.B) {
	boards := benchBoards(64)
	rng := rand.New(rand.NewPCG(9, 9))
	packs := make([]Pack, 64)
	for i := range packs {
		packs[i] = randPack(rng)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f := boards[i&63]
		f.DropRotated(packs[(i>>6)&63], i%9)
	}
}

func BenchmarkBoardDrop(b *testing.B) {
	fs := benchBoards(64)
	boards := make([]Board, len(fs))
	for i := range fs {
		boards[i] = fs[i].Board()
	}
	rng := rand.New(rand.NewPCG(9, 9))
	packs := make([]Pack, 64)
	for i := range packs {
		packs[i] = randPack(rng)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bd := boards[i&63]
		bd.Drop(packs[(i>>6)&63], i%9, 0)
	}
}

func TestFastTriggers(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var f Fast
	for i := 0; i < 20000; i++ {
		if f.Dead() || rng.IntN(100) == 0 {
			f = Fast{}
		}
		p, x, r := randPack(rng), rng.IntN(9), rng.IntN(4)
		q := p.Rotate(r)
		before := f
		want := func() bool { g := f; return g.DropRotated(q, x) > 0 }()
		if got := f.Triggers(q, x); got != want || f != before {
			t.Fatalf("step %d: Triggers %v, drop chains>0 %v, field changed %v", i, got, want, f != before)
		}
		f.DropRotated(q, x)
	}
}

// TestFastPotential checks Potential against a brute force on Board: every
// value on every column with room, chains by Board.Resolve.
func TestFastPotential(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	found := 0
	for i := 0; i < 300; i++ {
		var f Fast
		for j := 0; j < 10+rng.IntN(40); j++ {
			f.Drop(randPack(rng), rng.IntN(9), rng.IntN(4))
			if rng.IntN(15) == 0 {
				f.DropOjamaRow()
			}
		}
		want, wx, wrow := 0, -1, -1
		for x := 0; x < Width; x++ {
			h := f.Height(x)
			if h >= Danger {
				continue
			}
			for v := int8(1); v <= 9; v++ {
				b := f.Board()
				b.push(x, v)
				n := b.Resolve()
				if n > want || (n == want && n > 0 && h < wrow) {
					want, wx, wrow = n, x, h
				}
			}
		}
		got, gx, grow := f.Potential()
		if got != want || gx != wx || grow != wrow {
			t.Fatalf("field %d: Potential = %d at (%d,%d), brute force %d at (%d,%d)\n%v", i, got, gx, grow, want, wx, wrow, f.Board())
		}
		if got >= 3 {
			found++
		}
	}
	if found == 0 {
		t.Fatal("no field with a 3+ potential: the test checks too little")
	}
}

func BenchmarkFastPotential(b *testing.B) {
	boards := benchBoards(64)
	for i := 0; i < b.N; i++ {
		boards[i&63].Potential()
	}
}

// ojamaTopRef is the row of the highest ojama in column x, -1 when none.
func ojamaTopRef(b *Board, x int) int {
	top := -1
	for h := 0; h < Height+2; h++ {
		if b.Cell[x][h] == Ojama {
			top = h
		}
	}
	return top
}

// erasePotentialRef is ErasePotential by its rule on Board: every non-ojama
// block below its column's top whose row is at or above some neighbour's
// highest ojama row is removed, the column falls, Board.Resolve counts the
// chains after the erase (which is chain 1).
func erasePotentialRef(f *Fast) (chains, x, row int) {
	x, row = -1, -1
	b0 := f.Board()
	for c := 0; c < Width; c++ {
		top := b0.height(c) - 1
		for h := 0; h < top; h++ {
			if b0.Cell[c][h] == Ojama {
				continue
			}
			reach := (c > 0 && h >= ojamaTopRef(&b0, c-1)) || (c < Width-1 && h >= ojamaTopRef(&b0, c+1))
			if !reach {
				continue
			}
			b := b0
			var kill [Width][Height + 2]bool
			kill[c][h] = true
			b.fall(&kill)
			n := 1 + b.Resolve()
			if n > chains || (n == chains && h > row) {
				chains, x, row = n, c, h
			}
		}
	}
	return chains, x, row
}

// fieldOf builds a stable field from columns listed bottom-up (O = ojama).
func fieldOf(t *testing.T, cols ...[]int8) Fast {
	t.Helper()
	var b Board
	for x, col := range cols {
		copy(b.Cell[x][:], col)
	}
	if g := b; g.Resolve() != 0 {
		t.Fatalf("test field is not stable: %v", cols)
	}
	return FastFrom(&b)
}

func TestFastErasePotentialTable(t *testing.T) {
	const O = Ojama
	row := []int8{O}
	cases := []struct {
		name      string
		cols      [][]int8
		chains, x int
		wantRow   int
	}{
		{"empty", nil, 0, -1, -1},
		{"only top blocks", [][]int8{{1}, {1}}, 0, -1, -1},
		{"erase without a chain", [][]int8{{1, 2}}, 1, 0, 0},
		{"a 3 falls beside the 7", [][]int8{{5, 2, 3}, {7}}, 2, 0, 1},
		{"on an ojama row", [][]int8{{O, 5, 2, 3}, {O, 7}, row, row, row, row, row, row, row, row}, 2, 0, 2},
		{"under an ojama row, the chain stays", [][]int8{{5, 2, 3, O}, {7, O}, row, row, row, row, row, row, row, row}, 2, 0, 1},
		{"neighbour's ojama above: out of reach", [][]int8{{5, 2, 3, O}, {7, 1, 4, O}, row}, 1, 1, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := fieldOf(t, c.cols...)
			n, x, r := f.ErasePotential()
			if n != c.chains || x != c.x || r != c.wantRow {
				t.Errorf("ErasePotential = %d at (%d,%d), want %d at (%d,%d)", n, x, r, c.chains, c.x, c.wantRow)
			}
			if rn, rx, rr := erasePotentialRef(&f); rn != n || rx != x || rr != r {
				t.Errorf("reference %d at (%d,%d)", rn, rx, rr)
			}
		})
	}
}

// TestFastErasePotential checks ErasePotential against the reference on
// random fields with and without ojama rows, and that it leaves f alone.
func TestFastErasePotential(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	found, covered := 0, 0
	for i := 0; i < 1000; i++ {
		var f Fast
		for j := 0; j < 10+rng.IntN(50) && !f.Dead(); j++ {
			f.Drop(randPack(rng), rng.IntN(9), rng.IntN(4))
			if rng.IntN(12) == 0 {
				f.DropOjamaRow()
			}
		}
		before := f
		want, wx, wrow := erasePotentialRef(&f)
		got, gx, grow := f.ErasePotential()
		if got != want || gx != wx || grow != wrow || f != before {
			t.Fatalf("field %d: ErasePotential = %d at (%d,%d), reference %d at (%d,%d), field changed %v\n%v", i, got, gx, grow, want, wx, wrow, f != before, f.Board())
		}
		if got >= 4 {
			found++
		}
		if _, oj := f.Count(); oj > 0 && got >= 3 {
			covered++
		}
	}
	if found == 0 || covered == 0 {
		t.Fatalf("weak coverage: %d fields with a 4+ erase potential, %d with ojama and 3+", found, covered)
	}
	t.Logf("%d fields with 4+, %d with ojama and 3+", found, covered)
}

func BenchmarkFastErasePotential(b *testing.B) {
	boards := benchBoards(64)
	for i := 0; i < b.N; i++ {
		boards[i&63].ErasePotential()
	}
}

// TestFastFireHeight checks the first vanish's height difference on three
// hand-made drops: a vanish reaching up the neighbour column (+1), one
// inside the landing column only (-2), and a drop that vanishes nothing (0).
func TestFastFireHeight(t *testing.T) {
	for _, c := range []struct {
		name string
		cols map[int][]int8
		pack Pack
		x    int
		want int
	}{
		{"up the neighbour", map[int][]int8{2: {4, 4, 7}}, Pack{Top: [2]int8{0, 3}, Bottom: [2]int8{0, 1}}, 0, 1},
		{"landing column only", map[int][]int8{1: {5}}, Pack{Top: [2]int8{0, 1}, Bottom: [2]int8{0, 5}}, 0, -2},
		{"no vanish", map[int][]int8{2: {4, 4, 7}}, Pack{Top: [2]int8{0, 2}, Bottom: [2]int8{0, 1}}, 0, 0},
	} {
		var b Board
		for x, col := range c.cols {
			copy(b.Cell[x][:], col)
		}
		f := FastFrom(&b)
		before := f
		if got := f.FireHeight(c.pack, c.x); got != c.want {
			t.Errorf("%s: FireHeight %d, want %d", c.name, got, c.want)
		}
		if f != before {
			t.Errorf("%s: FireHeight changed the field", c.name)
		}
	}
}
