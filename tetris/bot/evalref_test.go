// evalref_test.go keeps the evaluator as it was before the speed work of
// 2026-11-23 afternoon (plain scans, no prefilters) as a reference: the
// fast Evaluate must give the same value and reward on every board. Helpers
// the speed work left unchanged (rowTransitions, match, caveTSlot) are
// called, not copied.

package bot

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/yomi-ai/yomi/tetris"
)

// evaluateOld is Evaluate as it was: it returns the value of board b (after the placement) and the
// reward of the placement described by in.
func evaluateOld(e *Evaluator, b *Board, in *EvalInput) (Value, Reward) {
	w := &e.W
	var vv int32
	lock := &in.Lock
	rv, t := lockReward(w, in) // unchanged by the speed work

	var h [10]int
	if in.Heights != nil {
		h = *in.Heights
	} else {
		b.Heights(&h)
	}
	H := int32(0)
	for _, x := range h {
		H = max(H, int32(x))
	}
	if w.TimedJeopardy {
		rv += w.Jeopardy * max(0, H-10) * t / 10
	} else {
		rv += w.Jeopardy * max(0, H-10)
	}
	attack := int32(-1)
	if lock.Lines > 0 {
		attack = int32(lock.Attack)
	}

	if b.B2B {
		vv += w.BackToBack
	}
	vv += w.TopQuarter * max(0, H-15)
	vv += w.TopHalf * max(0, H-10)

	// T-slot cut-outs
	ts := e.tslots(in)
	cb := *b
	cut := false
	for range ts {
		r, x, y, ok := findTSlotOld(&cb, &h)
		if !ok {
			break
		}
		// CC1 keeps the cut board only for doubles and triples
		nb := cb
		res := lockMove(&nb, T, r, x, y, SpinFull)
		vv += w.TSlot[min(res.Lines, 3)]
		if res.Lines < 2 {
			break
		}
		cb = nb
		cut = true
		cb.Heights(&h)
	}
	if cut {
		cb.Heights(&h)
	}
	H2 := int32(0)
	for _, x := range h {
		H2 = max(H2, int32(x))
	}
	vv += w.Height * H2

	// well: lowest column, rightmost on ties
	well := 0
	for x := 1; x < 10; x++ {
		if h[x] <= h[well] {
			well = x
		}
	}
	depth := int32(0)
	for y := h[well]; y < 20; y++ {
		if cb.Rows[y]|1<<uint(well) != fullRow {
			break
		}
		depth++
	}
	vv += w.WellDepth * min(depth, w.MaxWellDepth)
	if depth != 0 {
		vv += w.WellColumn[well]
	}

	bump, bumpSq := bumpinessOld(&h, well)
	vv += w.Bumpiness*bump + w.BumpinessSq*bumpSq

	cav, ovh, cov, covSq := holeFeaturesOld(&cb, &h)
	vv += w.CavityCells*cav + w.CavityCellsSq*cav*cav
	vv += w.OverhangCells*ovh + w.OverhangSq*ovh*ovh
	vv += w.CoveredCells*cov + w.CoveredSq*covSq

	vv += w.RowTransitions * rowTransitions(&cb, int(H2))
	return Value{V: vv}, Reward{V: rv, Attack: attack}
}

// bumpiness reproduces CC1's sums (starting at −1, absolute value at the end).
func bumpinessOld(h *[10]int, well int) (int32, int32) {
	b, bs := int32(-1), int32(-1)
	prev := 0
	if well == 0 {
		prev = 1
	}
	for i := 1; i < 10; i++ {
		if i == well || i == prev {
			continue
		}
		d := int32(h[prev] - h[i])
		if d < 0 {
			d = -d
		}
		b += d
		bs += d * d
		prev = i
	}
	if b < 0 {
		b = -b
	}
	if bs < 0 {
		bs = -bs
	}
	return b, bs
}

// below returns, for y = 0 … top−1, the columns whose height is above y
// (bit x set when h[x] > y), where top = the highest column; rows from top
// up have none.
func belowOld(h *[10]int, m *[tetris.Height + 1]uint16) (top int) {
	var drop [tetris.Height + 1]uint16 // drop[y]: columns of height y
	var all uint16
	for x, hx := range h {
		drop[hx] |= 1 << uint(x)
		all |= 1 << uint(x)
		top = max(top, hx)
	}
	cur := all &^ drop[0]
	for y := 0; y < top; y++ {
		m[y] = cur
		cur &^= drop[y+1]
	}
	return top
}

// holeFeatures classifies the empty cells below their column height
// (spec §19) as cavities or overhangs, and sums, over every empty cell at
// least 3 below its column top, the cells above it in that column (capped
// at 6), and their squares.
func holeFeaturesOld(b *Board, h *[10]int) (cav, ovh, cov, covSq int32) {
	var m [tetris.Height + 1]uint16
	top := belowOld(h, &m)
	for y := 0; y < top; y++ {
		for e := m[y] &^ b.Rows[y]; e != 0; e &= e - 1 {
			x := bits.TrailingZeros16(e)
			if (x >= 2 && h[x-1] <= y-1 && h[x-2] <= y) || (x <= 7 && h[x+1] <= y-1 && h[x+2] <= y) {
				ovh++
			} else {
				cav++
			}
			if n := int32(h[x] - y - 1); n >= 2 { // h[x] ≥ y+3
				n = min(6, n)
				cov += n
				covSq += n * n
			}
		}
	}
	return
}

// findTSlot returns the first T-slot among CC1's detectors (spec §19 table).
func findTSlotOld(b *Board, h *[10]int) (Rot, int, int, bool) {
	for x := 0; x+2 < 10; x++ { // sky_tslot_left
		h1, h2 := h[x], h[x+1]
		if h2 <= h1-1 && match(b, x, h1+1, &patSkyLeft) {
			return South, x + 1, h1, true
		}
	}
	for x := 0; x+2 < 10; x++ { // sky_tslot_right
		h1, h2 := h[x+1], h[x+2]
		if h1 <= h2-1 && match(b, x, h2+1, &patSkyRight) {
			return South, x + 1, h2, true
		}
	}
	for x := 0; x+2 < 10; x++ {
		h1, h2 := h[x], h[x+1]
		if h1 <= h2 && b.Occupied(x-1, h2) == b.Occupied(x-1, h2+1) && match(b, x, h2+1, &patCaveLeft) {
			if r, cx, cy, ok := caveTSlot(b, West, x+2, h2-2); ok {
				return r, cx, cy, true
			}
		}
		h1, h2 = h[x+1], h[x+2]
		if h2 <= h1 && b.Occupied(x+3, h1) == b.Occupied(x+3, h1+1) && match(b, x, h1+1, &patCaveRight) {
			if r, cx, cy, ok := caveTSlot(b, East, x, h1-2); ok {
				return r, cx, cy, true
			}
		}
	}
	for x := 0; x+4 < 10; x++ { // fin_left
		h1, h2 := h[x], h[x+1]
		if h1 <= h2+1 && match(b, x, h2+2, &patFinLeft) {
			return West, x + 3, h2 - 1, true
		}
	}
	for x := 0; x+3 < 10; x++ { // fin_right
		h1, h2 := h[x+2], h[x+3]
		if h2 <= h1+1 && b.Occupied(x-1, h1) && b.Occupied(x-1, h1-2) && match(b, x, h1+2, &patFinRight) {
			return East, x, h1 - 1, true
		}
	}
	return 0, 0, 0, false
}

// evalBoards makes random parent boards: ragged stacks with holes, some
// with a T-slot carved in, a few near the top of the matrix.
func evalBoards(rng *rand.Rand, n int) []Board {
	var out []Board
	for i := range n {
		var b Board
		top := rng.IntN(14)
		if i%40 == 0 {
			top = 18 + rng.IntN(20)
		}
		density := 0.55 + 0.4*rng.Float64()
		fillRows(&b, rng, top, density)
		if i%3 == 0 && top >= 3 { // carve a T-slot: an empty T cut-out with an overhang
			x, y := 1+rng.IntN(8), rng.IntN(top-2)
			for _, c := range [][2]int{{x - 1, y + 1}, {x, y + 1}, {x + 1, y + 1}, {x, y}} {
				b.Board.Rows[c[1]] &^= 1 << uint(c[0])
			}
			for yy := y + 2; yy < top; yy++ {
				b.Board.Rows[yy] &^= 1 << uint(x)
				b.Board.Rows[yy] &^= 1 << uint(x+1)
			}
		}
		b.Combo = uint32(rng.IntN(4))
		b.B2B = rng.IntN(2) == 0
		out = append(out, b)
	}
	return out
}

// TestEvaluateMatchesOld compares Evaluate with the evaluator as it was
// (evaluateOld) on every placement of every piece on random boards, with
// random queues (0–3 T-slot cut-outs), hold pieces and move times, with
// the heights passed in or not, and with the cut-outs locking through
// lockMoveClean or not.
func TestEvaluateMatchesOld(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 11))
	e := Evaluator{W: DefaultWeights()}
	gen := NewGenerator()
	checked, slots, clears := 0, 0, 0
	var h0 [10]int
	for bi, b := range evalBoards(rng, 600) {
		for p := range Piece(7) {
			for _, mv := range gen.Placements(nil, &b, p) {
				c := b
				res := lockMove(&c, p, mv.Rot, int(mv.X), int(mv.Y), mv.Spin)
				mv.Time = int16(rng.IntN(30))
				in := EvalInput{Lock: res, Move: mv, NextBag: uint8(1 + rng.IntN(127)), Hold: Piece(rng.IntN(8))}
				if rng.IntN(2) == 0 {
					c.Board.Heights(&h0)
					in.Heights = &h0
				}
				in.clean = rng.IntN(2) == 0 // c comes from a lock: no full row
				wv, wr := evaluateOld(&e, &c, &in)
				gv, gr := e.Evaluate(&c, &in)
				if gv != wv || gr != wr {
					t.Fatalf("board %d %v %+v: value %v reward %v, want %v %v", bi, p, mv, gv, gr, wv, wr)
				}
				checked++
				if res.Lines > 0 {
					clears++
				}
				var h [10]int
				c.Board.Heights(&h)
				r1, x1, y1, ok1 := findTSlot(&c, &h)
				r2, x2, y2, ok2 := findTSlotOld(&c, &h)
				if r1 != r2 || x1 != x2 || y1 != y2 || ok1 != ok2 {
					t.Fatalf("board %d %v %+v: T-slot %v %d %d %v, want %v %d %d %v", bi, p, mv, r1, x1, y1, ok1, r2, x2, y2, ok2)
				}
				if ok2 {
					slots++
				}
			}
		}
	}
	if slots < checked/20 || clears < checked/50 {
		t.Fatalf("%d evaluations, only %d with a T-slot and %d clearing lines: the boards miss cases", checked, slots, clears)
	}
	t.Logf("%d evaluations, %d with a T-slot, %d clearing", checked, slots, clears)
}

// TestFindTSlotMatchesOld compares findTSlot with the detectors as they
// were (findTSlotOld) and with findTSlotScan on random column profiles
// with holes and carved T cut-outs, from flat to 40 high, and checks that
// every kind of answer (sky and cave slots, both fins) occurs.
func TestFindTSlotMatchesOld(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 12))
	kinds := map[Rot]int{}
	stamps := [][]string{
		{"??#", "??_", "??#"}, {"#??", "_??", "#??"},
		{"??#", "??_", "??_", "?__", "??_"}, {"#??", "_??", "_??", "__?", "_??"},
		{"??##?", "??__?", "??__#", "??__?", "??#_#"}, {"##??", "__??", "__??", "__??", "_#??"},
	}
	for i := range 60000 {
		var b Board
		maxH := []int{4, 8, 14, 24, 41}[i%5]
		for x := range 10 {
			hx := rng.IntN(maxH)
			for y := range hx {
				if rng.IntN(6) != 0 || y == hx-1 {
					b.Board.Set(x, y)
				}
			}
		}
		if i%3 == 1 { // a detector's pattern stamped in, '?' random
			pat := stamps[rng.IntN(len(stamps))]
			x, top := rng.IntN(11-len(pat[0])), 4+rng.IntN(maxH)
			for k, row := range pat {
				y := top - k
				for j := 0; j < len(row) && y < tetris.Height; j++ {
					if row[j] == '#' || row[j] == '?' && rng.IntN(2) == 0 {
						b.Board.Set(x+j, y)
					} else {
						b.Board.Rows[y] &^= 1 << uint(x+j)
					}
				}
			}
			if rng.IntN(2) == 0 { // nothing above the pattern
				for y := top + 1; y < tetris.Height; y++ {
					b.Board.Rows[y] = 0
				}
			}
		}
		if i%2 == 0 { // a T cut-out, possibly covered
			x, y := 1+rng.IntN(8), rng.IntN(maxH)
			for _, c := range [][2]int{{x - 1, y + 1}, {x, y + 1}, {x + 1, y + 1}, {x, y}} {
				if c[1] < tetris.Height {
					b.Board.Rows[c[1]] &^= 1 << uint(c[0])
				}
			}
		}
		var h [10]int
		b.Board.Heights(&h)
		r1, x1, y1, ok1 := findTSlot(&b, &h)
		r2, x2, y2, ok2 := findTSlotOld(&b, &h)
		r3, x3, y3, ok3 := findTSlotScan(&b, &h)
		if r1 != r2 || x1 != x2 || y1 != y2 || ok1 != ok2 || r3 != r2 || x3 != x2 || y3 != y2 || ok3 != ok2 {
			t.Fatalf("board %d %v: T-slot %v %d %d %v (scan %v %d %d %v), want %v %d %d %v", i, b.Board.String(), r1, x1, y1, ok1, r3, x3, y3, ok3, r2, x2, y2, ok2)
		}
		// restricted to the columns with holes
		r4, x4, y4, ok4 := findTSlotIn(&b, &h, holeColsRef(&b))
		if r4 != r2 || x4 != x2 || y4 != y2 || ok4 != ok2 {
			t.Fatalf("board %d %v: T-slot given the hole columns %v %d %d %v, want %v %d %d %v", i, b.Board.String(), r4, x4, y4, ok4, r2, x2, y2, ok2)
		}
		if ok2 {
			kinds[r2]++
		}
	}
	for _, r := range []Rot{South, East, West} {
		if kinds[r] < 100 {
			t.Fatalf("only %d T-slots facing %v (all: %v): the boards miss detectors", kinds[r], r, kinds)
		}
	}
	t.Logf("T-slots found: %v", kinds)
}

// TestBumpinessMatchesOld compares bumpiness with CC1's loop as it was, for
// every well column on random height profiles (flat, ragged and tall).
func TestBumpinessMatchesOld(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 13))
	for i := range 20000 {
		var h [10]int
		spread := []int{1, 2, 5, 41}[i%4]
		for x := range h {
			h[x] = rng.IntN(spread)
		}
		top, well := h[0], 0
		for x := 1; x < 10; x++ {
			top = max(top, h[x])
			if h[x] <= h[well] {
				well = x
			}
		}
		if gt, gw, _, _ := profile(&h); int(gt) != top || gw != well {
			t.Fatalf("heights %v: profile top %d well %d, want %d %d", h, gt, gw, top, well)
		}
		for well := range 10 {
			b1, s1 := bumpiness(&h, well)
			b2, s2 := bumpinessOld(&h, well)
			if b1 != b2 || s1 != s2 {
				t.Fatalf("heights %v well %d: bumpiness %d, %d; want %d, %d", h, well, b1, s1, b2, s2)
			}
		}
	}
}

// cutChain returns how many T-slot cut-outs in a row clear two or more
// lines on b (at most 3): CC1 looks for another slot after each of them.
func cutChain(b Board) int {
	n := 0
	var h [10]int
	for n < 3 {
		b.Heights(&h)
		r, x, y, ok := findTSlotOld(&b, &h)
		if !ok || lockMove(&b, T, r, x, y, SpinFull).Lines < 2 {
			break
		}
		n++
	}
	return n
}

// TestEvaluateCutChains compares Evaluate with evaluateOld on boards built
// of full rows with several T-spin double or triple cut-outs carved in, so
// that one cut-out uncovers the next, with every T-slot count (0–3).
func TestEvaluateCutChains(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 14))
	e := Evaluator{W: DefaultWeights()}
	var chains [4]int
	for i := 0; i < 20000; i++ {
		var b Board
		slots := 1 + rng.IntN(3)
		top := 2*slots + 1 + rng.IntN(4)
		for y := range top {
			b.Board.Rows[y] = fullRow
		}
		// slot k takes rows 2k and 2k+1; the column above it is open
		// except in the rows of the slots above it, so that each
		// cut-out uncovers the slot below
		for k := range slots {
			x := 1 + rng.IntN(8)
			r := []Rot{South, South, East, West}[rng.IntN(4)]
			side := x + 1 - 2*rng.IntN(2)
			for _, c := range tetris.PieceCells(T, r) {
				b.Board.Rows[2*k+1+int(c.Y)] &^= 1 << uint(x+int(c.X))
			}
			for yy := 2*k + 2; yy < top; yy++ {
				if yy < 2*slots {
					continue
				}
				b.Board.Rows[yy] &^= 1 << uint(x)
				if yy > 2*k+2 || rng.IntN(2) == 0 {
					b.Board.Rows[yy] &^= 1 << uint(side)
				}
			}
		}
		for y := range top {
			if b.Board.Rows[y] == fullRow {
				b.Board.Rows[y] &^= 1 << uint(rng.IntN(10))
			}
		}
		n := cutChain(b)
		chains[n]++
		b.B2B = rng.IntN(2) == 0
		for ts := range 4 {
			// NextBag and Hold giving ts slots to look for
			in := EvalInput{Move: Move{Piece: O}, NextBag: []uint8{0x7B, 0x7F, 0x07, 0x07}[ts], Hold: []Piece{I, I, I, T}[ts], clean: rng.IntN(2) == 0}
			if got := e.tslots(&in); got != ts {
				t.Fatalf("tslots %d, want %d", got, ts)
			}
			wv, wr := evaluateOld(&e, &b, &in)
			gv, gr := e.Evaluate(&b, &in)
			if gv != wv || gr != wr {
				t.Fatalf("board %v, %d slots: value %v reward %v, want %v %v", b.Board.Rows[:top], ts, gv, gr, wv, wr)
			}
		}
	}
	t.Logf("boards by cut-out chain length: %v", chains)
	if chains[2] < 100 || chains[3] < 20 {
		t.Fatalf("too few chains of cut-outs: %v", chains)
	}
}

// holeColsRef returns the columns with an empty cell below a filled one,
// read cell by cell.
func holeColsRef(b *Board) uint16 {
	var cols uint16
	for x := range 10 {
		filled := false
		for y := tetris.Height - 1; y >= 0; y-- {
			if b.Occupied(x, y) {
				filled = true
			} else if filled {
				cols |= 1 << uint(x)
			}
		}
	}
	return cols
}

// TestEvaluateTallNoHoles compares Evaluate with evaluateOld on stacks 30
// to 40 high without holes, where T-slot detectors read the cells above
// the matrix as filled and find slots without a hole.
func TestEvaluateTallNoHoles(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 15))
	e := Evaluator{W: DefaultWeights()}
	found := 0
	for range 3000 {
		var b Board
		for x := range 10 {
			for y := range 30 + rng.IntN(11) {
				b.Board.Rows[y] |= 1 << uint(x)
			}
		}
		for y := range b.Board.Rows {
			if b.Board.Rows[y] == fullRow {
				b.Board.Rows[y] &^= 1 << uint(rng.IntN(10))
				for yy := y + 1; yy < tetris.Height; yy++ { // keep the column without holes
					b.Board.Rows[yy] &^= b.Board.Rows[y] ^ fullRow
				}
			}
		}
		var h [10]int
		b.Board.Heights(&h)
		if _, _, _, ok := findTSlotOld(&b, &h); ok {
			found++
		}
		in := EvalInput{Move: Move{Piece: O}, NextBag: 0x07, Hold: T, clean: true}
		wv, wr := evaluateOld(&e, &b, &in)
		gv, gr := e.Evaluate(&b, &in)
		if gv != wv || gr != wr {
			t.Fatalf("board %v: value %v reward %v, want %v %v", b.Board.String(), gv, gr, wv, wr)
		}
	}
	if found < 100 {
		t.Fatalf("only %d boards with a T-slot", found)
	}
}
