// Anti-counter and counter mode (session codevs-anti): tanzaku's two rules
// around the first exchange (PEERS.md), our own code, both opt-in. The
// anti-counter keeps a ready chain when the opponent's answer to it, read
// by the chokudai search with our ojama landing, is a chain longer, and
// grows it into the biggest fire of the next plies; the counter mode plans,
// when the opponent's immediate fire jumps, a line that takes that fire and
// answers it 1.5 times over.

package ai

import (
	"context"
	"time"

	"github.com/yomi-ai/yomi/codevs"
)

const (
	// antiDepth and antiBudget bound the read of the opponent's answer to
	// our fire (tanzaku: 7 plies, 5 s).
	antiDepth  = 7
	antiBudget = 5 * time.Second
	// extendDepth is the plies the grow plan looks for its biggest fire
	// in (tanzaku's rensa_extend: 8 plies, 13 s).
	extendDepth = 8
	// antiMinChains is the smallest plan fire the anti-counter holds:
	// smaller fires are races, not exchanges (as holdFire and the counter
	// stance).
	antiMinChains = 8
	// antiMinRemaining is the clock below which neither rule searches
	// (tanzaku: 30 s of 180; at 60 s per player that would end both
	// before the first exchange).
	antiMinRemaining = 10 * time.Second

	// counterModeDepth is the counter mode plan's plies (tanzaku: 10).
	counterModeDepth = 10
	// counterModeHist is how many earlier turns the opponent's immediate
	// fire must exceed to start the counter mode (tanzaku: 4).
	counterModeHist = 4
	// counterModeThreat is the immediate fire (ojama, net of its stock)
	// that starts the counter mode, counterModeLateThreat from turn
	// counterModeLateTurn on (tanzaku: 40, then 30 from turn 15).
	counterModeThreat     = 40
	counterModeLateThreat = 30
	counterModeLateTurn   = 15
	// raceLateTurn is the turn from which Config.RaceLate replaces
	// raceThreat.
	raceLateTurn = 15
)

// chokRead runs the chokudai search for s from turn over depth plies with
// incoming ojama joining its stock after ply 1 and the given target
// (0: the longest fire, the earliest of equals), within budget, or with
// ChokNodes (or FixedWidth × plies) expanded states when set.
func (b *Bot) chokRead(ctx context.Context, s side, turn, depth, incoming, target int, budget time.Duration) BeamResult {
	return b.chokSearch(ctx, s, turn, ChokudaiConfig{Depth: depth, Budget: budget, XMin: 0, XMax: 8, Incoming: incoming, Target: target, Threads: b.cfg.Threads})
}

// ownRead is chokRead for our own plans: with ownSearch's key terms
// (Config.ChokRow's row term, ChokOpenX, ChokFree).
func (b *Bot) ownRead(ctx context.Context, s side, turn, depth, incoming, target int, budget time.Duration) BeamResult {
	return b.ownSearch(ctx, s, turn, ChokudaiConfig{Depth: depth, Budget: budget, XMin: 0, XMax: 8, Incoming: incoming, Target: target, Threads: b.cfg.Threads})
}

// counterRead is ownRead for counter plans (counterMode, counterHit): with
// the extension pick of Config.ChokExt under Config.ChokExtCounter.
func (b *Bot) counterRead(ctx context.Context, s side, turn, depth, incoming, target int, budget time.Duration) BeamResult {
	cfg := ChokudaiConfig{Depth: depth, Budget: budget, XMin: 0, XMax: 8, Incoming: incoming, Target: target, Threads: b.cfg.Threads}
	if b.cfg.ChokExtCounter {
		cfg = b.withExt(cfg)
	}
	return b.ownSearch(ctx, s, turn, cfg)
}

// longest returns the most chains and the most ojama among per-ply fires.
func longest(perPly []Fire) (chains, sent int) {
	for _, f := range perPly {
		chains, sent = max(chains, f.Chains), max(sent, f.Sent)
	}
	return chains, sent
}

// antiCounter decides, at the plan's fire, whether to hold it: when the
// opponent's best answer within antiDepth plies, our net ojama landing
// after its move this turn, has a chain more than ours, and a plan of
// extendDepth plies fires a longer chain later whose first move keeps a
// chain of chains−counterKeep ready under one ojama row (the answer to the
// opponent's fire if it goes first), that plan replaces the fire and
// antiCounter reports true. tanzaku does not check the row; our old
// counter stance failed because its kept chains broke under one.
func (b *Bot) antiCounter(ctx context.Context, me, en side, turn int, remaining, replan time.Duration, safe func(int) bool) bool {
	p := b.plan
	if p.chains < antiMinChains || me.f.MaxHeight() > counterMaxHeight || remaining < antiMinRemaining {
		return false
	}
	ac, as := b.antiAnswer(ctx, me, en, turn, p.sent)
	if ac < p.chains+1 {
		b.logf("turn %d: anti-counter: opponent's answer %d chains (%d) < our %d+1, fire", turn, ac, as, p.chains)
		return false
	}
	if b.cfg.AntiPick {
		g, keep, n, free := b.growPick(ctx, me, turn, p.chains, replan, safe)
		if g.Chains == 0 {
			if p.sent < b.cfg.AntiHold && free.Chains > 0 {
				b.logf("turn %d: anti-counter: answer %d chains (%d) > our %d (%d), none of %d grow plans keeps %d under a row, but our fire is under %d: grow anyway to %d chains (%d) at ply %d", turn, ac, as, p.chains, p.sent, n, p.chains-counterKeep, b.cfg.AntiHold, free.Chains, free.Sent, free.Ply)
				b.setPlan(turn, free)
				return true
			}
			b.logf("turn %d: anti-counter: answer %d chains (%d) > our %d, but none of %d grow plans keeps %d under a row, fire", turn, ac, as, p.chains, n, p.chains-counterKeep)
			return false
		}
		b.logf("turn %d: anti-counter: answer %d chains (%d) > our %d (%d), grow to %d chains (%d) at ply %d; %d under a row (%d grow plans)", turn, ac, as, p.chains, p.sent, g.Chains, g.Sent, g.Ply, keep, n)
		b.setPlan(turn, g)
		return true
	}
	res := b.ownRead(ctx, me, turn, extendDepth, 0, 0, replan)
	if res.Best.Chains <= p.chains || len(res.Best.Moves) < 2 || !safe(res.Best.Moves[0]) {
		b.logf("turn %d: anti-counter: answer %d chains (%d) > our %d, but no later bigger fire (best %d at ply %d), fire", turn, ac, as, p.chains, res.Best.Chains, res.Best.Ply)
		return false
	}
	m := res.Best.Moves[0]
	in := [MaxPly]int{codevs.OjamaRow}
	t := b.exhaustIn(ctx, me, turn, 2, b.cfg.Threads, &in)
	if t.Depth < 2 || t.ByFirst[m][1].Chains < p.chains-counterKeep {
		if p.sent < b.cfg.AntiHold {
			b.logf("turn %d: anti-counter: answer %d chains (%d) > our %d (%d), the grow move %v keeps %d under a row, but our fire is under %d: grow anyway to %d chains (%d) at ply %d", turn, ac, as, p.chains, p.sent, toMove(m), t.ByFirst[m][1].Chains, b.cfg.AntiHold, res.Best.Chains, res.Best.Sent, res.Best.Ply)
			b.setPlan(turn, res.Best)
			return true
		}
		b.logf("turn %d: anti-counter: answer %d chains (%d) > our %d, but the grow move %v keeps %d under a row, fire", turn, ac, as, p.chains, toMove(m), t.ByFirst[m][1].Chains)
		return false
	}
	b.logf("turn %d: anti-counter: answer %d chains (%d) > our %d (%d), grow to %d chains (%d) at ply %d; %d under a row", turn, ac, as, p.chains, p.sent, res.Best.Chains, res.Best.Sent, res.Best.Ply, t.ByFirst[m][1].Chains)
	b.setPlan(turn, res.Best)
	return true
}

// growPick is the anti-counter's grow plan under Config.AntiPick: a
// chokudai search of extendDepth plies keeps every first move's best fire
// per ply, and the longest of those after this turn with more than chains
// chains whose first move is safe and still fires chains−counterKeep after
// one ojama row wins (ties: the earliest ply, the most kept, the most
// ojama). keep is
// the chain it keeps under the row, n the candidates longer than ours;
// Chains 0: none keeps the chain. The old rule checked only the search's
// own choice, whose first move broke under a row in 20 of 26 holds.
// free is the longest of the candidates with a safe first move and no row
// check (ties: the earliest ply, the most ojama): tanzaku's extend, which
// Config.AntiHold grows along when no candidate keeps the chain.
func (b *Bot) growPick(ctx context.Context, me side, turn, chains int, budget time.Duration, safe func(int) bool) (g Fire, keep, n int, free Fire) {
	b.ownSearch(ctx, me, turn, ChokudaiConfig{Depth: extendDepth, Budget: budget, XMin: 0, XMax: 8, Threads: b.cfg.Threads, ByFirst: true})
	in := [MaxPly]int{codevs.OjamaRow}
	t := b.exhaustIn(ctx, me, turn, 2, b.cfg.Threads, &in)
	if t.Depth < 2 {
		return Fire{}, 0, 0, Fire{}
	}
	for _, f := range b.chok.byFirst() {
		if f.Ply < 2 || f.Chains <= chains {
			continue
		}
		n++
		m := f.Moves[0]
		if !safe(m) {
			continue
		}
		if f.Chains > free.Chains || f.Chains == free.Chains && (f.Ply < free.Ply || f.Ply == free.Ply && f.Sent > free.Sent) {
			free = f
		}
		k := t.ByFirst[m][1].Chains
		if k < chains-counterKeep {
			continue
		}
		if f.Chains > g.Chains || f.Chains == g.Chains && (f.Ply < g.Ply || f.Ply == g.Ply && (k > keep || k == keep && f.Sent > g.Sent)) {
			g, keep = f, k
		}
	}
	return g, keep, n, free
}

// antiAnswer is the longest chain and most ojama of the opponent's best
// answers within antiDepth plies (the chokudai search) when our fire of
// sent ojama goes off this turn, net of our stock, landing after its move
// this turn. The last read is kept for the turn: the pre-empt rule and the
// plan's fire may both ask.
func (b *Bot) antiAnswer(ctx context.Context, me, en side, turn, sent int) (chains, ojama int) {
	net := max(sent-me.stock, 0)
	if r := b.antiLast; r.ok && r.turn == turn && r.net == net {
		return r.chains, r.ojama
	}
	ans := b.chokRead(ctx, en, turn, antiDepth, net, 0, b.bud.read)
	chains, ojama = longest(ans.PerPly)
	b.antiLast = antiRead{ok: true, turn: turn, net: net, chains: chains, ojama: ojama}
	return chains, ojama
}

// antiRead is a kept antiAnswer.
type antiRead struct {
	ok                       bool
	turn, net, chains, ojama int
}

// antiPreempt reports whether AntiCounter lets the pre-empt or the counter
// rule fire chains (sent ojama) now (the counter rule's own read, the
// add-key beam with our ojama in the opponent's stock at once, saw 13
// ojama where tanzaku answered a 14-chain: session codevs-anti): not when the opponent's answer has a chain more
// and our chain survives one ojama row (keepsChain) to answer its fire.
func (b *Bot) antiPreempt(ctx context.Context, me, en side, turn, chains, sent int, remaining time.Duration) bool {
	if chains < antiMinChains || me.f.MaxHeight() > counterMaxHeight || remaining < antiMinRemaining {
		return true
	}
	ac, as := b.antiAnswer(ctx, me, en, turn, sent)
	if ac < chains+1 {
		return true
	}
	if !b.keepsChain(ctx, me, turn, chains) {
		b.logf("turn %d: anti-counter: answer %d chains (%d) > our %d, one row breaks ours: pre-empt", turn, ac, as, chains)
		return true
	}
	b.logf("turn %d: anti-counter: answer %d chains (%d) > our %d, no pre-empt", turn, ac, as, chains)
	return false
}

// noteEnemyFire records the opponent's best fire this turn (over all its
// moves, enNow, net of its stock) and returns it with the most of the
// counterModeHist turns before; decide calls it every turn under CounterMode.
func (b *Bot) noteEnemyFire(en side, enNow Best) (cur, prev int) {
	cur = max(enNow.Sent-en.stock, 0)
	for _, s := range b.enHist[max(len(b.enHist)-counterModeHist, 0):] {
		prev = max(prev, s)
	}
	b.enHist = append(b.enHist, cur)
	if len(b.enHist) > 2*counterModeHist {
		b.enHist = append(b.enHist[:0], b.enHist[len(b.enHist)-counterModeHist:]...)
	}
	return cur, prev
}

// counterMode is tanzaku's counter mode: when the opponent's best fire this
// turn, cur (noteEnemyFire), reaches counterModeThreat
// (counterModeLateThreat from counterModeLateTurn) and exceeds prev, the
// most of the counterModeHist turns before, a chokudai plan of
// counterModeDepth plies with cur landing after our move this turn takes
// the earliest fire that sends 1.5× it (else the longest) and replaces
// the plan; ok reports that it did.
func (b *Bot) counterMode(ctx context.Context, me side, cur, prev, turn int, remaining, replan time.Duration, safe func(int) bool) (int, bool) {
	threat := counterModeThreat
	if turn >= counterModeLateTurn {
		threat = counterModeLateThreat
	}
	if cur < threat || cur <= prev || remaining < antiMinRemaining {
		return 0, false
	}
	target := chainsToCancel(cur*3/2, 20)
	res := b.counterRead(ctx, me, turn, counterModeDepth, cur, target, replan)
	if res.Best.Chains == 0 || !safe(res.Best.Moves[0]) {
		b.logf("turn %d: counter mode: opponent can fire %d now (before: %d); no plan (best %d chains)", turn, cur, prev, res.Best.Chains)
		return 0, false
	}
	b.setPlanIncoming(turn, res.Best, me, cur, 1, b.cfg.CounterStrict)
	if len(res.Best.Moves) == 1 {
		b.fired = true
	}
	b.logf("turn %d: counter mode: opponent can fire %d now (before: %d); plan %d chains (%d, aim %d chains) at ply %d", turn, cur, prev, res.Best.Chains, res.Best.Sent, target, res.Best.Ply)
	return res.Best.Moves[0], true
}

// counterHeld reports whether the plan is an exact counter-mode plan
// (CounterStrict) that no longer applies at turn because less ojama came
// than it expected: the opponent held the fire it was made against.
func (b *Bot) counterHeld(turn int, me *side) bool {
	p := b.plan
	if p == nil || !p.exact || p.valid(turn, me) {
		return false
	}
	i := turn - p.start
	return i > 0 && i < len(p.stocks) && me.stock < p.stocks[i]
}

// counterHit is CounterMode under ojama (stock a row or more, no counter
// plan that still replays): a chokudai plan of counterModeDepth plies with
// the stock falling takes the earliest fire that sends 1.5× the stock
// (else the longest); when that fire comes later and sends more than the
// best fire now, it replaces the plan (followed while the stock falls as
// expected) and ok is true; else the fire-now rule decides. tanzaku
// answers a hit the same way (a new plan with the stock in its state,
// aiming at 60 ojama), not with the chain it has now.
func (b *Bot) counterHit(ctx context.Context, me side, now Best, turn int, remaining, replan time.Duration, safe func(int) bool) (int, bool) {
	if remaining < antiMinRemaining {
		return 0, false
	}
	target := chainsToCancel(me.stock*3/2, 20)
	res := b.counterRead(ctx, me, turn, counterModeDepth, 0, target, replan)
	if res.Best.Chains == 0 || len(res.Best.Moves) < 2 || res.Best.Sent <= now.Sent || !safe(res.Best.Moves[0]) {
		b.logf("turn %d: counter mode: stock %d, no later fire above now's %d (best %d chains (%d) at ply %d)", turn, me.stock, now.Sent, res.Best.Chains, res.Best.Sent, res.Best.Ply)
		return 0, false
	}
	b.setPlanUnder(turn, res.Best, me)
	b.logf("turn %d: counter mode: stock %d, plan %d chains (%d, aim %d chains) at ply %d; now %d", turn, me.stock, res.Best.Chains, res.Best.Sent, target, res.Best.Ply, now.Sent)
	return res.Best.Moves[0], true
}

// setPlanIncoming is setPlan for a plan made with incoming ojama joining
// the stock after move ply (1 = the first; ChokudaiConfig.Incoming and
// IncomingPly): it records the stock expected before each move, so the
// plan is followed under that ojama and dropped when a different amount
// arrives (with exact, even a stock under one row must match: plan.exact).
func (b *Bot) setPlanIncoming(turn int, f Fire, me side, incoming, ply int, exact bool) {
	b.setPlan(turn, f)
	b.plan.stocks = make([]int, len(f.Moves))
	b.plan.exact = exact
	for i, m := range f.Moves {
		b.plan.stocks[i] = me.stock
		rot := rotate(b.packs[turn+i])
		o := me.act(m, &rot)
		if i == ply-1 {
			me.stock += max(incoming-o.net, 0)
		}
	}
}

// raceThreatAt is the opponent fire a replan races at turn: raceThreat, or
// Config.RaceLate from raceLateTurn on when set.
func (b *Bot) raceThreatAt(turn int) int {
	if b.cfg.RaceLate > 0 && turn >= raceLateTurn {
		return b.cfg.RaceLate
	}
	return raceThreat
}
