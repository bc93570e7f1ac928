package seigot

import (
	"slices"
	"testing"
)

func TestSequence(t *testing.T) {
	// Spec §14: level 2 starts without garbage, so the pieces are the first draws.
	st, err := Sequence(1, 2, 16)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{6, 4, 5, 1, 2, 4, 6, 1, 1, 2, 5, 6, 5, 7, 2, 3}; !slices.Equal(st.Pieces, want) || st.Garbage != nil {
		t.Fatalf("seed 1 level 2: %v %v", st.Pieces, st.Garbage)
	}
	// Level 3 draws its garbage first, so the same seed gives other pieces.
	st3, err := Sequence(1, 3, 16)
	if err != nil {
		t.Fatal(err)
	}
	if len(st3.Garbage) != 10 || slices.Equal(st3.Pieces, st.Pieces) {
		t.Fatalf("level 3: %d garbage rows, pieces %v", len(st3.Garbage), st3.Pieces)
	}
	// The same draws through the lower-level API.
	d := NewDraws(1)
	var b [220]uint8
	d.Garbage(&b, 10)
	for i, p := range st3.Pieces {
		if q := d.Piece(); q != p {
			t.Fatalf("piece %d: %d vs %d", i, p, q)
		}
	}
	for r, row := range st3.Garbage {
		for x, c := range row {
			if int(b[(12+r)*10+x]) != c {
				t.Fatalf("garbage row %d col %d", r, x)
			}
		}
	}
	if s0, _ := Sequence(0, 1, 9); !slices.Equal(s0.Pieces, []int{1, 2, 3, 4, 5, 6, 7, 1, 2}) {
		t.Fatalf("seed 0: %v", s0.Pieces)
	}
	if _, err := Sequence(1, 7, 1); err == nil {
		t.Fatal("level 7 accepted")
	}
}
