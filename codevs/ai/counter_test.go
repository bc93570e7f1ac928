package ai

import (
	"context"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/referee"
	"github.com/yomi-ai/yomi/codevs/sim"
)

// decideAtFire has a bot with cfg (and a log) follow mine from turn 0 and
// decide the turn mine fires in g; it returns the bot, our side at that
// turn, the move, the chains the move fires and the log.
func decideAtFire(t *testing.T, g *codevs.Game, packs []sim.Pack, mine Fire, cfg Config) (*Bot, side, int, int, string) {
	t.Helper()
	var log strings.Builder
	cfg.Log = &log
	bot := NewBot(packs, cfg)
	bot.setPlan(0, mine)
	in := g.Input(0, [2]int64{100000, 100000})
	m, err := bot.decide(context.Background(), &in)
	if err != nil {
		t.Fatal(err)
	}
	me, _ := sideFrom(&in.Me)
	s := me
	rot := rotate(packs[len(mine.Moves)-1])
	return bot, me, m, s.act(m, &rot).chains, log.String()
}

// stanceGame plays both sides up to the turn before our planned fire: ours
// along an 11+ chain plan of the chain beam, the opponent along a chain beam's
// best line (strong: a bigger chain kept) or random dummy drops (weak). It
// returns the game at our fire turn and the plan.
func stanceGame(t testing.TB, seed uint64, strong bool) (*codevs.Game, []sim.Pack, Fire) {
	t.Helper()
	packs, err := codevs.PacksForSeed(seed, codevs.ProfileClient)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cfg := BeamConfig{Depth: 16, Width: 400, BucketWidth: 120, XMin: 2, XMax: 6, Target: 11, Threads: 2, Potential: true}
	mine := runBeam(ctx, side{}, packs, cfg).Best
	if mine.Chains < 11 {
		t.Fatalf("seed %d: our beam found %d chains", seed, mine.Chains)
	}
	fireTurn := len(mine.Moves) - 1
	var theirs []int
	if strong {
		cfg.Depth, cfg.Target, cfg.Width, cfg.XMin, cfg.XMax = fireTurn, 0, 1000, 0, 8
		theirs = runBeam(ctx, side{}, packs, cfg).Line.Moves
	}
	g, _ := codevs.NewGame(packs)
	rng := rand.New(rand.NewPCG(seed, 7))
	for turn := 0; turn < fireTurn; turn++ {
		d := referee.DummyMove(&g.P[1], packs[turn], referee.DummyRandom, rng)
		if strong {
			d = toMove(theirs[turn])
		}
		if _, err := g.Step([2]codevs.Move{toMove(mine.Moves[turn]), d}); err != nil {
			t.Fatal(err)
		}
	}
	if g.Over {
		t.Fatalf("seed %d: game over before turn %d", seed, fireTurn)
	}
	return g, packs, mine
}

// TestCounterStance checks the fire/wait decision at the plan's fire turn on
// constructed games: against a weak opponent (random drops) the plan fires;
// against one whose best answer, with our ojama falling on it, sends more
// than our chain, the counter stance keeps the chain (a move that fires no
// big chain) and still holds a chain ready under one ojama row, while the
// AI without Config.Counter fires.
func TestCounterStance(t *testing.T) {
	for _, c := range []struct {
		seed   uint64
		strong bool
		wait   bool // the counter stance keeps the chain
	}{
		{11, false, false}, // its answer 3 < our 33: fire
		{11, true, false},  // its answer 45 > our 33, but one ojama row breaks our 11-chain: fire
		{18, true, true},   // its answer 45 > our 33, our chain survives a row: wait
		{31, true, true},   // its answer 60 > our 45: wait
		{48, true, true},   // its answer 45 > our 33 on a field 13 rows high: wait
	} {
		if testing.Short() && c.seed > 18 {
			continue
		}
		g, packs, mine := stanceGame(t, c.seed, c.strong)
		fireTurn := len(mine.Moves) - 1
		fire := mine.Moves[fireTurn]
		for _, noCounter := range []bool{false, true} {
			if noCounter && c.seed != 18 {
				continue // the old rule is shown once: it fires
			}
			var log strings.Builder
			bot := NewBot(packs, Config{FixedWidth: 200, OwnDepth: 2, Threads: 2, Counter: !noCounter, Log: &log})
			bot.setPlan(0, mine)
			in := g.Input(0, [2]int64{100000, 100000})
			me, _ := sideFrom(&in.Me)
			en, _ := sideFrom(&in.Opp)
			ans := bot.answer(context.Background(), en, fireTurn, mine.Sent, 0)
			m, err := bot.decide(context.Background(), &in)
			if err != nil {
				t.Fatal(err)
			}
			wantWait := c.wait && !noCounter
			if c.strong && ans <= mine.Sent {
				t.Fatalf("seed %d: the strong opponent answers %d <= our %d: fixture too weak", c.seed, ans, mine.Sent)
			}
			if !c.strong && ans > mine.Sent {
				t.Fatalf("seed %d: the weak opponent answers %d > our %d", c.seed, ans, mine.Sent)
			}
			t.Logf("seed %d strong %v no-counter %v: our %d chains (%d ojama) at turn %d, its answer %d, move %v (fire %v)",
				c.seed, c.strong, noCounter, mine.Chains, mine.Sent, fireTurn, ans, toMove(m), toMove(fire))
			t.Log(log.String())
			s := me
			rot := rotate(packs[fireTurn])
			o := s.act(m, &rot)
			switch {
			case wantWait && o.chains > smallFire:
				t.Errorf("seed %d: counter stance fired %d chains with %v; want a wait move", c.seed, o.chains, toMove(m))
			case wantWait && rowTable(me, packs[fireTurn:]).ByFirst[m][1].Chains < mine.Chains-counterKeep:
				t.Errorf("seed %d: after the wait move and one ojama row no %d-chain fires", c.seed, mine.Chains-counterKeep)
			case !wantWait && o.chains < mine.Chains:
				t.Errorf("seed %d strong %v no-counter %v: move %v fires %d chains, want the plan's %d", c.seed, c.strong, noCounter, toMove(m), o.chains, mine.Chains)
			}
		}
	}
}

// TestBeamIncoming checks the timing of BeamConfig.Incoming, the answer
// model of the counter stance: the ojama of our fire this turn reaches the
// opponent's stock after its move this turn, so its first row falls at
// ply 2 (one row in a 2-ply line, none in a 1-ply line), and its fire at
// ply 1 goes off on its own field.
func TestBeamIncoming(t *testing.T) {
	packs := loadPacks(t, "pack_0000.pack")
	for _, c := range []struct {
		depth, incoming, ojama int
	}{
		{1, 30, 0},
		{2, 30, codevs.OjamaRow},
		{3, 30, 2 * codevs.OjamaRow},
		{3, 12, codevs.OjamaRow}, // 12 ojama: one row, 2 left in the stock
		{2, 0, 0},
	} {
		cfg := BeamConfig{Depth: c.depth, Width: 100, BucketWidth: 30, XMax: 8, Threads: 2, Potential: true, Incoming: c.incoming}
		res := runBeam(context.Background(), side{}, packs, cfg)
		if _, oj := res.Line.End.Count(); oj != c.ojama {
			t.Errorf("depth %d incoming %d: %d ojama on the field, want %d", c.depth, c.incoming, oj, c.ojama)
		}
	}
}

// rowTable is the own 2-ply table with one ojama row falling at ply 2 (the
// opponent fired this turn).
func rowTable(me side, packs []sim.Pack) Table {
	in := [MaxPly]int{codevs.OjamaRow}
	return exhaustIncoming(context.Background(), me, packs, 2, 2, &in)
}

// TestCounterPlanFollowed checks the second race under ojama: the counter
// plan made when the opponent's ojama arrives is followed on the next turns
// (the stock falls as the plan expected) instead of a new beam each turn,
// which the AI without FollowCounterPlan does.
func TestCounterPlanFollowed(t *testing.T) {
	packs, err := codevs.PacksForSeed(5, codevs.ProfileClient)
	if err != nil {
		t.Fatal(err)
	}
	for _, replan := range []bool{false, true} {
		g, _ := codevs.NewGame(packs)
		g.P[0].Ojama = 45
		var log strings.Builder
		bot := NewBot(packs, Config{FixedWidth: 100, OwnDepth: 2, Threads: 2, FollowCounterPlan: !replan, Log: &log})
		var planned []int
		for turn := 0; turn < 3; turn++ {
			in := g.Input(0, [2]int64{100000, 100000})
			log.Reset()
			m, err := bot.decide(context.Background(), &in)
			if err != nil {
				t.Fatal(err)
			}
			fresh := strings.Contains(log.String(), "counter plan")
			switch {
			case turn == 0 && !fresh:
				t.Fatalf("replan %v: no counter plan at turn 0: %q", replan, log.String())
			case turn == 0:
				planned = bot.plan.moves
			case !replan && (fresh || m != planned[turn]):
				t.Errorf("turn %d: move %v (planned %v), new plan %v: %q", turn, toMove(m), toMove(planned[turn]), fresh, log.String())
			case replan && !fresh:
				t.Errorf("replan: turn %d made no new counter plan: %q", turn, log.String())
			}
			quiet := codevs.Drop(0, 0) // an opponent drop that sends nothing
			for k := 0; k < 36; k++ {
				q := g.P[1]
				if h, err := q.Act(packs[turn], toMove(k)); err == nil && h.Chains == 0 && !q.Dead() {
					quiet = toMove(k)
					break
				}
			}
			h, err := g.Step([2]codevs.Move{toMove(m), quiet})
			if err != nil {
				t.Fatal(err)
			}
			if h[1].Chains > 0 || g.P[0].Ojama < codevs.OjamaRow {
				t.Fatalf("turn %d: the fixture changed (opponent chains %d, stock %d)", turn, h[1].Chains, g.P[0].Ojama)
			}
		}
	}
}

// TestRowProofKey checks the RowProof order on random fields: the bucket is
// the potential either way; within a bucket (and below row 14) a field
// whose chain survives an ojama row better ranks first, whatever its block
// count, and without RowProof the key is the old one.
func TestRowProofKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	packs, _ := codevs.PacksForSeed(9, codevs.ProfileClient)
	type st struct {
		pot, rp int
		key     int64
	}
	var fields []st
	for i := 0; i < 400; i++ {
		s, _ := randomSide(rng, packs)
		if s.f.MaxHeight() >= 14 {
			continue
		}
		b0, k0 := potentialKey(&s, false)
		b1, k1 := potentialKey(&s, true)
		pot, _, _ := s.f.Potential()
		g := s.f
		g.DropOjamaRow()
		rp, _, _ := g.Potential()
		if int(b0) != pot || int(b1) != pot {
			t.Fatalf("field %d: buckets %d/%d, potential %d", i, b0, b1, pot)
		}
		if k0 != k1&(1<<40-1)|int64(pot)<<40 {
			t.Fatalf("field %d: the old key changed", i)
		}
		fields = append(fields, st{pot, rp, k1})
	}
	pairs := 0
	for i := range fields {
		for j := range fields {
			a, b := fields[i], fields[j]
			if a.pot == b.pot && a.rp > b.rp {
				pairs++
				if a.key <= b.key {
					t.Fatalf("fields %d, %d: potential %d, after a row %d vs %d, keys %x <= %x", i, j, a.pot, a.rp, b.rp, a.key, b.key)
				}
			}
		}
	}
	if pairs < 100 {
		t.Fatalf("only %d pairs differ after a row: the test is too weak", pairs)
	}
}

// TestEarlyFire checks Config.EarlyFire on the stance games with no plan
// kept: against random drops (answer below ours) the 11+ chain ready this
// turn fires at once; against a chain beam's line whose answer sends more,
// the early-fire rule holds it (and says so in the log).
func TestEarlyFire(t *testing.T) {
	for _, c := range []struct {
		seed   uint64
		strong bool
		fire   bool
	}{
		{11, false, true},
		{31, true, false},
	} {
		g, packs, mine := stanceGame(t, c.seed, c.strong)
		fireTurn := len(mine.Moves) - 1
		var log strings.Builder
		bot := NewBot(packs, Config{FixedWidth: 200, OwnDepth: 2, Threads: 2, EarlyFire: 10, Log: &log})
		in := g.Input(0, [2]int64{100000, 100000})
		m, err := bot.decide(context.Background(), &in)
		if err != nil {
			t.Fatal(err)
		}
		me, _ := sideFrom(&in.Me)
		rot := rotate(packs[fireTurn])
		o := me.act(m, &rot)
		early := strings.Contains(log.String(), "early fire "+strconv.Itoa(mine.Chains))
		t.Logf("seed %d strong %v: move %v fires %d chains\n%s", c.seed, c.strong, toMove(m), o.chains, log.String())
		switch {
		case c.fire && (!early || o.chains < mine.Chains):
			t.Errorf("seed %d: move %v fires %d chains, want the early fire of %d", c.seed, toMove(m), o.chains, mine.Chains)
		case !c.fire && (early || !strings.Contains(log.String(), "no early fire")):
			t.Errorf("seed %d: want the early-fire rule to hold the chain (its answer is bigger)", c.seed)
		}
	}
}

// TestRowKeepKey checks the RowKeep bucket on random fields: min(potential,
// potential after one ojama row + 1); a field that keeps more under a row
// ranks first whatever its potential, and fields with the same bucket rank
// by the potential itself. Some fields must lose 2+ chains to a row, or the
// test shows nothing.
func TestRowKeepKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 29))
	packs, _ := codevs.PacksForSeed(9, codevs.ProfileClient)
	var fields []keyedField
	demoted := 0
	for i := 0; i < 400; i++ {
		s, _ := randomSide(rng, packs)
		if s.f.MaxHeight() >= 14 {
			continue
		}
		b, k := rowKeepKey(&s)
		pot, _, _ := s.f.Potential()
		g := s.f
		g.DropOjamaRow()
		rp, _, _ := g.Potential()
		if want := min(pot, rp+1); int(b) != want {
			t.Fatalf("field %d: bucket %d, want min(%d, %d+1)", i, b, pot, rp)
		}
		if int(b) < pot {
			demoted++
		}
		fields = append(fields, keyedField{int(b), pot, k})
	}
	checkKeyOrder(t, "row keep", fields)
	if demoted < 10 {
		t.Fatalf("only %d fields lose 2+ chains to a row", demoted)
	}
}
