// This file holds the match summary: W/L/D, pentanomial, Elo and SPRT state
// gathered into one value, printed in the fastchess-like block or as JSON.

package arena

import (
	"fmt"
	"io"
	"math"
)

// Summary is the full report of a two-player match or SPRT, printed in
// fastchess's layout and also available as JSON.
type Summary struct {
	NameA string     `json:"nameA"`
	NameB string     `json:"nameB"`
	WDL   WDL        `json:"wdl"`
	Ptnml *Ptnml     `json:"ptnml,omitempty"` // nil when only W/L/D is known
	Tri   Estimate   `json:"trinomial"`
	Penta *Estimate  `json:"pentanomial,omitempty"`
	SPRT  *SPRTState `json:"sprt,omitempty"`
}

// SPRTState is an SPRT's parameters and current state.
type SPRTState struct {
	Elo0     float64 `json:"elo0"`
	Elo1     float64 `json:"elo1"`
	Alpha    float64 `json:"alpha"`
	Beta     float64 `json:"beta"`
	Model    Model   `json:"model"`
	Lower    float64 `json:"lower"`
	Upper    float64 `json:"upper"`
	LLR      float64 `json:"llr"`
	Progress float64 `json:"progress"` // LLR as a fraction of the bound it approaches
	Verdict  Verdict `json:"verdict"`
}

// Summarize computes every statistic for the counts. p may be nil (no
// pairs); s may be nil (no SPRT). With pairs, the SPRT uses the pentanomial
// counts, as fastchess does.
func Summarize(nameA, nameB string, wdl WDL, p *Ptnml, s *SPRT) Summary {
	sum := Summary{NameA: nameA, NameB: nameB, WDL: wdl, Ptnml: p, Tri: Trinomial(wdl)}
	if p != nil {
		e := Pentanomial(*p)
		sum.Penta = &e
	}
	if s != nil {
		var llr float64
		if p != nil && s.Model != Bayesian {
			llr = s.LLRPentanomial(*p)
		} else {
			llr = s.LLRTrinomial(wdl)
		}
		lo, hi := s.Bounds()
		sum.SPRT = &SPRTState{Elo0: s.Elo0, Elo1: s.Elo1, Alpha: s.Alpha, Beta: s.Beta, Model: s.Model,
			Lower: lo, Upper: hi, LLR: llr, Progress: s.Progress(llr), Verdict: s.Decide(llr)}
	}
	return sum
}

// Headline is the estimate a report leads with: pentanomial when known.
func (s Summary) Headline() Estimate {
	if s.Penta != nil {
		return *s.Penta
	}
	return s.Tri
}

func ratio(a, b float64) string {
	if b == 0 {
		if a == 0 {
			return "nan"
		}
		return "inf"
	}
	return fmt.Sprintf("%.2f", a/b)
}

// Write prints the fastchess-style block.
func (s Summary) Write(w io.Writer) {
	e := s.Headline()
	n := s.WDL.N()
	fmt.Fprintf(w, "Results of %s vs %s:\n", s.NameA, s.NameB)
	fmt.Fprintf(w, "Elo: %s +/- %s, nElo: %s +/- %s\n", FormatFloat(e.Elo), FormatFloat(e.EloErr), FormatFloat(e.NElo), FormatFloat(e.NEloErr))
	pairs := "n/a"
	if s.Ptnml != nil {
		pairs = ratio(float64(s.Ptnml.WW+s.Ptnml.WD), float64(s.Ptnml.LD+s.Ptnml.LL))
	}
	fmt.Fprintf(w, "LOS: %s %%, DrawRatio: %s %%, PairsRatio: %s\n", FormatFloat(100*e.LOS), FormatFloat(100*e.Draw), pairs)
	points := float64(s.WDL.W) + float64(s.WDL.D)/2
	pct := math.NaN()
	if n > 0 {
		pct = 100 * points / float64(n)
	}
	fmt.Fprintf(w, "Games: %d, Wins: %d, Losses: %d, Draws: %d, Points: %.1f (%s %%)\n", n, s.WDL.W, s.WDL.L, s.WDL.D, points, FormatFloat(pct))
	if s.Ptnml != nil {
		k := s.Ptnml.Counts()
		fmt.Fprintf(w, "Ptnml(0-2): [%d, %d, %d, %d, %d], WL/DD Ratio: %s\n", k[0], k[1], k[2], k[3], k[4], ratio(float64(s.Ptnml.WL), float64(s.Ptnml.DD)))
	}
	if st := s.SPRT; st != nil {
		fmt.Fprintf(w, "LLR: %s (%.1f%%) (%s, %s) [%s, %s]", FormatFloat(st.LLR), 100*st.Progress, FormatFloat(st.Lower), FormatFloat(st.Upper), FormatFloat(st.Elo0), FormatFloat(st.Elo1))
		switch st.Verdict {
		case AcceptH1:
			fmt.Fprint(w, " - H1 was accepted")
		case AcceptH0:
			fmt.Fprint(w, " - H0 was accepted")
		}
		fmt.Fprintln(w)
	}
}
