// Tests the feature extractor against a slow reference on a 2-D grid.
package train

import (
	"math/rand/v2"
	"testing"

	"github.com/yomi-ai/yomi/nn"
)

func refFeatures(w *Well) map[int32]float32 {
	m := map[int32]float32{}
	for _, r := range w.Rows {
		m[int32(r)]++
	}
	for y := 0; y <= Height-3; y++ {
		for x := -1; x <= Width-2; x++ {
			p := 0
			for dy := 0; dy < 4; dy++ {
				for dx := 0; dx < 3; dx++ {
					if w.cell(x+dx, y+dy) {
						p |= 1 << (3*dy + dx)
					}
				}
			}
			m[int32(RowPatterns+p)]++
		}
	}
	return m
}

func TestFeaturesMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	var dst []nn.Feature
	var idx []int32
	for trial := 0; trial < 500; trial++ {
		var w Well
		top := r.IntN(Height + 1)
		for y := top; y < Height; y++ {
			w.Rows[y] = uint16(r.IntN(1<<Width - 1))
		}
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
		if total != Height+10*14 {
			t.Fatalf("total %g want %d", total, Height+140)
		}
	}
	// Empty well: bottom windows see the floor, side windows the walls.
	var w Well
	dst, _, _ = Features(dst[:0], idx, &w)
	if dst[0].Index != 0 || dst[0].Count != Height {
		t.Fatalf("empty well row feature %+v", dst[0])
	}
	w.Rows[3] = 1<<Width - 1
	if _, _, err := Features(nil, nil, &w); err == nil {
		t.Fatal("full row accepted")
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
