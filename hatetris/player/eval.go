// This file holds the Evaluator interface and the hand-made heuristic.

package player

import (
	"math/bits"

	"github.com/yomi-ai/yomi/hatetris"
)

// Evaluator values a well after a lock (higher is better). The beam keeps
// the wells with the highest values. One Evaluator is used by one goroutine
// at a time; the search asks its factory for one per worker.
type Evaluator interface {
	Eval(w *hatetris.Well, score int) float64
}

// ParentAware is an optional Evaluator extension for incremental
// evaluators: the search calls SetParent with a well before valuing that
// well's children (and their quiescence chains), so the evaluator can start
// from the parent's sums. Values must not depend on it beyond rounding.
type ParentAware interface {
	SetParent(w *hatetris.Well)
}

// ScoreFree is an optional Evaluator extension: an evaluator whose value
// of a well does not depend on the score argument says so, and the search
// then memoises each well's value with its quiescence chains (chains meet
// the same wells again in other orders: a third of a net beam's
// evaluations are repeats). The memo returns the bits it stored, so the
// search is the same with and without it.
type ScoreFree interface {
	ScoreFree() bool
}

// Squashing is an optional Evaluator extension for an evaluator whose
// value is a non-decreasing function (Squash) of a raw value that is
// cheaper to compute (EvalRaw): Eval(w, s) must equal Squash(EvalRaw(w, s))
// bit for bit. The quiescence lookahead takes maxima of raw values and
// squashes once per child, which gives Eval's values exactly (the max of
// non-decreasing images is the image of the max) and skips the squash of
// every chain well (the net's final tanh).
type Squashing interface {
	EvalRaw(w *hatetris.Well, score int) float64
	Squash(raw float64) float64
}

// Heuristic is a hand-made evaluator: a weighted sum of the well's shape
// features. The zero value is not useful; start from DefaultHeuristic.
type Heuristic struct {
	Lines     float64 // per line scored
	Holes     float64 // per empty cell with a filled cell above it
	Covered   float64 // per filled cell above a hole in its column
	Height    float64 // per unit of aggregate column height
	MaxHeight float64 // per row of the highest column
	Bumpiness float64 // per unit of height difference between neighbours
	Wells     float64 // per cell of depth of wells (columns lower than both neighbours)
	RowTrans  float64 // per filled/empty change along rows (walls filled)
}

// DefaultHeuristic returns the weights used by `yomi hatetris search`: a
// hand-made start refined by two short hill climbs on the lines reached at
// beam widths 300 and 2000 (sum 33 → 52). Signs are what the climb found.
func DefaultHeuristic() Heuristic {
	return Heuristic{Lines: 36.4, Holes: -4.31, Covered: 0.82, Height: 0.44, MaxHeight: -2.02, Bumpiness: 1.08, Wells: -0.54, RowTrans: -4.82}
}

// Eval implements Evaluator.
func (h Heuristic) Eval(w *hatetris.Well, score int) float64 {
	var heights [hatetris.Width]int
	var seen uint16 // columns with a filled cell at or above the current row
	holes, covered, rowTrans := 0, 0, 0
	var above [hatetris.Width]int // filled cells above the current row per column
	for y := hatetris.Bar; y < hatetris.Height; y++ {
		r := w[y]
		for m := r &^ seen; m != 0; m &= m - 1 {
			heights[bits.TrailingZeros16(m)] = hatetris.Height - y
		}
		hole := seen &^ r
		if hole != 0 {
			holes += bits.OnesCount16(hole)
			for m := hole; m != 0; m &= m - 1 {
				covered += above[bits.TrailingZeros16(m)]
				above[bits.TrailingZeros16(m)] = 0
			}
		}
		for m := r; m != 0; m &= m - 1 {
			above[bits.TrailingZeros16(m)]++
		}
		seen |= r
		// Row transitions with both walls counted as filled.
		ext := uint32(r)<<1 | 1 | 1<<(hatetris.Width+1)
		rowTrans += bits.OnesCount32((ext ^ ext>>1) & (1<<(hatetris.Width+1) - 1))
	}
	agg, maxH, bump, wells := 0, 0, 0, 0
	for x := 0; x < hatetris.Width; x++ {
		agg += heights[x]
		maxH = max(maxH, heights[x])
		if x > 0 {
			d := heights[x] - heights[x-1]
			if d < 0 {
				d = -d
			}
			bump += d
		}
		l, r := hatetris.Height, hatetris.Height
		if x > 0 {
			l = heights[x-1]
		}
		if x < hatetris.Width-1 {
			r = heights[x+1]
		}
		if d := min(l, r) - heights[x]; d > 0 {
			wells += d
		}
	}
	return h.Lines*float64(score) + h.Holes*float64(holes) + h.Covered*float64(covered) +
		h.Height*float64(agg) + h.MaxHeight*float64(maxH) + h.Bumpiness*float64(bump) +
		h.Wells*float64(wells) + h.RowTrans*float64(rowTrans)
}
