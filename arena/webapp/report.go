// This file builds what the page shows of a results file, all from the
// arena package: the report `yomi arena report` prints (text and JSON), its
// numbers formatted as the command formats them, the SPRT's LLR after each
// prefix of the games, and score histograms for score games.

package webapp

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/yomi-ai/yomi/arena"
)

// Report is the page's view of one results file.
type Report struct {
	Name  string `json:"name"`
	Games int    `json:"games"` // records in the file
	Kind  string `json:"kind"`  // "pair" (two-player games) or "score"
	// Text is exactly what `yomi arena report [--sprt elo0,elo1] FILE` prints.
	Text  string             `json:"text"`
	Pair  *arena.PairReport  `json:"pair,omitempty"`
	Score *arena.ScoreReport `json:"score,omitempty"`
	// Estimates holds the Elo estimates as the command formats numbers
	// (arena.FormatFloat): pentanomial first when the games came in pairs.
	Estimates []EstimateView `json:"estimates,omitempty"`
	// Samples holds score statistics per player (score games).
	Samples []SampleView `json:"samples,omitempty"`
	// SPRT is the final SPRT state (nil without one); LLR its value after
	// prefixes of the file's games, in file order.
	SPRT *arena.SPRTState `json:"sprt,omitempty"`
	LLR  []LLRPoint       `json:"llr,omitempty"`
	// Histograms bins each player's scores on common bins (score games).
	Histograms []Histogram `json:"histograms,omitempty"`
}

// EstimateView is an arena.Estimate with its numbers formatted.
type EstimateView struct {
	Model   string `json:"model"` // "pentanomial" or "trinomial"
	N       int    `json:"n"`     // pairs or games
	Score   string `json:"score"` // percent
	Elo     string `json:"elo"`
	EloErr  string `json:"eloErr"`
	NElo    string `json:"nElo"`
	NEloErr string `json:"nEloErr"`
	LOS     string `json:"los"`  // percent
	Draw    string `json:"draw"` // percent
}

// SampleView is an arena.Sample with its numbers formatted.
type SampleView struct {
	Name   string `json:"name"`
	N      int    `json:"n"`
	Mean   string `json:"mean"`
	CI     string `json:"ci95"`
	SD     string `json:"sd"`
	Median string `json:"median"`
	Min    string `json:"min"`
	Max    string `json:"max"`
}

// LLRPoint is the SPRT's LLR over the first Games records.
type LLRPoint struct {
	Games int     `json:"games"`
	LLR   float64 `json:"llr"`
}

// Histogram counts one player's scores in Bins equal bins from Lo to Hi.
type Histogram struct {
	Name   string  `json:"name"`
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
	Counts []int   `json:"counts"`
}

// maxLLRPoints bounds the plot's points (each is a full re-summary).
const maxLLRPoints = 200

// BuildReport summarises the records of one results file; s may be nil (no
// SPRT).
func BuildReport(name string, games []arena.GameRecord, s *arena.SPRT) (*Report, error) {
	rep, err := arena.SummarizeRecords(games, s)
	if err != nil {
		return nil, err
	}
	var text bytes.Buffer
	rep.(interface{ Write(io.Writer) }).Write(&text)
	r := &Report{Name: name, Games: len(games), Text: text.String()}
	switch rep := rep.(type) {
	case *arena.PairReport:
		r.Kind, r.Pair, r.SPRT = "pair", rep, rep.Summary.SPRT
		if p := rep.Summary.Penta; p != nil {
			r.Estimates = append(r.Estimates, estimateView("pentanomial", *p))
		}
		r.Estimates = append(r.Estimates, estimateView("trinomial", rep.Summary.Tri))
	case *arena.ScoreReport:
		r.Kind, r.Score = "score", rep
		if rep.Duels != nil {
			r.SPRT = rep.Duels.SPRT
			if p := rep.Duels.Penta; p != nil {
				r.Estimates = append(r.Estimates, estimateView("pentanomial", *p))
			}
			r.Estimates = append(r.Estimates, estimateView("trinomial", rep.Duels.Tri))
		}
		if rep.Paired != nil {
			r.Samples = []SampleView{sampleView(rep.NameA, rep.Paired.A), sampleView(rep.NameB, rep.Paired.B),
				sampleView(rep.NameA+" − "+rep.NameB, rep.Paired.Diff)}
		} else {
			r.Samples = []SampleView{sampleView(rep.NameA, rep.A)}
		}
		r.Histograms = histograms(games, rep.NameA, rep.NameB)
	default:
		return nil, fmt.Errorf("unknown report %T", rep)
	}
	if s != nil {
		if r.LLR, err = llrSeries(games, s); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func pct(x float64) string { return arena.FormatFloat(100 * x) }

func estimateView(model string, e arena.Estimate) EstimateView {
	f := arena.FormatFloat
	return EstimateView{Model: model, N: e.N, Score: pct(e.Score), Elo: f(e.Elo), EloErr: f(e.EloErr),
		NElo: f(e.NElo), NEloErr: f(e.NEloErr), LOS: pct(e.LOS), Draw: pct(e.Draw)}
}

func sampleView(name string, s arena.Sample) SampleView {
	f := arena.FormatFloat
	return SampleView{Name: name, N: s.N, Mean: f(s.Mean), CI: f(s.CI), SD: f(s.SD), Median: f(s.Median), Min: f(s.Min), Max: f(s.Max)}
}

// llrSeries re-summarises growing prefixes of the records, so every point
// is what `yomi arena report` would print for a file cut there.
func llrSeries(games []arena.GameRecord, s *arena.SPRT) ([]LLRPoint, error) {
	n := len(games)
	step := max(1, (n+maxLLRPoints-1)/maxLLRPoints)
	var out []LLRPoint
	for k := step; ; k += step {
		k = min(k, n)
		rep, err := arena.SummarizeRecords(games[:k], s)
		if err != nil {
			return nil, fmt.Errorf("first %d games: %w", k, err)
		}
		var st *arena.SPRTState
		switch rep := rep.(type) {
		case *arena.PairReport:
			st = rep.Summary.SPRT
		case *arena.ScoreReport:
			if rep.Duels != nil {
				st = rep.Duels.SPRT
			}
		}
		if st == nil {
			return nil, errors.New("no SPRT state in the report")
		}
		if !math.IsNaN(st.LLR) && !math.IsInf(st.LLR, 0) {
			out = append(out, LLRPoint{Games: k, LLR: st.LLR})
		}
		if k == n {
			return out, nil
		}
	}
}

// histograms bins A's and B's scores (Game 0 and 1 of score records) on
// common bins, about one per two seeds up to 30.
func histograms(games []arena.GameRecord, nameA, nameB string) []Histogram {
	var xs [2][]float64
	for _, g := range games {
		if g.Score != nil && g.Game >= 0 && g.Game < 2 {
			xs[g.Game] = append(xs[g.Game], *g.Score)
		}
	}
	all := append(slices.Clone(xs[0]), xs[1]...)
	if len(all) == 0 {
		return nil
	}
	lo, hi := slices.Min(all), slices.Max(all)
	if hi == lo {
		hi = lo + 1
	}
	bins := min(30, max(5, len(xs[0])/2))
	var out []Histogram
	for i, name := range []string{nameA, nameB} {
		if len(xs[i]) == 0 {
			continue
		}
		h := Histogram{Name: name, Lo: lo, Hi: hi, Counts: make([]int, bins)}
		for _, x := range xs[i] {
			b := int(float64(bins) * (x - lo) / (hi - lo))
			h.Counts[min(b, bins-1)]++
		}
		out = append(out, h)
	}
	return out
}
