// This file holds the beam's evaluators for any net (Evaluators) and
// DNFEval, the evaluator of D&F-feature nets: a plain float sum of the 120
// active weight rows per well, no quantisation and no incremental sums.
package train

import (
	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/hatetris/player"
	"github.com/yomi-ai/yomi/nn"
)

// Evaluators makes one net's per-goroutine evaluators for the beam: Tables
// for knewjade nets, DNFTables for D&F nets (NewEvaluators picks).
type Evaluators interface {
	Net() *nn.Net
	NewValuer() Valuer
}

// Valuer is one goroutine's evaluator: a beam evaluator (Eval ignores the
// score) that also values a single well.
type Valuer interface {
	player.Evaluator
	Value(w *hatetris.Well) (float32, error)
}

// NewEvaluators returns the evaluators for net's feature set (NetFeatures).
func NewEvaluators(net *nn.Net) (Evaluators, error) {
	f, err := NetFeatures(net)
	if err != nil {
		return nil, err
	}
	if f == DNF {
		return &DNFTables{net: net}, nil
	}
	return NewTables(net)
}

// NewValuer implements Evaluators.
func (t *Tables) NewValuer() Valuer { return t.New() }

// DNFTables is Evaluators for a D&F net.
type DNFTables struct{ net *nn.Net }

// Net returns the net.
func (t *DNFTables) Net() *nn.Net { return t.net }

// NewValuer implements Evaluators.
func (t *DNFTables) NewValuer() Valuer { return t.New() }

// New returns an evaluator for one goroutine.
func (t *DNFTables) New() *DNFEval {
	return &DNFEval{net: t.net, acc: make([]float32, t.net.Hidden)}
}

// DNFEval values wells with a D&F net: the bias plus the 120 active
// weight rows, then the hidden and output layers with nn.TanhExpFast
// (nn.Net.OutputFastRaw), so its values are Forward's within
// about Σ|W2|·nn.FastMaxError. It implements player.ScoreFree and
// player.Squashing. Use one per goroutine.
type DNFEval struct {
	net *nn.Net
	acc []float32
}

// Value returns the net's value in [-1, 1] for w; wells with cells above
// the bar or full rows are an error.
func (e *DNFEval) Value(w *hatetris.Well) (float32, error) {
	if err := check(w); err != nil {
		return 0, err
	}
	return nn.Squash(e.raw(w)), nil
}

// raw sums the active rows into acc and returns the output before its tanh.
func (e *DNFEval) raw(w *hatetris.Well) float32 {
	n := e.net
	h := n.Hidden
	acc := e.acc[:h]
	copy(acc, n.B1)
	add := func(i int) {
		row := n.W1[i*h : (i+1)*h]
		for j, v := range row {
			acc[j] += v
		}
	}
	rows := w[hatetris.Bar:]
	for y := 0; y < Rows; y++ {
		add(y*dnfRowPatterns + int(rows[y]&(dnfRowPatterns-1)))
	}
	for c := 0; c < DNFBlockCols; c++ {
		v := uint32(rows[0]>>c&7)<<6 | uint32(rows[1]>>c&7)<<3 | uint32(rows[2]>>c&7)
		base := dnfBlockBase + c*DNFBlockRows*dnfBlockPatterns
		for y := 0; y < DNFBlockRows; y++ {
			v = (v<<3 | uint32(rows[y+3]>>c&7)) & (dnfBlockPatterns - 1)
			add(base + y*dnfBlockPatterns + int(v))
		}
	}
	return n.OutputFastRaw(acc)
}

// Eval implements player.Evaluator: the net's value, ignoring the score.
func (e *DNFEval) Eval(w *hatetris.Well, score int) float64 {
	return e.Squash(e.EvalRaw(w, score))
}

// EvalRaw implements player.Squashing: Eval before the final tanh.
func (e *DNFEval) EvalRaw(w *hatetris.Well, score int) float64 { return float64(e.raw(w)) }

// Squash implements player.Squashing (nn.Squash).
func (e *DNFEval) Squash(raw float64) float64 { return float64(nn.Squash(float32(raw))) }

// ScoreFree implements player.ScoreFree.
func (e *DNFEval) ScoreFree() bool { return true }
