package ai

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/sim"
)

// rowPotentialSlow is rowPotential written out: the field rebuilt as a
// Board, one ojama block pushed on every column, and every qualifying
// block (not ojama, not its column's top, at or above the lower
// neighbour's highest ojama) erased by hand, the column closed up and the
// rest resolved by the Board engine.
func rowPotentialSlow(f *sim.Fast) int {
	b := f.Board()
	b.DropOjamaRow()
	height := func(b *sim.Board, x int) int {
		h := 0
		for h < sim.Height+2 && b.Cell[x][h] != 0 {
			h++
		}
		return h
	}
	ojTop := func(x int) int { // 1-based row of the highest ojama, 0 none; off-field: above all
		if x < 0 || x >= sim.Width {
			return 1 << 20
		}
		for h := height(&b, x) - 1; h >= 0; h-- {
			if b.Cell[x][h] == sim.Ojama {
				return h + 1
			}
		}
		return 0
	}
	best := 0
	for x := 0; x < sim.Width; x++ {
		reach := min(ojTop(x-1), ojTop(x+1))
		top := height(&b, x)
		for h := max(reach, 1) - 1; h < top-1; h++ {
			if b.Cell[x][h] == sim.Ojama {
				continue
			}
			g := b
			for r := h; r < sim.Height+1; r++ {
				g.Cell[x][r] = g.Cell[x][r+1]
			}
			g.Cell[x][sim.Height+1] = 0
			best = max(best, g.Resolve()) // chains after the erase
		}
	}
	return best
}

// rowFireSlow is rowFire written out on the Board engine: every drop of
// pack p (all 9 columns × 4 rotations) after one ojama row, the longest
// chain of a drop that does not kill.
func rowFireSlow(f *sim.Fast, p sim.Pack) int {
	b := f.Board()
	b.DropOjamaRow()
	best := 0
	for x := 0; x < 9; x++ {
		for r := 0; r < 4; r++ {
			g := b
			n, err := g.Drop(p, x, r)
			if err == nil && !g.Dead() {
				best = max(best, n)
			}
		}
	}
	return best
}

// TestRowPotential checks rowPotential, the ChokudaiConfig.RowW term,
// against the slow Board reference on random fields (built by random drops,
// some with ojama rows already down) and rowKey's blend against the
// potential's key.
func TestRowPotential(t *testing.T) {
	packs := loadPacks(t, "pack_0000.pack")
	n, nonzero, fired := 0, 0, 0
	for seed := uint64(1); seed <= 40; seed++ {
		ps, _, err := BenchPositions(seed, 2)
		if err != nil {
			t.Fatal(err)
		}
		for i := range ps {
			for rows := 0; rows < 2; rows++ {
				f := sim.FastFrom(&ps[i].Board)
				for range rows {
					f.DropOjamaRow()
				}
				if f.Dead() {
					continue
				}
				got, want := rowPotential(&f), rowPotentialSlow(&f)
				if got != want {
					t.Fatalf("seed %d field %d rows %d: rowPotential %d, slow reference %d\n%v", seed, i, rows, got, want, f.Board())
				}
				pk := packs[(int(seed)*2+i)%len(packs)]
				rot := rotate(pk)
				if got, want := rowFire(&f, &rot), rowFireSlow(&f, pk); got != want {
					t.Fatalf("seed %d field %d rows %d: rowFire %d, slow reference %d\n%v", seed, i, rows, got, want, f.Board())
				}
				if rowFire(&f, &rot) > 0 {
					fired++
				}
				n++
				if got > 0 {
					nonzero++
				}
				er, _, _ := f.ErasePotential()
				pot := max(er-1, 0)
				rp := rowPotentialSlow(&f)
				for _, w := range []int{25, 100} {
					oj := min(ojamaOf(pot), chokMaxOjama)
					blend := ((100-w)*oj + w*min(ojamaOf(rp), chokMaxOjama)) / 100
					if k := rowKey(&f, w, 0, nil, nil); k != chokScore(&f, blend, 0) {
						t.Fatalf("seed %d field %d: rowKey(%d) %d, want chokScore of the blend %d (pot %d, row pot %d)", seed, i, w, k, blend, pot, rp)
					}
					pk2 := packs[(int(seed)*2+i+1)%len(packs)]
					rot2 := rotate(pk2)
					rc := min(rowFireSlow(&f, pk), rowFireSlow(&f, pk2))
					blend = ((100-w)*oj + w*min(ojamaOf(rc), chokMaxOjama)) / 100
					if k := rowKey(&f, w, 0, &rot, &rot2); k != chokScore(&f, blend, 0) {
						t.Fatalf("seed %d field %d: rowKey(%d) with two packs %d, want chokScore of the blend %d (pot %d, row fire %d)", seed, i, w, k, blend, pot, rc)
					}
					if k := rowKey(&f, w, pot+1, nil, nil); k != potentialScore(&f) {
						t.Fatalf("seed %d field %d: rowKey below RowMin %d, want the potential's %d", seed, i, k, potentialScore(&f))
					}
				}
			}
		}
	}
	// Fields the chokudai search builds hold chains; check some of those.
	var c Chokudai
	c.search(context.Background(), side{}, packs, ChokudaiConfig{Depth: 13, Nodes: 400, XMax: 8})
	for i := range c.nodes {
		f := c.nodes[i].s.f
		if got, want := rowPotential(&f), rowPotentialSlow(&f); got != want {
			t.Fatalf("search node %d: rowPotential %d, slow reference %d\n%v", i, got, want, f.Board())
		}
		ply := int(c.nodes[i].ply)
		rot := rotate(packs[ply])
		if got, want := rowFire(&f, &rot), rowFireSlow(&f, packs[ply]); got != want {
			t.Fatalf("search node %d: rowFire %d, slow reference %d\n%v", i, got, want, f.Board())
		}
		if rowFire(&f, &rot) > 0 {
			fired++
		}
		n++
		if rowPotential(&f) > 0 {
			nonzero++
		}
	}
	if nonzero < n/4 || fired < n/8 {
		t.Fatalf("only %d of %d fields have a row potential, %d a row fire: the check is too weak", nonzero, n, fired)
	}
	t.Logf("%d fields, %d with a row potential, %d with a row fire", n, nonzero, fired)
}

// rowMeasure is what one chokudai plan does under one ojama row: its fire
// (chains, ojama, ply), the longest chain after one row falls at the fire
// turn before the fire move (now), and the longest after a non-firing move
// at the fire turn, the row, and the next pack (next: keepsChain's and the
// anti-counter's test, rowTable's ply 2).
type rowMeasure struct {
	chains, sent, ply, now, next int
}

// measureRow runs one search from s (its next pack packs[0]) and measures
// its plan.
func measureRow(c *Chokudai, s side, packs []sim.Pack, cfg ChokudaiConfig) (rowMeasure, Fire) {
	res := c.search(context.Background(), s, packs, cfg)
	f := res.Best
	m := rowMeasure{chains: f.Chains, sent: f.Sent, ply: f.Ply}
	if f.Chains == 0 {
		return m, f
	}
	d := f.Ply - 1
	me := s
	me.f = f.Fields[d]
	me.stock = 0
	hit := me
	hit.stock = codevs.OjamaRow
	m.now = exhaust(context.Background(), hit, packs[d:], 1, 1).Ply[0].Chains
	if len(packs) > d+1 {
		m.next = rowTable(me, packs[d:]).Ply[1].Chains
	}
	return m, f
}

// envInts reads a comma-separated list of ints from an environment
// variable, def when unset.
func envInts(t *testing.T, name string, def []int) []int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	var out []int
	for _, s := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, n)
	}
	return out
}

// TestChokRowMeasure is the offline measurement of ChokudaiConfig.RowW
// (BENCHMARKS.md, "Chokudai chains that survive an ojama row"); it runs
// only with YOMI_CHOKROW=1. For each pack seed (YOMI_CHOKROW_SEEDS from
// YOMI_CHOKROW_FROM) and each weight (YOMI_CHOKROW_W; RowMin
// YOMI_CHOKROW_MIN; RowPack YOMI_CHOKROW_PACK) at
// YOMI_CHOKROW_NODES expansions, one thread:
//   - opening: 13 plies, target 13, from an empty field;
//   - mid-game: the base (RowW 0) opening plan (on
//     YOMI_CHOKROW_BASE_NODES expansions, default the same) played to its fire and
//     fired, two ojama rows dropped (the opponent's answer), then 10
//     plies, target 13, from the turn after the fire.
//
// It prints the plan's fire and its chains under one row per seed and the
// means per weight.
func TestChokRowMeasure(t *testing.T) {
	if os.Getenv("YOMI_CHOKROW") == "" {
		t.Skip("offline measurement: set YOMI_CHOKROW=1")
	}
	from := envInts(t, "YOMI_CHOKROW_FROM", []int{9000})[0]
	seeds := envInts(t, "YOMI_CHOKROW_SEEDS", []int{40})[0]
	nodes := envInts(t, "YOMI_CHOKROW_NODES", []int{20000})[0]
	rowMin := envInts(t, "YOMI_CHOKROW_MIN", []int{0})[0]
	baseNodes := envInts(t, "YOMI_CHOKROW_BASE_NODES", []int{nodes})[0]
	ws := envInts(t, "YOMI_CHOKROW_W", []int{0, 25, 50, 100})
	rowPack := envInts(t, "YOMI_CHOKROW_PACK", []int{0})[0]
	type agg struct {
		n, chains, sent, ply, now, next, keeps, keepsNow, reach13 int
		el                                                        time.Duration
		nodes                                                     int64
	}
	phases := []string{"opening", "mid-game"}
	sum := make([][]agg, len(phases))
	for i := range sum {
		sum[i] = make([]agg, len(ws))
	}
	var c Chokudai
	for seed := from; seed < from+seeds; seed++ {
		packs, err := codevs.PacksForSeed(uint64(seed), codevs.ProfileClient)
		if err != nil {
			t.Fatal(err)
		}
		// The mid-game position, from the base plan.
		base, bf := measureRow(&c, side{}, packs, ChokudaiConfig{Depth: 13, Nodes: int64(baseNodes), XMax: 8, Target: 13})
		var mid side
		midTurn := -1
		if base.chains > 0 {
			mid.f = bf.Fields[bf.Ply-1]
			rot := rotate(packs[bf.Ply-1])
			mid.act(bf.Moves[bf.Ply-1], &rot)
			mid.f.DropOjamaRow()
			mid.f.DropOjamaRow()
			midTurn = bf.Ply
			if mid.f.Dead() {
				midTurn = -1
			}
		}
		line := fmt.Sprintf("seed %d:", seed)
		for ph := range phases {
			if ph == 1 && midTurn < 0 {
				continue
			}
			for i, w := range ws {
				cfg := ChokudaiConfig{Depth: 13, Nodes: int64(nodes), XMax: 8, Target: 13, RowW: w, RowMin: rowMin, RowPack: rowPack}
				s, pk := side{}, packs
				if ph == 1 {
					cfg.Depth, s, pk = 10, mid, packs[midTurn:]
				}
				start := time.Now()
				m, _ := measureRow(&c, s, pk, cfg)
				a := &sum[ph][i]
				a.el += time.Since(start)
				a.nodes += int64(nodes)
				a.n++
				a.chains += m.chains
				a.sent += m.sent
				a.ply += m.ply
				a.now += m.now
				a.next += m.next
				if m.chains >= 13 {
					a.reach13++
				}
				if m.chains > 0 && m.next >= m.chains-counterKeep {
					a.keeps++
				}
				if m.chains > 0 && m.now >= m.chains-counterKeep {
					a.keepsNow++
				}
				line += fmt.Sprintf(" %s W%d %d/%d@%d now %d next %d;", phases[ph][:3], w, m.chains, m.sent, m.ply, m.now, m.next)
			}
		}
		t.Log(line)
	}
	t.Logf("nodes %d, RowMin %d, RowPack %d, seeds %d..%d", nodes, rowMin, rowPack, from, from+seeds-1)
	t.Logf("| phase | RowW | plans | chains (mean) | ojama (mean) | fire ply (mean) | 13+ chains | row now (mean chains) | keeps chains−1, row now | row next (mean chains) | keeps chains−1, row next | µs per expansion |")
	for ph := range phases {
		for i, w := range ws {
			a := sum[ph][i]
			if a.n == 0 {
				continue
			}
			n := float64(a.n)
			t.Logf("| %s | %d | %d | %.2f | %.1f | %.2f | %d | %.2f | %d | %.2f | %d | %.0f |", phases[ph], w, a.n, float64(a.chains)/n, float64(a.sent)/n, float64(a.ply)/n, a.reach13,
				float64(a.now)/n, a.keepsNow, float64(a.next)/n, a.keeps, float64(a.el.Microseconds())/float64(a.nodes))
		}
	}
}

// TestChokRowPlan checks that ChokudaiConfig.RowW changes a plan in the
// direction it is for, through the bot's own opening (Config.ChokRow): on
// the packs of seed 9001 (5 000 expansions, 13 plies, target 13) the
// potential's key plans a 13-chain at ply 12 that one ojama row at the
// fire turn cuts to 3 chains; with the row term at 50 % the plan fires
// as long and as soon, and still fires chains−1 after the row; with
// ChokRowFrom 1 the opening is the base's.
func TestChokRowPlan(t *testing.T) {
	packs, err := codevs.PacksForSeed(9001, codevs.ProfileClient)
	if err != nil {
		t.Fatal(err)
	}
	var got [3]rowMeasure
	for i, w := range []int{0, 50, 50} {
		from := 0
		if i == 2 {
			from = 1 // ChokRowFrom: not on the opening
		}
		bot := NewBot(packs, Config{Chokudai: true, ChokNodes: 5000, Target: 13, ChokRow: w, ChokRowFrom: from, OwnDepth: 1, EnemyDepth: 1})
		g, _ := codevs.NewGame(packs)
		in := g.Input(0, [2]int64{180000, 180000})
		if _, err := bot.decide(context.Background(), &in); err != nil {
			t.Fatal(err)
		}
		p := bot.plan
		if p == nil {
			t.Fatalf("RowW %d: no plan", w)
		}
		d := len(p.moves) - 1
		hit := side{f: p.fields[d], stock: codevs.OjamaRow}
		got[i] = rowMeasure{chains: p.chains, sent: p.sent, ply: d + 1, now: exhaust(context.Background(), hit, packs[d:], 1, 1).Ply[0].Chains}
		t.Logf("ChokRow %d: %d chains (%d) at ply %d, %d under a row", w, p.chains, p.sent, d+1, got[i].now)
	}
	base, row := got[0], got[1]
	if got[2] != base {
		t.Errorf("ChokRowFrom 1: the opening plan %+v, want the base's %+v", got[2], base)
	}
	if base.now >= base.chains-counterKeep {
		t.Fatalf("the base plan keeps %d of %d chains under a row: fixture too easy", base.now, base.chains)
	}
	if row.now < row.chains-counterKeep {
		t.Errorf("with the row term the plan keeps %d of %d chains under a row, want %d+", row.now, row.chains, row.chains-counterKeep)
	}
	if row.chains < base.chains || row.ply > base.ply {
		t.Errorf("with the row term: %d chains at ply %d, want %d+ chains by ply %d", row.chains, row.ply, base.chains, base.ply)
	}
}

// BenchmarkChokudaiRow is BenchmarkChokudai with the row term
// (--chok-row 50 --chok-row-pack 2): its cost per expansion and that the
// loop stays free of allocations.
func BenchmarkChokudaiRow(b *testing.B) {
	benchChokudai(b, ChokudaiConfig{Depth: 13, Nodes: 2000, XMin: 0, XMax: 8, Threads: 1, RowW: 50, RowPack: 2})
}
