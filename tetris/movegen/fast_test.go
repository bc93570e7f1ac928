// fast_test.go checks fastRun against fast mode's queue formulation
// (Generator.seedQueue): the same moves in the same order, with the same
// times and inputs. Paths may differ where two are equally fast (the
// queue breaks such ties by push order): both must replay to the move at
// its time with its number of inputs.

package movegen

import (
	"math/rand/v2"
	"testing"

	"github.com/yomi-ai/yomi/tetris"
)

// lowBoard returns a random board whose columns stay below fastFloor
// (so fast mode applies), from one of four families.
func lowBoard(rng *rand.Rand) tetris.Board {
	for {
		var b tetris.Board
		switch rng.IntN(4) {
		case 0: // no holes: random column heights
			for x := range tetris.Width {
				for y := range rng.IntN(fastFloor) {
					b.Set(x, y)
				}
			}
		case 1: // random play with the fast generator, like the bot
			g := New(Options{})
			for range rng.IntN(25) {
				ms := g.FastGenerate(nil, &b, tetris.Piece(rng.IntN(7)))
				if len(ms) == 0 {
					break
				}
				b.Place(ms[rng.IntN(len(ms))].Placement)
				b.ClearLines()
			}
		default: // holes, overhangs and noise
			b = randomBoard(rng)
		}
		if b.MaxHeight() < fastFloor || rng.IntN(8) == 0 {
			return b
		}
	}
}

func TestFastRunMatchesQueue(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 500
	}
	rng := rand.New(rand.NewPCG(7, 8))
	variants := []Options{{}, {Allow180: true}, {SpinRule: tetris.FifthKickTST}, {Spawn: tetris.Row21AndFall},
		{StepDrop: true}, {Allow180: true, NoSpin180: true}}
	gens := make([][2]*Generator, len(variants))
	for i, o := range variants {
		gens[i] = [2]*Generator{New(o), New(o)}
		gens[i][1].seedQueue = true
	}
	var pa, pb []Input
	seeds, merged := 0, 0
	for i := range n {
		b := lowBoard(rng)
		v := i % len(variants)
		fast, ref := gens[v][0], gens[v][1]
		cur, hold := tetris.Piece(rng.IntN(7)), tetris.Piece(rng.IntN(8))
		if hold == 7 {
			hold = tetris.NoPiece
		}
		next := tetris.Piece(rng.IntN(7))
		got := fast.FastTurn(nil, &b, cur, hold, next, true)
		want := ref.FastTurn(nil, &b, cur, hold, next, true)
		if len(got) != len(want) {
			t.Fatalf("%v (hold %v next %v, %+v) on\n%s\n%d moves, queue formulation %d:\n%v\n%v", cur, hold, next, variants[v], &b, len(got), len(want), got, want)
		}
		for j := range got {
			g, w := got[j], want[j]
			if g.Placement != w.Placement || g.Hold != w.Hold || g.Time != w.Time || g.Inputs != w.Inputs {
				t.Fatalf("%v on\n%s\nmove %d: %+v, queue formulation %+v", cur, &b, j, g, w)
			}
			pa, pb = fast.Path(g, pa[:0]), ref.Path(w, pb[:0])
			if len(pa) != len(pb) || int32(len(pa)) != g.Inputs {
				t.Fatalf("%v on\n%s\n%v: path %v, queue formulation %v, %d inputs", cur, &b, g.Placement, pa, pb, g.Inputs)
			}
			holdTime := map[bool]int32{true: 1}[g.Hold]
			if pl, tm := replay(t, &b, g.Piece, variants[v], pa); pl != g.Placement || int32(tm)+holdTime != g.Time {
				t.Fatalf("on\n%s\npath %v replays to %v (time %d), move %+v", &b, pa, pl, tm, g)
			}
			if g.node&seedNode != 0 {
				seeds++
			} else {
				merged++
			}
		}
	}
	// both tiers must have been exercised for the test to mean anything
	if seeds == 0 || merged == 0 {
		t.Fatalf("%d seed moves, %d explored moves", seeds, merged)
	}
	t.Logf("%d seed moves, %d explored moves", seeds, merged)
}

// computeSurf's and heightLanes' lanes against the plain definition: the
// lowest origin y with every cell at or above its column's height, on
// random boards with heights below fastFloor (and holes).
func TestComputeSurf(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	g := New(Options{})
	for range 2000 {
		var h [tetris.Width]int
		for x := range h {
			h[x] = rng.IntN(fastFloor)
		}
		p := tetris.Piece(rng.IntN(7))
		var b tetris.Board // a board with these heights
		for x, v := range h {
			for y := range v {
				if y == v-1 || rng.IntN(3) != 0 {
					b.Set(x, y)
				}
			}
		}
		g.computeSurf(p, heightLanes(&b, b.MaxHeight()))
		for r := range tetris.Rot(4) {
			f := &footprints[p][r]
			for x := f.x0; x <= f.x1; x++ {
				want := -100
				for _, c := range tetris.PieceCells(p, r) {
					want = max(want, h[x+int(c.X)]-int(c.Y))
				}
				if got := int(g.surf[r][x]); got != want {
					t.Fatalf("%v %v x=%d heights %v: surf %d, want %d", p, r, x, h, got, want)
				}
			}
		}
	}
}

func TestOpenHoles(t *testing.T) {
	for _, c := range []struct {
		field string
		want  bool
	}{
		{"", false},
		{"XXXX______/XXXXX_____", false},            // no hole
		{"XXXXXXXXX_/X_XXXXXXXX", false},            // a closed hole
		{"XXXXXXXX__/XXXXXXXX__/X_XXXXXXXX", false}, // closed, open cells elsewhere
		{"XXXXXXXXX_/XXXXXXXX__/X_XXXXXXXX", true},  // (8,1) is covered and opens right
		{"X_XXXXXXX_/__XXXXXXXX", true},             // a hole opening to the left
		{"XXXXXXXXX_/X_XXXXXXXX/X_XXXXXXXX", true},  // two stacked hole cells
		{"XX_XXXXXXX/X___XXXXXX/XX_XXXXXXX", true},  // a T-slot under an overhang
		{"___X______/__________/__________", true},  // a floating cell covers open air
		{"XXXXXXXXXX/X_XXXXXXXX", false},            // under a full row
		{"XXX_XXXXXX/X_XXXXXXXX", false},            // a gap above does not open it
		{"X_XXXXXXXX/XX_XXXXXXX/X_XXXXXXXX", false}, // diagonal neighbours do not count
		{"X_XXXXXXXX/XX_XXXXXXX/XXX_XXXXXX/XXXXXXXXX_", false},
	} {
		b := mustField(t, c.field)
		if got := openHoles(&b); got != c.want {
			t.Errorf("%q: openHoles %v, want %v", c.field, got, c.want)
		}
	}
}
