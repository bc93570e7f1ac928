package ai

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/referee"
)

// vclockRate is the tests' virtual clock: 300 states per second makes the
// 180 s opening's 36 s a 10 800-state search, about a second.
const vclockRate = 300

// vclockTurns is how many turns the tests' games play (the opening plan
// fires and the next plans are made by then).
const vclockTurns = 24

// vclockGame plays vclockTurns of cfg against the random dummy (its moves
// seeded) on pack seed 5, our turn blocks reporting report(turn) ms left;
// it returns our moves and the bot.
func vclockGame(t *testing.T, cfg Config, report func(turn int) int64) ([]codevs.Move, *Bot) {
	t.Helper()
	packs, err := codevs.PacksForSeed(5, codevs.ProfileClient)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := codevs.NewGame(packs)
	bot := NewBot(packs, cfg)
	rng := rand.New(rand.NewPCG(5, 9))
	var moves []codevs.Move
	for !g.Over && g.Turn < vclockTurns {
		in := g.Input(0, [2]int64{report(g.Turn), 180000})
		m, err := bot.Decide(context.Background(), &in)
		if err != nil {
			t.Fatalf("turn %d: %v", g.Turn, err)
		}
		d := referee.DummyMove(&g.P[1], packs[g.Turn], referee.DummyRandom, rng)
		moves = append(moves, m)
		if _, err := g.Step([2]codevs.Move{m, d}); err != nil {
			t.Fatal(err)
		}
	}
	return moves, bot
}

// vclockCfg is the default of `yomi codevs ai` (clock budgets) on one
// thread and the tests' virtual clock.
func vclockCfg() Config {
	c := ContestConfig()
	c.Threads, c.NodeRate = 1, vclockRate
	return c
}

// TestNodeRateDeterministic plays the same game twice under NodeRate, once
// with the referee reporting the full 180 s every turn and once with a
// clock running down to 60 s: the moves must be the same (the budgets come
// from the virtual clock, not the reported time, nor the machine's speed),
// and the virtual clock must have run (states charged, budgets shrinking).
func TestNodeRateDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("two games of self-play")
	}
	full := func(int) int64 { return 180000 }
	falling := func(turn int) int64 { return max(180000-int64(turn)*4000, 60000) }
	a, botA := vclockGame(t, vclockCfg(), full)
	b, botB := vclockGame(t, vclockCfg(), falling)
	if len(a) != len(b) {
		t.Fatalf("games of %d and %d moves", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("turn %d: %v with the full clock reported, %v with the falling one", i, a[i], b[i])
		}
	}
	if botA.timed+botB.timed != 0 {
		t.Errorf("%d and %d searches ran on a time budget", botA.timed, botB.timed)
	}
	if botB.spent != botA.spent {
		t.Errorf("%d states charged, then %d", botA.spent, botB.spent)
	}
	// The opening alone is 36 s (its cap) of the clock, and more is spent
	// after it.
	if botA.spent <= 36*vclockRate {
		t.Errorf("only %d states charged in %d turns", botA.spent, len(a))
	}
	t.Logf("%d turns, %d states charged (%.1f s of the virtual clock)", len(a), botA.spent, float64(botA.spent)/vclockRate)
}

// TestNodeRateNoWallClock checks that under NodeRate no search runs on a
// time budget (Bot.timed), where the same settings on the real clock do,
// and that the virtual clock's budgets are the clock budgets' shares of
// it: the first turn's opening is 20 % of 180 s in states.
func TestNodeRateNoWallClock(t *testing.T) {
	turns := vclockTurns
	if testing.Short() {
		turns = 12
	}
	// Also the searches the default does not run: the chain beam builder
	// (runOwn), the late stance, skill mode, chokudai reads of the opponent.
	other := vclockCfg()
	other.Chokudai, other.Late, other.SkillMode, other.ChokEnemy = false, true, true, true
	cfgs := []Config{other}
	if testing.Short() { // else TestNodeRateDeterministic checks the default
		cfgs = append(cfgs, vclockCfg())
	}
	for _, cfg := range cfgs {
		_, bot := vclockGameN(t, cfg, turns)
		if bot.timed != 0 {
			t.Errorf("chokudai %v: %d searches ran on a time budget under NodeRate", cfg.Chokudai, bot.timed)
		}
		if bot.spent == 0 {
			t.Errorf("chokudai %v: no states charged", cfg.Chokudai)
		}
	}
	// The same on the real clock, one turn on 2 s: its searches are timed.
	real := vclockCfg()
	real.NodeRate = 0
	_, rb := vclockGameN(t, real, 1, 2000)
	if rb.timed == 0 {
		t.Errorf("on the real clock no search counted as timed: the test cannot see one")
	}
}

// vclockGameN is vclockGame over turns turns, reporting 180 s (or ms[0]).
func vclockGameN(t *testing.T, cfg Config, turns int, ms ...int64) ([]codevs.Move, *Bot) {
	left := int64(180000)
	if len(ms) > 0 {
		left = ms[0]
	}
	// From turn turns on the report is below lowClock: emergency moves
	// only, no searches.
	return vclockGame(t, cfg, func(turn int) int64 {
		if turn >= turns {
			return 0
		}
		return left
	})
}

// TestNodeRateOpening checks the first turn's opening search under
// NodeRate: the clock budgets' opening (the 20 % cap of 180 s) in states,
// with no time budget left in it.
func TestNodeRateOpening(t *testing.T) {
	packs, err := codevs.PacksForSeed(5, codevs.ProfileClient)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := codevs.NewGame(packs)
	bot := NewBot(packs, vclockCfg())
	in := g.Input(0, [2]int64{180000, 180000})
	if _, err := bot.Decide(context.Background(), &in); err != nil {
		t.Fatal(err)
	}
	want := int64((36 * time.Second).Seconds() * vclockRate)
	if bot.bud.opening != 36*time.Second {
		t.Fatalf("opening budget %v, want 36 s", bot.bud.opening)
	}
	if bot.spent < want || bot.spent > want+want/10 {
		t.Errorf("turn 0 charged %d states, want about %d (the opening's)", bot.spent, want)
	}
}
