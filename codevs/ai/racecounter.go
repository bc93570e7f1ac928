// Race counter (session codevs-fire, opt-in): when a race replan's fire
// comes after the opponent's read fire, plan the line that takes that fire
// and answers it, instead of the line that loses the race.

package ai

import (
	"context"
	"time"

	"github.com/yomi-ai/yomi/codevs/sim"
)

// raceCounterLanding returns the opponent's biggest read fire (ojama) of at
// least threat before our fire at ply ours (1 = this turn; 0: no fire of
// ours, every read ply counts) and its ply, the earliest of equals; ply 0
// when none comes first.
func raceCounterLanding(fires []int, ours, threat int) (sent, ply int) {
	for p, s := range fires {
		if ours > 0 && p+1 >= ours {
			break
		}
		if s >= threat && s > sent {
			sent, ply = s, p+1
		}
	}
	return sent, ply
}

// raceCounter is Config.RaceCounter: when the opponent's read fires (fires,
// ojama per ply) reach raceThreatAt before plan's fire and the plan, played
// with the biggest of them landing after its ply, no longer fires its
// chains, a chokudai plan of the replan's plies with that landing aims at
// 1.5× it (tanzaku's counter mode aims the same way, but only once the
// fire is ready). If that line fires after the landing with at least the
// plan's chains and no later, it replaces the plan, followed only while
// the stock is as it expects (a fire that comes later or not at all means
// a new plan), and ok is true. A shorter or later line is not taken: the
// reads said 18-45 where tanzaku fired 60-138, a line robust to 18 cost
// two chains, and a later fire loses the race (BENCHMARKS.md, session
// codevs-fire).
func (b *Bot) raceCounter(ctx context.Context, me side, turn int, fires []int, plan Fire, budget time.Duration, leftMs int64, safe func(int) bool) (int, bool) {
	ours := 0
	if plan.Chains > 0 {
		ours = plan.Ply
	}
	x, d := raceCounterLanding(fires, ours, b.raceThreatAt(turn))
	if d == 0 {
		return 0, false
	}
	if plan.Chains > 0 && lineUnder(b.packs[turn:], me, plan.Moves, x, d) >= plan.Chains {
		b.logf("turn %d: race counter: our %d chains at ply %d still fire under the opponent's %d at ply %d", turn, plan.Chains, plan.Ply, x, d)
		return 0, false
	}
	target := chainsToCancel(x*3/2, 20)
	res := b.ownSearch(ctx, me, turn, ChokudaiConfig{Depth: max(b.chokDepthAt(turn), d+1), Budget: budget, XMin: 0, XMax: 8, Incoming: x, IncomingPly: d, Target: target, Threads: b.cfg.Threads})
	f := res.Best
	if f.Chains == 0 || f.Ply <= d || f.Chains < plan.Chains || plan.Chains > 0 && f.Ply > plan.Ply || !safe(f.Moves[0]) {
		b.logf("turn %d: race counter: opponent fires %d at ply %d before our %d chains (%d) at ply %d; no answer (best %d chains (%d) at ply %d)", turn, x, d, plan.Chains, plan.Sent, plan.Ply, f.Chains, f.Sent, f.Ply)
		return 0, false
	}
	b.setPlanIncoming(turn, f, me, x, d, true)
	b.logf("turn %d: race counter: opponent fires %d at ply %d before our %d chains (%d) at ply %d; plan %d chains (%d, aim %d chains) at ply %d (%d ms left)", turn, x, d, plan.Chains, plan.Sent, plan.Ply, f.Chains, f.Sent, target, f.Ply, leftMs)
	return f.Moves[0], true
}

// lineUnder plays moves from me on packs with x ojama joining the stock
// after ply d (less what that ply fires) and returns the chains of the
// last move (0 if a move dies).
func lineUnder(packs []sim.Pack, me side, moves []int, x, d int) int {
	var o outcome
	for i, m := range moves {
		rot := rotate(packs[i])
		o = me.act(m, &rot)
		if o.dead {
			return 0
		}
		if i == d-1 {
			me.stock += max(x-o.net, 0)
		}
	}
	return o.chains
}
