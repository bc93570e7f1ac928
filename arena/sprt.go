// This file holds the SPRT: its settings and models, the bounds, the log-
// likelihood ratio of trinomial and pentanomial counts, and the verdict.

package arena

import (
	"fmt"
	"math"
)

// Model is the Elo model behind an SPRT's hypotheses.
type Model string

// The SPRT models: normalized (fastchess and fishtest default), logistic,
// and bayesian (BayesElo; trinomial only).
const (
	Normalized Model = "normalized"
	Logistic   Model = "logistic"
	Bayesian   Model = "bayesian"
)

// SPRT holds the test's parameters.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
	Model       Model
}

// DefaultSPRT is Yomi's default: normalized model, α = β = 0.05, [0, 2].
func DefaultSPRT() SPRT {
	return SPRT{Elo0: 0, Elo1: 2, Alpha: 0.05, Beta: 0.05, Model: Normalized}
}

// Validate checks 0 < α, β < 1, α + β < 1, finite elo0 < elo1 and a known
// model (an infinite bound makes every LLR NaN).
func (s SPRT) Validate() error {
	if !(s.Alpha > 0 && s.Alpha < 1 && s.Beta > 0 && s.Beta < 1 && s.Alpha+s.Beta < 1) {
		return fmt.Errorf("sprt: need 0 < alpha, beta < 1 and alpha + beta < 1 (got %g, %g)", s.Alpha, s.Beta)
	}
	if math.IsInf(s.Elo0, 0) || math.IsInf(s.Elo1, 0) || math.IsNaN(s.Elo0) || math.IsNaN(s.Elo1) {
		return fmt.Errorf("sprt: elo0 and elo1 must be finite (got %g, %g)", s.Elo0, s.Elo1)
	}
	if !(s.Elo0 < s.Elo1) {
		return fmt.Errorf("sprt: need elo0 < elo1 (got %g, %g)", s.Elo0, s.Elo1)
	}
	switch s.Model {
	case Normalized, Logistic, Bayesian:
	default:
		return fmt.Errorf("sprt: unknown model %q (want normalized, logistic or bayesian)", s.Model)
	}
	return nil
}

// Bounds returns the lower and upper LLR bounds ln(β/(1−α)), ln((1−β)/α).
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// Verdict is the state of an SPRT.
type Verdict string

// SPRT verdicts.
const (
	Continue Verdict = "continue"
	AcceptH1 Verdict = "H1" // pass: A is stronger by elo1 rather than elo0
	AcceptH0 Verdict = "H0" // fail
)

// Decide maps an LLR to a verdict.
func (s SPRT) Decide(llr float64) Verdict {
	lo, hi := s.Bounds()
	switch {
	case llr >= hi:
		return AcceptH1
	case llr <= lo:
		return AcceptH0
	}
	return Continue
}

// Progress is LLR/upper when LLR ≥ 0 and LLR/|lower| (negative) otherwise.
func (s SPRT) Progress(llr float64) float64 {
	lo, hi := s.Bounds()
	if llr >= 0 {
		return llr / hi
	}
	return llr / -lo
}

// LLRTrinomial is the log-likelihood ratio of W/L/D counts.
func (s SPRT) LLRTrinomial(c WDL) float64 {
	counts := []float64{float64(c.L), float64(c.D), float64(c.W)}
	a := []float64{0, 0.5, 1}
	switch s.Model {
	case Bayesian:
		if c.W == 0 || c.L == 0 {
			return 0
		}
		p := regularize(counts)
		w, l := p[2], p[0]
		drawElo := 200 * math.Log10((1-l)/l*(1-w)/w)
		score := func(elo float64) float64 {
			pw := 1 / (1 + math.Pow(10, (drawElo-elo)/400))
			pl := 1 / (1 + math.Pow(10, (drawElo+elo)/400))
			return pw + 0.5*(1-pw-pl)
		}
		return llrLogistic(counts, a, score(s.Elo0), score(s.Elo1))
	case Logistic:
		return llrLogistic(counts, a, ScoreFromElo(s.Elo0), ScoreFromElo(s.Elo1))
	default:
		return llrNormalized(counts, a, s.Elo0/nEloScale, s.Elo1/nEloScale)
	}
}

// LLRPentanomial is the log-likelihood ratio of pair counts. The bayesian
// model has no pentanomial form; it falls back to logistic.
func (s SPRT) LLRPentanomial(p Ptnml) float64 {
	k := p.Counts()
	counts := []float64{float64(k[0]), float64(k[1]), float64(k[2]), float64(k[3]), float64(k[4])}
	a := []float64{0, 0.25, 0.5, 0.75, 1}
	if s.Model == Normalized {
		return llrNormalized(counts, a, math.Sqrt2*s.Elo0/nEloScale, math.Sqrt2*s.Elo1/nEloScale)
	}
	return llrLogistic(counts, a, ScoreFromElo(s.Elo0), ScoreFromElo(s.Elo1))
}

// regularize replaces zero counts by 0.001 and returns frequencies.
func regularize(counts []float64) []float64 {
	p := make([]float64, len(counts))
	var n float64
	for i, c := range counts {
		if c == 0 {
			c = 1e-3
		}
		p[i] = c
		n += c
	}
	for i := range p {
		p[i] /= n
	}
	return p
}

func total(counts []float64) float64 {
	var n float64
	for _, c := range counts {
		if c == 0 {
			c = 1e-3
		}
		n += c
	}
	return n
}

// solveTheta finds θ with Σ p_i φ_i/(1+θφ_i) = 0 on (−1/max φ, −1/min φ)
// by bisection; the function decreases in θ there.
func solveTheta(p, phi []float64) float64 {
	maxPhi, minPhi := math.Inf(-1), math.Inf(1)
	for _, f := range phi {
		maxPhi = math.Max(maxPhi, f)
		minPhi = math.Min(minPhi, f)
	}
	if maxPhi <= 0 || minPhi >= 0 {
		return 0 // hypothesis outside the support: no interior solution
	}
	lo, hi := -1/maxPhi, -1/minPhi
	f := func(th float64) float64 {
		var s float64
		for i := range p {
			s += p[i] * phi[i] / (1 + th*phi[i])
		}
		return s
	}
	for range 200 {
		mid := (lo + hi) / 2
		if mid == lo || mid == hi {
			break
		}
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

func mleLogistic(p, a []float64, s float64) []float64 {
	phi := make([]float64, len(a))
	for i := range a {
		phi[i] = a[i] - s
	}
	th := solveTheta(p, phi)
	q := make([]float64, len(p))
	for i := range p {
		q[i] = p[i] / (1 + th*phi[i])
	}
	return q
}

func llrLogistic(counts, a []float64, s0, s1 float64) float64 {
	p := regularize(counts)
	return llr(total(counts), p, mleLogistic(p, a, s0), mleLogistic(p, a, s1))
}

// mleNormalized is Van den Bergh's fixed-point iteration for the MLE with
// (μ − ½)/σ = t, iterated to convergence (1e−4 per probability, at most 10
// rounds as fastchess does).
func mleNormalized(p, a []float64, t float64) []float64 {
	n := len(p)
	q := make([]float64, n)
	for i := range q {
		q[i] = 1 / float64(n)
	}
	phi := make([]float64, n)
	for range 10 {
		var mu, v float64
		for i := range q {
			mu += q[i] * a[i]
		}
		for i := range q {
			v += q[i] * (a[i] - mu) * (a[i] - mu)
		}
		sigma := math.Sqrt(v)
		for i := range a {
			z := (a[i] - mu) / sigma
			phi[i] = a[i] - 0.5 - 0.5*t*sigma*(1+z*z)
		}
		th := solveTheta(p, phi)
		changed := false
		for i := range q {
			nq := p[i] / (1 + th*phi[i])
			if math.Abs(nq-q[i]) > 1e-4 {
				changed = true
			}
			q[i] = nq
		}
		if !changed {
			break
		}
	}
	return q
}

func llrNormalized(counts, a []float64, t0, t1 float64) float64 {
	p := regularize(counts)
	return llr(total(counts), p, mleNormalized(p, a, t0), mleNormalized(p, a, t1))
}

func llr(n float64, p, q0, q1 []float64) float64 {
	var s float64
	for i := range p {
		s += p[i] * (math.Log(q1[i]) - math.Log(q0[i]))
	}
	return n * s
}
