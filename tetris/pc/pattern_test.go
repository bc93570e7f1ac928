// This file tests the pattern and field parsers: exact sequence counts,
// a brute-force check of expansion, errors, and fuzz targets.

package pc

import (
	"strings"
	"testing"
)

func TestPatternCounts(t *testing.T) {
	cases := []struct {
		pat  string
		want int
	}{
		{"*p7", 5040}, {"[OSZTLJ]p6", 720}, {"T,I,O,*p4", 840}, {"I,*p4", 840},
		{"*", 7}, {"*!", 5040}, {"[SZLJ]!", 24}, {"[SZLJ]p2", 12}, {"*p3", 210},
		{"TIO", 1}, {"[^TI]", 5}, {"I", 1}, {"*,*", 49}, {"T;I", 2},
		{"# comment\n*p2\n[TI]", 44}, {"[SZ]p1,*", 14},
	}
	for _, c := range cases {
		p, err := ParsePattern(c.pat)
		if err != nil {
			t.Fatalf("%q: %v", c.pat, err)
		}
		seqs := p.Sequences()
		if p.Count() != c.want || len(seqs) != c.want {
			t.Errorf("%q: count %d, sequences %d, want %d", c.pat, p.Count(), len(seqs), c.want)
		}
	}
}

// TestPatternBrute checks *p4 expansion against a filter over all 7^4 words.
func TestPatternBrute(t *testing.T) {
	p, _ := ParsePattern("T,[^T]p3")
	got := map[string]bool{}
	for _, s := range p.Sequences() {
		got[seqString(s)] = true
	}
	want := 0
	for a := 0; a < 7*7*7; a++ {
		w := []Piece{T, Piece(a % 7), Piece(a / 7 % 7), Piece(a / 49)}
		if w[1] == T || w[2] == T || w[3] == T || w[1] == w[2] || w[1] == w[3] || w[2] == w[3] {
			continue
		}
		want++
		if !got[seqString(w)] {
			t.Fatalf("missing %s", seqString(w))
		}
	}
	if want != len(got) || want != p.Count() {
		t.Fatalf("got %d distinct, count %d, want %d", len(got), p.Count(), want)
	}
}

func seqString(s []Piece) string {
	var b strings.Builder
	for _, p := range s {
		b.WriteString(p.String())
	}
	return b.String()
}

func TestPatternErrors(t *testing.T) {
	for _, s := range []string{"", "X", "[TI", "[TT]", "*p8", "[TI]p3", "*p0", "[^TIJLSZO]", "# only"} {
		if _, err := ParsePattern(s); err == nil {
			t.Errorf("%q: no error", s)
		}
	}
}

func TestParseField(t *testing.T) {
	f, h, err := ParseField("X________T\n__________")
	if err != nil || h != 2 || !f.Filled(0, 1) || !f.Filled(9, 1) || f.Filled(0, 0) {
		t.Fatalf("got %v %d %v", f, h, err)
	}
	if got := f.Format(2); got != "X________X\n__________\n" {
		t.Fatalf("format %q", got)
	}
	for _, s := range []string{"X", "XXXXXXXXXQ", strings.Repeat("__________ ", 7)} {
		if _, _, err := ParseField(s); err == nil {
			t.Errorf("%q: no error", s)
		}
	}
}

func FuzzParsePattern(f *testing.F) {
	for _, s := range []string{"*p7", "[OSZTLJ]p6", "T,I,O,*p4", "*!", "[^TI]p2;I", "#x\nT"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePattern(s)
		if err != nil {
			return
		}
		if p.Count() > 100000 {
			return
		}
		if n := len(p.Sequences()); n != p.Count() {
			t.Fatalf("%q: %d sequences, count %d", s, n, p.Count())
		}
	})
}

func FuzzParseField(f *testing.F) {
	f.Add("X____X____ XX__XX____")
	f.Add("__________")
	f.Fuzz(func(t *testing.T, s string) {
		fl, h, err := ParseField(s)
		if err != nil {
			return
		}
		g, h2, err := ParseField(fl.Format(h))
		if err != nil || g != fl || h2 != h {
			t.Fatalf("%q: round trip %v %d %v", s, g, h2, err)
		}
	})
}
