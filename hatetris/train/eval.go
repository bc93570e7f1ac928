// This file holds Evaluator, which scores wells with an nn.Net.
package train

import (
	"fmt"

	"github.com/yomi-ai/yomi/nn"
)

// Evaluator scores wells with a net; it owns scratch buffers, so use one per goroutine.
type Evaluator struct {
	net   *nn.Net
	feats []nn.Feature
	idx   []int32
	acc   []float32
}

// NewEvaluator checks the net's input count and returns an evaluator.
func NewEvaluator(net *nn.Net) (*Evaluator, error) {
	if net.Inputs != Inputs {
		return nil, fmt.Errorf("train: net has %d inputs, HATETRIS features need %d", net.Inputs, Inputs)
	}
	return &Evaluator{net: net, acc: make([]float32, net.Hidden)}, nil
}

// Eval returns the net's value in [-1, 1] for w (higher is better for the player).
func (e *Evaluator) Eval(w *Well) (float32, error) {
	var err error
	e.feats, e.idx, err = Features(e.feats[:0], e.idx, w)
	if err != nil {
		return 0, err
	}
	return e.net.Forward(e.acc, e.feats)
}
