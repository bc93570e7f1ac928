// Tests D&F's positional features against a slow reference on a 2-D grid,
// and the feature-set name a net file records.
package train

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/nn"
)

// refDNF computes D&F's window indices cell by cell: windows in D&F's
// order (the 16 rows, then 3-wide 4-high blocks column offset by column
// offset, top to bottom), each window position's range starting where the
// previous one's ends; a window's pattern gives cell (dx, dy) of its k
// rows the weight 2^(w·(k−1−dy) + dx): the first row most significant.
func refDNF(w *hatetris.Well) []int32 {
	var out []int32
	offset := 0
	window := func(x0, y0, wd, ht int) {
		p := 0
		for dy := 0; dy < ht; dy++ {
			for dx := 0; dx < wd; dx++ {
				if w[hatetris.Bar+y0+dy]>>(x0+dx)&1 != 0 {
					p += 1 << (wd*(ht-1-dy) + dx)
				}
			}
		}
		out = append(out, int32(offset+p))
		offset += 1 << (wd * ht)
	}
	for y := 0; y < Rows; y++ {
		window(0, y, hatetris.Width, 1)
	}
	for x := 0; x+3 <= hatetris.Width; x++ {
		for y := 0; y+4 <= Rows; y++ {
			window(x, y, 3, 4)
		}
	}
	if offset != DNFInputs {
		panic("reference layout does not cover DNFInputs")
	}
	return out
}

func TestDNFLayout(t *testing.T) {
	// Spec §7.2: 1024·16 + 4096·104 inputs, 16 + 13·8 active.
	if DNFInputs != 442368 || DNFActive != 120 || DNF.Inputs() != DNFInputs {
		t.Fatalf("inputs %d active %d", DNFInputs, DNFActive)
	}
}

func TestDNFFeaturesMatchReference(t *testing.T) {
	bottom := func(rows ...uint16) hatetris.Well { // rows ending at the floor
		var w hatetris.Well
		copy(w[hatetris.Height-len(rows):], rows)
		return w
	}
	blk := func(c, y, p int) int32 { return int32(Rows*1024 + (c*13+y)*4096 + p) }
	for _, c := range []struct {
		name string
		w    hatetris.Well
		want map[int]int32 // position → index, for a few positions
	}{
		{"empty", hatetris.Well{}, map[int]int32{0: 0, 15: 15 * 1024, 16: blk(0, 0, 0), 119: blk(7, 12, 0)}},
		{"bottom-left cell", bottom(1), map[int]int32{15: 15*1024 + 1, 16 + 12: blk(0, 12, 1), 16 + 13 + 12: blk(1, 12, 0)}},
		{"first row most significant", bottom(0b100, 0, 0, 0), map[int]int32{12: 12*1024 + 4, 16 + 12: blk(0, 12, 4<<9), 16 + 13 + 12: blk(1, 12, 2<<9), 16 + 26 + 12: blk(2, 12, 1<<9), 16 + 26 + 11: blk(2, 11, 1<<6)}},
		{"right column", bottom(0b1000000000, 0b1000000000), map[int]int32{14: 14*1024 + 512, 119: blk(7, 12, 4<<3|4), 119 - 13: blk(6, 12, 0)}},
	} {
		got, err := DNFFeatures(nil, &c.w)
		if err != nil {
			t.Fatal(err)
		}
		ref := refDNF(&c.w)
		for pos, want := range c.want {
			if ref[pos] != want {
				t.Fatalf("%s: reference position %d = %d, table says %d", c.name, pos, ref[pos], want)
			}
			if got[pos].Index != want {
				t.Errorf("%s: position %d = %d want %d", c.name, pos, got[pos].Index, want)
			}
		}
	}
	r := rand.New(rand.NewPCG(26, 7))
	var dst []nn.Feature
	for trial := 0; trial < 2000; trial++ {
		w := randWell(r)
		var err error
		if dst, err = DNFFeatures(dst[:0], &w); err != nil {
			t.Fatal(err)
		}
		ref := refDNF(&w)
		if len(dst) != DNFActive {
			t.Fatalf("trial %d: %d features", trial, len(dst))
		}
		for i, f := range dst {
			if f.Index != ref[i] || f.Count != 1 || f.Index < 0 || f.Index >= DNFInputs {
				t.Fatalf("trial %d, well\n%v: feature %d = %+v, reference %d", trial, w, i, f, ref[i])
			}
		}
		if !slices.IsSortedFunc(dst, func(a, b nn.Feature) int { return int(a.Index - b.Index) }) {
			t.Fatalf("trial %d: not sorted", trial)
		}
	}
	var over hatetris.Well
	over[hatetris.Bar-1] = 1
	if _, err := DNFFeatures(nil, &over); err == nil {
		t.Error("cells above the bar accepted")
	}
}

// TestNetFeatureSet: a D&F net's file names its set and loads as D&F; a
// knewjade net's file is version 1 (the committed nets' format) and loads
// as knewjade; a net whose inputs do not fit its set, or an unknown set,
// is refused, here and by the fast evaluator.
func TestNetFeatureSet(t *testing.T) {
	dir := t.TempDir()
	for _, f := range FeatureSets {
		n, err := f.NewNet(4, 1)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, string(f)+".yomi")
		if err := n.SaveFile(p); err != nil {
			t.Fatal(err)
		}
		b, _ := n.MarshalBinary()
		if want := map[FeatureSet]byte{Knewjade: 1, DNF: 2}[f]; b[6] != want {
			t.Errorf("%s: file version %d want %d", f, b[6], want)
		}
		_, got, err := LoadNet(p)
		if err != nil || got != f {
			t.Errorf("%s: loaded as %q, %v", f, got, err)
		}
	}
	if _, f, err := LoadNet("../nets/h24-run4-gen19.yomi"); err != nil || f != Knewjade {
		t.Errorf("committed net: %q %v", f, err)
	}
	wrong, _ := nn.New(Inputs, 4, 1)
	wrong.Features = string(DNF)
	if _, err := NetFeatures(wrong); err == nil || !strings.Contains(err.Error(), "dnf features need") {
		t.Errorf("knewjade-sized net named dnf: %v", err)
	}
	wrong.Features = "other"
	if _, err := NetFeatures(wrong); err == nil {
		t.Error("unknown feature set accepted")
	}
	d, _ := DNF.NewNet(2, 1)
	if _, err := NewTables(d); err == nil {
		t.Error("fast evaluator accepted a D&F net")
	}
}
