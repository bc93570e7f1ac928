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
	for _, pot := range []bool{false, true} {
		t.Run(map[bool]string{false: "next-pack", true: "potential"}[pot], func(t *testing.T) { testBeamPlanReplays(t, pot) })
	}
}

func testBeamPlanReplays(t *testing.T, potential bool) {
	packs := loadPacks(t, "pack_0000.pack")
	cfg := BeamConfig{Depth: 14, Width: 200, BucketWidth: 60, XMin: 2, XMax: 6, Target: 10, Threads: 2, Potential: potential}
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

// TestBeamPotentialKey checks that ranking states by their one-block
// potential builds longer chains than ranking them by the next pack's chain,
// at the same width and depth on the testdata packs (the reason the AI uses
// it): more chains in total over the files, and no file worse by more than 1.
func TestBeamPotentialKey(t *testing.T) {
	var sum [2]int
	for _, name := range []string{"pack_0000.pack", "pack_0001.pack", "pack_0002.pack"} {
		packs := loadPacks(t, name)
		var best [2]int
		for i, pot := range []bool{false, true} {
			cfg := BeamConfig{Depth: 13, Width: 200, BucketWidth: 60, XMin: 2, XMax: 6, Threads: 2, Potential: pot}
			res := runBeam(context.Background(), side{}, packs, cfg)
			for _, f := range res.PerPly {
				best[i] = max(best[i], f.Chains)
			}
			sum[i] += best[i]
		}
		t.Logf("%s: best chain in 13 plies: next-pack key %d, potential key %d", name, best[0], best[1])
		if best[1] < best[0]-1 {
			t.Errorf("%s: potential key %d chains, next-pack key %d", name, best[1], best[0])
		}
	}
	if sum[1] <= sum[0] {
		t.Errorf("potential key %d chains over the files, next-pack key %d", sum[1], sum[0])
	}
}

// TestBeamDeadline checks the race choice: with a deadline before the
// first fire of Target chains, the beam picks the longest fire by then (of
// at least DeadlineMin chains), and the plan replays to it.
func TestBeamDeadline(t *testing.T) {
	packs := loadPacks(t, "pack_0000.pack")
	cfg := BeamConfig{Depth: 14, Width: 200, BucketWidth: 60, XMin: 2, XMax: 6, Target: 10, Threads: 2, Potential: true}
	free := runBeam(context.Background(), side{}, packs, cfg)
	if free.Best.Chains < 10 || free.Best.Ply < 8 {
		t.Fatalf("no 10-chain after ply 8 to race against: %d chains at ply %d", free.Best.Chains, free.Best.Ply)
	}
	cfg.Deadline, cfg.DeadlineMin = free.Best.Ply-2, 3
	want := 0
	for _, f := range free.PerPly[:cfg.Deadline] {
		want = max(want, f.Chains)
	}
	res := runBeam(context.Background(), side{}, packs, cfg)
	if res.Best.Ply > cfg.Deadline || res.Best.Chains != want || want < cfg.DeadlineMin {
		t.Fatalf("deadline ply %d: chose %d chains at ply %d, want %d by then", cfg.Deadline, res.Best.Chains, res.Best.Ply, want)
	}
	var p codevs.Player
	for i, m := range res.Best.Moves {
		h, err := p.Act(packs[i], toMove(m))
		if err != nil {
			t.Fatal(err)
		}
		if i == len(res.Best.Moves)-1 && h.Chains != res.Best.Chains {
			t.Fatalf("fire made %d chains, plan says %d", h.Chains, res.Best.Chains)
		}
	}
	// Too small a fire by the deadline: the target rule stands.
	cfg.DeadlineMin = want + 1
	if res := runBeam(context.Background(), side{}, packs, cfg); res.Best.Ply != free.Best.Ply || res.Best.Chains != free.Best.Chains {
		t.Fatalf("DeadlineMin %d: chose %d chains at ply %d, want the free choice %d at %d", cfg.DeadlineMin, res.Best.Chains, res.Best.Ply, free.Best.Chains, free.Best.Ply)
	}
	t.Logf("free: %d chains at ply %d; deadline %d: %d chains at ply %d", free.Best.Chains, free.Best.Ply, cfg.Deadline, res.Best.Chains, res.Best.Ply)
}

func TestFirstFire(t *testing.T) {
	for _, c := range []struct {
		fires []int
		want  int
	}{{nil, 0}, {[]int{0, 39, 40}, 3}, {[]int{45}, 1}, {[]int{10, 20}, 0}} {
		if got := firstFire(c.fires, 40); got != c.want {
			t.Errorf("firstFire(%v) = %d, want %d", c.fires, got, c.want)
		}
	}
}

// TestPlanPlies checks how the budget left is split: without a horizon over
// all plies still to search (as before), with one over the plies up to it
// plus one of reserve, and past it over two, then one.
func TestPlanPlies(t *testing.T) {
	for _, c := range []struct{ depth, horizon, d, want int }{
		{20, 0, 0, 19}, {20, 0, 18, 1}, {20, 20, 5, 14}, {20, 30, 5, 14},
		{20, 14, 0, 14}, {20, 14, 12, 2}, {20, 14, 13, 1}, {20, 14, 16, 1},
	} {
		if got := planPlies(c.depth, c.horizon, c.d); got != c.want {
			t.Errorf("planPlies(%d, %d, %d) = %d, want %d", c.depth, c.horizon, c.d, got, c.want)
		}
	}
}
