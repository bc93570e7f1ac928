package hatetris

import "testing"

// TestClearsMatchFutures: Clearer.Clears returns exactly the futures of
// Futures with Lines >= 1, in the same order, for every piece on random
// reachable wells and on dense wells (many rows one run short of full), and
// both empty and non-empty answers, single and multiple clears occur.
func TestClearsMatchFutures(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 300
	}
	wells := testWells(n, 11)
	wells = append(wells,
		Well{},
		Well{18: FullRow &^ 3, 19: FullRow &^ 6},         // S's double
		Well{3: 1, 19: FullRow &^ 1},                     // game over already
		Well{4: FullRow &^ 0x30, 5: FullRow &^ 0x18},     // rows at the bar
		Well{17: FullRow &^ 0x200, 18: 0x1FF, 19: 0x1FF}, // I in the right column
	)
	var c Clearer
	var all, got []Future
	var empty, single, multi int
	for i := range wells {
		w := &wells[i]
		for p := Piece(0); p < NumPieces; p++ {
			all = Futures(all[:0], w, p)
			got = c.Clears(got[:0], w, p)
			k := 0
			for _, f := range all {
				if f.Lines < 1 {
					continue
				}
				if k >= len(got) || got[k] != f {
					t.Fatalf("well %d piece %v: clearing future %d differs or is missing\n%v", i, p, k, w)
				}
				k++
				if f.Lines > 1 {
					multi++
				} else {
					single++
				}
			}
			if k != len(got) {
				t.Fatalf("well %d piece %v: %d clearing futures, Futures has %d\n%v", i, p, len(got), k, w)
			}
			if k == 0 {
				empty++
			}
		}
	}
	if empty == 0 || single == 0 || multi == 0 {
		t.Fatalf("cases: %d empty, %d single, %d multiple clears; all must occur", empty, single, multi)
	}
	t.Logf("%d empty, %d single, %d multiple clears", empty, single, multi)
}

func TestDeepestFillable(t *testing.T) {
	for _, c := range []struct {
		rows map[int]uint16
		set  uint8
		want int
	}{
		{nil, runSets[S], -1},
		{map[int]uint16{19: FullRow &^ 1}, runSets[S], 19},
		{map[int]uint16{19: FullRow &^ 7, 12: FullRow &^ 6}, runSets[S], 12},
		{map[int]uint16{19: FullRow &^ 7}, runSets[T], 19},
		{map[int]uint16{19: FullRow &^ 15}, runSets[T], -1},
		{map[int]uint16{19: FullRow &^ 15}, runSets[I], 19},
		{map[int]uint16{19: FullRow &^ 5}, runSets[I], -1},
		{map[int]uint16{19: FullRow &^ 1}, runSets[O], -1},
		{map[int]uint16{3: FullRow &^ 1}, runSets[S], -1}, // above the bar
	} {
		var w Well
		for y, r := range c.rows {
			w[y] = r
		}
		if got := deepestFillable(&w, c.set); got != c.want {
			t.Errorf("rows %v set %b: %d, want %d", c.rows, c.set, got, c.want)
		}
	}
}
