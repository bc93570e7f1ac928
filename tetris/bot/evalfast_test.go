// evalfast_test.go checks the evaluator's bit-parallel features against
// plain cell-by-cell readings of their definitions on random boards.

package bot

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/yomi-ai/yomi/tetris"
)

// fillRows fills each cell of rows 0..top-1 of b with probability density,
// row by row, left to right (one rng draw a cell): the random boards of
// this package's tests.
func fillRows(b *Board, rng *rand.Rand, top int, density float64) {
	for y := range top {
		for x := range 10 {
			if rng.Float64() < density {
				b.Set(x, y)
			}
		}
	}
}

// matchCells is the cell-by-cell reading of a detector pattern (the spec's
// table as written): '#' filled, '_' empty, '?' either, off-board filled.
func matchCells(b *Board, x, startY int, rows []string) bool {
	for i, row := range rows {
		y := startY - i
		for j := 0; j < len(row); j++ {
			switch row[j] {
			case '#':
				if !b.Occupied(x+j, y) {
					return false
				}
			case '_':
				if b.Occupied(x+j, y) {
					return false
				}
			}
		}
	}
	return true
}

// TestPatternMatch checks the bitmask matcher against the cell-by-cell one
// on random ragged boards, every column offset and start row, including
// rows and columns off the board.
func TestPatternMatch(t *testing.T) {
	pats := []struct {
		p    *pattern
		rows []string
	}{
		{&patSkyLeft, []string{"??#", "??_", "??#"}},
		{&patSkyRight, []string{"#??", "_??", "#??"}},
		{&patCaveLeft, []string{"??#", "??_", "??_", "?__", "??_"}},
		{&patCaveRight, []string{"#??", "_??", "_??", "__?", "_??"}},
		{&patFinLeft, []string{"??##?", "??__?", "??__#", "??__?", "??#_#"}},
		{&patFinRight, []string{"##??", "__??", "__??", "__??", "_#??"}},
	}
	rng := rand.New(rand.NewPCG(6, 2))
	hits, checks := 0, 0
	for range 400 {
		var b Board
		top := rng.IntN(12)
		if rng.IntN(8) == 0 {
			top = 36 + rng.IntN(5) // near the top of the matrix
		}
		density := 0.3 + 0.6*rng.Float64()
		fillRows(&b, rng, top, density)
		for _, pt := range pats {
			for x := -2; x+len(pt.rows[0]) <= 12; x++ {
				for y := -3; y <= 44; y++ {
					want := matchCells(&b, x, y, pt.rows)
					if got := match(&b, x, y, pt.p); got != want {
						t.Fatalf("pattern %v at x=%d y=%d: %v, want %v\n%v", pt.rows, x, y, got, want, b.Rows[:12])
					}
					checks++
					if want {
						hits++
					}
				}
			}
		}
	}
	if hits < 1000 {
		t.Fatalf("only %d of %d checks matched: the boards do not exercise the patterns", hits, checks)
	}
}

// cavitiesCells, coveredCellsRef and rowTransitionsRef read the features
// cell by cell, column by column.
func cavitiesCells(b *Board, h *[10]int) (cav, ovh int32) {
	for x := range 10 {
		for y := 0; y < h[x]; y++ {
			if b.Occupied(x, y) {
				continue
			}
			if (x >= 2 && h[x-1] <= y-1 && h[x-2] <= y) || (x <= 7 && h[x+1] <= y-1 && h[x+2] <= y) {
				ovh++
			} else {
				cav++
			}
		}
	}
	return
}

func coveredCellsRef(b *Board, h *[10]int) (c, sq int32) {
	for x := range 10 {
		for y := h[x] - 3; y >= 0; y-- {
			if !b.Occupied(x, y) {
				n := int32(min(6, h[x]-y-1))
				c += n
				sq += n * n
			}
		}
	}
	return
}

func rowTransitionsRef(b *Board) int32 {
	n := int32(0)
	for y := range len(b.Rows) {
		prev := true // the left wall
		for x := 0; x <= 10; x++ {
			cur := x == 10 || b.Occupied(x, y)
			if cur != prev {
				n++
			}
			prev = cur
		}
	}
	return n
}

// TestBoardFeaturesFast compares cavities, overhangs, covered cells and row
// transitions with the cell-by-cell readings on random ragged boards with
// holes, overhangs and empty columns.
func TestBoardFeaturesFast(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 3))
	var nonzero [3]int
	for i := range 2000 {
		var b Board
		top := rng.IntN(16)
		if i%50 == 0 {
			top = 30 + rng.IntN(11)
		}
		density := 0.2 + 0.75*rng.Float64()
		fillRows(&b, rng, top, density)
		var h [10]int
		b.Heights(&h)
		c1, o1, v1, s1, cols := holeFeaturesCols(&b, b.MaxHeight())
		if want := holeColsRef(&b); cols != want {
			t.Fatalf("board %d %v: hole columns %010b, want %010b", i, b.Rows[:16], cols, want)
		}
		c2, o2 := cavitiesCells(&b, &h)
		v2, s2 := coveredCellsRef(&b, &h)
		if c1 != c2 || o1 != o2 || v1 != v2 || s1 != s2 {
			t.Fatalf("board %d %v: cavities/overhangs %d/%d want %d/%d, covered %d/%d want %d/%d", i, b.Rows[:16], c1, o1, c2, o2, v1, s1, v2, s2)
		}
		if got, want := rowTransitions(&b, b.MaxHeight()), rowTransitionsRef(&b); got != want {
			t.Fatalf("board %d: row transitions %d want %d", i, got, want)
		}
		if _, _, _, _, _, got := boardFeatures(&b, b.MaxHeight()); got != rowTransitionsRef(&b) {
			t.Fatalf("board %d: boardFeatures' row transitions %d want %d", i, got, rowTransitionsRef(&b))
		}
		if c2 > 0 {
			nonzero[0]++
		}
		if o2 > 0 {
			nonzero[1]++
		}
		if v2 > 0 {
			nonzero[2]++
		}
	}
	for k, n := range nonzero {
		if n < 100 {
			t.Fatalf("feature %d nonzero on only %d boards: the boards do not exercise it", k, n)
		}
	}
}

// TestChildHeights checks the shortcut place uses: after a lock that clears
// no line, the child's column heights are the parent's raised by the
// piece's columns (raiseHeights).
func TestChildHeights(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 4))
	gen := NewGenerator()
	checked := 0
	for range 300 {
		var b Board
		top := rng.IntN(14)
		fillRows(&b, rng, top, 0.7)
		var ph [10]int
		b.Heights(&ph)
		for p := range Piece(7) {
			for _, mv := range gen.Placements(nil, &b, p) {
				c := b
				res := lockMove(&c, p, mv.Rot, int(mv.X), int(mv.Y), mv.Spin)
				if res.Lines != 0 {
					continue
				}
				ch := ph
				raiseHeights(&ch, mv)
				var want [10]int
				c.Heights(&want)
				if ch != want {
					t.Fatalf("%v %+v on %v: heights %v, want %v", p, mv, b.Rows[:14], ch, want)
				}
				checked++
			}
		}
	}
	if checked < 10000 {
		t.Fatalf("only %d placements checked", checked)
	}
}

// TestLockInto compares lockInto with lockMoveClean (boards without a full
// row) and lockMove (any board) on every resting position of every piece on
// random boards, some with full rows, some reaching above the visible
// matrix, with random combo and back-to-back: the same board and result,
// and on its fast path the child's rowsHash.
func TestLockInto(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 5))
	var n struct{ checked, fast, clears, lockOuts, dirty int }
	for i := range 600 {
		var b Board
		top := rng.IntN(14)
		if i%10 == 0 {
			top = 17 + rng.IntN(8)
		}
		density := 0.5 + 0.45*rng.Float64()
		fillRows(&b, rng, top, density)
		b.Combo = uint32(rng.IntN(4))
		b.B2B = rng.IntN(2) == 0
		clean := !b.HasFullRow()
		if !clean {
			n.dirty++
		}
		for p := range Piece(7) {
			// every resting position, reachable or not (lock-outs too)
			var mvs []Move
			for r := range Rot(4) {
				for x := -2; x < 12; x++ {
					for y := 0; y < 40; y++ {
						if b.Fits(p, r, x, y) && !b.Fits(p, r, x, y-1) {
							mvs = append(mvs, Move{Piece: p, Rot: r, X: int8(x), Y: int8(y), Spin: Spin(rng.IntN(3))})
						}
					}
				}
			}
			for _, mv := range mvs {
				want := b
				var wres LockResult
				if clean {
					wres = lockMoveClean(&want, p, mv.Rot, int(mv.X), int(mv.Y), mv.Spin)
				} else {
					wres = lockMove(&want, p, mv.Rot, int(mv.X), int(mv.Y), mv.Spin)
				}
				var got Board
				got.Rows[5] = 0x155 // lockInto must overwrite everything
				gres, rows, fast := lockInto(&got, &b, p, mv, clean, rowsHash(&b))
				if got != want || gres != wres {
					t.Fatalf("board %d %v %+v: %+v %v, want %+v %v", i, b.Rows[:top], mv, gres, got.Rows[:top+4], wres, want.Rows[:top+4])
				}
				if fast != (clean && wres.Lines == 0) || fast && rows != rowsHash(&want) {
					t.Fatalf("board %d %v %+v: fast %v, rows hash %#x, want %#x", i, b.Rows[:top], mv, fast, rows, rowsHash(&want))
				}
				n.checked++
				if wres.Lines > 0 {
					n.clears++
				} else if clean {
					n.fast++
				}
				if wres.LockedOut {
					n.lockOuts++
				}
			}
		}
	}
	t.Logf("%+v", n)
	if n.fast < 10000 || n.clears < 2000 || n.lockOuts < 100 || n.dirty < 20 {
		t.Fatalf("the boards miss cases: %+v", n)
	}
}

// TestTSlotLines compares tSlotLines with the lines lockMoveClean clears
// for every resting position of a T on random boards without a full row.
func TestTSlotLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	var byLines [4]int
	for i := range 1500 {
		var b Board
		top := 3 + rng.IntN(10)
		for y := range top {
			b.Rows[y] = uint16(rng.IntN(fullRow + 1))
		}
		if i%2 == 0 { // full rows with a T carved out: T-spin doubles and triples
			for y := range top {
				b.Rows[y] = fullRow
			}
			r, x, y := Rot(rng.IntN(4)), 1+rng.IntN(8), 1+rng.IntN(top-2)
			for _, c := range tetris.PieceCells(T, r) {
				b.Rows[y+int(c.Y)] &^= 1 << uint(x+int(c.X))
			}
		}
		for y := range top {
			if b.Rows[y] == fullRow {
				b.Rows[y] &^= 1 << uint(rng.IntN(10))
			}
		}
		for r := range Rot(4) {
			for x := -1; x < 11; x++ {
				for y := 0; y < 16; y++ {
					if !b.Fits(T, r, x, y) || b.Fits(T, r, x, y-1) {
						continue
					}
					c := b
					want := lockMoveClean(&c, T, r, x, y, SpinFull).Lines
					if got := tSlotLines(&b, r, x, y); got != want {
						t.Fatalf("%v T %v (%d,%d): %d lines, want %d", b.Rows[:top], r, x, y, got, want)
					}
					byLines[want]++
				}
			}
		}
	}
	t.Logf("positions by lines cleared: %v", byLines)
	if byLines[1] < 1000 || byLines[2] < 200 || byLines[3] < 20 {
		t.Fatalf("the boards miss cases: %v", byLines)
	}
}

// TestLockMoves compares lockMoves (lockInto's fast path inline, the
// children's hashes, the skipped placements) with lockInto, boardHash and
// the skip rule read plainly, for every resting position of every piece
// (reachable or not, with a random spin) on random boards, some with full
// rows, some reaching above the visible matrix, with random combo and
// back-to-back.
func TestLockMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 7))
	var n struct{ checked, fast, clears, lockOuts, skipped, dirty int }
	w := &worker{}
	for i := range 400 {
		var b Board
		top := rng.IntN(14)
		if i%10 == 0 {
			top = 17 + rng.IntN(8)
		}
		density := 0.5 + 0.45*rng.Float64()
		for y := range top {
			for x := range 10 {
				if rng.Float64() < density {
					b.Set(x, y)
				}
			}
			if i%5 != 0 { // mostly clean boards: one empty cell a row
				b.Rows[y] &^= 1 << uint(rng.IntN(10))
			}
		}
		b.Combo = uint32(rng.IntN(4))
		b.B2B = rng.IntN(2) == 0
		clean := !b.HasFullRow()
		if !clean {
			n.dirty++
		}
		s := State{Board: b, Bag: 0x7F}
		for p := range Piece(7) {
			w.moves[p] = w.moves[p][:0]
			for r := range Rot(4) {
				for x := -2; x < 12; x++ {
					for y := 0; y < 40; y++ {
						if b.Fits(p, r, x, y) && !b.Fits(p, r, x, y-1) {
							w.moves[p] = append(w.moves[p], Move{Piece: p, Rot: r, X: int8(x), Y: int8(y), Spin: Spin(rng.IntN(3))})
						}
					}
				}
			}
			lockMoves(w, &s, p)
			var want []int16
			for k, mv := range w.moves[p] {
				var ref Board
				res, _, _ := lockInto(&ref, &b, p, mv, clean, rowsHash(&b))
				le := &w.locks[p][k]
				if le.res != res || le.board != ref {
					t.Fatalf("board %d %v %+v: %+v, want %+v", i, b.Rows[:top], mv, le.res, res)
				}
				n.checked++
				if res.LockedOut {
					n.lockOuts++
				}
				if res.Lines > 0 {
					n.clears++
				} else if clean {
					n.fast++
				}
				if res.LockedOut || mv.Spin == SpinMini && res.Lines == 0 && b.MaxHeight() < 18 && hardDroppable(&b, p, mv) {
					n.skipped++
					continue
				}
				if le.bh != boardHash(&ref) {
					t.Fatalf("board %d %+v: board hash %#x, want %#x", i, mv, le.bh, boardHash(&ref))
				}
				want = append(want, int16(k))
			}
			if !slices.Equal(w.kept[p], want) {
				t.Fatalf("board %d piece %v: kept %v, want %v", i, p, w.kept[p], want)
			}
		}
	}
	t.Logf("%+v", n)
	if n.fast < 10000 || n.clears < 1000 || n.lockOuts < 100 || n.skipped < 1000 || n.dirty < 20 {
		t.Fatalf("the boards miss cases: %+v", n)
	}
}

// TestEvalPiece compares evalPiece's evaluations (the child's heights
// from the parent's, raised over a four-column window) with Evaluate
// reading the heights off each child's board, for every placement of
// every piece with and without hold on random boards, with queues that ask
// for zero to three T-slot cut-outs.
func TestEvalPiece(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	bt := New(Options{})
	w := bt.wks[0]
	checked := 0
	for i, b := range evalBoards(rng, 150) {
		w.stamp++
		w.have = 0
		s := State{Board: b, Bag: 0x7F}
		for p := range Piece(7) {
			bt.lockPiece(w, &s, p)
			for ci := 4 * 2 * int(p); ci < 4*2*int(p)+8; ci++ {
				held := ci&4 != 0
				in := EvalInput{NextBag: uint8(rng.IntN(128)), Hold: Piece(rng.IntN(8)) - 1, clean: true}
				bt.evalPiece(w, &s, p, held, &in, bt.eval.tslots(&in), ci)
				for k, mi := range w.kept[p] {
					mv := w.moves[p][mi]
					mv.Hold = held
					if held {
						mv.Time++
					}
					ref := EvalInput{Lock: w.locks[p][mi].res, Move: mv, NextBag: in.NextBag, Hold: in.Hold, clean: true}
					v, r := bt.eval.Evaluate(&w.locks[p][mi].board, &ref)
					if got := w.evs[ci][k]; got.val != v || got.rw != r {
						t.Fatalf("board %d %+v: %+v %+v, want %+v %+v", i, mv, got.val, got.rw, v, r)
					}
					checked++
				}
			}
		}
	}
	if checked < 20000 {
		t.Fatalf("only %d placements checked", checked)
	}
}
