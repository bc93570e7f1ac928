// select_test.go checks selectLeaf's walk: unchanged draws when no leaf is
// marked, and a redraw instead of a wasted walk when one is.

package bot

import (
	"context"
	"math/rand/v2"
	"testing"
)

func TestDrawExcluding(t *testing.T) {
	mk := func(vs ...int32) []child {
		l := make([]child, len(vs))
		for i, v := range vs {
			l[i].ev = Value{V: v}
		}
		return l
	}
	cases := []struct {
		name string
		list []child
		ex   []int32
		want int32 // −2: same as draw with the same random stream
	}{
		{"no exclusion draws like draw", mk(50, 20, 10, 0), nil, -2},
		{"single child left", mk(50, 20, 10, 0), []int32{0, 1, 3}, 2},
		{"all excluded", mk(5, 3), []int32{1, 0}, -1},
		// ranks ≥ 10 at E_min weigh 100/(i²+1) = 0: zero total weight
		{"zero weight takes the first left", mk(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 11},
	}
	for _, c := range cases {
		for seed := range uint64(20) {
			got := drawExcluding(c.list, c.ex, rand.New(rand.NewPCG(seed, 9)))
			want := c.want
			if want == -2 {
				want = int32(draw(c.list, rand.New(rand.NewPCG(seed, 9))))
			}
			if got != want {
				t.Fatalf("%s, seed %d: got %d, want %d", c.name, seed, got, want)
			}
			for _, e := range c.ex {
				if got == e {
					t.Fatalf("%s: drew excluded rank %d", c.name, e)
				}
			}
		}
	}
}

// TestSelectAvoidsMarkedLeaf: a walk that would end on a leaf another
// thread is expanding picks another leaf instead of giving up, and a walk
// that meets no marked leaf is the same as before.
func TestSelectAvoidsMarkedLeaf(t *testing.T) {
	b := New(Options{Seed: 3})
	if err := b.Reset(Board{}, []Piece{T, I, O, L, J}, NoPiece, 0); err != nil {
		t.Fatal(err)
	}
	b.Think(context.Background(), Budget{Nodes: 20000})
	d := b.d
	tried := 0
	for seed := range uint64(50) {
		first := d.selectLeaf(rand.New(rand.NewPCG(seed, 1)))
		if first < 0 {
			t.Fatalf("seed %d: no leaf on an idle tree", seed)
		}
		// same random stream: the old walk would end on first again
		second := d.selectLeaf(rand.New(rand.NewPCG(seed, 1)))
		if second == first {
			t.Fatalf("seed %d: leaf %d selected twice", seed, first)
		}
		if second >= 0 {
			tried++
			if d.nodes.at(second).expanded() || !d.nodes.at(second).marked {
				t.Fatalf("seed %d: leaf %d not a freshly marked leaf", seed, second)
			}
			d.nodes.at(second).marked = false
		}
		d.nodes.at(first).marked = false
		// unmarked again: the walk repeats exactly
		if again := d.selectLeaf(rand.New(rand.NewPCG(seed, 1))); again != first {
			t.Fatalf("seed %d: walk not repeatable: %d then %d", seed, first, again)
		}
		d.nodes.at(first).marked = false
	}
	if tried < 40 {
		t.Fatalf("only %d of 50 walks found another leaf", tried)
	}
}
