package hatetris

import "testing"

// TestLock: every future of random wells is rebuilt exactly by Lock from its
// placement, and placements that overlap, float, leave the well or name no
// piece are refused with the well unchanged.
func TestLock(t *testing.T) {
	var buf []Future
	n := 0
	for i, w := range randomWells(400, 11) {
		p := Piece(i % NumPieces)
		buf = Futures(buf[:0], &w, p)
		for _, f := range buf {
			got := w
			lines, ok := got.Lock(p, int(f.O), int(f.X), int(f.Y))
			if !ok || got != f.Well || lines != int(f.Lines) {
				t.Fatalf("well %d piece %v at %d,%d,%d: ok %v lines %d (want %d)\n%v\nwant\n%v", i, p, f.O, f.X, f.Y, ok, lines, f.Lines, got, f.Well)
			}
			n++
		}
	}
	if n < 1000 {
		t.Fatalf("only %d futures checked", n)
	}
	floor, err := ParseWell("#########.")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		w       Well
		p       Piece
		o, x, y int
		ok      bool
		lines   int
	}{
		{"O on the floor", Well{}, O, 0, 3, 17, true, 0},
		{"O floating", Well{}, O, 0, 3, 16, false, 0},
		{"O below the floor", Well{}, O, 0, 3, 18, false, 0},
		{"O past the left wall", Well{}, O, 0, -2, 17, false, 0},
		{"O past the right wall", Well{}, O, 0, 8, 17, false, 0},
		{"O overlapping", floor, O, 0, 3, 17, false, 0},
		{"O on the row", floor, O, 0, 3, 16, true, 0},
		{"I upright clears the row", floor, I, 1, 7, 16, true, 1},
		{"bad piece", Well{}, NumPieces, 0, 3, 17, false, 0},
		{"bad orientation", Well{}, O, 4, 3, 17, false, 0},
	} {
		w := c.w
		lines, ok := w.Lock(c.p, c.o, c.x, c.y)
		if ok != c.ok || lines != c.lines {
			t.Errorf("%s: ok %v lines %d, want %v %d", c.name, ok, lines, c.ok, c.lines)
		}
		if !ok && w != c.w {
			t.Errorf("%s: refused but the well changed", c.name)
		}
	}
}
