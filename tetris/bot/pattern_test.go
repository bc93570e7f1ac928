package bot

import (
	"math/rand/v2"
	"testing"
)

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
		for y := range top {
			for x := range 10 {
				if rng.Float64() < density {
					b.Set(x, y)
				}
			}
		}
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
