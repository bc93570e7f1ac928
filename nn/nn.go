// Package nn holds a small game-agnostic sparse-input MLP: inputs are counts of
// active features, the first layer sums weight rows of the active features,
// a hidden layer uses tanhExp and the output is tanh in [-1, 1]. Start with
// New, Net.Forward and Net.Train; Save/Load give a versioned, checksummed file.
package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Feature is one active input with its count.
type Feature struct {
	Index int32   // feature index in [0, Inputs)
	Count float32 // how many times the feature occurs
}

// Net is a sparse-input MLP with one tanhExp hidden layer and a tanh output.
type Net struct {
	Inputs, Hidden int
	// Features names the input encoding the weights were trained for (the
	// caller's vocabulary; "" is the caller's default and is what every
	// version-1 file holds). The file records it so that a net is never
	// fed another encoding's indices.
	Features string
	W1       []float32 // Inputs*Hidden, row i = weights of feature i
	B1       []float32 // Hidden
	W2       []float32 // Hidden
	B2       float32
}

// New returns a net with small random weights drawn from seed.
func New(inputs, hidden int, seed uint64) (*Net, error) {
	if inputs <= 0 || hidden <= 0 {
		return nil, fmt.Errorf("nn: bad shape inputs=%d hidden=%d", inputs, hidden)
	}
	r := rand.New(rand.NewPCG(seed, 0x6e6e))
	n := &Net{Inputs: inputs, Hidden: hidden, W1: make([]float32, inputs*hidden), B1: make([]float32, hidden), W2: make([]float32, hidden)}
	s1 := float32(1 / math.Sqrt(float64(inputs)))
	for i := range n.W1 {
		n.W1[i] = (2*r.Float32() - 1) * s1
	}
	s2 := float32(1 / math.Sqrt(float64(hidden)))
	for i := range n.W2 {
		n.W2[i] = (2*r.Float32() - 1) * s2
	}
	return n, nil
}

// tanhExpSat is where tanh(eˣ) rounds to 1 in float32 (tanh(e³) = 1 − 3.6e-18),
// so TanhExp(x) = x and its slope is 1 from there on; skipping the
// transcendental calls there is exact in float32.
const tanhExpSat = 3

// TanhExp is x·tanh(eˣ).
func TanhExp(x float32) float32 {
	if x >= tanhExpSat {
		return x
	}
	return x * float32(math.Tanh(math.Exp(float64(x))))
}

func tanhExpGrad(x float32) float32 {
	if x >= tanhExpSat {
		return 1
	}
	e := math.Exp(float64(x))
	t := math.Tanh(e)
	return float32(t + float64(x)*e*(1-t*t))
}

// Accumulate adds the first-layer sums of feats into acc (length Hidden),
// which the caller initialises (e.g. with Reset); it is the incremental API.
func (n *Net) Accumulate(acc []float32, feats []Feature) error {
	for _, f := range feats {
		if f.Index < 0 || int(f.Index) >= n.Inputs {
			return fmt.Errorf("nn: feature index %d out of range [0,%d)", f.Index, n.Inputs)
		}
		row := n.W1[int(f.Index)*n.Hidden : (int(f.Index)+1)*n.Hidden]
		for j, w := range row {
			acc[j] += f.Count * w
		}
	}
	return nil
}

// Reset sets acc to the first-layer biases.
func (n *Net) Reset(acc []float32) { copy(acc, n.B1) }

// Output computes the net's value from an accumulator.
func (n *Net) Output(acc []float32) float32 {
	s := n.B2
	for j, a := range acc {
		s += n.W2[j] * TanhExp(a)
	}
	return float32(math.Tanh(float64(s)))
}

// Forward evaluates feats; acc is a caller-owned buffer of length Hidden.
func (n *Net) Forward(acc []float32, feats []Feature) (float32, error) {
	n.Reset(acc)
	if err := n.Accumulate(acc, feats); err != nil {
		return 0, err
	}
	return n.Output(acc), nil
}

// Grad holds gradients with the net's shape. It lists the first-layer
// rows Backward touched (each once), so that clearing, summing and the
// optimiser's step visit only those: a net with many inputs and few active
// per sample (positional features: 442 368 rows, 120 active) trains at the
// cost of its active rows.
type Grad struct {
	W1, B1, W2 []float32
	B2         float32
	rows       []int32 // touched first-layer rows, in first-touch order
	touched    []bool  // touched[i]: row i is in rows
}

// NewGrad returns zero gradients shaped like n.
func (n *Net) NewGrad() *Grad {
	return &Grad{W1: make([]float32, len(n.W1)), B1: make([]float32, len(n.B1)), W2: make([]float32, len(n.W2)),
		touched: make([]bool, n.Inputs)}
}

// touch records that row i of W1 may be non-zero.
func (g *Grad) touch(i int32) {
	if !g.touched[i] {
		g.touched[i] = true
		g.rows = append(g.rows, i)
	}
}

// Backward adds the gradient of (out−target)² for one sample to g and returns the loss.
func (n *Net) Backward(g *Grad, acc []float32, feats []Feature, target float32) (float32, error) {
	out, err := n.Forward(acc, feats)
	if err != nil {
		return 0, err
	}
	d := out - target
	dS := 2 * d * (1 - out*out)
	g.B2 += dS
	for _, f := range feats {
		g.touch(f.Index)
	}
	for j, a := range acc {
		g.W2[j] += dS * TanhExp(a)
		dA := dS * n.W2[j] * tanhExpGrad(a)
		g.B1[j] += dA
		for _, f := range feats {
			g.W1[int(f.Index)*n.Hidden+j] += dA * f.Count
		}
	}
	return d * d, nil
}
