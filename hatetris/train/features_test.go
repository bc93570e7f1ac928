// Tests the feature extractor and the evaluator against slow references on
// a 2-D grid.
package train

import (
	"math/rand/v2"
	"testing"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/nn"
)

// cell reports whether (x, y) of the area below the bar is filled, with walls
// (x = −1, Width) and the floor (y = Rows) filled.
func cell(w *hatetris.Well, x, y int) bool {
	if x < 0 || x >= hatetris.Width || y >= Rows {
		return true
	}
	return w[hatetris.Bar+y]>>uint(x)&1 != 0
}

func refFeatures(w *hatetris.Well) map[int32]float32 {
	m := map[int32]float32{}
	for y := 0; y < Rows; y++ {
		m[int32(w[hatetris.Bar+y])]++
	}
	for y := 0; y <= Rows-3; y++ {
		for x := -1; x <= hatetris.Width-2; x++ {
			p := 0
			for dy := 0; dy < 4; dy++ {
				for dx := 0; dx < 3; dx++ {
					if cell(w, x+dx, y+dy) {
						p |= 1 << (3*dy + dx)
					}
				}
			}
			m[int32(RowPatterns+p)]++
		}
	}
	return m
}

// randWell fills rows from a random top down to the floor with random
// non-full rows, sometimes with empty rows inside the stack.
func randWell(r *rand.Rand) hatetris.Well {
	var w hatetris.Well
	for y := hatetris.Bar + r.IntN(Rows+1); y < hatetris.Height; y++ {
		if r.IntN(8) != 0 {
			w[y] = uint16(r.IntN(hatetris.FullRow))
		}
	}
	return w
}

func TestFeaturesMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	var dst []nn.Feature
	var idx []int32
	for trial := 0; trial < 500; trial++ {
		w := randWell(r)
		var err error
		dst, idx, err = Features(dst[:0], idx, &w)
		if err != nil {
			t.Fatal(err)
		}
		ref := refFeatures(&w)
		if len(ref) != len(dst) {
			t.Fatalf("trial %d: %d distinct features, ref %d", trial, len(dst), len(ref))
		}
		total := float32(0)
		for _, f := range dst {
			if ref[f.Index] != f.Count {
				t.Fatalf("trial %d: feature %d count %g ref %g", trial, f.Index, f.Count, ref[f.Index])
			}
			total += f.Count
		}
		if total != PerWell {
			t.Fatalf("total %g want %d", total, PerWell)
		}
	}
	// Empty well: 16 empty rows; the 10 window columns of 14 window rows.
	var w hatetris.Well
	dst, _, _ = Features(dst[:0], idx, &w)
	if dst[0].Index != 0 || dst[0].Count != Rows {
		t.Fatalf("empty well row feature %+v", dst[0])
	}
	for _, c := range []struct {
		name string
		y    int
		row  uint16
	}{{"full row", 10, hatetris.FullRow}, {"above the bar", 2, 1}, {"wide row", 12, 1 << 11}} {
		w := hatetris.Well{}
		w[c.y] = c.row
		if _, _, err := Features(nil, nil, &w); err == nil {
			t.Errorf("%s accepted", c.name)
		}
	}
}

func TestInputsMatchSeedParameterCount(t *testing.T) {
	// Seed 001: 122905 parameters at hidden 24, 245809 at hidden 48.
	for _, c := range []struct{ h, want int }{{24, 122905}, {48, 245809}} {
		if got := Inputs*c.h + 2*c.h + 1; got != c.want {
			t.Errorf("hidden %d: %d params want %d", c.h, got, c.want)
		}
	}
}

func FuzzFeatures(f *testing.F) {
	f.Add([]byte{0, 0, 1, 2, 255, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		var w hatetris.Well
		for i := 0; i+1 < len(data) && i/2 < hatetris.Height; i += 2 {
			w[i/2] = uint16(data[i]) | uint16(data[i+1])<<8
		}
		feats, _, err := Features(nil, nil, &w)
		if err != nil {
			return
		}
		ref := refFeatures(&w)
		if len(feats) != len(ref) {
			t.Fatalf("%d features, ref %d", len(feats), len(ref))
		}
		for _, x := range feats {
			if ref[x.Index] != x.Count {
				t.Fatalf("feature %d: %g ref %g", x.Index, x.Count, ref[x.Index])
			}
		}
	})
}
