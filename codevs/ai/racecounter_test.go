// Tests of Config.RaceCounter on positions from the 180 s games lost to
// tanzaku where its 13-16-chain came a ply or more before the fire of our
// race replan (session codevs-fire), and the open-loop check that plays
// those positions on against tanzaku's recorded moves (YOMI_RACECOUNTER=1).

package ai

import (
	"bufio"
	"context"
	"fmt"
	"os"
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
}

var raceFixtures = []raceFixture{
	{"tanzaku-s8007-race-turn12", 8007, true, 60}, // T13/60 at turn 20, our plan 13 at turn 21 answered 12/45 (all four games of 8007)
	{"tanzaku-s8003-race-turn45", 8003, true, 25}, // T13/60 at turn 52, our plan 12 at turn 54 broke to 8/13 (dc2d5b1 game 1)
	{"tanzaku-s8000-race-turn31", 8000, true, 33}, // T16/138 at turn 35, our plan 13 at turn 37 answered 13/60 (6dbfb6a game 0)
	{"tanzaku-s8008-race-turn44", 8008, true, 25}, // T15/105 at turn 49, our plan 12 at turn 53 (6dbfb6a game 1)
	{"tanzaku-s8008-won-turn32", 8008, false, 79}, // T9/18 at turn 33, our plan 10 at turn 40 answered 10/25 (6dbfb6a game 0, won)
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

// TestRaceCounter decides each fixture with and without RaceCounter.
func TestRaceCounter(t *testing.T) {
	if testing.Short() {
		t.Skip("chokudai searches of 3 000 states per fixture")
	}
	for _, fx := range raceFixtures {
		packs, in, _ := loadRace(t, fx)
		for _, on := range []bool{false, true} {
			var log strings.Builder
			cfg := raceConfig(int64(envInts(t, "YOMI_RACECOUNTER_NODES", []int{3000})[0]), on)
			cfg.Log = &log
			bot := raceBot(packs, fx, cfg)
			m, err := bot.decide(context.Background(), &in)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s race counter %v: move %v\n%s", fx.name, on, toMove(m), log.String())
		}
	}
}

// TestRaceCounterOpenLoop (YOMI_RACECOUNTER=1) plays each fixture on
// against tanzaku's recorded moves (open loop: valid until the first big
// fire of ours, after which tanzaku would have played otherwise) and logs
// the big fires of both sides.
func TestRaceCounterOpenLoop(t *testing.T) {
	if os.Getenv("YOMI_RACECOUNTER") == "" {
		t.Skip("set YOMI_RACECOUNTER=1 (minutes)")
	}
	nodes := int64(envInts(t, "YOMI_RACECOUNTER_NODES", []int{6000})[0])
	for _, fx := range raceFixtures {
		packs, in, opp := loadRace(t, fx)
		for _, on := range []bool{false, true} {
			r := openLoop(t, packs, fx, in, opp, raceConfig(nodes, on))
			t.Logf("%s race counter %v: %s", fx.name, on, r)
		}
	}
}

// openLoop plays our bot from the fixture against the opponent's recorded
// moves until our first fire of 18+ ojama after its first one (our
// answer), the recorded moves end or the game ends.
func openLoop(t testing.TB, packs []sim.Pack, fx raceFixture, in protocol.Turn, opp []codevs.Move, cfg Config) string {
	t.Helper()
	g, err := codevs.FromTurn(packs, &in)
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	cfg.Log = &log
	us := raceBot(packs, fx, cfg)
	times := [2]int64{in.Me.TimeMs, in.Opp.TimeMs}
	var fires []string
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
			fires = append(fires, fmt.Sprintf("t%d T%d/%d", turn, h[1].Chains, h[1].Sent))
			theirs = true
		}
		if h[0].Sent >= 18 {
			fires = append(fires, fmt.Sprintf("t%d Y%d/%d", turn, h[0].Chains, h[0].Sent))
			if theirs {
				break
			}
		}
	}
	return strings.Join(fires, " ") + "\n" + log.String()
}
