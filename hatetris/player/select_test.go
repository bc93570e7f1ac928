package player

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/yomi-ai/yomi/hatetris"
)

// refSelect is selectNext written plainly: the children in beam order, the
// first of each well kept (a map); if more than width remain, sorted by
// value (higher first, ties in that order) and the first width returned
// (otherwise all of them, in that order).
func refSelect(s *search, workers []*worker, width int) []node {
	seen := map[hatetris.Well]bool{}
	var all []node
	for _, g := range s.segs {
		for _, c := range workers[g.worker].out[g.lo:g.hi] {
			if !seen[c.well] {
				seen[c.well] = true
				all = append(all, c)
			}
		}
	}
	if len(all) <= width {
		return all
	}
	slices.SortStableFunc(all, func(a, b node) int { return cmp.Compare(b.value, a.value) })
	return all[:width]
}

// TestSelectNextMatchesReference: selectNext keeps exactly refSelect's
// nodes in its order, on children spread over three workers with many
// repeated wells and tied values, for widths below and above the number of
// distinct wells, with its buffers reused from call to call (and its
// result after a call with fewer children).
func TestSelectNextMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	s := &search{}
	workers := []*worker{{}, {}, {}}
	for trial := 0; trial < 60; trial++ {
		beam := 1 + r.IntN(300)
		pool := make([]hatetris.Well, 1+r.IntN(2*beam))
		for i := range pool {
			for y := hatetris.Bar + 8 + r.IntN(8); y < hatetris.Height; y++ {
				pool[i][y] = uint16(r.IntN(hatetris.FullRow))
			}
		}
		for _, w := range workers {
			w.out = w.out[:0]
		}
		s.segs = s.segs[:0]
		for i := 0; i < beam; i++ {
			wk := r.IntN(len(workers))
			w := workers[wk]
			lo := len(w.out)
			for range r.IntN(12) {
				well := pool[r.IntN(len(pool))]
				w.out = append(w.out, node{well: well, value: float64(r.IntN(20)), parent: int32(i), hash: uint32(wellHash(&well) >> 32)})
			}
			s.segs = append(s.segs, segment{worker: int32(wk), lo: int32(lo), hi: int32(len(w.out))})
		}
		for _, width := range []int{1, 7, beam, 5 * beam} {
			s.opt.Width = width
			got := s.selectNext(workers)
			want := refSelect(s, workers, width)
			if len(got) != len(want) {
				t.Fatalf("trial %d width %d: %d nodes, want %d", trial, width, len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("trial %d width %d: node %d is %+v, want %+v", trial, width, i, got[i], want[i])
				}
			}
		}
	}
}

// BenchmarkSelectNext times selectNext on the children of a width-20 000
// beam (the heuristic's beam at depth 8, every child of the enemy's piece,
// the Mild enemy so that no loop walk is needed); compare ns/child.
func BenchmarkSelectNext(b *testing.B) {
	var beam []hatetris.Well
	_, err := Search(context.Background(), Options{Width: 20000, MaxDepth: 8, Workers: 1,
		OnDepth: func(_ int, wells []hatetris.Well) { beam = slices.Clone(wells) }})
	if err != nil {
		b.Fatal(err)
	}
	s := &search{opt: Options{Width: len(beam) / 2, AI: hatetris.Mild}}
	layer := make([]entry, len(beam))
	for i := range beam {
		layer[i] = toEntry(&node{well: beam[i]})
	}
	s.layers = [][]entry{layer}
	s.segs = make([]segment, len(beam))
	s.order = expandOrder(nil, layer)
	workers := []*worker{{s: s, eval: DefaultHeuristic()}, {s: s, eval: DefaultHeuristic()}}
	half := len(s.order) / 2
	workers[0].expand(context.Background(), 0, s.order[:half], 0)
	workers[1].expand(context.Background(), 0, s.order[half:], 1)
	children := len(workers[0].out) + len(workers[1].out)
	b.ResetTimer()
	for b.Loop() {
		s.selectNext(workers)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*children), "ns/child")
}

// TestBloom: every added well is found (the loop rule's walk is skipped
// only on a miss, so a false miss would change the game), and at the
// fill the search allows (11 wells per unit of width) fewer than 1 % of
// other wells hit.
func TestBloom(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 1))
	randWell := func() (w hatetris.Well) {
		for y := hatetris.Bar + r.IntN(12); y < hatetris.Height; y++ {
			w[y] = uint16(r.IntN(hatetris.FullRow))
		}
		return w
	}
	const width = 20000
	b := newBloom(width)
	added := make([]hatetris.Well, 11*width)
	for i := range added {
		added[i] = randWell()
		b.add(&added[i])
	}
	for i := range added {
		if !b.has(&added[i]) {
			t.Fatalf("added well %d not found", i)
		}
	}
	hits := 0
	const n = 200000
	for range n {
		w := randWell()
		if b.has(&w) {
			hits++
		}
	}
	if float64(hits) > 0.01*n {
		t.Fatalf("%d of %d other wells hit", hits, n)
	}
	t.Logf("%d of %d other wells hit (%d-bit filter)", hits, n, 64*len(b.bits))
}
