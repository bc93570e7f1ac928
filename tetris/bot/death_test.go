// death_test.go checks Weights.Death: what a piece that dies costs a
// speculated node in the backup (CC1's modify_death, 1000 by default).

package bot

import (
	"context"
	"testing"
)

// TestSpecDeathCost backs up a speculated node whose three possible
// pieces lead to a child worth 100, one worth −50 and only dead children:
// the dead piece counts as the worst live value (−50) minus the cost.
func TestSpecDeathCost(t *testing.T) {
	for _, tc := range []struct {
		name  string
		death int32 // Weights.Death (0: CC1's)
		want  int32
	}{
		{"CC1", 0, (100 - 50 + (-50 - 1000)) / 3},
		{"CC1 explicit", 1000, (100 - 50 + (-50 - 1000)) / 3},
		{"feared", 20000, (100 - 50 + (-50 - 20000)) / 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := New(Options{Weights: &Weights{Death: tc.death}, Reserve: -1})
			defer b.Close()
			if err := b.Reset(Board{}, []Piece{T}, NoPiece, 0x7F); err != nil {
				t.Fatal(err)
			}
			d := b.d
			first := int32(len(d.lists))
			for _, c := range []struct {
				v    int32
				dead bool
			}{{100, false}, {-50, false}, {0, true}} {
				i := d.nodes.add(node{val: Value{V: c.v}, gen: 1, parent: 0, dead: c.dead})
				at := d.kidStore.alloc(1, nil)
				d.kidStore.slice(at, 1)[0] = child{n: i, ev: Value{V: c.v}, dead: c.dead}
				d.lists = append(d.lists, kidList{start: at, n: 1})
			}
			for range 4 {
				d.lists = append(d.lists, kidList{n: -1}) // pieces the bag cannot give
			}
			r := d.nodes.at(d.root)
			r.lists, r.nlists, r.spec = first, 7, true
			d.update(d.root)
			if r.dead || r.val.V != tc.want {
				t.Fatalf("value %v dead %v, want %d", r.val, r.dead, tc.want)
			}
		})
	}
}

// TestDeathWeightSearch checks that a search with a larger Death still
// runs, repeats, and keeps CC1's value when the weight is CC1's.
func TestDeathWeightSearch(t *testing.T) {
	run := func(death int32) []Candidate {
		w := DefaultWeights()
		w.Death = death
		b := New(Options{Seed: 3, Weights: &w, Reserve: -1})
		defer b.Close()
		field := mustField(t,
			"XXXXXXXX__",
			"XXXXXXXX_X",
			"XXXXXXXX_X",
			"XXXXXXXX_X",
		)
		for y := range 14 { // a tall stack: dying pieces within reach
			field.Rows[4+y] = 0x3FF &^ (1 << 8)
		}
		if err := b.Reset(field, []Piece{S, Z}, NoPiece, 0x7F); err != nil {
			t.Fatal(err)
		}
		b.Think(context.Background(), Budget{Nodes: 20000})
		return b.Candidates()
	}
	a, c := run(0), run(cc1Death)
	if len(a) == 0 || len(a) != len(c) {
		t.Fatalf("candidates %d vs %d", len(a), len(c))
	}
	for i := range a {
		if a[i] != c[i] {
			t.Fatalf("Death 0 and 1000 differ at %d: %+v vs %+v", i, a[i], c[i])
		}
	}
	if f := run(20000); len(f) == 0 {
		t.Fatal("no candidate with Death 20000")
	}
}
