package hatetris

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// refFutures is the obviously-correct search: breadth-first over (x, y, o)
// from the spawn with the game's own move rule, one result per distinct set
// of cells where D is blocked.
func refFutures(w Well, p Piece) map[[Height]uint16]Future {
	type pos struct{ x, y, o int }
	g := &Game{Well: w, Piece: p}
	start := pos{(Width - 4) / 2, 0, 0}
	seen := map[pos]bool{start: true}
	queue := []pos{start}
	out := map[[Height]uint16]Future{}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, m := range []Move{Left, Right, Down, Up} {
			n := c
			switch m {
			case Left:
				n.x--
			case Right:
				n.x++
			case Down:
				n.y++
			case Up:
				n.o = (n.o + 1) & 3
			}
			if g.fits(n.x, n.y, n.o) {
				if !seen[n] {
					seen[n] = true
					queue = append(queue, n)
				}
				continue
			}
			if m != Down {
				continue
			}
			sh := &shapes[p][c.o]
			var cells [Height]uint16
			for i := 0; i < sh.yDim; i++ {
				cells[c.y+sh.yMin+i] = sh.rows[i] << (c.x + sh.xMin)
			}
			f := Future{Well: w, O: int8(c.o), X: int8(c.x), Y: int8(c.y)}
			f.Lines = int8(f.Well.place(sh, c.x+sh.xMin, c.y+sh.yMin))
			out[cells] = f
		}
	}
	return out
}

// randomWells plays random futures from the empty well and collects the
// wells at each spawn (all reachable by construction).
func randomWells(n int, seed uint64) []Well {
	r := rand.New(rand.NewPCG(seed, 1))
	var out []Well
	var w Well
	var buf []Future
	for len(out) < n {
		if w.Over() || r.IntN(60) == 0 {
			w = Well{}
		}
		out = append(out, w)
		buf = Futures(buf[:0], &w, Piece(r.IntN(NumPieces)))
		// Prefer low placements so the wells get interesting.
		best := buf[r.IntN(len(buf))]
		for k := 0; k < 3; k++ {
			c := buf[r.IntN(len(buf))]
			if c.Y > best.Y {
				best = c
			}
		}
		w = best.Well
	}
	return out
}

func TestFuturesMatchReference(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 500
	}
	var buf []Future
	for i, w := range randomWells(n, 7) {
		p := Piece(i % NumPieces)
		ref := refFutures(w, p)
		buf = Futures(buf[:0], &w, p)
		if len(buf) != len(ref) {
			t.Fatalf("well %d piece %v: %d futures, reference %d\n%v", i, p, len(buf), len(ref), w)
		}
		want := map[Future]int{}
		for _, f := range ref {
			want[Future{Well: f.Well, Lines: f.Lines}]++
		}
		for _, f := range buf {
			k := Future{Well: f.Well, Lines: f.Lines}
			if want[k] == 0 {
				t.Fatalf("well %d piece %v: future not in reference:\n%v", i, p, f.Well)
			}
			want[k]--
		}
	}
}

func TestFuturesEmptyWell(t *testing.T) {
	// Distinct placements on the empty well: one per column range and shape.
	want := map[Piece]int{S: 17, Z: 17, O: 9, I: 17, L: 34, J: 34, T: 34}
	var w Well
	for p, n := range want {
		if got := len(Futures(nil, &w, p)); got != n {
			t.Errorf("%v: %d futures, want %d", p, got, n)
		}
	}
}

func TestFirstPieceIsS(t *testing.T) {
	g := NewGame(Hatetris)
	if g.Piece != S {
		t.Errorf("first piece %v, want S", g.Piece)
	}
}

func TestLockRules(t *testing.T) {
	// A full row below the bar clears; lines are counted one by one.
	w, err := ParseWell(`
#.........
#########.
#########.
`)
	if err != nil {
		t.Fatal(err)
	}
	// I vertical in column 9 falls to rows 16..19 and clears rows 18 and 19.
	g := &Game{Well: w, Piece: I, X: 7, Y: 0, O: 1, Pieces: 1, enemy: NewEnemy(Mild)}
	for g.Pieces == 1 {
		if !g.Apply(Down) {
			t.Fatal("game over")
		}
	}
	if g.Score != 2 {
		t.Fatalf("score %d, want 2\n%v", g.Score, g.Well)
	}
	if g.Well[19] != 1|1<<9 || g.Well[18] != 1<<9 || g.Well[17] != 0 {
		t.Errorf("well after clears:\n%v", g.Well)
	}
	// Blocked L/R/U consume the move but do not move the piece.
	g2 := &Game{Piece: O, X: -1, Y: 0, O: 0, enemy: NewEnemy(Mild)}
	g2.Apply(Left)
	if g2.X != -1 || g2.Moves != 1 {
		t.Errorf("blocked L moved the piece: x %d moves %d", g2.X, g2.Moves)
	}
	// A lock with cells above the bar ends the game and scores nothing.
	var full Well
	for y := Bar; y < Height; y++ {
		full[y] = FullRow &^ (1 << 5)
	}
	g3 := &Game{Well: full, Piece: I, X: -2, Y: 0, O: 1, enemy: NewEnemy(Mild)}
	g3.Apply(Down)
	if !g3.Over || g3.Score != 0 {
		t.Errorf("lock above the bar: over %v score %d", g3.Over, g3.Score)
	}
}

func TestParseWellErrors(t *testing.T) {
	for _, s := range []string{"#.#", "#########x\n##########\n#########?", "##########\n" + "..........\n..........\n..........\n..........\n..........\n..........\n..........\n..........\n..........\n..........\n..........\n..........\n..........\n..........\n..........\n..........\n..........\n..........\n..........\n.........."} {
		if _, err := ParseWell(s); err == nil {
			t.Errorf("ParseWell accepted %q", s)
		}
	}
	w, err := ParseWell(Well{1: 0, 19: 5}.String())
	if err != nil || w != (Well{19: 5}) {
		t.Errorf("String/ParseWell round trip: %v %v", w, err)
	}
}

// TestPathTo: every future of random wells is reached by its path.
func TestPathTo(t *testing.T) {
	var buf []Future
	for i, w := range randomWells(300, 11) {
		p := Piece(i % NumPieces)
		buf = Futures(buf[:0], &w, p)
		for _, f := range buf {
			moves, err := PathTo(&w, p, &f)
			if err != nil {
				t.Fatal(err)
			}
			g := &Game{Well: w, Piece: p, X: (Width - 4) / 2, enemy: NewEnemy(Mild)}
			for _, m := range moves {
				g.Apply(m)
			}
			if g.Well != f.Well && !(g.Over && f.Well.Over()) {
				t.Fatalf("well %d piece %v: path %s gives\n%v want\n%v", i, p, MovesString(moves), g.Well, f.Well)
			}
		}
	}
}

// TestRatingMatchesFutures checks the enemy's lazy rating against the
// maximum Top over the materialised futures: flooded to the end, a piece's
// bound is its rating; flooded until the bound passes a threshold t, the
// bound is above t exactly when the rating is, and never above the rating.
// Wells: reachable ones, dense ones (many clearing locks) and dense ones with
// empty rows in the stack.
func TestRatingMatchesFutures(t *testing.T) {
	wells := testWells(2000, 7)
	// A T locks on the top row clearing both of its rows above four empty
	// rows: the result is the empty well, far below the T's rows.
	wells = append(wells, Well{14: FullRow &^ (7 << 3), 15: FullRow &^ (1 << 4)})
	var buf []Future
	var e Expander
	for _, w := range wells {
		for p := Piece(0); p < NumPieces; p++ {
			buf = Futures(buf[:0], &w, p)
			want := -1
			for _, fu := range buf {
				want = max(want, fu.Well.Top())
			}
			e.prepare(&w)
			e.advance(&w, p, math.MaxInt)
			if got := e.v[p]; got != want || !e.fl[p].done {
				t.Fatalf("well\n%v\npiece %v: rating %d (done %v), futures say %d", w, p, got, e.fl[p].done, want)
			}
			for th := -1; th <= want; th++ {
				e.prepare(&w)
				e.advance(&w, p, th)
				v := e.v[p]
				if th < want && (v <= th || v > want) || th == want && (v != want || !e.fl[p].done) {
					t.Fatalf("well\n%v\npiece %v: bound %d after advancing past %d, rating %d", w, p, v, th, want)
				}
			}
		}
	}
}

// TestRateRow checks the rating of each lock row against results built
// lock by lock with place and Top.
func TestRateRow(t *testing.T) {
	wells := testWells(1000, 9)
	wells = append(wells, Well{14: FullRow &^ (7 << 3), 15: FullRow &^ (1 << 4)})
	for _, w := range wells {
		top := w.Top()
		var rr runs
		rr.build(&w, top)
		for p := Piece(0); p < NumPieces; p++ {
			var f flood
			f.run(&rr, top, p)
			lo, hi := f.lockRows()
			for Y := lo; Y < hi; Y++ {
				lk := f.reach[Y] &^ f.fit[Y+1]
				if lk == 0 {
					continue
				}
				want := -1
				for o := 0; o < 4; o++ {
					s := &shapes[p][o]
					for m := uint16(lk>>(16*o)) >> s.xShift; m != 0; m &= m - 1 {
						r := w
						r.place(s, bits.TrailingZeros16(m), Y+s.yOff)
						want = max(want, r.Top())
					}
				}
				if got := f.rateRow(&rr, &w, top, p, Y, lk); got != want {
					t.Fatalf("well\n%v\npiece %v box row %d: rateRow %d, locks say %d", w, p, Y, got, want)
				}
			}
		}
	}
}
