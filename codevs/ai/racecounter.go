// Race counter (session codevs-fire, opt-in): when a race replan's fire
// comes after the opponent's read fire, plan the line that takes that fire
// and answers it, instead of the line that loses the race.

package ai

import (
	"context"
	"time"
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
// ojama per ply) reach raceThreatAt before plan's fire, a chokudai plan of
// the replan's plies with the biggest of them landing after its ply aims at
// 1.5× it; if that line fires after the landing with at least the plan's
// chains (the plan itself would take the landing before its fire), it
// replaces the plan (followed only while the stock is as it expects, so a
// fire that comes later or not at all means a new plan) and ok is true.
// A shorter line is not taken: on the fixtures the reads said 18-45 where
// tanzaku fired 60-138, and a line robust to 18 cost two chains.
// tanzaku's counter mode answers our ready chain the same way, but only
// once it is ready; in the lost games (BENCHMARKS.md, session codevs-fire)
// its 13-chain came one to five plies before ours and our answer, made on
// rows the plan had not expected, sent 15-125 ojama less.
func (b *Bot) raceCounter(ctx context.Context, me side, turn int, fires []int, plan Fire, budget time.Duration, leftMs int64, safe func(int) bool) (int, bool) {
	ours := 0
	if plan.Chains > 0 {
		ours = plan.Ply
	}
	x, d := raceCounterLanding(fires, ours, b.raceThreatAt(turn))
	if d == 0 {
		return 0, false
	}
	target := chainsToCancel(x*3/2, 20)
	depth := chokDepth
	if turn > chokLateTurn && b.cfg.ChokLateDepth > 0 {
		depth = b.cfg.ChokLateDepth
	}
	res := b.chokSearch(ctx, me, turn, ChokudaiConfig{Depth: max(depth, d+1), Budget: budget, XMin: 0, XMax: 8, Incoming: x, IncomingPly: d, Target: target, Threads: b.cfg.Threads,
		RowW: b.rowW(turn), RowMin: b.cfg.ChokRowMin, RowPack: b.cfg.ChokRowPack})
	f := res.Best
	if f.Chains == 0 || f.Ply <= d || f.Chains < plan.Chains || !safe(f.Moves[0]) {
		b.logf("turn %d: race counter: opponent fires %d at ply %d before our %d chains (%d) at ply %d; no answer (best %d chains (%d) at ply %d)", turn, x, d, plan.Chains, plan.Sent, plan.Ply, f.Chains, f.Sent, f.Ply)
		return 0, false
	}
	b.setPlanIncomingAt(turn, f, me, x, d)
	b.logf("turn %d: race counter: opponent fires %d at ply %d before our %d chains (%d) at ply %d; plan %d chains (%d, aim %d chains) at ply %d (%d ms left)", turn, x, d, plan.Chains, plan.Sent, plan.Ply, f.Chains, f.Sent, target, f.Ply, leftMs)
	return f.Moves[0], true
}

// setPlanIncomingAt is setPlanIncoming with the incoming ojama joining the
// stock after move ply (1 = the first), and the plan followed only while
// the stock is exactly as expected (plan.exact): if the fire does not come
// at that ply, the next turn plans anew.
func (b *Bot) setPlanIncomingAt(turn int, f Fire, me side, incoming, ply int) {
	b.setPlan(turn, f)
	b.plan.stocks = make([]int, len(f.Moves))
	b.plan.exact = true
	for i, m := range f.Moves {
		b.plan.stocks[i] = me.stock
		rot := rotate(b.packs[turn+i])
		o := me.act(m, &rot)
		if i == ply-1 {
			me.stock += max(incoming-o.net, 0)
		}
	}
}
