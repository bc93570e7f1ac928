// This file holds training: MSE loss, Adam, mini-batches, early stopping and
// deterministic parallelism (fixed shards per batch, gradients reduced in shard order).
package nn

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
)

// Sample is one training example.
type Sample struct {
	Features []Feature
	Target   float32
}

// TrainConfig configures Train.
type TrainConfig struct {
	Epochs   int     // maximum epochs
	Batch    int     // mini-batch size
	LR       float32 // Adam step size
	Patience int     // stop after this many consecutive worse validation epochs (default 3)
	ValFrac  float64 // fraction of samples held out for validation
	Shards   int     // fixed number of gradient shards per batch (determinism does not depend on cores)
	Workers  int     // goroutines; results do not depend on it
	Seed     uint64
	OnEpoch  func(epoch int, trainLoss, valLoss float64)
}

// Train fits n to samples with Adam on MSE and returns the best validation loss;
// n is left with the weights of the best epoch.
func (n *Net) Train(ctx context.Context, samples []Sample, cfg TrainConfig) (float64, error) {
	if cfg.Batch <= 0 {
		cfg.Batch = 256
	}
	if cfg.LR == 0 {
		cfg.LR = 1e-3
	}
	if cfg.Patience <= 0 {
		cfg.Patience = 3
	}
	if cfg.Shards <= 0 {
		cfg.Shards = 8
	}
	if cfg.Workers <= 0 {
		cfg.Workers = cfg.Shards
	}
	if len(samples) < 2 {
		return 0, fmt.Errorf("nn: need at least 2 samples, have %d", len(samples))
	}
	for i, s := range samples {
		for _, f := range s.Features {
			if f.Index < 0 || int(f.Index) >= n.Inputs {
				return 0, fmt.Errorf("nn: sample %d: feature index %d out of range", i, f.Index)
			}
		}
	}
	r := rand.New(rand.NewPCG(cfg.Seed, 0x7472))
	idx := r.Perm(len(samples))
	nv := int(float64(len(samples)) * cfg.ValFrac)
	if nv < 1 {
		nv = 1
	}
	val, tr := idx[:nv], idx[nv:]
	opt := newAdam(n)
	grads := make([]*Grad, cfg.Shards)
	for i := range grads {
		grads[i] = n.NewGrad()
	}
	best, bestNet, worse := math.Inf(1), n.clone(), 0
	for ep := 0; ep < cfg.Epochs; ep++ {
		r.Shuffle(len(tr), func(i, j int) { tr[i], tr[j] = tr[j], tr[i] })
		var tl float64
		for b := 0; b < len(tr); b += cfg.Batch {
			if err := ctx.Err(); err != nil {
				return best, err
			}
			batch := tr[b:min(b+cfg.Batch, len(tr))]
			losses := make([]float64, cfg.Shards)
			var wg sync.WaitGroup
			sem := make(chan struct{}, cfg.Workers)
			for s := 0; s < cfg.Shards; s++ {
				wg.Add(1)
				sem <- struct{}{}
				go func(s int) {
					defer wg.Done()
					defer func() { <-sem }()
					g := grads[s]
					g.zero()
					acc := make([]float32, n.Hidden)
					for k := s; k < len(batch); k += cfg.Shards {
						sm := samples[batch[k]]
						l, _ := n.Backward(g, acc, sm.Features, sm.Target)
						losses[s] += float64(l)
					}
				}(s)
			}
			wg.Wait()
			for s := 1; s < cfg.Shards; s++ {
				grads[0].add(grads[s])
			}
			for _, l := range losses {
				tl += l
			}
			opt.step(n, grads[0], cfg.LR, 1/float32(len(batch)), cfg.Workers)
		}
		vl := n.loss(samples, val)
		if cfg.OnEpoch != nil {
			cfg.OnEpoch(ep, tl/float64(len(tr)), vl)
		}
		if vl < best {
			best, bestNet, worse = vl, n.clone(), 0
		} else if worse++; worse >= cfg.Patience {
			break
		}
	}
	*n = *bestNet
	return best, nil
}

func (n *Net) loss(samples []Sample, idx []int) float64 {
	acc := make([]float32, n.Hidden)
	var s float64
	for _, i := range idx {
		o, _ := n.Forward(acc, samples[i].Features)
		d := float64(o - samples[i].Target)
		s += d * d
	}
	return s / float64(len(idx))
}

// Clone returns a deep copy of the net.
func (n *Net) Clone() *Net { return n.clone() }

func (n *Net) clone() *Net {
	c := *n
	c.W1 = append([]float32(nil), n.W1...)
	c.B1 = append([]float32(nil), n.B1...)
	c.W2 = append([]float32(nil), n.W2...)
	return &c
}

// zero clears the gradient: only the touched rows of W1 can be non-zero.
func (g *Grad) zero() {
	h := len(g.W1) / len(g.touched)
	for _, i := range g.rows {
		clear(g.W1[int(i)*h : int(i+1)*h])
		g.touched[i] = false
	}
	g.rows = g.rows[:0]
	clear(g.B1)
	clear(g.W2)
	g.B2 = 0
}

// add adds o to g. Rows o did not touch are zero in o, so skipping them
// leaves g's sums as a dense add would (up to the sign of a zero, which
// the optimiser treats alike).
func (g *Grad) add(o *Grad) {
	h := len(g.W1) / len(g.touched)
	for _, i := range o.rows {
		g.touch(i)
		dst, src := g.W1[int(i)*h:int(i+1)*h], o.W1[int(i)*h:int(i+1)*h]
		for j, v := range src {
			dst[j] += v
		}
	}
	for i, v := range o.B1 {
		g.B1[i] += v
	}
	for i, v := range o.W2 {
		g.W2[i] += v
	}
	g.B2 += o.B2
}

type adam struct {
	m, v *Grad
	t    int
	// live lists the rows of W1 whose first moment may be non-zero
	// (isLive marks them): a weight with zero gradient and zero moment is
	// left alone, so the step visits only live and touched rows.
	live   []int32
	isLive []bool
	keep   []bool // scratch: keep[k] = live[k] stays live after the step
}

func newAdam(n *Net) *adam {
	return &adam{m: n.NewGrad(), v: n.NewGrad(), isLive: make([]bool, n.Inputs)}
}

// step applies one Adam update with step size lr to the mean gradient
// g·scale, on up to workers goroutines.
func (a *adam) step(n *Net, g *Grad, lr, scale float32, workers int) {
	a.t++
	const b1, b2, eps = 0.9, 0.999, 1e-8
	c1 := float32(1 - math.Pow(b1, float64(a.t)))
	c2 := float32(1 - math.Pow(b2, float64(a.t)))
	one := func(w, m, v *float32, gi float32) {
		gi *= scale
		*m = b1**m + (1-b1)*gi
		*v = b2**v + (1-b2)*gi*gi
		*w -= lr * (*m / c1) / (float32(math.Sqrt(float64(*v/c2))) + eps)
	}
	for _, i := range g.rows {
		if !a.isLive[i] {
			a.isLive[i] = true
			a.live = append(a.live, i)
		}
	}
	// Rows are independent: split the live rows among the workers (the
	// result does not depend on how), each marking the rows whose moment
	// is still non-zero; then keep those, in order.
	h := n.Hidden
	if cap(a.keep) < len(a.live) {
		a.keep = make([]bool, len(a.live), 2*len(a.live))
	}
	keep := a.keep[:len(a.live)]
	rowStep := func(lo, hi int) {
		for k := lo; k < hi; k++ {
			r := a.live[k]
			nz := false
			for i := int(r) * h; i < int(r+1)*h; i++ {
				if g.W1[i] == 0 && a.m.W1[i] == 0 {
					continue // no gradient and no momentum: nothing moves
				}
				one(&n.W1[i], &a.m.W1[i], &a.v.W1[i], g.W1[i])
				nz = nz || a.m.W1[i] != 0
			}
			keep[k] = nz
		}
	}
	parts := max(1, min(workers, len(a.live)/1024))
	if parts == 1 {
		rowStep(0, len(a.live))
	} else {
		var wg sync.WaitGroup
		for p := 0; p < parts; p++ {
			wg.Add(1)
			go func(lo, hi int) {
				defer wg.Done()
				rowStep(lo, hi)
			}(p*len(a.live)/parts, (p+1)*len(a.live)/parts)
		}
		wg.Wait()
	}
	k := 0
	for j, r := range a.live {
		if keep[j] {
			a.live[k] = r
			k++
		} else {
			a.isLive[r] = false
		}
	}
	a.live = a.live[:k]
	for i := range g.B1 {
		one(&n.B1[i], &a.m.B1[i], &a.v.B1[i], g.B1[i])
	}
	for i := range g.W2 {
		one(&n.W2[i], &a.m.W2[i], &a.v.W2[i], g.W2[i])
	}
	one(&n.B2, &a.m.B2, &a.v.B2, g.B2)
}
