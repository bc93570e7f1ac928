package tetris

import (
	"math/rand/v2"
	"testing"
)

// filterFull is the plain reference for clearing: the rows that are not
// full, in order, then empty rows, and how many were full.
func filterFull(rows [Height]uint16) (kept [Height]uint16, full int) {
	n := 0
	for _, r := range rows {
		if r == FullRow {
			full++
			continue
		}
		kept[n] = r
		n++
	}
	return kept, full
}

// TestClearLinesRandom compares ClearLines with a plain filter (keep the
// rows that are not full, in order, then empty rows) on random matrices
// with full rows anywhere, none, or all.
func TestClearLinesRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for i := range 3000 {
		var b Board
		pFull := []float64{0, 0.05, 0.3, 1}[i%4]
		for y := range Height {
			switch {
			case rng.Float64() < pFull:
				b.Rows[y] = FullRow
			case y < 20:
				b.Rows[y] = uint16(rng.IntN(int(FullRow)))
			}
		}
		want, lines := filterFull(b.Rows)
		got := b
		if l := got.ClearLines(); l != lines || got.Rows != want {
			t.Fatalf("case %d: %d lines, want %d; rows %v, want %v", i, l, lines, got.Rows, want)
		}
	}
}

// TestPlaceRandom compares Place (row masks when the piece is on the
// board) with writing its four cells one by one and filtering the full
// rows, for every piece, orientation and origin around random matrices,
// including pieces partly off the board and full rows left from before;
// PlaceClean the same on the matrices without a full row.
func TestPlaceRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	checked, cleared, lockOuts, checkedClean := 0, 0, 0, 0
	for i := range 300 {
		var b Board
		top := rng.IntN(Height + 1)
		for y := range top {
			b.Rows[y] = uint16(rng.IntN(int(FullRow) + 1))
			if rng.IntN(4) == 0 {
				b.Rows[y] = FullRow &^ (1 << uint(rng.IntN(Width)))
			}
		}
		if i%10 == 0 {
			b.Rows[rng.IntN(Height)] = FullRow
		}
		for p := range Piece(NumPieces) {
			for r := range Rot(4) {
				for x := -3; x < Width+3; x++ {
					for y := -3; y < Height+3; y++ {
						pl := Placement{Piece: p, Rot: r, X: int8(x), Y: int8(y)}
						want := b
						wantOut := true
						for _, c := range pl.Cells() {
							if c.Y < Visible {
								wantOut = false
							}
							want.Set(int(c.X), int(c.Y))
						}
						kept, wantLines := filterFull(want.Rows)
						got := b
						lines, out := got.Place(pl)
						if lines != wantLines || out != wantOut || got.Rows != kept {
							t.Fatalf("board %d, %v: lines %d locked out %v, want %d %v", i, pl, lines, out, wantLines, wantOut)
						}
						if _, full := fullRowOf(b); b.HasFullRow() != full {
							t.Fatalf("board %d: HasFullRow %v, want %v", i, !full, full)
						} else if !full {
							clean := b
							lines, out := clean.PlaceClean(pl)
							if lines != wantLines || out != wantOut || clean.Rows != kept {
								t.Fatalf("board %d, %v: PlaceClean: lines %d locked out %v, want %d %v", i, pl, lines, out, wantLines, wantOut)
							}
							checkedClean++
						}
						checked++
						if lines > 0 {
							cleared++
						}
						if out {
							lockOuts++
						}
					}
				}
			}
		}
	}
	if cleared < 1000 || lockOuts < 1000 || checkedClean < checked/2 {
		t.Fatalf("%d placements, only %d cleared lines and %d locked out: the cases miss a branch", checked, cleared, lockOuts)
	}
}

// TestMaxHeightHeights compares MaxHeight and Heights with cell-by-cell
// readings on random matrices, including floating rows, empty rows under
// filled ones and the top row.
func TestMaxHeightHeights(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 11))
	for i := range 5000 {
		var b Board
		for range rng.IntN(12) {
			b.Rows[rng.IntN(Height)] |= uint16(1 + rng.IntN(int(FullRow)))
		}
		want, wantH := 0, [Width]int{}
		for y := range Height {
			for x := range Width {
				if b.Occupied(x, y) {
					want = max(want, y+1)
					wantH[x] = max(wantH[x], y+1)
				}
			}
		}
		var h [Width]int
		b.Heights(&h)
		if got := b.MaxHeight(); got != want || h != wantH {
			t.Fatalf("case %d %v: max height %d heights %v, want %d %v", i, b.Rows, got, h, want, wantH)
		}
	}
}

// fullRowOf returns the lowest full row of b, read row by row.
func fullRowOf(b Board) (int, bool) {
	for y, r := range b.Rows {
		if r == FullRow {
			return y, true
		}
	}
	return 0, false
}
