// Package train holds the HATETRIS side of the learned evaluator: pattern
// features of a hatetris.Well for the nn package (Features; D&F's
// positional windows, DNFFeatures, are the other FeatureSet), a fast
// incremental evaluator that plugs into the beam search (NetEval; DNFEval
// for D&F nets, NewEvaluators picks), and the Search → Refine → Learn
// cycle (Run).
package train

import (
	"fmt"
	"slices"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/nn"
)

// Rows is the number of well rows the features see: the playing area below the bar.
const Rows = hatetris.Height - hatetris.Bar

// Input layout: 1023 row patterns (0–1022), then 4096 3×4 window patterns.
const (
	RowPatterns    = 1023
	WindowPatterns = 4096
	Inputs         = RowPatterns + WindowPatterns
	// WindowStarts is the number of window rows: 16 well rows plus the floor, 4 high.
	WindowStarts = Rows + 1 - 3
	// PerWell is the number of pattern occurrences per well (16 rows + 14×10 windows).
	PerWell = Rows + WindowStarts*hatetris.Width
)

// padded returns the 16 rows below the bar with a wall bit on each side
// (bit 0 and bit 11) and the floor as a 17th all-ones row.
func padded(w *hatetris.Well) (pad [Rows + 1]uint16) {
	for y := 0; y < Rows; y++ {
		pad[y] = 1 | w[hatetris.Bar+y]<<1 | 1<<(hatetris.Width+1)
	}
	pad[Rows] = 1<<(hatetris.Width+2) - 1
	return pad
}

// windows returns the 10 window patterns (3 wide × 4 high, bit 3·dy+dx) of
// window row s of a padded well.
func windows(pad *[Rows + 1]uint16, s int, dst *[hatetris.Width]int32) {
	v := uint64(pad[s]) | uint64(pad[s+1])<<12 | uint64(pad[s+2])<<24 | uint64(pad[s+3])<<36
	for x := 0; x < hatetris.Width; x++ {
		t := v >> uint(x)
		dst[x] = int32(RowPatterns + (t&7 | t>>9&0x38 | t>>18&0x1c0 | t>>27&0xe00))
	}
}

// check rejects wells the features do not describe: a full row below the
// bar (the game clears it) or cells above the bar (game over).
func check(w *hatetris.Well) error {
	for y := 0; y < hatetris.Bar; y++ {
		if w[y] != 0 {
			return fmt.Errorf("train: row %d above the bar is not empty (game over)", y)
		}
	}
	for y := hatetris.Bar; y < hatetris.Height; y++ {
		if w[y] >= hatetris.FullRow {
			return fmt.Errorf("train: row %d is full or has bits beyond width %d", y, hatetris.Width)
		}
	}
	return nil
}

// Features appends the well's pattern counts to dst (sorted by index, counts
// merged) using idx as scratch, and returns both: the 16 row patterns below
// the bar and 10×14 windows of 3 wide × 4 high over those rows padded with
// walls and floor (not the space above the bar).
func Features(dst []nn.Feature, idx []int32, w *hatetris.Well) ([]nn.Feature, []int32, error) {
	idx = idx[:0]
	if err := check(w); err != nil {
		return dst, idx, err
	}
	for y := hatetris.Bar; y < hatetris.Height; y++ {
		idx = append(idx, int32(w[y]))
	}
	pad := padded(w)
	var win [hatetris.Width]int32
	for s := 0; s < WindowStarts; s++ {
		windows(&pad, s, &win)
		idx = append(idx, win[:]...)
	}
	return countPatterns(dst, idx), idx, nil
}

// SmallFeatures is Features for a small well of h rows below the bar (a
// hatetris.SmallWell: the rows under them are full and stand for the
// floor): h row patterns and 10×(h−2) windows over those rows, the walls
// and the floor. Fewer patterns than a 16-row well, fed as they are (the
// solved start, spec §7.1).
func SmallFeatures(dst []nn.Feature, idx []int32, w *hatetris.Well, h int) ([]nn.Feature, []int32, error) {
	idx = idx[:0]
	if h < 3 || h > Rows {
		return dst, idx, fmt.Errorf("train: small well height %d, want 3..%d", h, Rows)
	}
	var pad [Rows + 1]uint16
	for y := 0; y < h; y++ {
		r := w[hatetris.Bar+y]
		if r >= hatetris.FullRow {
			return dst, idx, fmt.Errorf("train: small well row %d is full", y)
		}
		idx = append(idx, int32(r))
		pad[y] = 1 | r<<1 | 1<<(hatetris.Width+1)
	}
	pad[h] = 1<<(hatetris.Width+2) - 1
	var win [hatetris.Width]int32
	for s := 0; s+3 <= h; s++ {
		windows(&pad, s, &win)
		idx = append(idx, win[:]...)
	}
	return countPatterns(dst, idx), idx, nil
}

// countPatterns appends to dst one feature per distinct pattern in idx
// (sorted in place) with its count.
func countPatterns(dst []nn.Feature, idx []int32) []nn.Feature {
	slices.Sort(idx)
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && idx[j] == idx[i] {
			j++
		}
		dst = append(dst, nn.Feature{Index: idx[i], Count: float32(j - i)})
		i = j
	}
	return dst
}
