// Tests of the chain beam: plans replay exactly, targets are reached.
package ai

import (
	"context"
	"testing"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/sim"
)

func loadPacks(t testing.TB, name string) []sim.Pack {
	t.Helper()
	p, err := codevs.ReadPackFile("../testdata/packs/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBeamPlanReplays checks that the chosen fire's moves, replayed with the
// game rules, give the recorded fields and chain count.
func TestBeamPlanReplays(t *testing.T) {
	packs := loadPacks(t, "pack_0000.pack")
	cfg := BeamConfig{Depth: 14, Width: 200, BucketWidth: 60, XMin: 2, XMax: 6, Target: 10, Threads: 2}
	res := runBeam(context.Background(), side{}, packs, cfg)
	if res.Best.Chains < 6 {
		t.Fatalf("beam found only %d chains (depth %d nodes %d width %d) %+v", res.Best.Chains, res.Depth, res.Nodes, res.MaxWidth, res.PerPly)
	}
	var p codevs.Player
	for i, m := range res.Best.Moves {
		if got := sim.FastFrom(&p.Board); got != res.Best.Fields[i] {
			t.Fatalf("ply %d: field differs from the plan", i)
		}
		h, err := p.Act(packs[i], toMove(m))
		if err != nil {
			t.Fatal(err)
		}
		if i < len(res.Best.Moves)-1 && h.Chains > smallFire {
			t.Fatalf("ply %d fired early", i)
		}
		if i == len(res.Best.Moves)-1 && h.Chains != res.Best.Chains {
			t.Fatalf("fire made %d chains, plan says %d", h.Chains, res.Best.Chains)
		}
	}
	// Determinism across thread counts.
	cfg.Threads = 1
	res1 := runBeam(context.Background(), side{}, packs, cfg)
	if res1.Best.Chains != res.Best.Chains || len(res1.Best.Moves) != len(res.Best.Moves) {
		t.Fatalf("1 thread: %d chains at ply %d; 2 threads: %d at %d", res1.Best.Chains, len(res1.Best.Moves), res.Best.Chains, len(res.Best.Moves))
	}
	t.Logf("%d chains at ply %d, %d nodes", res.Best.Chains, res.Best.Ply, res.Nodes)
}
