// The clock guard (issue 27: zero timeouts): every decision gets a hard
// deadline from the remaining clock, timed from when its turn block was
// read, and every search of the turn stops at it through its context;
// below lowClock the bot plays an emergency move whose work is bounded by
// construction (the plan's next move, else a choice from a two-ply
// exhaustive table) instead of any budgeted search; and Run's watchdog
// sends that move for a decision still running at three quarters of the
// clock. At 15 s per player the budgets alone ran the clock down to
// 47-171 ms with turns still to play, where one decision's fixed costs
// and the machine's load outran it.

package ai

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/protocol"
	"github.com/yomi-ai/yomi/codevs/sim"
)

const (
	// lowClock is the remaining clock below which every decision is an
	// emergency move. An emergency move costs at most 0.41 ms of CPU (a
	// two-ply table of at most emergencyNodes states, BenchmarkEmergency);
	// the referee also charges the pipe and the wait for a CPU: in
	// self-play at nice 10 and load 12-16 such turns took 0.2 ms (median),
	// 7.8 ms (p99), so 1 s lasts well over a hundred turns even then. It
	// is 0.6 % of the contest's 180 s, where our games end with 10-67 s
	// left, and 7 % of the 15 s of the self-play checks (BENCHMARKS.md).
	lowClock = time.Second
	// hardDiv: a decision above lowClock must end within remaining/hardDiv
	// of its start, so no single turn can take the clock: half of it is
	// always left, and a run of cut turns reaches lowClock, never zero.
	// The budgets keep a normal turn well below it (an opening 30 %, a
	// replan 25 % of the remaining time: the cut only ends a turn that
	// stacked several of them, or one the machine starved).
	hardDiv = 2
	// emergencyDepth is the plies of the emergency move's exhaustive table.
	emergencyDepth = 2
	// emergencyNodes bounds the states an emergency move expands: every
	// first move and every second move after it.
	emergencyNodes = numMoves + numMoves*numMoves
	// emergencyReady is the chain an emergency move fires at once when no
	// plan applies: there is no time to read whether to hold it.
	emergencyReady = 8
)

// hardLimit is the longest a decision may take with remaining on the clock.
func hardLimit(remaining time.Duration) time.Duration {
	return remaining / hardDiv
}

// DecideAt returns the move for turn block t, read at start: below lowClock
// an emergency move, else the full decision under a hard deadline of
// start+hardLimit(remaining), whose searches all stop at it.
func (b *Bot) DecideAt(ctx context.Context, t *protocol.Turn, start time.Time) (codevs.Move, error) {
	m, err := b.decideGuarded(ctx, t, start)
	if err != nil {
		return codevs.Move{}, err
	}
	return toMove(m), nil
}

// decideGuarded is DecideAt's move code. When the deadline cut the
// decision, a move that dies at once gives way to the emergency choice.
func (b *Bot) decideGuarded(ctx context.Context, t *protocol.Turn, start time.Time) (int, error) {
	b.nodes, b.emergencies = 0, 0
	remaining := time.Duration(t.Me.TimeMs) * time.Millisecond
	if remaining < lowClock || b.cfg.NodeRate > 0 && b.clockLeft(t) < lowClock {
		return b.emergency(t)
	}
	dctx, cancel := context.WithDeadline(ctx, start.Add(hardLimit(remaining)))
	defer cancel()
	m, err := b.decide(dctx, t)
	if err != nil || ctx.Err() != nil || dctx.Err() == nil {
		return m, err
	}
	b.cuts++
	me, _ := sideFrom(&t.Me)
	s := me
	rot := rotate(b.packs[t.Turn])
	if o := s.act(m, &rot); !o.dead && (m != moveSkill || me.gauge >= codevs.SkillCost) {
		b.logf("turn %d: the hard deadline (%v of %v left) cut the decision, which ended after %v; move %v", t.Turn, hardLimit(remaining), remaining, time.Since(start).Round(time.Millisecond), toMove(m))
		return m, nil
	}
	e, err := b.emergency(t)
	b.logf("turn %d: the hard deadline cut the decision and its move %v dies: emergency move %v", t.Turn, toMove(m), toMove(e))
	return e, err
}

// emergency is the move of a turn with under lowClock left (emergencyPick
// with the plan while it applies), recorded on the bot.
func (b *Bot) emergency(t *protocol.Turn) (int, error) {
	turn := t.Turn
	me, _, err := b.sides(t)
	if err != nil {
		return 0, err
	}
	b.emergencies++
	c := emergencyPick(me, b.packs[turn:], b.plan.keepIf(turn, &me), turn)
	b.nodes += c.nodes
	if !c.follow {
		b.plan = nil
	}
	b.fired = b.fired || c.fire
	b.logf("turn %d: emergency (%d ms left): %s, move %v", turn, t.Me.TimeMs, c.why, toMove(c.m))
	return c.m, nil
}

// emergencyChoice is an emergency move and why it was chosen.
type emergencyChoice struct {
	m      int
	why    string
	nodes  int64 // states of its exhaustive table
	follow bool  // the plan's move
	fire   bool  // a fire of more than smallFire chains
}

// emergencyPick chooses a move for me at turn (packs[0] its pack) without
// any budgeted search: a two-ply exhaustive table of our side only (at
// most emergencyNodes states, one thread). Under an ojama row it fires
// what cancels most of the stock (decide's rule 1); else it follows p
// (nil: none) when its move survives as long as any, fires a ready chain
// of emergencyReady+, or plays the move that survives longest, then fires
// most within two plies (now before later). Dying moves are avoided
// whenever one survives. It writes nothing but its result, so the
// watchdog may call it while a decision still runs.
func emergencyPick(me side, packs []sim.Pack, p *plan, turn int) emergencyChoice {
	my := exhaustIncoming(context.Background(), me, packs, emergencyDepth, 1, &[MaxPly]int{})
	best := 0
	for m := range numMoves {
		best = max(best, my.Survive[m])
	}
	safe := func(m int) bool { return m >= 0 && my.Survive[m] >= best }
	now := my.Ply[0]
	if me.stock >= codevs.OjamaRow && now.First >= 0 && safe(now.First) && (now.Sent >= me.stock*7/10 || now.Sent >= 30) {
		return emergencyChoice{m: now.First, why: fmt.Sprintf("counter now %d chains", now.Chains), nodes: my.Nodes, fire: now.Chains > smallFire}
	}
	if p != nil {
		if m := p.moves[turn-p.start]; safe(m) {
			return emergencyChoice{m: m, why: "follow the plan", nodes: my.Nodes, follow: true, fire: turn-p.start == len(p.moves)-1}
		}
	}
	if now.First >= 0 && now.Chains >= emergencyReady && safe(now.First) {
		return emergencyChoice{m: now.First, why: fmt.Sprintf("fire %d chains", now.Chains), nodes: my.Nodes, fire: true}
	}
	m, bs, bn := 0, -1, -1
	for c := range numMoves {
		if my.Survive[c] < best || c == moveSkill && me.gauge < codevs.SkillCost {
			continue
		}
		f := my.ByFirst[c]
		later := 0
		if my.Depth > 1 {
			later = f[1].Sent
		}
		if s := max(f[0].Sent, later); s > bs || s == bs && f[0].Sent > bn {
			m, bs, bn = c, s, f[0].Sent
		}
	}
	return emergencyChoice{m: m, why: "longest survival, biggest fire in two plies", nodes: my.Nodes}
}

// watchLimit is when, after the turn block was read with remaining on
// the clock, the watchdog answers for a decision that has not ended: past
// the hard deadline (hardLimit), with a quarter of the clock left for the
// emergency move and the write. A starved process (self-play at nice 10,
// load 14) once ran a decision 1.4 s past its deadline and timed out.
func watchLimit(remaining time.Duration) time.Duration {
	return remaining * 3 / 4
}

// watch sends the answer for turn block t, read at start: decide's move,
// or, when decide has not returned by start+watchLimit, the emergency
// move (emergencyPick without the plan, which decide may be changing),
// sent at once; decide's context is then cancelled and its move dropped.
// watch returns once decide has returned.
func (b *Bot) watch(ctx context.Context, t *protocol.Turn, start time.Time, decide func(context.Context) (int, error), send func(int) error) error {
	remaining := time.Duration(t.Me.TimeMs) * time.Millisecond
	dctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		m   int
		err error
	}
	done := make(chan result, 1)
	go func() {
		m, err := decide(dctx)
		done <- result{m, err}
	}()
	timer := time.NewTimer(time.Until(start.Add(watchLimit(remaining))))
	defer timer.Stop()
	finish := func(r result) error {
		if r.err != nil {
			return r.err
		}
		return send(r.m)
	}
	select {
	case r := <-done:
		return finish(r)
	case <-timer.C:
	}
	select { // a decision that ended as the timer fired still counts
	case r := <-done:
		return finish(r)
	default:
	}
	me, _, err := b.sides(t)
	var serr error
	var c emergencyChoice
	if err == nil {
		c = emergencyPick(me, b.packs[t.Turn:], nil, t.Turn)
		serr = send(c.m)
	}
	cancel()
	r := <-done
	b.watchdogs++
	b.plan = nil
	b.logf("turn %d: the watchdog answered %v (%s) after %v of %v left; the decision ended after %v", t.Turn, toMove(c.m), c.why,
		watchLimit(remaining), remaining, time.Since(start).Round(time.Millisecond))
	return cmp.Or(err, serr, r.err)
}

// keepIf returns the plan if its move at turn still applies to me, else nil.
func (p *plan) keepIf(turn int, me *side) *plan {
	if p.valid(turn, me) {
		return p
	}
	return nil
}

// exhaustIn is exhaustIncoming from turn for s, its nodes counted in
// b.nodes.
func (b *Bot) exhaustIn(ctx context.Context, s side, turn, depth, threads int, in *[MaxPly]int) Table {
	t := exhaustIncoming(ctx, s, b.packs[turn:], depth, threads, in)
	b.nodes += t.Nodes
	return t
}
