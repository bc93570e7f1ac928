// Tests of the extension pick's widening (ExtLater, ExtShorter) and of the
// ready field of a plan made under a landing (session codevs-ext2).

package ai

import (
	"context"
	"slices"
	"testing"

	"github.com/yomi-ai/yomi/codevs"
)

// TestExtCandidates checks which fires the pick reads, in which order:
// as long and early first, then the widened ones, each group the earliest,
// longest first and capped at k; the choice itself never.
func TestExtCandidates(t *testing.T) {
	fire := func(id, ply, chains int) Fire { return Fire{Ply: ply, Chains: chains, Moves: []int{id, ply}} }
	best := fire(0, 5, 10)
	fs := []Fire{
		fire(7, 6, 9),  // g: a ply later and a chain shorter
		fire(4, 6, 10), // d: a ply later
		fire(8, 3, 8),  // h: earlier, two chains shorter
		fire(2, 5, 11), // b: as early, longer
		fire(6, 7, 12), // f: two plies later
		fire(5, 5, 9),  // e: a chain shorter
		fire(1, 4, 10), // a: earlier
		best,
		{Ply: 5, Chains: 0, Moves: []int{9, 5}}, // no fire
	}
	for _, c := range []struct {
		k, later, shorter int
		want              []int // ids in reading order
	}{
		{4, 0, 0, []int{1, 2}},
		{4, 1, 0, []int{1, 2, 4}},
		{4, 0, 1, []int{1, 2, 5}},
		{4, 1, 1, []int{1, 2, 5, 4, 7}},
		{1, 1, 1, []int{1, 5}},
		{4, 2, 0, []int{1, 2, 4, 6}},
		{4, 0, 2, []int{1, 2, 8, 5}},
	} {
		var got []int
		for _, f := range extCandidates(slices.Clone(fs), best, c.k, c.later, c.shorter) {
			got = append(got, f.Moves[0])
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("k %d, later %d, shorter %d: read %v, want %v", c.k, c.later, c.shorter, got, c.want)
		}
	}
}

// TestBeforeFireLanding checks that the ready field of a fire found with
// ojama landing (a counter plan's) is the search's own: the landing's rows
// fall before the fire as they did in the search, and the field without
// them differs (the test can tell).
func TestBeforeFireLanding(t *testing.T) {
	packs, err := codevs.PacksForSeed(9003, codevs.ProfileClient)
	if err != nil {
		t.Fatal(err)
	}
	var root side
	for i, m := range []int{12, 16, 20, 24} {
		rot := rotate(packs[i])
		root.act(m, &rot)
	}
	packs = packs[4:]
	for _, inPly := range []int{1, 2} {
		var c Chokudai
		c.search(context.Background(), root, packs, ChokudaiConfig{Depth: 6, Nodes: 1500, XMax: 8, Incoming: 30, IncomingPly: inPly, Threads: 1, ByFirst: true})
		checked := 0
		for _, f := range c.byFirst() {
			if len(f.Moves) < inPly+2 {
				continue
			}
			s, ok := beforeFire(root, packs, f, 30, inPly)
			if !ok || s.f != f.Fields[len(f.Fields)-1] {
				t.Fatalf("landing after ply %d: the ready field of %d chains at ply %d is not the search's", inPly, f.Chains, f.Ply)
			}
			if dry, _ := beforeFire(root, packs, f, 0, 0); dry.f == s.f {
				t.Fatalf("landing after ply %d: the ready field is the same without the landing", inPly)
			}
			checked++
		}
		if checked == 0 {
			t.Errorf("landing after ply %d: no fire late enough to check", inPly)
		}
	}
}

// TestSearchExtWide checks the widened pick on pack seeds: the choice is
// the search's or a candidate within ExtLater plies and ExtShorter chains
// whose extension is longer, and on some seed it is one that the narrow
// pick could not take (a later or shorter fire).
func TestSearchExtWide(t *testing.T) {
	wide := 0
	for _, seed := range []uint64{9000} {
		packs, err := codevs.PacksForSeed(seed, codevs.ProfileClient)
		if err != nil {
			t.Fatal(err)
		}
		cfg := ChokudaiConfig{Depth: 13, Nodes: 4000, XMax: 8, Target: 13, Threads: 1}
		var c Chokudai
		base := c.search(context.Background(), side{}, packs, cfg)
		if base.Best.Chains == 0 {
			continue
		}
		cfg.ExtNodes, cfg.ExtK, cfg.ExtLater, cfg.ExtShorter = 1500, 4, 1, 1
		res := c.searchExt(context.Background(), side{}, packs, cfg)
		if res.ExtReads > extReadsMax(cfg) {
			t.Errorf("seed %d: %d reads, at most %d", seed, res.ExtReads, extReadsMax(cfg))
		}
		if slices.Equal(res.Best.Moves, base.Best.Moves) {
			continue
		}
		b, f := base.Best, res.Best
		e0 := c.extension(context.Background(), side{}, packs, b, 0, 0, ojamaOf(b.Chains), 1500, 0, 1)
		e := c.extension(context.Background(), side{}, packs, f, 0, 0, ojamaOf(f.Chains), 1500, 0, 1)
		if f.Chains < b.Chains-1 || f.Ply > b.Ply+1 || e <= e0 || e != res.Ext {
			t.Errorf("seed %d: picked %d chains at ply %d (extension %d, reported %d) over the search's %d at ply %d (extension %d)",
				seed, f.Chains, f.Ply, e, res.Ext, b.Chains, b.Ply, e0)
		}
		if f.Chains < b.Chains || f.Ply > b.Ply {
			wide++
		}
		t.Logf("seed %d: %d chains at ply %d, extension %d -> %d chains at ply %d, extension %d (%d reads)", seed, b.Chains, b.Ply, e0, f.Chains, f.Ply, e, res.ExtReads)
	}
	if wide == 0 {
		t.Errorf("the widened pick took no later or shorter fire")
	}
}
