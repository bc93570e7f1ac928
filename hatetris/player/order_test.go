package player

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/yomi-ai/yomi/hatetris"
)

// scoreFree is the hand heuristic without its score term, marked
// ScoreFree so that the search memoises quiescence values with it.
type scoreFree struct{ h Heuristic }

func (e scoreFree) Eval(w *hatetris.Well, score int) float64 { return e.h.Eval(w, 0) }
func (e scoreFree) ScoreFree() bool                          { return true }

// TestExpandOrderChangesNothing: expanding the beam sorted by rows (and
// memoising with the compact memo) plays exactly the game, per-depth beams
// and values of expanding it in beam order, with 1 and 2 workers.
func TestExpandOrderChangesNothing(t *testing.T) {
	defer func() { sortBeam = true }()
	for _, workers := range []int{1, 2} {
		var runs [2][]string
		var results [2]*Result
		for k, sorted := range []bool{false, true} {
			sortBeam = sorted
			res, err := Search(context.Background(), Options{
				Width: 150, MaxDepth: 45, Workers: workers, Quiescence: true,
				NewEval: func() Evaluator { return scoreFree{DefaultHeuristic()} },
				OnDepth: func(depth int, beam []hatetris.Well) {
					for i := range beam {
						runs[k] = append(runs[k], beam[i].String())
					}
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			results[k] = res
		}
		if !slices.Equal(runs[0], runs[1]) {
			t.Fatalf("%d workers: the beams differ between beam order and sorted order", workers)
		}
		a, b := results[0], results[1]
		if a.Score != b.Score || a.Pieces != b.Pieces || a.BestValue != b.BestValue || a.Wells != b.Wells ||
			hatetris.MovesString(a.Moves) != hatetris.MovesString(b.Moves) {
			t.Fatalf("%d workers: results differ: %d/%d lines, %d/%d pieces, value %v/%v", workers, a.Score, b.Score, a.Pieces, b.Pieces, a.BestValue, b.BestValue)
		}
		if a.Score == 0 {
			t.Fatalf("%d workers: no line cleared in 45 pieces; the test checks too little", workers)
		}
	}
}

// TestExpandOrder: the order is a permutation of the beam sorted by rows
// from the bottom up.
func TestExpandOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	cur := make([]entry, 500)
	for i := range cur {
		for y := range cur[i].rows {
			if y >= 10 {
				cur[i].rows[y] = uint16(r.IntN(4)) // many ties in the lower rows
			}
		}
		cur[i].rows[9] = uint16(i) // distinct wells
	}
	order := expandOrder(nil, cur)
	seen := make([]bool, len(cur))
	for _, i := range order {
		if seen[i] {
			t.Fatalf("index %d twice", i)
		}
		seen[i] = true
	}
	for k := 1; k < len(order); k++ {
		a, b := &cur[order[k-1]].rows, &cur[order[k]].rows
		for y := len(a) - 1; y >= 0; y-- {
			if a[y] != b[y] {
				if a[y] > b[y] {
					t.Fatalf("positions %d, %d out of order at row %d", k-1, k, y)
				}
				break
			}
		}
	}
}

// TestMemoKey: the packed memo key tells wells apart exactly as their rows
// do (random wells and wells one cell apart), and wells with cells above
// the bar are not memoised.
func TestMemoKey(t *testing.T) {
	m := newMemo()
	r := rand.New(rand.NewPCG(7, 8))
	wells := make([]hatetris.Well, 0, 4000)
	for len(wells) < 4000 {
		var w hatetris.Well
		for y := hatetris.Bar + r.IntN(hatetris.Height-hatetris.Bar); y < hatetris.Height; y++ {
			w[y] = uint16(r.IntN(hatetris.FullRow))
		}
		wells = append(wells, w)
		v := w
		y, x := hatetris.Bar+r.IntN(hatetris.Height-hatetris.Bar), r.IntN(hatetris.Width)
		v[y] ^= 1 << x
		wells = append(wells, v)
	}
	keys := map[[3]uint64]hatetris.Well{}
	for i := range wells {
		k, slot, ok := m.key(&wells[i])
		if !ok || slot < 0 || slot >= len(m.slots) {
			t.Fatalf("well %d: ok %v slot %d", i, ok, slot)
		}
		if k[2] == memoEmpty {
			t.Fatalf("well %d has the empty slot's key", i)
		}
		if o, dup := keys[k]; dup && o != wells[i] {
			t.Fatalf("two wells share a key:\n%v\n%v", o, wells[i])
		}
		keys[k] = wells[i]
	}
	for y := 0; y < hatetris.Bar; y++ {
		var w hatetris.Well
		w[y] = 1
		if _, _, ok := m.key(&w); ok {
			t.Fatalf("a well with a cell in row %d is memoised", y)
		}
	}
}
