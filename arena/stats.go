// Package arena measures playing strength the way chess-engine testers do:
// games in pairs on shared seeds with sides swapped, W/L/D and pentanomial
// counts, Elo and normalized Elo with 95 % intervals, LOS, and SPRT
// (stats.go, sprt.go); paired score statistics for single-player games
// (score.go); a parallel, resumable match runner (runner.go); and external
// bot processes with time limits (process.go).
//
// Start with RunPairs or RunScores; the formulas follow fastchess and
// fishtest as restated in the project's arena spec.
package arena

import (
	"fmt"
	"math"
)

// Z95 is the two-sided 95 % normal quantile.
const Z95 = 1.959963984540054

// nEloScale converts a normalized score difference to nElo: 800/ln 10.
var nEloScale = 800 / math.Ln10

// WDL holds trinomial counts from A's point of view.
type WDL struct {
	W, L, D int
}

// N is the number of games.
func (c WDL) N() int { return c.W + c.L + c.D }

// Add returns c with one more result (score 0, 0.5 or 1).
func (c WDL) Add(r Result) WDL {
	switch r {
	case Win:
		c.W++
	case Loss:
		c.L++
	default:
		c.D++
	}
	return c
}

// Ptnml holds pentanomial counts: pairs scoring 0, ½, 1, 1½, 2 for A. The
// middle bucket is split into DD and WL (pooled in every statistic).
type Ptnml struct {
	LL, LD, DD, WL, WD, WW int
}

// Counts returns the five pooled buckets [LL, LD, DD+WL, WD, WW].
func (p Ptnml) Counts() [5]int { return [5]int{p.LL, p.LD, p.DD + p.WL, p.WD, p.WW} }

// Pairs is the number of pairs.
func (p Ptnml) Pairs() int { return p.LL + p.LD + p.DD + p.WL + p.WD + p.WW }

// AddPair adds the pair of results a, b (A's results in the two games).
func (p Ptnml) AddPair(a, b Result) Ptnml {
	switch int(a) + int(b) {
	case 0:
		p.LL++
	case 1:
		p.LD++
	case 2:
		if a == Draw {
			p.DD++
		} else {
			p.WL++
		}
	case 3:
		p.WD++
	case 4:
		p.WW++
	}
	return p
}

// Estimate is an Elo-style summary of a score sample.
type Estimate struct {
	N       int     `json:"n"`         // games (trinomial) or pairs (pentanomial)
	Score   float64 `json:"score"`     // mean score per game, 0..1
	SE      float64 `json:"se"`        // standard error of Score
	Elo     float64 `json:"elo"`       // E(Score)
	EloErr  float64 `json:"eloErr"`    // half-width of the 95 % interval
	NElo    float64 `json:"nElo"`      // normalized Elo
	NEloErr float64 `json:"nEloErr"`   // its 95 % half-width
	LOS     float64 `json:"los"`       // likelihood of superiority, 0..1
	Draw    float64 `json:"drawRatio"` // draws / games, or (DD+WL)/pairs
}

// EloFromScore is E(x) = −400·log10(1/x − 1): ±Inf at 0 and 1.
func EloFromScore(x float64) float64 {
	if x <= 0 {
		return math.Inf(-1)
	}
	if x >= 1 {
		return math.Inf(1)
	}
	return -400 * math.Log10(1/x-1)
}

// ScoreFromElo is the expected score at an Elo difference.
func ScoreFromElo(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// estimate fills the Elo fields from per-unit values a_i with frequencies p_i
// over n units; scale is 1 for trinomial and √2 for pentanomial nElo.
func estimate(a, counts []float64, n int, nScale float64) Estimate {
	e := Estimate{N: n}
	if n == 0 {
		e.Elo, e.EloErr, e.NElo, e.NEloErr, e.LOS = math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()
		return e
	}
	var s float64
	for i := range a {
		s += a[i] * counts[i] / float64(n)
	}
	var v float64
	for i := range a {
		v += counts[i] / float64(n) * (a[i] - s) * (a[i] - s)
	}
	e.Score = s
	e.SE = math.Sqrt(v / float64(n))
	e.Elo = EloFromScore(s)
	lo, hi := s-Z95*e.SE, s+Z95*e.SE
	e.EloErr = (EloFromScore(hi) - EloFromScore(lo)) / 2
	sigma := math.Sqrt(v)
	if sigma == 0 {
		e.NElo, e.NEloErr = math.NaN(), math.NaN()
	} else {
		e.NElo = (s - 0.5) / (nScale * sigma) * nEloScale
		e.NEloErr = ((hi-0.5)/(nScale*sigma)*nEloScale - (lo-0.5)/(nScale*sigma)*nEloScale) / 2
	}
	switch {
	case e.SE > 0:
		e.LOS = 0.5 * (1 - math.Erf(-(s-0.5)/(math.Sqrt2*e.SE)))
	case s > 0.5:
		e.LOS = 1
	case s < 0.5:
		e.LOS = 0
	default:
		e.LOS = 0.5
	}
	return e
}

// Trinomial estimates Elo from W/L/D counts.
func Trinomial(c WDL) Estimate {
	e := estimate([]float64{0, 0.5, 1}, []float64{float64(c.L), float64(c.D), float64(c.W)}, c.N(), 1)
	if c.N() > 0 {
		e.Draw = float64(c.D) / float64(c.N())
	}
	return e
}

// Pentanomial estimates Elo from pair counts.
func Pentanomial(p Ptnml) Estimate {
	k := p.Counts()
	e := estimate([]float64{0, 0.25, 0.5, 0.75, 1}, []float64{float64(k[0]), float64(k[1]), float64(k[2]), float64(k[3]), float64(k[4])}, p.Pairs(), math.Sqrt2)
	if p.Pairs() > 0 {
		e.Draw = float64(p.DD+p.WL) / float64(p.Pairs())
	}
	return e
}

// Result is one game's result from A's point of view; its Score is r/2.
type Result int8

// Results from A's point of view.
const (
	Loss Result = 0
	Draw Result = 1
	Win  Result = 2
)

// Score is 0, 0.5 or 1.
func (r Result) Score() float64 { return float64(r) / 2 }

// Flip returns the result from the other side's point of view.
func (r Result) Flip() Result { return 2 - r }

// String is "win", "loss" or "draw".
func (r Result) String() string {
	switch r {
	case Win:
		return "win"
	case Loss:
		return "loss"
	case Draw:
		return "draw"
	}
	return fmt.Sprintf("Result(%d)", int8(r))
}

// ParseResult is the inverse of String.
func ParseResult(s string) (Result, error) {
	switch s {
	case "win":
		return Win, nil
	case "loss":
		return Loss, nil
	case "draw":
		return Draw, nil
	}
	return 0, fmt.Errorf("bad result %q (want win, loss or draw)", s)
}

// FormatFloat prints x with two decimals, or inf/-inf/nan.
func FormatFloat(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return fmt.Sprintf("%.2f", x)
}
