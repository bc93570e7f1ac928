package ai

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/referee"
	"github.com/yomi-ai/yomi/codevs/sim"
)

// The variant of session codevs-anti (its budget flags).
var variantCfg = Config{OpeningShare: 0.3, ReplanShare: 0.25}.withDefaults()

// clockScenario says which searches a simulated turn runs.
type clockScenario struct {
	name string
	// searches returns how many openings, replans and reads turn runs.
	searches func(turn int) (openings, replans, reads int)
}

var clockScenarios = []clockScenario{
	// typical: as the variant's 60 s games: the opening at turn 0, the
	// first exchange at turns 9-11 (counter mode at 9, reads at 10-11, a
	// replan after the fire at 11), then a new plan every 8 turns, read
	// at its fire.
	{"typical", func(turn int) (int, int, int) {
		switch {
		case turn == 0:
			return 1, 0, 0
		case turn == 9:
			return 0, 1, 0
		case turn == 10:
			return 0, 0, 1
		case turn == 11:
			return 0, 1, 1
		case turn > 11 && (turn-11)%8 == 0:
			return 0, 1, 1
		}
		return 0, 0, 0
	}},
	// busy: every turn after the opening replans and reads (a counter hit
	// that finds nothing, turn after turn).
	{"busy", func(turn int) (int, int, int) {
		if turn == 0 {
			return 1, 0, 0
		}
		return 0, 1, 1
	}},
}

// clockOverhead is the simulated time a turn spends outside the budgeted
// searches (the exhaustive tables).
const clockOverhead = 100 * time.Millisecond

// simulateClock plays 80 turns of sc on a clock of total, each search
// spending its whole budget and each turn its perTurn budget and
// clockOverhead; it returns the remaining time and budgets before each turn.
func simulateClock(cfg Config, total time.Duration, sc clockScenario) ([]time.Duration, []clockBudgets) {
	rem := total
	var rems []time.Duration
	var buds []clockBudgets
	for turn := 0; turn < reserveEnd; turn++ {
		b := cfg.turnBudgets(total, rem, turn)
		rems, buds = append(rems, rem), append(buds, b)
		o, r, d := sc.searches(turn)
		spent := time.Duration(o)*b.opening + time.Duration(r)*b.replan + time.Duration(d)*b.read + b.perTurn + clockOverhead
		rem = max(rem-spent, 0)
	}
	return rems, buds
}

// TestClockBudgetsScale checks that the clock budgets follow the clock:
// at the same turn and the same share of the clock left, every budget at
// 180 s is three times the one at 60 s; and the caps hold at the start of
// a 180 s game: the opening 20 % of the clock (36 s, not 30 % of it), a
// replan 10 % (18 s, not 25 % of the free 144 s), the read 5 s.
func TestClockBudgetsScale(t *testing.T) {
	cfg := variantCfg
	cfg.ClockBudgets = true
	for _, turn := range []int{0, 5, 12, 29, 30, 45, 79, 90} {
		for _, left := range []float64{1, 0.8, 0.5, 0.3, 0.2, 0.1, 0.05} {
			a := cfg.budgetsAt(60*time.Second, time.Duration(left*60e9), turn)
			b := cfg.budgetsAt(180*time.Second, time.Duration(left*180e9), turn)
			for _, d := range [][3]any{{"reserve", a.reserve, b.reserve}, {"opening", a.opening, b.opening}, {"replan", a.replan, b.replan}, {"read", a.read, b.read}, {"perTurn", a.perTurn, b.perTurn}} {
				x, y := d[1].(time.Duration), d[2].(time.Duration)
				if x > minBudget && (y-3*x > time.Millisecond || 3*x-y > time.Millisecond) {
					t.Errorf("turn %d, %.0f %% left: %s %v at 180 s, %v at 60 s: not 3x", turn, 100*left, d[0], y, x)
				}
			}
		}
	}
	b := cfg.budgetsAt(180*time.Second, 180*time.Second, 0)
	want := clockBudgets{reserve: 36 * time.Second, free: 144 * time.Second, opening: 36 * time.Second, replan: 18 * time.Second, read: 5 * time.Second, perTurn: 3600 * time.Millisecond}
	if b != want {
		t.Errorf("180 s at turn 0: %+v, want %+v", b, want)
	}
}

// TestClockReserve checks over simulated 80-turn games (every search
// spending its whole budget) that the clock budgets keep the late game
// off its last seconds, at 60 s and at 180 s: in the typical game the
// reserve (20 % of the clock) is still there at turn 30 and every turn
// from 30 to 69 can replan with 0.5 % of the clock (0.9 s at 180 s); in
// the busy game (a replan and a read every turn) the clock lasts past turn
// 50 with 2 % of it. The budgets of session codevs-anti fail both (the
// simulation is the same), which the test checks too.
func TestClockReserve(t *testing.T) {
	for _, clock := range []bool{true, false} {
		cfg := variantCfg
		cfg.ClockBudgets = clock
		for _, total := range []time.Duration{60 * time.Second, 180 * time.Second} {
			var fails []string
			for _, sc := range clockScenarios {
				rems, buds := simulateClock(cfg, total, sc)
				row := fmt.Sprintf("clock budgets %-5v %v %-7s left/replan:", clock, total, sc.name)
				for _, turn := range []int{1, 9, 12, 20, 30, 40, 50, 60, 70} {
					row += fmt.Sprintf(" t%d %.1f/%.2f", turn, rems[turn].Seconds(), buds[turn].replan.Seconds())
				}
				t.Log(row)
				switch sc.name {
				case "typical":
					if r := rems[reserveFull]; r < total/5 {
						fails = append(fails, fmt.Sprintf("typical: %v left at turn %d, below the reserve %v", r, reserveFull, total/5))
					}
					for turn := reserveFull; turn < 70; turn++ {
						if buds[turn].replan < total/200 {
							fails = append(fails, fmt.Sprintf("typical: turn %d replans on %v (%v left)", turn, buds[turn].replan, rems[turn]))
							break
						}
					}
				case "busy":
					if r := rems[50]; r < total/50 {
						fails = append(fails, fmt.Sprintf("busy: %v left at turn 50", r))
					}
				}
			}
			switch {
			case clock && len(fails) > 0:
				t.Errorf("clock budgets, %v: %v", total, fails)
			case !clock && len(fails) < 3:
				t.Errorf("the old budgets at %v passed: %v (the simulation no longer tells them apart)", total, fails)
			}
		}
	}
}

// variantBot is the variant of session codevs-anti (its flags) on node
// budgets, with or without ClockBudgets.
func variantBot(packs []sim.Pack, clock bool, log *strings.Builder) *Bot {
	return NewBot(packs, Config{Chokudai: true, OpeningShare: 0.3, Target: 13, ChokLateDepth: 10, ReplanShare: 0.25,
		AntiCounter: true, CounterMode: true, RaceLate: 18, ClockBudgets: clock, ChokNodes: 800, OwnDepth: 2, Threads: 2, Log: log})
}

// TestClockBudgetsBot plays the variant against random drops on a fake
// 180 s clock (each turn costs the budgets its searches were given, which
// run on node budgets, and clockOverhead): with ClockBudgets the opening
// is given 36 s (20 % of the clock), no turn is given more than it has,
// and no turn to 30 spends into the reserve more than the floors allow;
// without it the opening is given 54 s (30 % of the clock).
func TestClockBudgetsBot(t *testing.T) {
	packs, err := codevs.PacksForSeed(21, codevs.ProfileClient)
	if err != nil {
		t.Fatal(err)
	}
	const total = 180 * time.Second
	for _, clock := range []bool{true, false} {
		g, _ := codevs.NewGame(packs)
		rng := rand.New(rand.NewPCG(21, 7))
		var log strings.Builder
		bot := variantBot(packs, clock, &log)
		rem := total
		turns := 15 // the first fire (its read) and the replan after it
		if !clock || testing.Short() {
			turns = 1
		}
		for turn := 0; !g.Over && turn < turns; turn++ {
			in := g.Input(0, [2]int64{rem.Milliseconds(), rem.Milliseconds()})
			m, err := bot.decide(context.Background(), &in)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("clock %v turn %d: %v left, given %v (free %v, replan %v)", clock, turn, rem, bot.budgeted, bot.bud.free, bot.bud.replan)
			switch {
			case turn == 0 && clock && bot.budgeted != 36*time.Second:
				t.Errorf("turn 0: the opening was given %v, want 36 s", bot.budgeted)
			case turn == 0 && !clock && bot.budgeted != 54*time.Second:
				t.Errorf("turn 0 without ClockBudgets: the opening was given %v, want 54 s", bot.budgeted)
			case clock && bot.budgeted+clockOverhead > rem:
				t.Errorf("turn %d: given %v with %v left", turn, bot.budgeted, rem)
			case clock && turn <= reserveFull && rem-bot.budgeted < bot.bud.reserve-2*bot.bud.replan:
				t.Errorf("turn %d: given %v of %v, past the reserve %v", turn, bot.budgeted, rem, bot.bud.reserve)
			}
			rem = max(rem-bot.budgeted-clockOverhead, 0)
			d := referee.DummyMove(&g.P[1], packs[turn], referee.DummyRandom, rng)
			if _, err := g.Step([2]codevs.Move{toMove(m), d}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestClockLowFloor: with under 400 ms left, a turn's searches together
// must stay well inside the clock, in both budget modes: every budget at
// most its share of what is left or remaining/lowFloorDiv, so a replan, a
// read and a per-turn beam take at most half of it. (With the fixed
// 20 ms floor, 47 ms left gave 20 ms to each and a self-play game timed
// out.)
func TestClockLowFloor(t *testing.T) {
	for _, clock := range []bool{false, true} {
		cfg := variantCfg
		cfg.ClockBudgets = clock
		for _, left := range []time.Duration{390 * time.Millisecond, 200 * time.Millisecond, 47 * time.Millisecond, 5 * time.Millisecond, time.Millisecond} {
			for _, turn := range []int{20, 60, 96, 200} {
				b := cfg.turnBudgets(180*time.Second, left, turn)
				if sum := b.replan + b.read + b.perTurn; sum > left/2 {
					t.Errorf("clock budgets %v, %v left at turn %d: replan %v + read %v + per turn %v = %v > half", clock, left, turn, b.replan, b.read, b.perTurn, sum)
				}
			}
		}
		// Above 400 ms the floor is still the seed's 20 ms.
		if b := cfg.turnBudgets(180*time.Second, 500*time.Millisecond, 60); b.perTurn < minBudget {
			t.Errorf("clock budgets %v, 500 ms left: per-turn %v < %v", clock, b.perTurn, minBudget)
		}
	}
}
