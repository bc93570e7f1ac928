// Tests for the MLP: gradient check against finite differences, file round
// trip and corruption errors, deterministic training that learns.
package nn

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func randFeats(r *rand.Rand, inputs int) []Feature {
	k := 1 + r.IntN(6)
	f := make([]Feature, k)
	for i := range f {
		f[i] = Feature{Index: int32(r.IntN(inputs)), Count: float32(1 + r.IntN(3))}
	}
	return f
}

func TestGradCheck(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n, _ := New(20, 8, 3)
	for i := range n.W1 {
		n.W1[i] *= 3
	}
	for trial := 0; trial < 5; trial++ {
		feats := randFeats(r, n.Inputs)
		target := float32(r.Float64()*2 - 1)
		g := n.NewGrad()
		acc := make([]float32, n.Hidden)
		n.Backward(g, acc, feats, target)
		loss := func() float64 {
			o, _ := n.Forward(acc, feats)
			d := float64(o) - float64(target)
			return d * d
		}
		check := func(name string, w *float32, an float32) {
			const h = 1e-2
			old := *w
			*w = old + h
			lp := loss()
			*w = old - h
			lm := loss()
			*w = old
			num := (lp - lm) / (2 * h)
			if math.Abs(num-float64(an)) > 2e-3+0.05*math.Abs(num) {
				t.Errorf("%s: analytic %g numeric %g", name, an, num)
			}
		}
		check("B2", &n.B2, g.B2)
		for j := 0; j < n.Hidden; j++ {
			check("W2", &n.W2[j], g.W2[j])
			check("B1", &n.B1[j], g.B1[j])
			i := int(feats[0].Index)*n.Hidden + j
			check("W1", &n.W1[i], g.W1[i])
		}
	}
}

func TestTanhExp(t *testing.T) {
	for _, c := range []struct{ x, want float64 }{{0, 0}, {1, math.Tanh(math.E)}, {-1, -math.Tanh(1 / math.E)}} {
		if got := TanhExp(float32(c.x)); math.Abs(float64(got)-c.want) > 1e-6 {
			t.Errorf("TanhExp(%g)=%g want %g", c.x, got, c.want)
		}
	}
}

func TestFileRoundTripAndErrors(t *testing.T) {
	n, _ := New(30, 5, 7)
	b, _ := n.MarshalBinary()
	m, err := Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := m.MarshalBinary()
	if !bytes.Equal(b, b2) {
		t.Fatal("round trip differs")
	}
	bad := append([]byte(nil), b...)
	bad[40] ^= 1
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"corrupt", bad, "checksum"},
		{"truncated", b[:len(b)-3], "truncated"},
		{"short", b[:5], "truncated"},
		{"magic", append([]byte("XXXXXX"), b[6:]...), "magic"},
	}
	for _, c := range cases {
		if _, err := Unmarshal(c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err=%v want %q", c.name, err, c.want)
		}
	}
	if _, err := n.Forward(make([]float32, 5), []Feature{{Index: 30, Count: 1}}); err == nil {
		t.Error("out-of-range feature accepted")
	}
}

func FuzzUnmarshal(f *testing.F) {
	n, _ := New(4, 3, 1)
	b, _ := n.MarshalBinary()
	f.Add(b)
	f.Add([]byte("YOMINN"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Unmarshal(data)
		if err == nil {
			if _, err := m.Forward(make([]float32, m.Hidden), []Feature{{0, 1}}); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestTrainLearnsDeterministic fits a target that is a function of the features
// and checks loss drops and two runs with different worker counts agree bit for bit.
func TestTrainLearnsDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var samples []Sample
	for i := 0; i < 2000; i++ {
		f := randFeats(r, 16)
		var s float64
		for _, x := range f {
			s += float64(x.Count) * (float64(x.Index%4) - 1.5) / 4
		}
		samples = append(samples, Sample{f, float32(math.Tanh(s))})
	}
	run := func(workers int) (*Net, float64) {
		n, _ := New(16, 12, 9)
		l, err := n.Train(context.Background(), samples, TrainConfig{Epochs: 30, Batch: 64, LR: 1e-2, ValFrac: 0.1, Shards: 4, Workers: workers, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		return n, l
	}
	n0, _ := New(16, 12, 9)
	all := make([]int, len(samples))
	for i := range all {
		all[i] = i
	}
	before := n0.loss(samples, all)
	a, la := run(1)
	b, lb := run(4)
	if la != lb {
		t.Fatalf("nondeterministic: %g vs %g", la, lb)
	}
	ab, _ := a.MarshalBinary()
	bb, _ := b.MarshalBinary()
	if !bytes.Equal(ab, bb) {
		t.Fatal("weights differ across worker counts")
	}
	if la > before/4 {
		t.Fatalf("did not learn: before %g after %g", before, la)
	}
}

func BenchmarkForward(b *testing.B) {
	n, _ := New(1023+4096, 24, 1)
	r := rand.New(rand.NewPCG(1, 1))
	feats := make([]Feature, 40)
	for i := range feats {
		feats[i] = Feature{Index: int32(r.IntN(n.Inputs)), Count: 1}
	}
	acc := make([]float32, n.Hidden)
	for b.Loop() {
		n.Forward(acc, feats)
	}
}

func TestSaveLoadFile(t *testing.T) {
	n, _ := New(8, 3, 2)
	p := t.TempDir() + "/x.net"
	if err := n.SaveFile(p); err != nil {
		t.Fatal(err)
	}
	m, err := LoadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if m.B2 != n.B2 || m.W1[5] != n.W1[5] {
		t.Fatal("loaded net differs")
	}
	if _, err := LoadFile(p + ".missing"); err == nil {
		t.Fatal("missing file accepted")
	}
}

// TestTanhExpSaturation checks the shortcut above tanhExpSat against the
// formula and the slope against a finite difference on both sides.
func TestTanhExpSaturation(t *testing.T) {
	for _, x := range []float64{2.9, 3, 3.5, 8, 40} {
		want := float32(x * math.Tanh(math.Exp(x)))
		if got := TanhExp(float32(x)); got != want {
			t.Errorf("TanhExp(%g) = %g, formula %g", x, got, want)
		}
		const h = 1e-3
		num := (float64(TanhExp(float32(x+h))) - float64(TanhExp(float32(x-h)))) / (2 * h)
		if g := float64(tanhExpGrad(float32(x))); math.Abs(g-num) > 1e-3 {
			t.Errorf("slope at %g: %g, numeric %g", x, g, num)
		}
	}
}

// TestEarlyStopping trains on pure noise (no signal to find) with a high
// step size: validation loss cannot keep improving, so training must stop
// well before the epoch limit and keep the best epoch's weights.
func TestEarlyStopping(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	var samples []Sample
	for i := 0; i < 400; i++ {
		samples = append(samples, Sample{randFeats(r, 50), float32(r.Float64()*2 - 1)})
	}
	n, _ := New(50, 8, 1)
	var vals []float64
	best, err := n.Train(context.Background(), samples, TrainConfig{Epochs: 200, Batch: 16, LR: 0.05, ValFrac: 0.25, Seed: 1,
		OnEpoch: func(_ int, _, v float64) { vals = append(vals, v) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(vals) >= 200 {
		t.Fatalf("ran all %d epochs", len(vals))
	}
	k := len(vals)
	for _, v := range vals[k-3:] {
		if v < best {
			t.Fatalf("last epochs %v beat the best %g", vals[k-3:], best)
		}
	}
	if vals[k-4] != best && !slicesContains(vals[:k-3], best) {
		t.Fatalf("best %g not among epoch losses %v", best, vals)
	}
	// The kept weights are the best epoch's: recomputing gives the same loss.
	r2 := rand.New(rand.NewPCG(1, 0x7472))
	idx := r2.Perm(len(samples))
	if got := n.loss(samples, idx[:100]); got != best {
		t.Fatalf("kept weights give %g, best epoch %g", got, best)
	}
	if _, err := n.Train(context.Background(), samples[:1], TrainConfig{}); err == nil {
		t.Fatal("one sample accepted")
	}
	bad := []Sample{{[]Feature{{Index: 99, Count: 1}}, 0}, {nil, 0}}
	if _, err := n.Train(context.Background(), bad, TrainConfig{}); err == nil {
		t.Fatal("out-of-range feature accepted")
	}
}

func slicesContains(s []float64, v float64) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestTanhExpFast: the table stays within FastMaxError of the exact
// function on a dense grid (and at the table's edges), is exact from the
// saturation point on, and OutputFast stays within its stated bound.
func TestTanhExpFast(t *testing.T) {
	worst := 0.0
	for x := -20.0; x < 6; x += 1.0 / 1024 / 3 {
		got, want := TanhExpFast(float32(x)), TanhExp(float32(x))
		worst = math.Max(worst, math.Abs(float64(got-want)))
	}
	for _, x := range []float32{fastLo, fastLo - 1e-6, fastLo + 1e-6, tanhExpSat, tanhExpSat - 1e-6, 1e30, -1e30} {
		if d := math.Abs(float64(TanhExpFast(x) - TanhExp(x))); d > FastMaxError {
			t.Errorf("x=%g: error %g", x, d)
		}
		worst = math.Max(worst, math.Abs(float64(TanhExpFast(x)-TanhExp(x))))
	}
	if worst > FastMaxError || worst == 0 {
		t.Fatalf("max error %g, bound %g", worst, FastMaxError)
	}
	t.Logf("max |TanhExpFast - TanhExp| = %.3g", worst)
	if v := TanhExpFast(float32(math.NaN())); v == v {
		t.Errorf("NaN gave %g", v)
	}
	n, _ := New(50, 24, 9)
	r := rand.New(rand.NewPCG(4, 4))
	acc := make([]float32, n.Hidden)
	bound := 0.0
	for _, w := range n.W2 {
		bound += math.Abs(float64(w)) * FastMaxError
	}
	for i := 0; i < 200; i++ {
		for j := range acc {
			acc[j] = float32(r.NormFloat64() * 4)
		}
		if d := math.Abs(float64(n.OutputFast(acc) - n.Output(acc))); d > bound+1e-6 {
			t.Fatalf("OutputFast off by %g > %g", d, bound)
		}
	}
}

// TestSquashMonotone: Squash is non-decreasing and odd, checked on every
// float32 in [0.5, 0.75] (Go's math.Tanh switches formulas at 0.625, the
// one place where a rounding could step back) and on every 61st float32
// bit pattern elsewhere; and OutputFast is Squash of OutputFastRaw. (Every
// non-negative float32 was checked once, 2026-11-28: non-decreasing.)
func TestSquashMonotone(t *testing.T) {
	check := func(lo, hi, step uint32) {
		t.Helper()
		prev := Squash(math.Float32frombits(lo))
		for b := lo + step; b <= hi && b > lo; b += step {
			s := math.Float32frombits(b)
			v := Squash(s)
			if v < prev {
				t.Fatalf("Squash(%v) = %v < %v, the value one step below", s, v, prev)
			}
			if Squash(-s) != -v {
				t.Fatalf("Squash(-%v) = %v, not -%v", s, Squash(-s), v)
			}
			prev = v
		}
	}
	check(math.Float32bits(0.5), math.Float32bits(0.75), 1)
	check(0, 0x7f800000, 61) // up to +Inf
	n, _ := New(5, 7, 3)
	acc := []float32{-3, -0.5, 0, 0.6, 0.625, 2, 9}
	if a, b := n.OutputFast(acc), Squash(n.OutputFastRaw(acc)); a != b {
		t.Fatalf("OutputFast %v, Squash(OutputFastRaw) %v", a, b)
	}
}

// TestFileFeatures: a net with a feature-set name is written as version 2
// and keeps its name; one without is written as version 1, as before.
func TestFileFeatures(t *testing.T) {
	n, _ := New(6, 2, 1)
	v1, _ := n.MarshalBinary()
	if v1[6] != 1 {
		t.Fatalf("unnamed net written as version %d", v1[6])
	}
	n.Features = "dnf"
	v2, err := n.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if v2[6] != 2 || len(v2) != len(v1)+4 {
		t.Fatalf("named net: version %d, %d bytes (unnamed %d)", v2[6], len(v2), len(v1))
	}
	for _, c := range []struct {
		b    []byte
		want string
	}{{v1, ""}, {v2, "dnf"}} {
		m, err := Unmarshal(c.b)
		if err != nil {
			t.Fatal(err)
		}
		if m.Features != c.want || m.W1[3] != n.W1[3] || m.B2 != n.B2 {
			t.Errorf("loaded features %q want %q, or weights differ", m.Features, c.want)
		}
	}
	bad := append([]byte(nil), v2...)
	bad[16] = 200 // name longer than the file
	if _, err := Unmarshal(bad); err == nil || !strings.Contains(err.Error(), "feature-set name") {
		t.Errorf("overlong name: %v", err)
	}
	n.Features = strings.Repeat("x", 256)
	if _, err := n.MarshalBinary(); err == nil {
		t.Error("256-byte name accepted")
	}
}

// TestTrainSparseMatchesDense checks the row-sparse gradients and
// optimiser step (over 1 024 live rows, so split among the workers)
// against a dense reference of the same Adam on a net with many inputs
// and few active: the weights agree bit for bit.
func TestTrainSparseMatchesDense(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	var samples []Sample
	for i := 0; i < 600; i++ {
		f := randFeats(r, 5000)
		samples = append(samples, Sample{f, float32(r.Float64()*2 - 1)})
	}
	sparse, _ := New(5000, 5, 4)
	dense := sparse.Clone()
	if _, err := sparse.Train(context.Background(), samples, TrainConfig{Epochs: 3, Batch: 32, LR: 1e-2, ValFrac: 0.1, Shards: 3, Workers: 4, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	// The dense reference: Train's loop with every row summed and stepped.
	rr := rand.New(rand.NewPCG(2, 0x7472))
	idx := rr.Perm(len(samples))
	tr := idx[60:]
	m, v := dense.NewGrad(), dense.NewGrad()
	best, bestNet := math.Inf(1), dense.Clone()
	for ep, step := 0, 0; ep < 3; ep++ {
		rr.Shuffle(len(tr), func(i, j int) { tr[i], tr[j] = tr[j], tr[i] })
		for b := 0; b < len(tr); b += 32 {
			batch := tr[b:min(b+32, len(tr))]
			gs := make([]*Grad, 3)
			acc := make([]float32, dense.Hidden)
			for s := range gs {
				gs[s] = dense.NewGrad()
				for k := s; k < len(batch); k += 3 {
					dense.Backward(gs[s], acc, samples[batch[k]].Features, samples[batch[k]].Target)
				}
			}
			g := gs[0]
			for s := 1; s < 3; s++ {
				for i := range g.W1 {
					g.W1[i] += gs[s].W1[i]
				}
				for i := range g.B1 {
					g.B1[i] += gs[s].B1[i]
				}
				for i := range g.W2 {
					g.W2[i] += gs[s].W2[i]
				}
				g.B2 += gs[s].B2
			}
			step++
			const b1, b2, eps = 0.9, 0.999, 1e-8
			c1 := float32(1 - math.Pow(b1, float64(step)))
			c2 := float32(1 - math.Pow(b2, float64(step)))
			scale := 1 / float32(len(batch))
			one := func(w, m, v *float32, gi float32) {
				gi *= scale
				*m = b1**m + (1-b1)*gi
				*v = b2**v + (1-b2)*gi*gi
				*w -= 1e-2 * (*m / c1) / (float32(math.Sqrt(float64(*v/c2))) + eps)
			}
			for i := range g.W1 {
				if g.W1[i] != 0 || m.W1[i] != 0 {
					one(&dense.W1[i], &m.W1[i], &v.W1[i], g.W1[i])
				}
			}
			for i := range g.B1 {
				one(&dense.B1[i], &m.B1[i], &v.B1[i], g.B1[i])
			}
			for i := range g.W2 {
				one(&dense.W2[i], &m.W2[i], &v.W2[i], g.W2[i])
			}
			one(&dense.B2, &m.B2, &v.B2, g.B2)
		}
		if l := dense.loss(samples, idx[:60]); l < best {
			best, bestNet = l, dense.Clone()
		}
	}
	a, _ := sparse.MarshalBinary()
	b, _ := bestNet.MarshalBinary()
	if !bytes.Equal(a, b) {
		t.Fatal("sparse training differs from the dense reference")
	}
}
