// sort_test.go checks the search's hand-made sorts (presortBlocks' packed keys,
// the backup's insertion sort) against the standard library's sorts.

package bot

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomValue draws values with many ties, negative and positive, and
// spikes that sometimes do not fit presortBlocks' 16-bit packing; wide
// ones include the extreme values and spikes at the packing's limit.
func randomValue(rng *rand.Rand, wide bool) (Value, Reward) {
	v := Value{V: int32(rng.IntN(41) - 20)}
	rw := Reward{V: int32(rng.IntN(7) - 3), Attack: int32(rng.IntN(6) - 1)}
	if wide {
		v.V = int32(rng.Uint32())
		switch rng.IntN(8) {
		case 0:
			v.V, rw.V = math.MinInt32, 0
		case 1:
			v.V, rw.V = math.MaxInt32, 0
		}
		switch rng.IntN(6) {
		case 0, 1:
			rw.Attack = int32(rng.Uint32() >> 1)
		case 2:
			rw.Attack = maxKeySpike - 1 + int32(rng.IntN(4)) // fits or just not
		}
	}
	return v, rw
}

// TestPresort compares presortBlocks' order with the comparison sort's on
// random lists (best value first, ties in generation order) made of two
// blocks, the current piece's and the held piece's, as place writes them:
// within one expansion a block's keys are fixed by its evaluation slot,
// and each expansion draws new keys for every slot, so the sorted-block
// cache is used within an expansion and must not be used across them.
func TestPresort(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	w := &worker{}
	reused := 0
	for e := range 600 {
		w.stamp++
		wide := e%3 == 0
		var blocks [56][]expChild
		for s := range blocks {
			blocks[s] = make([]expChild, rng.IntN(60))
			for j := range blocks[s] {
				blocks[s][j].val, blocks[s][j].rw = randomValue(rng, wide)
			}
		}
		seen := map[int8]bool{}
		for i := range 8 {
			a := int8(rng.IntN(56))
			c := int8(-1)
			if rng.IntN(4) != 0 {
				c = int8((int(a) + 1 + rng.IntN(55)) % 56) // another slot
			}
			l := append([]expChild(nil), blocks[a]...)
			w.split, w.blocks = len(l), [2]int8{a, c}
			if c >= 0 {
				l = append(l, blocks[c]...)
			}
			for j := range l {
				l[j].h = uint64(j) // identifies the child
			}
			want := inOrder(l, presortGeneral(l, nil))
			for j := 1; j < len(want); j++ {
				x, y := want[j-1].val.Plus(want[j-1].rw), want[j].val.Plus(want[j].rw)
				if x.Less(y) || (x == y && want[j-1].h > want[j].h) {
					t.Fatalf("expansion %d list %d: the reference sort is out of order at %d", e, i, j)
				}
			}
			got := inOrder(l, w.presortBlocks(l, nil))
			if !slices.Equal(got, want) {
				t.Fatalf("expansion %d list %d (%d children, split %d): presortBlocks differs from the comparison sort", e, i, len(l), w.split)
			}
			for _, s := range w.blocks {
				if s >= 0 && len(blocks[s]) > 0 {
					if seen[s] {
						reused++
					}
					seen[s] = true
				}
			}
		}
	}
	if reused < 500 {
		t.Fatalf("a block's slot came again only %d times", reused)
	}
}

// TestSortKeys compares sortKeys with slices.Sort on presort keys of
// random values with many ties in value and spike (distinct through the
// index), in generation order and shuffled, 0 to 200 of them, extreme
// values and spikes included: the same keys in the same order between
// the sentinels keyLo and keyHi, the result in a's storage.
func TestSortKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 5))
	for i := range 4000 {
		n := i % 201
		ks := make([]uint64, 0, n+7)
		for j := range n {
			v, rw := randomValue(rng, i%3 == 0)
			pv := v.Plus(rw)
			pv.Spike = min(max(pv.Spike, 0), maxKeySpike)
			ks = append(ks, presortKey(pv, j))
		}
		if i%2 == 1 {
			rng.Shuffle(n, func(a, b int) { ks[a], ks[b] = ks[b], ks[a] })
		}
		want := slices.Clone(ks)
		slices.Sort(want)
		m := sortKeysLen(n)
		a, b := make([]uint64, m), make([]uint64, m)
		got := sortKeys(ks[:n+7], a, b)
		if len(got) != n+2 || &got[0] != &a[0] || got[0] != keyLo || got[n+1] != keyHi {
			t.Fatalf("list %d (%d keys): not the keys between the sentinels in a", i, n)
		}
		if !slices.Equal(got[1:n+1], want) {
			t.Fatalf("list %d (%d keys): sortKeys differs from slices.Sort", i, n)
		}
		for _, k := range want {
			if k>>16 == 0 || k>>16 == keyHi>>16 {
				t.Fatalf("list %d: key %#x touches a sentinel's top bits", i, k)
			}
		}
	}
}

// inOrder returns l's elements in the given order.
func inOrder(l []expChild, order []int32) []expChild {
	out := make([]expChild, 0, len(order))
	for _, i := range order {
		out = append(out, l[i])
	}
	return out
}

// TestSortLive compares sortLive with deleting the dead children and a
// stable sort, on random and on nearly sorted lists.
func TestSortLive(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 4))
	for i := range 3000 {
		n := rng.IntN(200)
		l := make([]child, n)
		for j := range l {
			v, _ := randomValue(rng, i%5 == 0)
			l[j] = child{ev: Value{V: v.V, Spike: int32(rng.IntN(3))}, n: int32(j), dead: rng.IntN(10) == 0}
		}
		if i%2 == 0 { // nearly sorted: sorted, then one value changed
			slices.SortStableFunc(l, func(a, b child) int { return cmpEv(a, b) })
			if n > 0 {
				l[rng.IntN(n)].ev.V += int32(rng.IntN(21) - 10)
			}
		}
		want := slices.DeleteFunc(slices.Clone(l), func(c child) bool { return c.dead })
		slices.SortStableFunc(want, func(a, b child) int { return cmpEv(a, b) })
		got := sortLive(l)
		if !slices.Equal(got, want) {
			t.Fatalf("list %d (%d children): sortLive differs from the stable sort", i, n)
		}
	}
}

// cmpEv orders children best first.
func cmpEv(a, b child) int {
	if b.ev.Less(a.ev) {
		return -1
	}
	if a.ev.Less(b.ev) {
		return 1
	}
	return 0
}
