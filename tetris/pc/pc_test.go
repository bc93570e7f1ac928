// This file holds the spec's sfinder percent vectors and parser tests.

package pc

import (
	"context"
	"testing"
)

func TestPercentVectors(t *testing.T) {
	cases := []struct {
		field, pattern string
		want           int
		total          int
	}{
		{"_______XXX ________XX XX____XXXX XX_____XXX", "*p7", 4374, 5040},
		{"X____X____ XX__XX____ XX__XX____ XXXXXX____", "T,I,O,*p4", 742, 840},
		{"XXXX_____X XX______XX XXX____XXX XXX_____XX", "[OSZTLJ]p6", 702, 720},
	}
	for _, c := range cases {
		f, h, err := ParseField(c.field)
		if err != nil {
			t.Fatal(err)
		}
		p, err := ParsePattern(c.pattern)
		if err != nil {
			t.Fatal(err)
		}
		s, n, err := Percent(context.Background(), f, p, Options{Height: h, Hold: true})
		if err != nil {
			t.Fatal(err)
		}
		if s != c.want || n != c.total {
			t.Errorf("%s %s: %d/%d, want %d/%d", c.field, c.pattern, s, n, c.want, c.total)
		}
	}
}

func TestPathVector(t *testing.T) {
	f, h, _ := ParseField("XXXXXX____ XXXXXX____ XXXXXX____ XXXXXX____")
	p, _ := ParsePattern("*p7")
	sols, total, err := Paths(context.Background(), f, p, Options{Height: h, Hold: true})
	if err != nil {
		t.Fatal(err)
	}
	m := Minimal(sols)
	t.Logf("unique %d minimal %d total %d", len(sols), len(m), total)
	if len(sols) != 135 {
		t.Errorf("unique %d, want 135", len(sols))
	}
	if len(m) != 69 {
		t.Errorf("minimal %d, want 69", len(m))
	}
}

// TestEmptyPlacements checks spec §24/§25.3: distinct placements on an empty
// board (4 rows of area suffice for every shape).
func TestEmptyPlacements(t *testing.T) {
	want := map[Piece]int{I: 17, O: 9, T: 34, L: 34, J: 34, S: 17, Z: 17}
	r := newReacher()
	for p, n := range want {
		if got := len(r.placements(0, 4, p, nil)); got != n {
			t.Errorf("%v: %d placements, want %d", p, got, n)
		}
	}
}

// TestFindPath checks that Find's path is a valid, ordered solution.
func TestFindPath(t *testing.T) {
	f, h, _ := ParseField("XXXXXX____ XXXXXX____ XXXXXX____ XXXXXX____")
	q := []Piece{L, J, S, Z, I}
	path, ok, err := Find(f, q, NoPiece, Options{Height: h, Hold: true})
	if err != nil || !ok || len(path) != 4 {
		t.Fatalf("ok %v err %v len %d", ok, err, len(path))
	}
	for _, s := range path {
		if s.Field&s.Cells != s.Cells || bitsCount(uint64(s.Cells)) != 4 {
			t.Fatalf("bad step %+v", s)
		}
	}
	if _, ok, _ := Find(f, []Piece{S, S, S, S}, NoPiece, Options{Height: h}); ok {
		t.Fatal("SSSS cannot tile the 4x4 well, found a solution")
	}
}

func bitsCount(v uint64) int {
	n := 0
	for ; v != 0; v &= v - 1 {
		n++
	}
	return n
}

// TestPercentNoHold is a case checked against sfinder (run here with -H avoid):
// 29/210, since without hold only the 6 needed pieces are used and sfinder
// counts distinct truncated sequences.
func TestPercentNoHold(t *testing.T) {
	f, h, _ := ParseField("X____X____ XX__XX____ XX__XX____ XXXXXX____")
	p, _ := ParsePattern("T,I,O,*p4")
	s, n, err := Percent(context.Background(), f, p, Options{Height: h})
	if err != nil || s != 29 || n != 210 {
		t.Fatalf("%d/%d %v, want 29/210", s, n, err)
	}
}

// TestPathVector5 is a case checked against sfinder path: unique 21, minimal 17.
func TestPathVector5(t *testing.T) {
	f, h, _ := ParseField("XXXX_____X XX______XX XXX____XXX XXX_____XX")
	p, _ := ParsePattern("[OSZTLJ]p6")
	sols, _, err := Paths(context.Background(), f, p, Options{Height: h, Hold: true})
	if err != nil || len(sols) != 21 || len(Minimal(sols)) != 17 {
		t.Fatalf("unique %d minimal %d %v, want 21 17", len(sols), len(Minimal(sols)), err)
	}
}
