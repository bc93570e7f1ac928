package player

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/hatetris"
)

// TestKeepAncestorsOnly: keeping only the ancestors of the beam and of the
// best well changes no game (whole games, replays written by the engine
// that kept every layer; TestCompactLayers checks a fourth) and keeps a few
// widths of wells, not one per depth.
func TestKeepAncestorsOnly(t *testing.T) {
	for _, c := range []struct {
		file string
		opt  Options
	}{
		{"testdata/beam200-heuristic.txt", Options{Width: 200}},
		{"testdata/beam60-quiescence.txt", Options{Width: 60, Quiescence: true}},
		{"testdata/beam30-mild.txt", Options{Width: 30, AI: hatetris.Mild, MaxDepth: 150}},
	} {
		b, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		opt := c.opt
		opt.Workers = 2
		maxKept, sumBeam := 0, 0
		opt.Progress = func(s Stats) {
			maxKept = max(maxKept, s.Kept)
			sumBeam += s.Beam
		}
		res, err := Search(context.Background(), opt)
		if err != nil {
			t.Fatal(err)
		}
		if got := encodeReplay(t, res); got != strings.TrimSpace(string(b)) {
			t.Errorf("%s: another game (%d lines, %d pieces)", c.file, res.Score, res.Pieces)
		}
		t.Logf("%s: %d pieces, at most %d wells kept (%.2f × width); %d without dropping", c.file, res.Pieces, maxKept, float64(maxKept)/float64(opt.Width), sumBeam+1)
		if maxKept > 4*opt.Width+res.Depth {
			t.Errorf("%s: %d wells kept at once, more than 4 × width + depth", c.file, maxKept)
		}
	}
}

// TestCompact: on hand-made layers, compact keeps the ancestors of the
// newest layer and of the best well, renumbers the parent links and the
// best well, and leaves the newest layer alone.
func TestCompact(t *testing.T) {
	mk := func(id uint16, parent int32, score int32) entry {
		var e entry
		e.rows[len(e.rows)-1] = id
		e.parent, e.score = parent, score
		return e
	}
	s := &search{bloom: newBloom(1)}
	s.layers = [][]entry{
		{mk(0, -1, 0)},
		{mk(10, 0, 0), mk(11, 0, 3), mk(12, 0, 0), mk(13, 0, 0)}, // 11 is the best; 13 has no child
		{mk(20, 2, 0), mk(21, 0, 0), mk(22, 2, 0)},               // 20 has no child
		{mk(30, 1, 0), mk(31, 2, 0), mk(32, 2, 0)},
	}
	s.bestD, s.bestI = 1, 1
	s.compact()
	id := func(d int) (ids []uint16, parents []int32) {
		for _, e := range s.layers[d] {
			ids = append(ids, e.rows[len(e.rows)-1])
			parents = append(parents, e.parent)
		}
		return
	}
	for d, want := range []struct {
		ids     []uint16
		parents []int32
	}{
		{[]uint16{0}, []int32{-1}},
		{[]uint16{10, 11, 12}, []int32{0, 0, 0}},
		{[]uint16{21, 22}, []int32{0, 2}},
		{[]uint16{30, 31, 32}, []int32{0, 1, 1}},
	} {
		ids, parents := id(d)
		if !slicesEqual(ids, want.ids) || !slicesEqual(parents, want.parents) {
			t.Errorf("layer %d: wells %v parents %v, want %v %v", d, ids, parents, want.ids, want.parents)
		}
	}
	if s.bestD != 1 || s.layers[1][s.bestI].rows[15] != 11 {
		t.Errorf("best well at %d,%d", s.bestD, s.bestI)
	}
}

func slicesEqual[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
