// This file holds statistics for score games: per-player descriptions, paired
// differences with t and bootstrap intervals, and the sign test of seed duels.

package arena

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
)

// Sample summarises one player's scores over a seed list.
type Sample struct {
	N      int     `json:"n"`
	Mean   float64 `json:"mean"`
	SD     float64 `json:"sd"`   // sample standard deviation
	CI     float64 `json:"ci95"` // half-width of the 95 % interval of the mean
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// Describe computes a Sample.
func Describe(xs []float64) Sample {
	s := Sample{N: len(xs)}
	if len(xs) == 0 {
		s.Mean, s.SD, s.CI, s.Median, s.Min, s.Max = math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()
		return s
	}
	for _, x := range xs {
		s.Mean += x
	}
	s.Mean /= float64(len(xs))
	if len(xs) > 1 {
		var v float64
		for _, x := range xs {
			v += (x - s.Mean) * (x - s.Mean)
		}
		s.SD = math.Sqrt(v / float64(len(xs)-1))
		s.CI = TQuantile975(len(xs)-1) * s.SD / math.Sqrt(float64(len(xs)))
	} else {
		s.CI = math.NaN()
	}
	sorted := slices.Clone(xs)
	slices.Sort(sorted)
	s.Min, s.Max = sorted[0], sorted[len(sorted)-1]
	if n := len(sorted); n%2 == 1 {
		s.Median = sorted[n/2]
	} else {
		s.Median = (sorted[n/2-1] + sorted[n/2]) / 2
	}
	return s
}

// Paired compares A's and B's scores on the same seeds.
type Paired struct {
	A    Sample `json:"a"`
	B    Sample `json:"b"`
	Diff Sample `json:"diff"` // d_i = a_i − b_i
	// Bootstrap95 is the percentile 2.5–97.5 % bootstrap interval of the mean
	// difference (10 000 resamples from a fixed seed).
	Bootstrap95 [2]float64 `json:"bootstrap95"`
	// Seed duels: seeds where A scored more (W), less (L) or the same (D).
	Duels WDL `json:"duels"`
	// SignP is the two-sided sign-test p-value of the duels (ties dropped).
	SignP float64 `json:"signP"`
}

// ComparePaired computes the paired statistics; a and b must have the same
// length (index i = seed i).
func ComparePaired(a, b []float64) (Paired, error) {
	if len(a) != len(b) {
		return Paired{}, fmt.Errorf("paired samples differ in length: %d vs %d", len(a), len(b))
	}
	p := Paired{A: Describe(a), B: Describe(b)}
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
		switch {
		case d[i] > 0:
			p.Duels.W++
		case d[i] < 0:
			p.Duels.L++
		default:
			p.Duels.D++
		}
	}
	p.Diff = Describe(d)
	p.Bootstrap95 = bootstrapMean(d, 10000, 1)
	p.SignP = SignTest(p.Duels.W, p.Duels.L)
	return p, nil
}

func bootstrapMean(d []float64, reps int, seed uint64) [2]float64 {
	if len(d) == 0 {
		return [2]float64{math.NaN(), math.NaN()}
	}
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	means := make([]float64, reps)
	for k := range means {
		var s float64
		for range d {
			s += d[r.IntN(len(d))]
		}
		means[k] = s / float64(len(d))
	}
	slices.Sort(means)
	return [2]float64{means[int(0.025*float64(reps))], means[int(0.975*float64(reps))-1]}
}

// SignTest is the two-sided exact binomial p-value of w successes and l
// failures under p = ½.
func SignTest(w, l int) float64 {
	n := w + l
	if n == 0 {
		return 1
	}
	k := min(w, l)
	// P(X ≤ k) for X ~ Bin(n, ½), in log space to survive large n.
	var cdf float64
	for i := 0; i <= k; i++ {
		cdf += math.Exp(lchoose(n, i) - float64(n)*math.Ln2)
	}
	return math.Min(1, 2*cdf)
}

func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// TQuantile975 is the 0.975 quantile of Student's t with df degrees of
// freedom (1.96 for df ≥ 100, per the arena spec).
func TQuantile975(df int) float64 {
	if df <= 0 {
		return math.NaN()
	}
	if df >= 100 {
		return 1.96
	}
	lo, hi := 0.0, 20.0
	for range 100 {
		mid := (lo + hi) / 2
		if tCDF(mid, float64(df)) < 0.975 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// tCDF is P(T ≤ t) for t ≥ 0 via the regularized incomplete beta function.
func tCDF(t, df float64) float64 {
	x := df / (df + t*t)
	return 1 - 0.5*regIncBeta(df/2, 0.5, x)
}

// regIncBeta is I_x(a, b) by the continued fraction (modified Lentz).
func regIncBeta(a, b, x float64) float64 {
	if x <= 0 {
		return 0
	}
	if x >= 1 {
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log(1-x))
	if x > (a+1)/(a+b+2) {
		return 1 - regIncBeta(b, a, 1-x)
	}
	const tiny = 1e-300
	f, c, d := 1.0, 1.0, 0.0
	for i := 0; i <= 300; i++ {
		m := float64(i / 2)
		var num float64
		switch {
		case i == 0:
			num = 1
		case i%2 == 0:
			num = m * (b - m) * x / ((a + 2*m - 1) * (a + 2*m))
		default:
			num = -(a + m) * (a + b + m) * x / ((a + 2*m) * (a + 2*m + 1))
		}
		d = 1 + num*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		d = 1 / d
		c = 1 + num/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		cd := c * d
		f *= cd
		if math.Abs(1-cd) < 1e-12 {
			break
		}
	}
	return front * (f - 1) / a
}

// WritePaired prints a paired comparison in Yomi's report layout.
func (p Paired) Write(w io.Writer, nameA, nameB string) {
	writeSample(w, nameA, p.A)
	writeSample(w, nameB, p.B)
	fmt.Fprintf(w, "Difference (%s − %s): %s ± %s (95 %% t), bootstrap [%s, %s]\n", nameA, nameB,
		fmtG(p.Diff.Mean), fmtG(p.Diff.CI), fmtG(p.Bootstrap95[0]), fmtG(p.Bootstrap95[1]))
	fmt.Fprintf(w, "Seed duels: W %d, L %d, D %d, sign test p = %.4g\n", p.Duels.W, p.Duels.L, p.Duels.D, p.SignP)
}

func fmtG(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return FormatFloat(x)
	}
	if math.Abs(x) >= 1000 || x == math.Trunc(x) {
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.3g", x)
}

// writeSample prints one player's line of a score report.
func writeSample(w io.Writer, name string, s Sample) {
	fmt.Fprintf(w, "%-12s mean %s ± %s  median %s  sd %s  min %s  max %s  (n=%d)\n", name,
		fmtG(s.Mean), fmtG(s.CI), fmtG(s.Median), fmtG(s.SD), fmtG(s.Min), fmtG(s.Max), s.N)
}
