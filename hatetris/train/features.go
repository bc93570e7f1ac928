// Package train holds the HATETRIS side of the learned evaluator: pattern
// features for the nn package (Features) and, later, the Search → Refine →
// Learn cycle. It uses its own minimal well (Well) until the engine lands.
package train

import (
	"fmt"
	"slices"

	"github.com/yomi-ai/yomi/nn"
)

// Well geometry.
const (
	Width  = 10
	Height = 16
)

// Well is a minimal HATETRIS well: Rows[0] is the top row, bit c is column c.
type Well struct{ Rows [Height]uint16 }

// Input layout: 1023 row patterns (0–1022), then 4096 3×4 window patterns.
const (
	RowPatterns    = 1023
	WindowPatterns = 4096
	Inputs         = RowPatterns + WindowPatterns
)

// cell reports whether (x, y) is filled, with walls (x = −1, Width) and the
// floor (y = Height) filled.
func (w *Well) cell(x, y int) bool {
	if x < 0 || x >= Width || y >= Height {
		return true
	}
	return w.Rows[y]>>uint(x)&1 != 0
}

// Features appends the well's pattern counts to dst (sorted by index, counts
// merged) using idx as scratch, and returns both: 16 row patterns and 10×14
// windows of 3 wide × 4 high over the well padded with walls and floor (not the
// space above the top). A full row is an error (the game clears it).
func Features(dst []nn.Feature, idx []int32, w *Well) ([]nn.Feature, []int32, error) {
	idx = idx[:0]
	for y, r := range w.Rows {
		if r >= 1<<Width {
			return dst, idx, fmt.Errorf("train: row %d has bits beyond width %d", y, Width)
		}
		if r == 1<<Width-1 {
			return dst, idx, fmt.Errorf("train: row %d is full", y)
		}
		idx = append(idx, int32(r))
	}
	// Padded rows: walls at bit 0 and bit 11; floor row all ones.
	var pad [Height + 1]uint16
	for y, r := range w.Rows {
		pad[y] = 1 | r<<1 | 1<<(Width+1)
	}
	pad[Height] = 1<<(Width+2) - 1
	for y := 0; y+4 <= Height+1; y++ {
		for x := 0; x < Width; x++ { // left edge of window in padded coordinates
			p := 0
			for dy := 0; dy < 4; dy++ {
				p |= int(pad[y+dy]>>uint(x)&7) << (3 * dy)
			}
			idx = append(idx, int32(RowPatterns+p))
		}
	}
	slices.Sort(idx)
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && idx[j] == idx[i] {
			j++
		}
		dst = append(dst, nn.Feature{Index: idx[i], Count: float32(j - i)})
		i = j
	}
	return dst, idx, nil
}
