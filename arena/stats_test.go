package arena

import (
	"encoding/json"
	"math"
	"testing"
)

func near(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Abs(want)
}

// The spec's §9 vectors (fastchess app/tests), 1 % relative tolerance.
func TestEloWDLVector(t *testing.T) {
	e := Trinomial(WDL{W: 136, L: 96, D: 111})
	checks := []struct {
		name      string
		got, want float64
	}{
		{"score", e.Score, 0.558},
		{"elo", e.Elo, 40.70},
		{"eloErr", e.EloErr, 30.43},
		{"nElo", e.NElo, 49.77},
		{"nEloErr", e.NEloErr, 36.77},
		{"los", e.LOS * 100, 99.60},
		{"draw", e.Draw * 100, 32.36},
	}
	for _, c := range checks {
		if !near(c.got, c.want, 0.01) {
			t.Errorf("%s = %.4f, want %.2f", c.name, c.got, c.want)
		}
	}
}

func TestLLRVectors(t *testing.T) {
	cases := []struct {
		model      Model
		w, l, d    int
		elo0, elo1 float64
		want       float64
	}{
		{Normalized, 36433, 36027, 68692, 0, 2, 0.92},
		{Normalized, 10871, 10650, 20431, -1.75, 0.25, 2.30},
		{Normalized, 4250, 0, 0, 0, 10, 120.56},
		{Logistic, 21404, 21184, 40708, 0.5, 2.5, -1.57},
		{Logistic, 57433, 57030, 106593, 0, 2, -2.59},
		{Bayesian, 68965, 68526, 128429, 0, 2, -1.26},
		{Bayesian, 21629, 21484, 41111, 0.5, 2.5, -1.13},
	}
	for _, c := range cases {
		s := SPRT{Elo0: c.elo0, Elo1: c.elo1, Alpha: 0.05, Beta: 0.05, Model: c.model}
		got := s.LLRTrinomial(WDL{W: c.w, L: c.l, D: c.d})
		if !near(got, c.want, 0.01) {
			t.Errorf("%s %d-%d-%d [%g,%g]: LLR %.4f, want %.2f", c.model, c.w, c.l, c.d, c.elo0, c.elo1, got, c.want)
		}
	}
}

func TestBounds(t *testing.T) {
	lo, hi := DefaultSPRT().Bounds()
	if !near(lo, -2.944, 0.001) || !near(hi, 2.944, 0.001) {
		t.Fatalf("bounds %v %v", lo, hi)
	}
	s := DefaultSPRT()
	if s.Decide(3) != AcceptH1 || s.Decide(-3) != AcceptH0 || s.Decide(0) != Continue {
		t.Fatal("Decide")
	}
	for _, bad := range []SPRT{{0, 2, 0, 0.05, Normalized}, {0, 2, 0.6, 0.5, Normalized}, {2, 0, 0.05, 0.05, Normalized}, {0, 2, 0.05, 0.05, "x"},
		{0, math.Inf(1), 0.05, 0.05, Normalized}, {math.Inf(-1), 0, 0.05, 0.05, Normalized}, {math.NaN(), 2, 0.05, 0.05, Normalized}} {
		if bad.Validate() == nil {
			t.Errorf("%+v validated", bad)
		}
	}
}

// Pentanomial counts built from independent games give nearly the
// trinomial numbers, and swapping sides mirrors every figure.
func TestPentanomialConsistency(t *testing.T) {
	// Independent games with w = 0.4, d = 0.3, l = 0.3: pair probabilities.
	w, d, l := 0.4, 0.3, 0.3
	scale := 100000.0
	p := Ptnml{
		LL: int(l * l * scale), LD: int(2 * l * d * scale), DD: int(d * d * scale), WL: int(2 * w * l * scale),
		WD: int(2 * w * d * scale), WW: int(w * w * scale),
	}
	tri := WDL{W: int(2 * w * scale), L: int(2 * l * scale), D: int(2 * d * scale)}
	ep, et := Pentanomial(p), Trinomial(tri)
	if !near(ep.Elo, et.Elo, 0.01) || !near(ep.NElo, et.NElo, 0.02) || !near(ep.EloErr, et.EloErr, 0.02) {
		t.Errorf("pentanomial %+v vs trinomial %+v", ep, et)
	}
	for _, m := range []Model{Normalized, Logistic} {
		s := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: m}
		lp, lt := s.LLRPentanomial(p), s.LLRTrinomial(tri)
		if !near(lp, lt, 0.03) {
			t.Errorf("%s: pentanomial LLR %.3f vs trinomial %.3f", m, lp, lt)
		}
	}
	sw := Ptnml{LL: p.WW, LD: p.WD, DD: p.DD, WL: p.WL, WD: p.LD, WW: p.LL}
	es := Pentanomial(sw)
	if !near(es.Elo, -ep.Elo, 1e-9) || !near(es.NElo, -ep.NElo, 1e-9) || !near(es.LOS, 1-ep.LOS, 1e-9) {
		t.Errorf("swap: %+v vs %+v", es, ep)
	}
}

func TestDegenerate(t *testing.T) {
	e := Trinomial(WDL{W: 5})
	if !math.IsInf(e.Elo, 1) || !math.IsNaN(e.NElo) || FormatFloat(e.Elo) != "inf" {
		t.Errorf("all wins: %+v", e)
	}
	e = Trinomial(WDL{})
	if !math.IsNaN(e.Elo) {
		t.Errorf("empty: %+v", e)
	}
	if got := (Ptnml{}).AddPair(Win, Loss).AddPair(Draw, Draw); got.WL != 1 || got.DD != 1 {
		t.Errorf("AddPair: %+v", got)
	}
}

func TestJSONNonFinite(t *testing.T) {
	s := DefaultSPRT()
	sum := Summarize("a", "b", WDL{W: 10}, &Ptnml{WW: 5}, &s)
	b, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	tri := back["trinomial"].(map[string]any)
	if tri["elo"] != nil || tri["n"].(float64) != 10 || tri["score"].(float64) != 1 {
		t.Fatalf("%s", b)
	}
}
