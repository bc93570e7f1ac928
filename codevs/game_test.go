// Rule-by-rule tests of the turn loop: offsets, gauge order, skill, death,
// turn limit and tie-break, protocol conversions.
package codevs

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/codevs/protocol"
	"github.com/yomi-ai/yomi/codevs/sim"
)

func TestSettleOffsetPDFExamples(t *testing.T) {
	for _, c := range []struct{ a, b, wa, wb int }{
		{10, 5, 5, 0}, {8, 10, 0, 2}, {0, 2, 0, 2}, {0, 0, 0, 0}, {7, 7, 0, 0},
	} {
		// Stocks a, b reached after the exchange: put them as sent ojama.
		var pa, pb Player
		Settle(&pa, &pb, Half{Sent: c.b}, Half{Sent: c.a})
		if pa.Ojama != c.wa || pb.Ojama != c.wb {
			t.Errorf("%d/%d → %d/%d, want %d/%d", c.a, c.b, pa.Ojama, pb.Ojama, c.wa, c.wb)
		}
	}
}

func TestGaugeChargeThenDrain(t *testing.T) {
	// Own +8 is clamped at 100 before the drain: 96 → 100 → 100−18 = 82
	// (draining first would give 78+8 = 86).
	for _, c := range []struct {
		gauge, own, opp, want int
	}{
		{96, 1, 3, 82}, {96, 0, 3, 78}, {10, 0, 5, 0}, {10, 1, 2, 18}, {100, 1, 0, 100}, {50, 0, 20, 0},
	} {
		a, b := Player{Gauge: c.gauge}, Player{}
		if c.own > 0 {
			a.Gauge = min(a.Gauge+GaugeCharge, MaxGauge) // what Act does for own chains
		}
		Settle(&a, &b, Half{Chains: c.own}, Half{Chains: c.opp})
		if a.Gauge != c.want {
			t.Errorf("gauge %d own %d opp %d chains: %d, want %d", c.gauge, c.own, c.opp, a.Gauge, c.want)
		}
	}
}

func TestActGauge(t *testing.T) {
	// A 1+9 pair vanishes: one chain, gauge +8.
	p := Player{Gauge: 96}
	p.Board.Cell[0][0] = 1
	h, err := p.Act(sim.Pack{Bottom: [2]int8{9, 0}}, Drop(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if h.Chains != 1 || p.Gauge != 100 || p.Score != 1 || h.Sent != 0 {
		t.Fatalf("half %+v gauge %d score %d", h, p.Gauge, p.Score)
	}
}

func TestSkill(t *testing.T) {
	// Illegal below 80.
	p := Player{Gauge: 79}
	if _, err := p.Act(sim.Pack{}, Skill); err == nil {
		t.Fatal("skill at gauge 79 accepted")
	}
	// No 5 on the field: legal, nothing explodes, gauge 0, pack unused.
	p = Player{Gauge: 80}
	p.Board.Cell[3][0] = 4
	h, err := p.Act(sim.Pack{Top: [2]int8{6, 6}, Bottom: [2]int8{6, 6}}, Skill)
	if err != nil || h.Exploded != 0 || h.Points != 0 || p.Gauge != 0 || p.Board.Cell[3][0] != 4 || p.Board.Cell[3][1] != 0 {
		t.Fatalf("empty skill: %+v %v gauge %d", h, err, p.Gauge)
	}
	// A 5 with four numbered neighbours and an ojama: b = 5, E = 33, sends 16.
	p = Player{Gauge: 100}
	b := &p.Board
	b.Cell[0][0], b.Cell[0][1] = 2, 3 // column 0: 2, 3
	b.Cell[1][0], b.Cell[1][1] = 5, 4 // column 1: 5, 4
	b.Cell[2][0], b.Cell[2][1] = 1, sim.Ojama
	h, err = p.Act(sim.Pack{}, Skill)
	if err != nil {
		t.Fatal(err)
	}
	if h.Exploded != 5 || h.Chains != 0 || h.Points != 33 || h.Sent != 16 || p.Gauge != 0 || p.Score != 33 {
		t.Fatalf("skill half %+v gauge %d score %d", h, p.Gauge, p.Score)
	}
	if p.Board.Cell[2][0] != sim.Ojama {
		t.Fatalf("ojama did not fall into place: %v", p.Board.Cell[2][:2])
	}
}

func TestSkillThenChainGauge(t *testing.T) {
	// After the blast a 3 falls next to a 7: one chain, so the gauge ends at 8
	// (the PDF, ysgeso, kusano and piroz95; tanzaku-lib leaves 0).
	// Column 0: a 5. Column 1: 8, 6, 3. Column 2: 7, 9. The blast takes the
	// 5 and its neighbours 8 and 6; the 3 falls to the bottom beside the 7.
	p := Player{Gauge: 90}
	b := &p.Board
	b.Cell[0][0] = 5
	b.Cell[1][0], b.Cell[1][1], b.Cell[1][2] = 8, 6, 3
	b.Cell[2][0], b.Cell[2][1] = 7, 9
	h, err := p.Act(sim.Pack{}, Skill)
	if err != nil {
		t.Fatal(err)
	}
	if h.Exploded != 3 || h.Chains != 1 {
		t.Fatalf("half %+v", h)
	}
	if p.Gauge != GaugeCharge {
		t.Fatalf("gauge after skill with chains %d, want %d", p.Gauge, GaugeCharge)
	}
	if want := ExplosionScore(3) + ChainScore(1); h.Points != want || p.Score != want {
		t.Fatalf("points %d want %d", h.Points, want)
	}
}

func TestOjamaRowFallsOnce(t *testing.T) {
	g, _ := NewGame(make([]sim.Pack, Turns))
	g.Packs[0] = sim.Pack{Bottom: [2]int8{1, 1}}
	g.P[0].Ojama = 35
	h, err := g.Step([2]Move{Drop(0, 0), Drop(0, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if !h[0].OjamaFell || h[1].OjamaFell || g.P[0].Ojama != 25 {
		t.Fatalf("fell %v %v stock %d", h[0].OjamaFell, h[1].OjamaFell, g.P[0].Ojama)
	}
	for x := range sim.Width {
		if g.P[0].Board.Cell[x][0] != sim.Ojama {
			t.Fatalf("column %d bottom %d", x, g.P[0].Board.Cell[x][0])
		}
	}
	if g.P[0].Board.Cell[0][1] != 1 || g.P[0].Board.Cell[1][1] != 1 {
		t.Fatal("pack not on top of the ojama row")
	}
}

func TestDeathAndTieBreak(t *testing.T) {
	tall := func(p *Player) { // 16 blocks in column 0: one more kills
		for h := range 16 {
			p.Board.Cell[0][h] = sim.Ojama
		}
	}
	pack := sim.Pack{Bottom: [2]int8{2, 2}}
	cases := []struct {
		name    string
		setup   func(g *Game)
		winner  int
		reason  string
		atTurn  int
		overNow bool
	}{
		{"p1 dies", func(g *Game) { tall(&g.P[0]) }, 1, "player 1 died", 0, true},
		{"p2 dies", func(g *Game) { tall(&g.P[1]) }, 0, "player 2 died", 0, true},
		{"both die, score", func(g *Game) { tall(&g.P[0]); tall(&g.P[1]); g.P[1].Score = 5 }, 1, "both died", 0, true},
		{"both die, draw", func(g *Game) { tall(&g.P[0]); tall(&g.P[1]) }, -1, "draw", 0, true},
		{"turn limit", func(g *Game) { g.P[0].Score = 7 }, 0, "turn limit", Turns - 1, true},
		{"not yet", func(g *Game) {}, 0, "", Turns - 2, false},
		{"ojama kills", func(g *Game) {
			for h := range 16 {
				g.P[1].Board.Cell[5][h] = 1 + int8(h%2) // 1,2,1,2: no pair sums to 10
			}
			g.P[1].Ojama = 10
		}, 0, "player 2 died", 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			packs := make([]sim.Pack, Turns)
			for i := range packs {
				packs[i] = pack
			}
			g, _ := NewGame(packs)
			g.Turn = c.atTurn
			c.setup(g)
			if _, err := g.Step([2]Move{Drop(0, 0), Drop(0, 0)}); err != nil {
				t.Fatal(err)
			}
			if g.Over != c.overNow {
				t.Fatalf("over %v want %v", g.Over, c.overNow)
			}
			if !c.overNow {
				return
			}
			if g.Result.Winner != c.winner || !strings.Contains(g.Result.Reason, c.reason) {
				t.Fatalf("result %+v, want winner %d reason ~%q", g.Result, c.winner, c.reason)
			}
			if _, err := g.Step([2]Move{}); err != ErrOver {
				t.Fatalf("step after the end: %v", err)
			}
		})
	}
}

func TestStepRejectsIllegal(t *testing.T) {
	g, _ := NewGame(make([]sim.Pack, Turns))
	for _, m := range []Move{Skill, Drop(9, 0), Drop(-1, 0), Drop(0, 4)} {
		before := *g
		if _, err := g.Step([2]Move{Drop(0, 0), m}); err == nil || !strings.Contains(err.Error(), "player 2") {
			t.Errorf("%v: err %v", m, err)
		}
		if g.Turn != before.Turn || g.P != before.P {
			t.Errorf("%v: illegal step changed the game", m)
		}
	}
	if _, err := NewGame(make([]sim.Pack, 3)); err == nil {
		t.Error("3 packs accepted")
	}
}

func TestProtocolRoundTrip(t *testing.T) {
	var p Player
	p.Board.Cell[0][0], p.Board.Cell[0][1], p.Board.Cell[9][0] = 3, sim.Ojama, 9
	p.Ojama, p.Gauge, p.Score = 12, 40, 77
	pp := protocol.Player{Ojama: 12, Gauge: 40, Score: 77, Field: p.Field()}
	if pp.Field[15][0] != 3 || pp.Field[14][0] != sim.Ojama || pp.Field[15][9] != 9 {
		t.Fatalf("field layout %v", pp.Field[14:])
	}
	q, err := PlayerFromProtocol(&pp)
	if err != nil || q != p {
		t.Fatalf("round trip %v %+v", err, q)
	}
	pp.Field[15][4], pp.Field[13][4] = 0, 2 // hole under a block
	if _, err := PlayerFromProtocol(&pp); err == nil || !strings.Contains(err.Error(), "column 4") {
		t.Fatalf("hole accepted: %v", err)
	}
}

func TestFromTurnInvertsInput(t *testing.T) {
	packs, _ := PacksForSeed(3, ProfileClient)
	g, _ := NewGame(packs)
	rng := rand.New(rand.NewPCG(4, 4))
	for range 30 {
		if _, err := g.Step([2]Move{Drop(rng.IntN(9), rng.IntN(4)), Drop(rng.IntN(9), rng.IntN(4))}); err != nil || g.Over {
			break
		}
	}
	for i := range 2 {
		in := g.Input(i, [2]int64{5, 6})
		h, err := FromTurn(packs, &in)
		if err != nil {
			t.Fatal(err)
		}
		if h.Turn != g.Turn || h.P[0] != g.P[i] || h.P[1] != g.P[1-i] {
			t.Fatalf("side %d: FromTurn does not invert Input", i)
		}
	}
	bad := protocol.Turn{Turn: 500}
	if _, err := FromTurn(packs, &bad); err == nil {
		t.Fatal("turn 500 accepted")
	}
}

func TestScoreTables(t *testing.T) {
	for c, want := range map[int]int64{0: 0, 1: 1, 2: 2, 3: 4, 11: 67, 12: 90, 20: 810, 25: 3042, 30: 11335, 40: 156491} {
		if got := ChainScore(c); got != want {
			t.Errorf("S(%d) = %d, want %d", c, got, want)
		}
	}
	for c, want := range map[int]int{3: 2, 5: 4, 11: 33} {
		if got := ChainOjama(c); got != want {
			t.Errorf("ojama(%d) = %d, want %d", c, got, want)
		}
	}
	// PDF: b = 5, SC = 5 → 16 + 4 = 20 ojama.
	if got := ExplosionScore(5)/2 + ChainScore(5)/2; got != 20 {
		t.Errorf("skill ojama b=5 SC=5: %d, want 20", got)
	}
	for b, want := range map[int]int64{0: 0, 1: 26, 12: 50, 24: 100, 60: 800} {
		if got := ExplosionScore(b); got != want {
			t.Errorf("E(%d) = %d, want %d", b, got, want)
		}
	}
	if ChainScore(200) != sim.ChainScore(200) || ExplosionScore(300) != sim.ExplosionScore(300) {
		t.Error("table fallback differs")
	}
}

// benchGames plays 8 fixed games between two random players that avoid
// dying at once, returning packs and moves to replay.
func benchGames(b *testing.B) ([][]sim.Pack, [][][2]Move) {
	var packs [][]sim.Pack
	var moves [][][2]Move
	rng := rand.New(rand.NewPCG(1, 2))
	for s := uint64(1); s <= 8; s++ {
		p, err := PacksForSeed(s, ProfileClient)
		if err != nil {
			b.Fatal(err)
		}
		g, _ := NewGame(p)
		var ms [][2]Move
		for !g.Over {
			var m [2]Move
			for i := range 2 {
				m[i] = Drop(rng.IntN(9), rng.IntN(4))
				for _, k := range rng.Perm(36) {
					q := g.P[i]
					if _, err := q.Act(p[g.Turn], Drop(k/4, k%4)); err == nil && !q.Dead() {
						m[i] = Drop(k/4, k%4)
						break
					}
				}
			}
			if _, err := g.Step(m); err != nil {
				b.Fatal(err)
			}
			ms = append(ms, m)
		}
		packs, moves = append(packs, p), append(moves, ms)
	}
	return packs, moves
}

// BenchmarkStep measures whole turns (both players) of the turn loop; one
// op is one turn.
func BenchmarkStep(b *testing.B) {
	packs, moves := benchGames(b)
	var g *Game
	k, t := 0, 0
	for b.Loop() {
		if g == nil || t == len(moves[k]) {
			k = (k + 1) % len(packs)
			g, _ = NewGame(packs[k])
			t = 0
		}
		if _, err := g.Step(moves[k][t]); err != nil {
			b.Fatal(err)
		}
		t++
	}
}
