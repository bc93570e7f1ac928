// This file tests the Carry term's model: hand-computed values, and a
// brute force on real boards (the engine's own drops, every state of a
// small frame enumerated and solved by plain value iteration).
package ai

import (
	"math"
	"math/bits"
	"testing"

	"github.com/yomi-ai/yomi/seigot"
)

func keyOf(need [frameCols]int8) int32 {
	var k int32
	for i, d := range need {
		k += int32(d) * pow5[i]
	}
	return k
}

func TestCarryHandValues(t *testing.T) {
	var m carryModel
	slot := [frameCols]int8{4} // one column needs a vertical I
	for _, tc := range []struct {
		name string
		need [frameCols]int8
		hold uint8
		want float64
	}{
		{"full frame, I held", [frameCols]int8{}, seigot.ShapeI, 0},
		// Six of seven pieces are not an I: 6 pieces of 4 cells wait on average.
		{"full frame, O held", [frameCols]int8{}, seigot.ShapeO, 24},
		// The unused hold takes the first non-I; then 24 as above, or 0 if an I comes first.
		{"full frame, hold unused", [frameCols]int8{}, 0, 6 * 24.0 / 7},
		// An I comes (1/7): place it from hold... no: the current I goes in
		// the slot and the held I makes the tetris (0); otherwise the held I
		// fills the slot and the frame waits 24 for the next I.
		{"I slot, I held", slot, seigot.ShapeI, 6 * 24.0 / 7},
		// Two I pieces are needed and none is held: 24 + 24.
		{"I slot, T held", slot, seigot.ShapeT, 48},
		// The first I (1/7) goes in the slot with the hold unused (6/7*24);
		// otherwise the piece is held (48).
		{"I slot, hold unused", slot, 0, (6*24.0/7 + 6*48) / 7},
	} {
		if got := m.value(keyOf(tc.need), tc.hold); math.Abs(got-tc.want) > 1e-4 {
			t.Errorf("%s: %.5f, want %.5f", tc.name, got, tc.want)
		}
	}
}

// frameState is a brute-force state: the four frame rows (bottom first,
// bits 1..9 of a field row; column 0 is the well) and the hold.
type frameState struct {
	rows [4]uint16
	hold uint8
}

const frameFull = fullRow &^ 1

// bruteMoves returns, for frame rows r, every result of dropping shape s
// with the engine's own drop (no cell in the well, no new hole): the new
// rows, with the cells above the frame removed, and how many there were.
func bruteMoves(r [4]uint16, s uint8) (out [][4]uint16, cost []int) {
	for d := range dirCount(s) {
		ps := &shapes[s][d]
		for x := ps.lo; x <= ps.hi; x++ {
			if x+ps.minX == 0 {
				continue // into the well
			}
			var f field
			for i, row := range r {
				f.rows[height-1-i] = row
			}
			if f.collides(ps, x, 1) {
				continue
			}
			if _, lines := f.drop(int(s), d, x); lines != 0 {
				continue
			}
			if f.features(0).holes != 0 {
				continue
			}
			above := 0
			for y := 0; y < height-4; y++ {
				above += bits.OnesCount16(f.rows[y])
			}
			var nr [4]uint16
			for i := range nr {
				nr[i] = f.rows[height-1-i]
			}
			out, cost = append(out, nr), append(cost, above)
		}
	}
	return out, cost
}

// bruteCarry solves the frame game from start by value iteration over every
// reachable state and returns the values of the start rows per hold.
func bruteCarry(start [4]uint16) [8]float64 {
	type move struct {
		to   [][4]uint16
		cost []int
	}
	moves := map[[4]uint16]*[8]move{}
	var visit func(r [4]uint16)
	visit = func(r [4]uint16) {
		if moves[r] != nil {
			return
		}
		ms := new([8]move)
		moves[r] = ms
		for s := uint8(1); s <= 7; s++ {
			ms[s].to, ms[s].cost = bruteMoves(r, s)
			for _, n := range ms[s].to {
				visit(n)
			}
		}
	}
	visit(start)
	full := func(r [4]uint16) bool { return r == [4]uint16{frameFull, frameFull, frameFull, frameFull} }
	v := map[frameState]float64{}
	// best cost of placing piece p into r, the hold holding q afterwards
	place := func(r [4]uint16, p, q uint8) float64 {
		if full(r) {
			if p == seigot.ShapeI {
				return 0
			}
			return math.Inf(1)
		}
		b := math.Inf(1)
		ms := moves[r]
		for i, n := range ms[p].to {
			if n != r { // a piece entirely above the frame is the "above" move
				b = min(b, float64(ms[p].cost[i])+v[frameState{n, q}])
			}
		}
		return b
	}
	for range 100000 {
		delta := 0.0
		for r := range moves {
			for h := uint8(0); h <= 7; h++ {
				st := frameState{r, h}
				sum := 0.0
				for s := uint8(1); s <= 7; s++ {
					o := min(place(r, s, h), 4+v[st])
					if h != 0 {
						o = min(o, place(r, h, s), 4+v[frameState{r, s}])
					} else {
						o = min(o, v[frameState{r, s}])
					}
					sum += o
				}
				n := sum / 7
				delta = max(delta, math.Abs(n-v[st]))
				v[st] = n
			}
		}
		if delta < 1e-9 {
			break
		}
	}
	var out [8]float64
	for h := range out {
		out[h] = v[frameState{start, uint8(h)}]
	}
	return out
}

func TestCarryMatchesBruteForce(t *testing.T) {
	var m carryModel
	for _, need := range [][frameCols]int8{
		{4},
		{2, 2},
		{0, 0, 0, 0, 0, 0, 1, 2, 1},
		{3, 1},
		{0, 0, 0, 0, 0, 1, 1, 1, 1},
		{2, 3, 3},
		{1, 1, 1},
		{0, 0, 0, 0, 0, 0, 4, 4, 4},
		{4, 2, 3, 1},
		{0, 0, 0, 0, 0, 2, 1, 3, 4},
	} {
		var rows [4]uint16
		for i, d := range need {
			for y := range 4 - int(d) {
				rows[y] |= 1 << (i + 1)
			}
		}
		want := bruteCarry(rows)
		for h := range want {
			if got := m.value(keyOf(need), uint8(h)); math.Abs(got-want[h]) > 1e-3 {
				t.Errorf("need %v hold %d: model %.5f, brute force %.5f", need, h, got, want[h])
			}
		}
	}
}

func TestNeedKey(t *testing.T) {
	// Well at column 9 (height 1): the frame is rows 1..4 over columns 0..8.
	f := fieldRows(
		"XX________",
		"XX________",
		"XXX_______",
		"XXXX______",
		"XXXXXXXXXX",
	)
	ft := f.features(9)
	// heights 5,5,3,2,1,1,1,1,1 -> need 0,0,2,3,4,4,4,4,4
	want := keyOf([frameCols]int8{0, 0, 2, 3, 4, 4, 4, 4, 4})
	if got := needKey(&ft, 9); got != want {
		t.Errorf("needKey %d, want %d", got, want)
	}
}
