// Tests of Board.Regions: hand-built cuts and random games checked against
// Score and against the cut edges themselves.

package separo

import (
	"math/rand/v2"
	"testing"
)

func TestRegionsStart(t *testing.T) {
	b := MustNew(5)
	for _, c := range []Color{Red, Blue} {
		for i, l := range b.Regions(c) {
			if l != 0 {
				t.Fatalf("%v: triangle %d labelled %d at the start, want 0 (the whole board is one region)", c, i, l)
			}
		}
	}
}

func TestRegionsOneCell(t *testing.T) {
	// Cell (3,3) of a 9×9 board enclosed on its four sides: its four
	// triangles are a region that does not score (-1); the rest is region 0.
	b := MustNew(9)
	g := 8
	cell := func(x, y int) int { return x*g + y }
	b.cut[Red][cell(2, 3)] |= cutEast
	b.cut[Red][cell(3, 3)] |= cutEast | cutSouth
	b.cut[Red][cell(3, 2)] |= cutSouth
	r := b.Regions(Red)
	for i, l := range r {
		want := 0
		if i/4 == cell(3, 3) {
			want = -1
		}
		if l != want {
			t.Fatalf("triangle %d (cell %d): label %d, want %d", i, i/4, l, want)
		}
	}
}

// TestRegionsRandomGames checks on random games that the labels number
// exactly Score(c) regions, each of more than four triangles, and that two
// triangles joined by an uncut edge carry the same label.
func TestRegionsRandomGames(t *testing.T) {
	for g := range 40 {
		size := 5 + g%6
		rng := rand.New(rand.NewPCG(11, uint64(g)))
		b := MustNew(size)
		turn := Red
		var buf []Move
		for {
			buf = b.Moves(turn, buf)
			if len(buf) == 0 {
				break
			}
			b.Apply(turn, buf[rng.IntN(len(buf))])
			for _, c := range []Color{Red, Blue} {
				checkRegions(t, &b, c)
			}
			next, ok := b.Next(turn)
			if !ok {
				break
			}
			turn = next
		}
	}
}

func checkRegions(t *testing.T, b *Board, c Color) {
	t.Helper()
	r := b.Regions(c)
	g := b.Size() - 1
	count := map[int]int{}
	for _, l := range r {
		if l >= 0 {
			count[l]++
		}
	}
	if len(count) != b.Score(c) {
		t.Fatalf("%v: %d labelled regions, score %d", c, len(count), b.Score(c))
	}
	for l, n := range count {
		if l >= len(count) || n <= 4 {
			t.Fatalf("%v: region %d of %d triangles (labels must be 0..%d, sizes > 4)", c, l, n, len(count)-1)
		}
	}
	same := func(a, b int) {
		if r[a] != r[b] {
			t.Fatalf("%v: triangles %d and %d joined by an uncut edge, labels %d and %d", c, a, b, r[a], r[b])
		}
	}
	for cx := range g {
		for cy := range g {
			cell := cx*g + cy
			k := b.cut[c][cell]
			base := 4 * cell
			for _, e := range []struct {
				a, b int
				bit  uint8
			}{{triN, triE, cutNE}, {triN, triW, cutNW}, {triS, triE, cutSE}, {triS, triW, cutSW}} {
				if k&e.bit == 0 {
					same(base+e.a, base+e.b)
				}
			}
			if cx+1 < g && k&cutEast == 0 {
				same(base+triE, 4*(cell+g)+triW)
			}
			if cy+1 < g && k&cutSouth == 0 {
				same(base+triS, 4*(cell+1)+triN)
			}
		}
	}
}
