// Tests of skill mode: the decision rule, its inputs from the beams, the
// switch and its stickiness, the skill beam, and whole games with it on.
package ai

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/referee"
	"github.com/yomi-ai/yomi/codevs/sim"
)

// TestGoSkill flips each of ysai's conditions on a situation that just
// passes the second rule (own 8..12-chains at 4,5,6,7,7; the opponent's
// 12-chain at 4) and on one that fails it, where only the first rule (own
// best below 7) can switch. Some rows are not monotone in the chain count
// on purpose, to isolate one comparison.
func TestGoSkill(t *testing.T) {
	base := skillFacts{OwnMax: 11, EnMax: 13, En12: 4, FieldOjama: 30, EnStock: 0, SkillBlocks: 15}
	base.Own = [13]int{0, 0, 0, 1, 1, 2, 2, 3, 4, 5, 6, 7, noChain}
	quiet := base
	quiet.FieldOjama = 0
	for _, tc := range []struct {
		name string
		f    func(*skillFacts)
		from skillFacts
		want bool
	}{
		{"base passes", func(*skillFacts) {}, base, true},
		{"field ojama 19", func(f *skillFacts) { f.FieldOjama = 19 }, base, false},
		{"field ojama 20", func(f *skillFacts) { f.FieldOjama = 20 }, base, true},
		{"opponent stock 20", func(f *skillFacts) { f.EnStock = 20 }, base, false},
		{"opponent stock 19", func(f *skillFacts) { f.EnStock = 19 }, base, true},
		{"opponent max 11", func(f *skillFacts) { f.EnMax, f.En12 = 11, noChain }, base, false},
		{"own 9+ and 9 skill blocks", func(f *skillFacts) { f.SkillBlocks = 9 }, base, false},
		{"own 9+ and 10 skill blocks", func(f *skillFacts) { f.SkillBlocks = 10 }, base, true},
		{"own max 8 and 9 skill blocks", func(f *skillFacts) {
			f.OwnMax, f.SkillBlocks = 8, 9
			f.Own[9], f.Own[10], f.Own[11] = noChain, noChain, noChain
		}, base, true},
		{"own 12 at 6", func(f *skillFacts) { f.Own[12] = 6 }, base, false},
		{"own 11 at 6", func(f *skillFacts) { f.Own[11] = 6 }, base, false},
		{"own 10 at 5", func(f *skillFacts) { f.Own[10] = 5 }, base, false},
		{"own 9 at 4", func(f *skillFacts) { f.Own[9] = 4 }, base, false},
		{"own 8 at 3", func(f *skillFacts) { f.Own[8] = 3 }, base, false},
		{"opponent 12 one ply later", func(f *skillFacts) { f.En12 = 5 }, base, false},
		{"opponent 12 one ply sooner", func(f *skillFacts) { f.En12 = 3 }, base, true},
		{"quiet: chain race", func(*skillFacts) {}, quiet, false},
		{"quiet: own max 6", func(f *skillFacts) { f.OwnMax = 6 }, quiet, true},
		{"quiet: own max 7", func(f *skillFacts) { f.OwnMax = 7 }, quiet, false},
	} {
		f := tc.from
		tc.f(&f)
		if got := f.goSkill(); got != tc.want {
			t.Errorf("%s: goSkill = %v, want %v (%+v)", tc.name, got, tc.want, f)
		}
	}
}

// TestEarliest checks the per-chain earliest plies taken from a beam's
// per-ply fires: a c-chain at ply p means every smaller count by then.
func TestEarliest(t *testing.T) {
	res := BeamResult{PerPly: []Fire{{Chains: 2}, {}, {Chains: 5}, {Chains: 3}, {Chains: 9}, {Chains: 12}}}
	best, at := earliest(&res)
	want := [13]int{0, 0, 0, 2, 2, 2, 4, 4, 4, 4, 5, 5, 5}
	if best != 12 || at != want {
		t.Fatalf("best %d at %v, want 12 at %v", best, at, want)
	}
	best, at = earliest(&BeamResult{PerPly: []Fire{{}, {Chains: 7}}})
	if best != 7 || at[7] != 1 || at[8] != noChain || at[12] != noChain {
		t.Fatalf("best %d at %v", best, at)
	}
}

// ojamaField returns a field whose bottom rows rows are ojama.
func ojamaField(rows int) sim.Board {
	var b sim.Board
	for x := 0; x < sim.Width; x++ {
		for h := 0; h < rows; h++ {
			b.Cell[x][h] = sim.Ojama
		}
	}
	return b
}

// TestSkillModeSwitch plays the start of turns by hand: a field buried in
// ojama (no 7-chain within 10 turns) switches skill mode on; a quiet next
// turn keeps it without a new decision; a score rise of 10 on either side,
// or a new ten in a stock, ends it (and the decision runs again).
func TestSkillModeSwitch(t *testing.T) {
	packs, err := codevs.PacksForSeed(11, codevs.ProfileClient)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := codevs.NewGame(packs)
	g.Turn = 30
	g.P[0].Board = ojamaField(13)
	bot := NewBot(packs, Config{FixedWidth: 60, OwnDepth: 1, EnemyDepth: 1, Threads: 2, SkillMode: true})
	bot.fired = true // past the opening
	step := func(name string, wantOn bool, wantSwitches int) {
		t.Helper()
		in := g.Input(0, [2]int64{100000, 100000})
		m, err := bot.Decide(context.Background(), &in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := g.P[0].Legal(m); err != nil {
			t.Fatalf("%s: illegal %v: %v", name, m, err)
		}
		if sw, _ := bot.SkillStats(); bot.skill.on != wantOn || sw != wantSwitches {
			t.Fatalf("%s: on %v after %d switches, want %v after %d", name, bot.skill.on, sw, wantOn, wantSwitches)
		}
	}
	step("buried field", true, 1)
	step("quiet turn", true, 1)
	g.P[1].Score += 9
	step("opponent +9", true, 1)
	g.P[1].Score += 10
	step("opponent +10: off and on again", true, 2)
	g.P[0].Score += 10
	step("own +10", true, 3)
	g.P[1].Ojama = 10
	step("opponent stock 0 -> 10", true, 4)
	g.P[0].Board = sim.Board{}
	g.P[1].Ojama = 0
	step("empty field: chain race again", false, 4)

	// Neither without the option nor before the first fire.
	off := NewBot(packs, Config{FixedWidth: 60, OwnDepth: 1, EnemyDepth: 1, Threads: 2})
	off.fired = true
	opening := NewBot(packs, Config{FixedWidth: 60, OwnDepth: 1, EnemyDepth: 1, Threads: 2, SkillMode: true})
	g.P[0].Board = ojamaField(13)
	for name, b := range map[string]*Bot{"option off": off, "opening": opening} {
		in := g.Input(0, [2]int64{100000, 100000})
		if _, err := b.Decide(context.Background(), &in); err != nil {
			t.Fatal(err)
		}
		if sw, turns := b.SkillStats(); b.skill.on || sw != 0 || turns != 0 {
			t.Fatalf("%s: on %v, %d switches, %d turns", name, b.skill.on, sw, turns)
		}
	}
}

// skillPositions returns n mid-game sides with gauge 40 and their packs.
func skillPositions(t testing.TB, n int) ([]side, [][]sim.Pack) {
	ps, packs, err := BenchPositions(21, n)
	if err != nil {
		t.Fatal(err)
	}
	sides := make([]side, n)
	for i := range ps {
		sides[i] = side{f: sim.FastFrom(&ps[i].Board), gauge: 40}
	}
	return sides, packs
}

// TestSkillBeamBuildsSkill runs the chain beam and the skill beam from the
// same positions at the same width and depth: the skill beam's final boards
// must score higher skill explosions (E(b) at the reached blocks, times the
// gauge share), and its lines must replay exactly under the game rules.
func TestSkillBeamBuildsSkill(t *testing.T) {
	n := 8
	if testing.Short() {
		n = 4
	}
	sides, packs := skillPositions(t, n)
	var sumChain, sumSkill int64
	wins := 0
	for i, s := range sides {
		cfg := BeamConfig{Depth: 8, Width: 120, BucketWidth: 36, XMin: 0, XMax: 8, Threads: 2}
		chain := runBeam(context.Background(), s, packs[i], cfg)
		cfg.Skill = true
		sk := runBeam(context.Background(), s, packs[i], cfg)
		if len(sk.Line.Moves) != cfg.Depth || len(chain.Line.Moves) != cfg.Depth {
			t.Fatalf("position %d: lines of %d and %d plies, want %d", i, len(sk.Line.Moves), len(chain.Line.Moves), cfg.Depth)
		}
		ec := codevs.ExplosionScore(chain.Line.SkillBlocks)
		es := codevs.ExplosionScore(sk.Line.SkillBlocks)
		sumChain += ec
		sumSkill += es
		if skillValue(sk.Line.SkillBlocks, sk.Line.Gauge) > skillValue(chain.Line.SkillBlocks, chain.Line.Gauge) {
			wins++
		}
		t.Logf("position %d: chain beam %d blocks (E %d, gauge %d), skill beam %d blocks (E %d, gauge %d)",
			i, chain.Line.SkillBlocks, ec, chain.Line.Gauge, sk.Line.SkillBlocks, es, sk.Line.Gauge)

		// Replay the skill line with codevs.Player.
		p := codevs.Player{Board: s.f.Board(), Gauge: s.gauge}
		for k, m := range sk.Line.Moves {
			if got := sim.FastFrom(&p.Board); got != sk.Line.Fields[k] {
				t.Fatalf("position %d ply %d: field differs from the line", i, k)
			}
			if _, err := p.Act(packs[i][k], toMove(m)); err != nil || p.Dead() {
				t.Fatalf("position %d ply %d: %v dead %v", i, k, err, p.Dead())
			}
		}
		if got := sim.FastFrom(&p.Board); got != sk.Line.End || p.Gauge != sk.Line.Gauge {
			t.Fatalf("position %d: replay ends with gauge %d (line %d) or another field", i, p.Gauge, sk.Line.Gauge)
		}
	}
	if wins < n*3/4 || sumSkill <= sumChain*3/2 {
		t.Fatalf("skill beam ahead in %d/%d positions, explosion sum %d vs chain beam's %d", wins, n, sumSkill, sumChain)
	}
}

// TestBotSkillModeGames plays the bot with SkillMode against the random
// dummy: once with skill mode forced on at the start (it must build and use
// the skill, every answer legal) and once left to its own decisions.
func TestBotSkillModeGames(t *testing.T) {
	for _, tc := range []struct {
		seed  uint64
		force bool
	}{{5, true}, {6, false}} {
		if testing.Short() && !tc.force {
			continue
		}
		packs, err := codevs.PacksForSeed(tc.seed, codevs.ProfileClient)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := codevs.NewGame(packs)
		bot := NewBot(packs, Config{FixedWidth: 60, OwnDepth: 2, Threads: 2, SkillMode: true})
		bot.fired = true // no opening plan: the forced mode starts at once
		bot.skill.on = tc.force
		rng := rand.New(rand.NewPCG(tc.seed, 9))
		skills := 0
		for !g.Over && g.Turn < 200 {
			in := g.Input(0, [2]int64{100000, 100000})
			m, err := bot.Decide(context.Background(), &in)
			if err != nil {
				t.Fatalf("seed %d turn %d: %v", tc.seed, g.Turn, err)
			}
			if err := g.P[0].Legal(m); err != nil {
				t.Fatalf("seed %d turn %d: illegal %v: %v", tc.seed, g.Turn, m, err)
			}
			if m.Skill {
				skills++
			}
			d := referee.DummyMove(&g.P[1], packs[g.Turn], referee.DummyRandom, rng)
			if _, err := g.Step([2]codevs.Move{m, d}); err != nil {
				t.Fatal(err)
			}
		}
		sw, turns := bot.SkillStats()
		t.Logf("seed %d force %v: turn %d over %v %+v; %d skills, %d switches, %d skill-mode turns", tc.seed, tc.force, g.Turn, g.Over, g.Result, skills, sw, turns)
		if g.Over && g.Result.Winner != 0 {
			t.Fatalf("seed %d: lost to the random dummy: %+v", tc.seed, g.Result)
		}
		if tc.force && (skills == 0 || turns == 0) {
			t.Fatalf("seed %d: forced skill mode used the skill %d times in %d skill-mode turns", tc.seed, skills, turns)
		}
	}
}
