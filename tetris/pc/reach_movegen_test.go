// reach_movegen_test.go cross-checks the finder's own placement generator
// (reach.go) against the shared move generator (tetris/movegen with
// one-row soft drops, as sfinder moves) on random fields of every height.

package pc

import (
	"math/rand/v2"
	"testing"

	"github.com/yomi-ai/yomi/tetris"
	"github.com/yomi-ai/yomi/tetris/movegen"
)

// enginePiece maps the finder's piece order (T I L J S Z O) to the engine's.
func enginePiece(p Piece) tetris.Piece {
	v, _ := tetris.ParsePiece(p.String())
	return v
}

func movegenPlacements(g *movegen.Generator, f Field, h int, p Piece) map[Field]bool {
	var b tetris.Board
	for y := range h {
		b.Rows[y] = uint16(f.Row(y))
	}
	out := map[Field]bool{}
	for _, m := range g.Generate(nil, &b, enginePiece(p)) {
		var add Field
		inside := true
		for _, c := range m.Cells() {
			if int(c.Y) >= h {
				inside = false
				break
			}
			add |= 1 << (10*int(c.Y) + int(c.X))
		}
		if inside {
			out[f|add] = true
		}
	}
	return out
}

func TestReachMatchesMovegen(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	g := movegen.New(movegen.Options{StepDrop: true})
	r := newReacher()
	n := 2000
	if testing.Short() {
		n = 300
	}
	for range n {
		h := 1 + rng.IntN(MaxHeight)
		var f Field
		dens := 2 + rng.IntN(7)
		for y := range h {
			row := uint64(0)
			for x := range 10 {
				if rng.IntN(10) < dens {
					row |= 1 << x
				}
			}
			if row == fullRow {
				row &^= 1 << rng.IntN(10)
			}
			f |= Field(row) << (10 * y)
		}
		p := Piece(rng.IntN(7))
		want := movegenPlacements(g, f, h, p)
		got := map[Field]bool{}
		for _, nf := range r.placements(f, h, p, nil) {
			got[nf] = true
		}
		for nf := range got {
			if !want[nf] {
				t.Fatalf("field %q h=%d %v: reach.go has a placement movegen lacks:\n%s", f.Format(h), h, p, (nf &^ f).Format(h))
			}
		}
		for nf := range want {
			if !got[nf] {
				t.Fatalf("field %q h=%d %v: movegen has a placement reach.go lacks:\n%s", f.Format(h), h, p, (nf &^ f).Format(h))
			}
		}
	}
}
