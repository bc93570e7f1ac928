// This file holds the fast inference path: tanhExp from a table with linear
// interpolation (TanhExpFast) and OutputFast, which uses it.
package nn

import "math"

// The table covers [fastLo, tanhExpSat) with fastSteps points per unit.
// Below fastLo, |x·tanh(eˣ)| ≤ 16·e⁻¹⁶ ≈ 1.8e-6 (and shrinks towards −∞),
// so 0 is within FastMaxError; from tanhExpSat on TanhExp is x.
const (
	fastLo    = -16
	fastSteps = 128
	fastN     = (tanhExpSat-fastLo)*fastSteps + 1
)

// FastMaxError bounds |TanhExpFast(x) − TanhExp(x)| for every float32 x
// (linear interpolation with step h = 1/128 errs by at most h²/8 times
// the largest second derivative, about 7e-6 here; TestTanhExpFast measures
// 7.0e-6 on a dense grid).
const FastMaxError = 1e-5

// fastTab[i] holds the table's value at point i and the slope to point
// i+1 side by side, so that a lookup reads one cache line, not two.
var fastTab [fastN][2]float32

func init() {
	for i := range fastN {
		x := fastLo + float64(i)/fastSteps
		fastTab[i][0] = float32(x * math.Tanh(math.Exp(x)))
	}
	for i := 0; i+1 < fastN; i++ {
		fastTab[i][1] = fastTab[i+1][0] - fastTab[i][0]
	}
}

// TanhExpFast is TanhExp from a table with linear interpolation, within
// FastMaxError of it; NaN gives NaN.
func TanhExpFast(x float32) float32 {
	if x >= tanhExpSat {
		return x
	}
	u := (x - fastLo) * fastSteps
	if !(u >= 0) {
		if x != x {
			return x // NaN
		}
		return 0
	}
	i := int(u)
	f := u - float32(i)
	t := &fastTab[i]
	return t[0] + f*t[1]
}

// OutputFast is Output with TanhExpFast: the value differs from Output by at
// most about Σⱼ|W2ⱼ|·FastMaxError (tanh has slope ≤ 1).
func (n *Net) OutputFast(acc []float32) float32 {
	return Squash(n.OutputFastRaw(acc))
}

// OutputFastRaw is OutputFast before the final tanh: OutputFast(acc) ==
// Squash(OutputFastRaw(acc)) bit for bit. Squash is non-decreasing, so the
// largest of several values is the squash of the largest raw sum, and a
// caller that only takes maxima squashes once.
func (n *Net) OutputFastRaw(acc []float32) float32 {
	s := n.B2
	w2 := n.W2[:len(acc)]
	for j, a := range acc {
		s += w2[j] * TanhExpFast(a)
	}
	return s
}

// Squash is the output layer's tanh as Output and OutputFast round it. It
// is non-decreasing over every float32 (TestSquashMonotone; Go's math.Tanh
// switches formulas at 0.625, so this is checked, not assumed) and odd.
func Squash(s float32) float32 { return float32(math.Tanh(float64(s))) }
