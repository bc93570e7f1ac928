// Tests of Config.RaceCounter on positions from the 180 s games lost to
// tanzaku where its 13-16-chain came a ply or more before the fire of our
// race replan (session codevs-fire), and the open-loop check that plays
// those positions on against tanzaku's recorded moves (YOMI_RACECOUNTER=1).

package ai

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/protocol"
	"github.com/yomi-ai/yomi/codevs/sim"
)

// raceFixture is our turn block at a race replan of a 180 s game against
// tanzaku (the default, dc2d5b1 or 6dbfb6a with --anti-hold 40), with
// tanzaku's recorded moves from that turn on (file .opp).
type raceFixture struct {
	name string
	seed uint64
	// lost: a lost game's position (else a won game's, for the check that
	// the rule does not get in the way there).
	lost bool
	// enHist seeds the counter mode's history of the opponent's fires as
	// the game's bot had it (the game's log shows no counter mode there).
	enHist int
	// takes: TestRaceCounter expects the race counter to take a line on
	// 6 000 states (else the default's decision); quick: it runs without
	// YOMI_RACECOUNTER_ALL.
	takes, quick bool
}

var raceFixtures = []raceFixture{
	{"tanzaku-s8007-race-turn12", 8007, true, 60, true, true},   // T13/60 at turn 20, our plan 13 at turn 21 answered 12/45 (all four games of 8007)
	{"tanzaku-s8003-race-turn45", 8003, true, 25, false, false}, // T13/60 at turn 52, our plan 12 at turn 54 broke to 8/13 (dc2d5b1 game 1)
	{"tanzaku-s8000-race-turn31", 8000, true, 33, true, true},   // T16/138 at turn 35, our plan 13 at turn 37 answered 13/60 (6dbfb6a game 0)
	{"tanzaku-s8008-race-turn44", 8008, true, 25, false, false}, // T15/105 at turn 49, our plan 12 at turn 53 (6dbfb6a game 1)
	{"tanzaku-s8008-won-turn32", 8008, false, 79, false, true},  // T9/18 at turn 33, our plan 10 at turn 40 answered 10/25 (6dbfb6a game 0, won)
}

// loadRace reads a race fixture's packs, turn block and tanzaku's moves.
func loadRace(t testing.TB, fx raceFixture) ([]sim.Pack, protocol.Turn, []codevs.Move) {
	t.Helper()
	packs, in := loadTurnFixture(t, fx.seed, fx.name+".txt")
	f, err := os.Open("testdata/" + fx.name + ".opp")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var opp []codevs.Move
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m, err := protocol.ParseCommand(sc.Text())
		if err != nil {
			t.Fatal(err)
		}
		opp = append(opp, m)
	}
	return packs, in, opp
}

// raceConfig is the default (ContestConfig) on node budgets, with or
// without RaceCounter.
func raceConfig(nodes int64, on bool) Config {
	c := ContestConfig()
	// FixedWidth 3 200: the opponent's race read is 800 wide, as the
	// game's (MaxWidth/50).
	c.ChokNodes, c.FixedWidth, c.Threads = nodes, 3200, 2
	c.RaceCounter = on
	return c
}

// raceBot is a bot at the fixture's turn as the game's had it: no plan
// (the turn replans) and the counter mode's history.
func raceBot(packs []sim.Pack, fx raceFixture, cfg Config) *Bot {
	b := NewBot(packs, cfg)
	b.total, b.fired = 180e9, true
	b.enHist = []int{fx.enHist}
	return b
}

// TestRaceCounterLanding checks which read fire the race counter lands.
func TestRaceCounterLanding(t *testing.T) {
	for _, c := range []struct {
		fires          []int
		ours, threat   int
		wantX, wantPly int
	}{
		{[]int{0, 0, 45, 60, 60, 79}, 6, 40, 60, 4}, // the biggest before ours, the earliest of equals
		{[]int{0, 0, 45, 60, 60, 79}, 4, 40, 45, 3}, // only plies before ours
		{[]int{0, 0, 45, 60, 60, 79}, 3, 40, 0, 0},  // none before ours
		{[]int{0, 18, 25, 0}, 0, 18, 25, 3},         // no fire of ours: every ply
		{[]int{0, 17, 0, 0}, 0, 18, 0, 0},           // under the threat
		{[]int{33, 0, 0, 0, 60, 0}, 5, 30, 33, 1},   // ply 1 counts
	} {
		x, p := raceCounterLanding(c.fires, c.ours, c.threat)
		if x != c.wantX || p != c.wantPly {
			t.Errorf("raceCounterLanding(%v, %d, %d) = %d at %d, want %d at %d", c.fires, c.ours, c.threat, x, p, c.wantX, c.wantPly)
		}
	}
}

// TestRaceCounter decides each fixture (YOMI_RACECOUNTER_ALL: all five,
// else the quick three) with and without RaceCounter on 6 000 states per
// search. Where it takes a line (8007 turn 12, 8000 turn 31) the line is as
// long as the default's plan and no later, made with the opponent's read
// fire landing, and under that landing it fires its chains where the
// default's plan fires fewer (4 of 11, 0 of 13). Elsewhere (the won game's
// replan; 8003, where the plan survives the landing; 8008 turn 44, where
// no line is as long) the decision is the default's.
func TestRaceCounter(t *testing.T) {
	if testing.Short() {
		t.Skip("chokudai searches of 6 000 states per fixture")
	}
	nodes := int64(envInts(t, "YOMI_RACECOUNTER_NODES", []int{6000})[0])
	all := os.Getenv("YOMI_RACECOUNTER_ALL") != ""
	for _, fx := range raceFixtures {
		if !fx.quick && !all {
			continue
		}
		packs, in, _ := loadRace(t, fx)
		var bots [2]*Bot
		var moves [2]int
		var logs [2]string
		for v, on := range []bool{false, true} {
			var log strings.Builder
			cfg := raceConfig(nodes, on)
			cfg.Log = &log
			bots[v] = raceBot(packs, fx, cfg)
			m, err := bots[v].decide(context.Background(), &in)
			if err != nil {
				t.Fatal(err)
			}
			moves[v], logs[v] = m, log.String()
			t.Logf("%s race counter %v: move %v\n%s", fx.name, on, toMove(m), logs[v])
		}
		def, rc := bots[0].plan, bots[1].plan
		if def == nil || rc == nil {
			t.Fatalf("%s: no plan (default %v, race counter %v)", fx.name, def != nil, rc != nil)
		}
		if strings.Contains(logs[0], "race counter") || def.exact {
			t.Errorf("%s: the default ran the race counter", fx.name)
		}
		if !fx.takes {
			if moves[1] != moves[0] || rc.chains != def.chains || len(rc.moves) != len(def.moves) || rc.exact {
				t.Errorf("%s: the race counter changed the decision: %v %d chains at ply %d, default %v %d at ply %d",
					fx.name, toMove(moves[1]), rc.chains, len(rc.moves), toMove(moves[0]), def.chains, len(def.moves))
			}
			continue
		}
		if !strings.Contains(logs[1], "; plan ") || !rc.exact || rc.chains < def.chains || len(rc.moves) > len(def.moves) {
			t.Errorf("%s: no race counter line as long and early as the default's %d chains at ply %d (got exact %v, %d chains at ply %d)",
				fx.name, def.chains, len(def.moves), rc.exact, rc.chains, len(rc.moves))
			continue
		}
		me, err := sideFrom(&in.Me)
		if err != nil {
			t.Fatal(err)
		}
		x, d := planLanding(packs, in.Turn, me, rc)
		if d == 0 {
			t.Errorf("%s: the race counter's plan expects no landing (stocks %v)", fx.name, rc.stocks)
			continue
		}
		under := func(p *plan) int { return lineUnder(packs[in.Turn:], me, p.moves, x, d) }
		got, base := under(rc), under(def)
		t.Logf("%s: %d ojama landing after ply %d: the default's %d-chain plan fires %d chains, the race counter's %d-chain line %d", fx.name, x, d, def.chains, base, rc.chains, got)
		if got < rc.chains || got <= base {
			t.Errorf("%s: under the landing the race counter's line fires %d chains, the default's plan %d", fx.name, got, base)
		}
	}
}

// planLanding returns the ojama an exact plan expects to join our stock
// and the ply after which it joins (0: none): the first move after which
// the recorded stock exceeds the replayed one.
func planLanding(packs []sim.Pack, turn int, me side, p *plan) (x, ply int) {
	for i, m := range p.moves[:len(p.moves)-1] {
		rot := rotate(packs[turn+i])
		o := me.act(m, &rot)
		if j := p.stocks[i+1] - me.stock; j > 0 {
			return j + o.net, i + 1
		}
	}
	return 0, 0
}

// counterFixtures are our turn blocks where our counter mode planned with
// the opponent's fire landing and tanzaku's counter mode waited instead
// (the plan stopped replaying two turns later and a race replan fired a
// 10-12-chain first: types A and D), for the open-loop check of
// --counter-strict --counter-again beside --race-counter.
var counterFixtures = []raceFixture{
	{name: "tanzaku-s8000-cm-turn12", seed: 8000, lost: true, enHist: 25}, // dc2d5b1 game 1: t15 Y10/25, t19 T14/79
	{name: "tanzaku-s8001-cm-turn10", seed: 8001, lost: true, enHist: 33}, // dc2d5b1 both games: t12 Y12/45, t14 T14/79
}

// TestRaceCounterOpenLoop (YOMI_RACECOUNTER=1) plays each race fixture and
// counter fixture on against tanzaku's recorded moves (open loop: tanzaku
// played those moves against our game's moves, so the check is sound only
// until our play differs from the game's and then until our first big
// fire) with the default, --race-counter, --counter-strict --counter-again
// and that with --replan-anti, on YOMI_RACECOUNTER_NODES states per
// search, and logs
// the big fires of both sides. It fails when, at a race fixture, the race
// counter's first answer to tanzaku's first big fire sends less than the
// default's.
func TestRaceCounterOpenLoop(t *testing.T) {
	if os.Getenv("YOMI_RACECOUNTER") == "" {
		t.Skip("set YOMI_RACECOUNTER=1 (minutes)")
	}
	nodes := int64(envInts(t, "YOMI_RACECOUNTER_NODES", []int{6000})[0])
	variants := []struct {
		name string
		set  func(*Config)
	}{
		{"default", func(*Config) {}},
		{"race-counter", func(c *Config) { c.RaceCounter = true }},
		{"counter-strict+again", func(c *Config) { c.CounterStrict, c.CounterAgain = true, true }},
		{"counter-strict+again+replan-anti", func(c *Config) { c.CounterStrict, c.CounterAgain, c.ReplanAnti = true, true, true }},
	}
	for _, fx := range append(slices.Clone(raceFixtures), counterFixtures...) {
		packs, in, opp := loadRace(t, fx)
		var answers [4]int
		for v, vr := range variants {
			cfg := raceConfig(nodes, false)
			vr.set(&cfg)
			r := openLoop(t, packs, fx, in, opp, cfg)
			answers[v] = r.answer
			t.Logf("%s %s: %s\n%s", fx.name, vr.name, strings.Join(r.fires, " "), r.log)
		}
		if strings.Contains(fx.name, "race") && answers[1] < answers[0] {
			t.Errorf("%s: the race counter answered %d, the default %d", fx.name, answers[1], answers[0])
		}
	}
}

// openLoopResult is an open-loop continuation: the big fires (18+) of both
// sides, our first big fire after the opponent's first (answer, ojama; 0:
// none) and our log.
type openLoopResult struct {
	fires  []string
	answer int
	log    string
}

// openLoop plays our bot from the fixture against the opponent's recorded
// moves until our first fire of 18+ ojama after its first one (our
// answer), the recorded moves end or the game ends.
func openLoop(t testing.TB, packs []sim.Pack, fx raceFixture, in protocol.Turn, opp []codevs.Move, cfg Config) openLoopResult {
	t.Helper()
	g, err := codevs.FromTurn(packs, &in)
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	cfg.Log = &log
	us := raceBot(packs, fx, cfg)
	times := [2]int64{in.Me.TimeMs, in.Opp.TimeMs}
	var r openLoopResult
	theirs := false
	for k := 0; k < len(opp) && !g.Over; k++ {
		ti := g.Input(0, times)
		m, err := us.Decide(context.Background(), &ti)
		if err != nil {
			t.Fatal(err)
		}
		turn := g.Turn
		h, err := g.Step([2]codevs.Move{m, opp[k]})
		if err != nil {
			t.Fatal(err)
		}
		if h[1].Sent >= 18 {
			r.fires = append(r.fires, fmt.Sprintf("t%d T%d/%d", turn, h[1].Chains, h[1].Sent))
			theirs = true
		}
		if h[0].Sent >= 18 {
			r.fires = append(r.fires, fmt.Sprintf("t%d Y%d/%d", turn, h[0].Chains, h[0].Sent))
			if theirs {
				r.answer = h[0].Sent
				break
			}
		}
	}
	r.log = log.String()
	return r
}

// TestRaceCounterScan (YOMI_RACECOUNTER_LOGS=DIR,... of `codevs match
// --log-dir` games) decides every race replan of ours whose fire came after
// the opponent's read fire (our -v log: "opponent fires N+ at ply D", then
// "plan C chains at ply P" with P > D) again from our turn block, with and
// without RaceCounter on YOMI_RACECOUNTER_NODES states, and logs what the
// race counter did there: the unselected positions, lost and won games.
func TestRaceCounterScan(t *testing.T) {
	dirs := os.Getenv("YOMI_RACECOUNTER_LOGS")
	if dirs == "" {
		t.Skip("set YOMI_RACECOUNTER_LOGS to match log directories")
	}
	nodes := int64(envInts(t, "YOMI_RACECOUNTER_NODES", []int{20000})[0])
	var n, took int
	for _, dir := range strings.Split(dirs, ",") {
		games, err := filepath.Glob(filepath.Join(dir, "s*_g*"))
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range games {
			var rp struct {
				Players []struct{ Command string }
				Result  struct{ Winner int }
			}
			b, err := os.ReadFile(filepath.Join(g, "replay.json"))
			if os.IsNotExist(err) {
				continue // a game the match stopped
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &rp); err != nil {
				t.Fatal(err)
			}
			us := slices.IndexFunc(rp.Players, func(p struct{ Command string }) bool { return strings.Contains(p.Command, "codevs ai") })
			if us < 0 {
				continue
			}
			res := "lost"
			if rp.Result.Winner == us {
				res = "won"
			}
			turns := raceTurns(t, filepath.Join(g, fmt.Sprintf("p%d_stderr.txt", us+1)))
			if len(turns) == 0 {
				continue
			}
			packs, blocks := readGameInput(t, filepath.Join(g, fmt.Sprintf("p%d_stdin.txt", us+1)))
			for _, turn := range turns {
				in := blocks[turn]
				var moves [2]codevs.Move
				var logs [2]string
				var plans [2]string
				for v, on := range []bool{false, true} {
					var log strings.Builder
					cfg := raceConfig(nodes, on)
					cfg.Log = &log
					bot := raceBot(packs, raceFixture{enHist: 1000}, cfg)
					m, err := bot.decide(context.Background(), &in)
					if err != nil {
						t.Fatal(err)
					}
					moves[v], logs[v] = toMove(m), log.String()
					if bot.plan != nil {
						plans[v] = fmt.Sprintf("%d chains at ply %d", bot.plan.chains, len(bot.plan.moves))
					}
				}
				n++
				tag := "no line taken"
				if strings.Contains(logs[1], "race counter") && strings.Contains(logs[1], "; plan ") {
					took++
					tag = "TAKEN"
				}
				t.Logf("%s (%s) turn %d: %s; default %v (%s), race counter %v (%s)\n%s", g, res, turn, tag, moves[0], plans[0], moves[1], plans[1], logs[1])
			}
		}
	}
	t.Logf("race replans after the opponent's read fire: %d; the race counter took a line at %d", n, took)
}

// raceTurns returns the turns of our log whose race replan fired after
// the opponent's read fire.
func raceTurns(t testing.TB, file string) []int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	read := map[int]int{}
	for _, line := range strings.Split(string(b), "\n") {
		var turn, x, d, c, p int
		if k, _ := fmt.Sscanf(line, "turn %d: opponent fires %d+ at ply %d", &turn, &x, &d); k == 3 {
			read[turn] = d
			continue
		}
		if k, _ := fmt.Sscanf(line, "turn %d: plan %d chains at ply %d", &turn, &c, &p); k == 3 {
			if d, ok := read[turn]; ok && (c == 0 || p > d) {
				out = append(out, turn)
			}
		}
	}
	return out
}

// readGameInput reads a player's whole input of a game: the packs and the
// turn blocks by turn.
func readGameInput(t testing.TB, file string) ([]sim.Pack, map[int]protocol.Turn) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := protocol.NewReader(f)
	pp, err := r.ReadStart()
	if err != nil {
		t.Fatal(err)
	}
	packs := make([]sim.Pack, len(pp))
	for i, p := range pp {
		packs[i] = sim.Pack(p)
	}
	blocks := map[int]protocol.Turn{}
	for {
		in, err := r.ReadTurn()
		if err != nil {
			break
		}
		blocks[in.Turn] = in
	}
	return packs, blocks
}
