// Tests of the clock guard (guard.go): no timing is measured; the clock
// is the remaining time in the turn block and the start time handed to
// decideGuarded, and the work is counted in expanded states.

package ai

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/protocol"
	"github.com/yomi-ai/yomi/codevs/referee"
	"github.com/yomi-ai/yomi/codevs/sim"
	"github.com/yomi-ai/yomi/internal/bench"
)

// guardPos is a position for player 0: its turn block (the clock set by
// each test), its packs and the player for the rules' own checks.
type guardPos struct {
	name  string
	in    protocol.Turn
	packs []sim.Pack
	me    codevs.Player
}

// survivors returns which moves of p's player are legal and leave its
// field alive after this turn, by the rules' own Player.Act, and whether
// any does.
func (p *guardPos) survivors() (ok [numMoves]bool, some bool) {
	for k := range numMoves {
		q := p.me
		if _, err := q.Act(p.packs[p.in.Turn], toMove(k)); err == nil && !q.Dead() {
			ok[k], some = true, true
		}
	}
	return ok, some
}

// guardPositions returns the opening, our plan's fire turn in two stance
// games (the anti-counter's reads run there), mid-game positions under
// ojama, and positions just before a random player dies (some moves kill,
// some do not).
func guardPositions(t testing.TB) []guardPos {
	t.Helper()
	var out []guardPos
	at := func(name string, g *codevs.Game, packs []sim.Pack) guardPos {
		return guardPos{name: name, in: g.Input(0, [2]int64{100000, 100000}), packs: packs, me: g.P[0]}
	}
	for _, seed := range []uint64{18, 31} {
		g, packs, _ := stanceGame(t, seed, seed == 31)
		out = append(out, at(fmt.Sprintf("stance %d", seed), g, packs))
	}
	for _, seed := range []uint64{5, 6, 7} {
		packs, err := codevs.PacksForSeed(seed, codevs.ProfileClient)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := codevs.NewGame(packs)
		if seed == 5 {
			out = append(out, at("opening", g, packs))
			// Walls: the left columns stand so high that a drop on them
			// dies (after the ojama row that falls first, with a stock).
			for _, w := range []struct{ cols, h, stock int }{{5, 16, 0}, {7, 15, 10}} {
				v := *g
				for x := range w.cols {
					for h := range w.h {
						v.P[0].Board.Cell[x][h] = sim.Ojama
					}
				}
				v.P[0].Ojama = w.stock
				out = append(out, at(fmt.Sprintf("wall of %d columns at %d, stock %d", w.cols, w.h, w.stock), &v, packs))
			}
			// A pit: only the two right columns take a drop, on ojama, so
			// two plies rarely fire anything (the fire tie-break alone
			// does not steer away from the dying drops there).
			for turn := range 6 {
				v := *g
				v.Turn = turn
				for x := range sim.Width {
					for h := range 16 - 4*(x/7) {
						v.P[0].Board.Cell[x][h] = sim.Ojama
					}
				}
				out = append(out, at(fmt.Sprintf("pit at turn %d", turn), &v, packs))
			}
		}
		// Player 0 drops at random (it may kill itself), player 1 plays
		// the dummy's safe random drops and fires.
		rng := rand.New(rand.NewPCG(seed, 3))
		var hist []guardPos
		for !g.Over {
			hist = append(hist, at(fmt.Sprintf("seed %d turn %d", seed, g.Turn), g, packs))
			m := codevs.Drop(rng.IntN(9), rng.IntN(4))
			d := referee.DummyMove(&g.P[1], packs[g.Turn], referee.DummyRandom, rng)
			if _, err := g.Step([2]codevs.Move{m, d}); err != nil {
				t.Fatal(err)
			}
		}
		kept := 0
		for i := len(hist) - 1; i >= 0 && kept < 3; i-- {
			p := hist[i]
			n := 0
			surv, _ := p.survivors()
			for _, ok := range surv {
				if ok {
					n++
				}
			}
			if n > 0 && n < 30 || p.me.Ojama >= codevs.OjamaRow && kept == 0 {
				out = append(out, p)
				kept++
			}
		}
	}
	return out
}

// later is a turn start an hour from now: no deadline derived from it
// passes during a test, however slow the machine.
var later = time.Now().Add(time.Hour)

// guardCfg is the contest AI on node budgets (fast, deterministic).
func guardCfg() Config {
	c := ContestConfig()
	c.ChokNodes, c.OwnDepth, c.FixedWidth = 3000, 3, 200
	return c
}

// TestGuardEmergency: below lowClock the decision is the emergency move on
// every position: no budgeted search (nothing budgeted, the chokudai
// arena untouched), at most emergencyNodes states, a legal move, and one
// that survives the turn whenever some move does; at lowClock itself the
// full decision runs.
func TestGuardEmergency(t *testing.T) {
	ps := guardPositions(t)
	dying := 0
	for _, p := range ps {
		surv, some := p.survivors()
		for m, ok := range surv {
			if !ok && m < moveSkill {
				dying++
			}
		}
		for _, ms := range []int64{lowClock.Milliseconds() - 1, 63, 1, 0} {
			p.in.Me.TimeMs = ms
			bot := NewBot(p.packs, guardCfg())
			m, err := bot.decideGuarded(context.Background(), &p.in, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			if bot.emergencies != 1 || bot.budgeted != 0 || len(bot.chok.nodes) != 0 || bot.nodes > emergencyNodes {
				t.Errorf("%s, %d ms left: emergencies %d, budgeted %v, chokudai states %d, %d states (at most %d)",
					p.name, ms, bot.emergencies, bot.budgeted, len(bot.chok.nodes), bot.nodes, emergencyNodes)
			}
			if err := p.me.Legal(toMove(m)); err != nil {
				t.Errorf("%s, %d ms left: %v", p.name, ms, err)
			}
			if some && !surv[m] {
				t.Errorf("%s, %d ms left: emergency move %v dies, some move survives", p.name, ms, toMove(m))
			}
		}
		p.in.Me.TimeMs = lowClock.Milliseconds()
		bot := NewBot(p.packs, guardCfg())
		if _, err := bot.decideGuarded(context.Background(), &p.in, later); err != nil {
			t.Fatal(err)
		}
		if bot.emergencies != 0 || bot.nodes <= emergencyNodes {
			t.Errorf("%s at %v left: emergencies %d, %d states: not the full decision", p.name, lowClock, bot.emergencies, bot.nodes)
		}
	}
	if dying == 0 {
		t.Fatal("no position where a move dies: the survival check is not tested")
	}
	t.Logf("%d positions, %d dying drops among them", len(ps), dying)
}

// TestGuardDeadline: the hard deadline is start+hardLimit(remaining) and
// reaches every search of the decision: with 100 s on the clock and the
// turn read 51 s ago, no search of any path (opening, replans, the
// anti-counter's reads at a fire turn, counter mode under ojama, the
// exhaustive tables) expands a state, the cut is counted, and the move is
// legal and survives when one can; read an hour from now (no deadline in
// reach), the same positions search.
// (The turn is read 51 s ago: a limit above half the clock would leave
// the searches time.)
func TestGuardDeadline(t *testing.T) {
	if hardLimit(100*time.Second) != 50*time.Second {
		t.Fatalf("hardLimit(100 s) = %v", hardLimit(100*time.Second))
	}
	for _, p := range guardPositions(t) {
		surv, some := p.survivors()
		p.in.Me.TimeMs = 100000
		bot := NewBot(p.packs, guardCfg())
		m, err := bot.decideGuarded(context.Background(), &p.in, time.Now().Add(-51*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		if bot.cuts != 1 || bot.nodes > int64(bot.emergencies)*emergencyNodes {
			t.Errorf("%s, deadline past: cuts %d, %d states expanded (%d emergency moves)", p.name, bot.cuts, bot.nodes, bot.emergencies)
		}
		if err := p.me.Legal(toMove(m)); err != nil {
			t.Errorf("%s, deadline past: %v", p.name, err)
		}
		if some && !surv[m] {
			t.Errorf("%s, deadline past: move %v dies, some move survives", p.name, toMove(m))
		}
		fresh := NewBot(p.packs, guardCfg())
		if _, err := fresh.decideGuarded(context.Background(), &p.in, later); err != nil {
			t.Fatal(err)
		}
		if fresh.cuts != 0 || fresh.nodes <= emergencyNodes {
			t.Errorf("%s, read now: cuts %d, %d states: the position does not search", p.name, fresh.cuts, fresh.nodes)
		}
	}
}

// countdown is a context that ends after n calls of Err: a deterministic
// stand-in for a deadline that passes during a search.
type countdown struct {
	context.Context
	n atomic.Int64
}

func newCountdown(n int64) *countdown {
	c := &countdown{Context: context.Background()}
	c.n.Store(n)
	return c
}

func (c *countdown) Err() error {
	if c.n.Add(-1) < 0 {
		return context.DeadlineExceeded
	}
	return nil
}

// TestSearchesStopAtContext: each search stops soon after its context
// ends, even inside work bounded only by nodes or depth: a chokudai search
// on a million-state budget within a state of it, the exhaustive search
// at depth 4 within a second-ply subtree, the chain beam at once when it
// has already ended.
func TestSearchesStopAtContext(t *testing.T) {
	packs, err := codevs.PacksForSeed(9, codevs.ProfileClient)
	if err != nil {
		t.Fatal(err)
	}
	var c Chokudai
	for _, k := range []int64{0, 5, 40} {
		res := c.search(newCountdown(k), side{}, packs, ChokudaiConfig{Depth: 13, Nodes: 1 << 20, XMax: 8, Threads: 1, RowW: 50, RowPack: 2})
		if res.Nodes > k {
			t.Errorf("chokudai, context ends after %d checks: %d states expanded", k, res.Nodes)
		}
	}
	rng := rand.New(rand.NewPCG(21, 22))
	s, _ := randomSide(rng, packs)
	full := exhaust(context.Background(), s, packs[40:], 4, 1).Nodes
	for _, k := range []int64{0, 1, 3} {
		n := exhaust(newCountdown(k), s, packs[40:], 4, 1).Nodes
		// Each check before the end lets a first move (1) or a second
		// move's subtree (37+1369) through.
		if n > k*(1+numMoves+numMoves*numMoves) {
			t.Errorf("exhaust depth 4, context ends after %d checks: %d states (full search %d)", k, n, full)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := runBeam(ctx, side{}, packs, BeamConfig{Depth: 16, Width: 40000, BucketWidth: 12000, XMax: 8, Threads: 2, Potential: true})
	if res.Nodes != 0 || res.Best.Chains != 0 {
		t.Errorf("chain beam with an ended context: %d states, best %d chains", res.Nodes, res.Best.Chains)
	}
}

// TestGuardWatchdog: when the decision has not returned by
// start+watchLimit (here already past), the watchdog sends the emergency
// move first (legal, and alive when some move is), then cancels the
// decision and waits for it; its move is dropped. A decision that returns
// in time is sent as it is.
func TestGuardWatchdog(t *testing.T) {
	if watchLimit(100*time.Second) != 75*time.Second {
		t.Fatalf("watchLimit(100 s) = %v", watchLimit(100*time.Second))
	}
	for _, p := range guardPositions(t) {
		surv, some := p.survivors()
		p.in.Me.TimeMs = 100000
		bot := NewBot(p.packs, guardCfg())
		var sent []int
		sentBeforeStop := false
		stuck := func(ctx context.Context) (int, error) {
			<-ctx.Done() // a decision that only a cancel stops
			sentBeforeStop = len(sent) == 1
			return moveSkill, nil
		}
		err := bot.watch(context.Background(), &p.in, time.Now().Add(-76*time.Second), stuck, func(m int) error {
			sent = append(sent, m)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(sent) != 1 || !sentBeforeStop || bot.watchdogs != 1 {
			t.Fatalf("%s: sent %v (before the decision stopped: %v), watchdogs %d", p.name, sent, sentBeforeStop, bot.watchdogs)
		}
		if err := p.me.Legal(toMove(sent[0])); err != nil {
			t.Errorf("%s: watchdog move: %v", p.name, err)
		}
		if some && !surv[sent[0]] {
			t.Errorf("%s: watchdog move %v dies, some move survives", p.name, toMove(sent[0]))
		}
		sent = sent[:0]
		quick := func(context.Context) (int, error) { return 7, nil }
		if err := bot.watch(context.Background(), &p.in, later, quick, func(m int) error {
			sent = append(sent, m)
			return nil
		}); err != nil || len(sent) != 1 || sent[0] != 7 || bot.watchdogs != 1 {
			t.Errorf("%s: a decision in time: sent %v, err %v, watchdogs %d", p.name, sent, err, bot.watchdogs)
		}
	}
}

// benchDecide runs decide on every guard position with ms left per op and
// reports the worst single decision in wall time (max-ns, waits for the
// CPU included) and in the process's CPU time (max-cpu-ns), and the most
// states any expanded (max-states); ns/op sums the positions.
func benchDecide(b *testing.B, ms int64, decide func(bot *Bot, in *protocol.Turn) (int, error)) {
	ps := guardPositions(b)
	var worst, worstCPU time.Duration
	var states int64
	for b.Loop() {
		for i := range ps {
			p := &ps[i]
			p.in.Me.TimeMs = ms
			bot := NewBot(p.packs, ContestConfig())
			c0, _ := bench.ProcessCPU()
			t0 := time.Now()
			if _, err := decide(bot, &p.in); err != nil {
				b.Fatal(err)
			}
			c1, _ := bench.ProcessCPU()
			worst, worstCPU = max(worst, time.Since(t0)), max(worstCPU, c1-c0)
			states = max(states, bot.nodes)
		}
	}
	b.ReportMetric(float64(worst.Nanoseconds()), "max-ns")
	b.ReportMetric(float64(worstCPU.Nanoseconds()), "max-cpu-ns")
	b.ReportMetric(float64(states), "max-states")
	b.ReportMetric(float64(len(ps)), "positions")
}

// BenchmarkEmergency is the emergency decision (60 ms left) on the guard
// positions: the contest AI's budgets, time-based, as `yomi codevs ai`.
func BenchmarkEmergency(b *testing.B) {
	benchDecide(b, 60, func(bot *Bot, in *protocol.Turn) (int, error) {
		return bot.decideGuarded(context.Background(), in, time.Now())
	})
}

// BenchmarkDecideLowClock compares, on the guard positions, the decision
// before the guard at 60 ms left (the full decision on its time budgets,
// as at the self-play timeouts) with the guarded one just above lowClock
// (the full decision under its hard deadline of 500 ms).
func BenchmarkDecideLowClock(b *testing.B) {
	b.Run("unguarded-60ms", func(b *testing.B) {
		benchDecide(b, 60, func(bot *Bot, in *protocol.Turn) (int, error) {
			return bot.decide(context.Background(), in)
		})
	})
	b.Run("guarded-1s", func(b *testing.B) {
		benchDecide(b, lowClock.Milliseconds(), func(bot *Bot, in *protocol.Turn) (int, error) {
			return bot.decideGuarded(context.Background(), in, time.Now())
		})
	})
}
