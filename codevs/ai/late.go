// The late, high counter stance (Config.Late, issue 27): kera's stance as
// PEERS.md describes it, written here from those facts. Until ojama hits
// it, the bot fires nothing of its own: it builds the biggest chain
// potential the field allows, low (the build beam's bucket loses a chain
// per row above Config.LateHeight), and fires first only when its chain is
// big enough that no answer is likely (Config.LateBig), when the field is
// about to top out, or when the stance has lasted lateMaxTurn turns. When
// the opponent's fire lands (the stock reaches a row), it answers at once
// if the chain ready now out-sends the stock, else it plans the quickest
// counter that does and follows it. After its first fire the usual rules
// play on, or with Config.LateAgain the stance again, for every exchange.

package ai

import (
	"context"
	"time"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/sim"
)

const (
	// lateHeight is the default soft height cap of the build beam: kera
	// scores its states down above 9 rows (PEERS.md); one row more here,
	// since our chains are narrower than its 9-column ones.
	lateHeight = 10
	// lateBig is the default chain count fired without being hit: 15
	// chains send 105 ojama, ten rows and a half.
	lateBig = 15
	// lateTop is the field height at which a ready chain (lateTopChains+)
	// is fired instead of kept: a pack and one ojama row still fit under
	// the danger line.
	lateTop       = 13
	lateTopChains = 8
	// lateMaxTurn ends the stance when the opponent has not fired by then
	// (kera fires its own 18+ chains after turn 20).
	lateMaxTurn = 30
	// lateDepth is the build beam's plies (its best state at the last ply
	// gives this turn's move).
	lateDepth = 8
	// lateCounterDepth is the plies a counter plan may take: a row falls
	// every turn meanwhile.
	lateCounterDepth = 6
)

// lateOn reports whether the stance still holds at turn: on, no chain of
// ours fired yet (or Config.LateAgain), and fewer than lateMaxTurn turns
// since the game's start or our last fire.
func (b *Bot) lateOn(turn int) bool {
	if !b.cfg.Late || (b.fired && !b.cfg.LateAgain) {
		return false
	}
	return turn-b.lateFrom < lateMaxTurn
}

// lateFired records a fire of the stance at turn.
func (b *Bot) lateFired(turn int) {
	b.fired, b.lateFrom = true, turn+1
}

// lateCounter is the stance's answer when ojama is about to fall: the
// counter plan made under this stock is followed while it replays; the
// chain ready now fires if it out-sends the stock; else the quickest plan
// (at most lateCounterDepth plies) that out-sends it, or at least sends
// more than a fire now, is made and followed; else the fire now goes.
func (b *Bot) lateCounter(ctx context.Context, turn int, me side, now Best, replan time.Duration, safe func(int) bool) (int, bool) {
	if b.plan.valid(turn, &me) && b.plan.stocks != nil && b.plan.sent > now.Sent {
		if m := b.plan.moves[turn-b.plan.start]; safe(m) {
			if turn-b.plan.start == len(b.plan.moves)-1 {
				b.lateFired(turn)
				b.logf("turn %d: late: stock %d, counter plan fires %d chains %d sent", turn, me.stock, b.plan.chains, b.plan.sent)
			}
			return m, true
		}
	}
	if now.First >= 0 && safe(now.First) && now.Sent >= me.stock {
		b.logf("turn %d: late: hit, counter now %d chains %d sent vs stock %d", turn, now.Chains, now.Sent, me.stock)
		b.plan = nil
		b.lateFired(turn)
		return now.First, true
	}
	res := b.beam(ctx, me, turn, lateCounterDepth, chainsToCancel(me.stock, 40), replan, 0, 8)
	if res.Best.Chains > 0 && res.Best.Sent > now.Sent && safe(res.Best.Moves[0]) {
		b.setPlanUnder(turn, res.Best, me)
		if len(res.Best.Moves) == 1 {
			b.lateFired(turn)
		}
		b.logf("turn %d: late: hit, stock %d, now %d chains %d sent, counter plan %d chains %d sent at ply %d", turn, me.stock, now.Chains, now.Sent, res.Best.Chains, res.Best.Sent, res.Best.Ply)
		return res.Best.Moves[0], true
	}
	if now.First >= 0 && safe(now.First) && now.Sent > 0 {
		b.logf("turn %d: late: hit, stock %d, no bigger counter plan, fire now %d chains %d sent", turn, me.stock, now.Chains, now.Sent)
		b.plan = nil
		b.lateFired(turn)
		return now.First, true
	}
	return 0, false
}

// lateBuild is the stance's move with no ojama falling: a fire when the
// chain ready now is LateBig+ chains or the field is lateTop high with a
// ready chain, else the first move of the build beam's best line (the
// highest potential, in buckets that lose a chain per row above
// LateHeight; no fire of its own).
func (b *Bot) lateBuild(ctx context.Context, turn int, me side, my *Table, now Best, remaining time.Duration, safe func(int) bool) (int, bool) {
	big := b.cfg.LateBig
	if big <= 0 {
		big = lateBig
	}
	if now.First >= 0 && safe(now.First) {
		switch h := me.f.MaxHeight(); {
		case now.Chains >= big:
			b.logf("turn %d: late: big fire %d chains %d sent", turn, now.Chains, now.Sent)
			b.plan = nil
			b.lateFired(turn)
			return now.First, true
		case h >= lateTop && now.Chains >= lateTopChains:
			b.logf("turn %d: late: field %d high, fire %d chains %d sent", turn, h, now.Chains, now.Sent)
			b.plan = nil
			b.lateFired(turn)
			return now.First, true
		}
	}
	if b.cfg.LatePlan {
		if m, ok := b.latePlanMove(ctx, turn, me, my, now, remaining, safe); ok {
			return m, true
		}
	}
	budget := min(max(remaining/20, 20*time.Millisecond), b.cfg.ReplanMax)
	res := b.lateBeam(ctx, me, turn, budget)
	if len(res.Line.Moves) > 0 && safe(res.Line.Moves[0]) {
		if b.cfg.Log != nil { // the two potentials are only for the note
			pot, _, _ := me.f.Potential()
			er, _, _ := me.f.ErasePotential()
			b.logf("turn %d: late: build (field %d high, potential %d, erase %d, ready %d chains %d sent; line %d plies, width %d, %d ms left)",
				turn, me.f.MaxHeight(), pot, er, now.Chains, now.Sent, len(res.Line.Moves), res.MaxWidth, remaining.Milliseconds())
		}
		b.plan = nil
		return res.Line.Moves[0], true
	}
	if now.First >= 0 && safe(now.First) && now.Sent > 0 {
		b.logf("turn %d: late: no build line, fire %d chains %d sent", turn, now.Chains, now.Sent)
		b.plan = nil
		b.lateFired(turn)
		return now.First, true
	}
	return 0, false
}

// lateBeam is the stance's build beam: all columns, no target, states
// bucketed by Config.Key's potential less the rows above the height cap.
func (b *Bot) lateBeam(ctx context.Context, me side, turn int, budget time.Duration) BeamResult {
	hc := b.cfg.LateHeight
	if hc <= 0 {
		hc = lateHeight
	}
	cfg := BeamConfig{Depth: lateDepth, Width: b.cfg.MaxWidth, XMin: 0, XMax: 8, Threads: b.cfg.Threads, Budget: budget, Potential: true, Key: b.cfg.Key, HeightCap: hc, UnderRows: b.cfg.LateRows}
	return b.runOwn(ctx, me, turn, cfg)
}

// capKey applies BeamConfig.HeightCap to a potential state's bucket and
// key: the bucket loses per chains for each row the field stands above
// cap, and the key is rebuilt on the new bucket, the old key (its own
// bucket first) below it. Hash-only keys (fields reaching row 14) stay.
func capKey(h, cap, per int, bucket int8, key int64) (int8, int64) {
	nb := int(bucket)
	if h > cap {
		nb = max(nb-(h-cap)*per, 0)
	}
	if key < 1<<16 {
		return int8(nb), key
	}
	return int8(nb), int64(nb)<<56 | key&(1<<56-1)
}

// underRowsKey is the UnderRows bucket, the add potential after rows
// ojama rows, and its in-bucket order (bucketKey): the plain potential
// next.
func underRowsKey(s *side, rows int) (int8, int64) {
	pot, _, _ := s.f.Potential()
	g := s.f
	for range rows {
		g.DropOjamaRow()
	}
	rp, _, _ := g.Potential()
	return int8(rp), bucketKey(s, rp, pot)
}

// capPer is the bucket loss per row above the cap for a key: the sum key
// counts two potentials (unless UnderRows replaces it).
func capPer(k PotentialKey, rows int) int {
	if k == KeyEraseAdd && rows == 0 {
		return 2
	}
	return 1
}

// latePlanMove is the Config.LatePlan build: the usual target plan (the
// opening beam, or a replan) is followed up to its fire, which is not
// made; from then on, or whenever a lateTopChains+ chain is ready, the
// move kept is the one that keeps the biggest fire ready against the
// opponent's fire landing next turn or the turn after (lateHoldMove). ok is false when no plan or hold move applies.
func (b *Bot) latePlanMove(ctx context.Context, turn int, me side, my *Table, now Best, remaining time.Duration, safe func(int) bool) (int, bool) {
	if b.plan.valid(turn, &me) && !b.planFiresNow(turn, &me) {
		if m := b.plan.moves[turn-b.plan.start]; safe(m) {
			return m, true
		}
	}
	hold := b.plan.valid(turn, &me) || now.Chains >= lateTopChains
	if !hold {
		var res BeamResult
		if turn < 8 {
			budget := time.Duration(float64(remaining) * b.cfg.OpeningShare)
			res = b.beamBy(ctx, me, turn, b.cfg.BeamDepth, b.cfg.Target, 0, b.cfg.OpeningHorizon, budget, 2, 6)
		} else {
			replan := min(max(remaining/10, 20*time.Millisecond), b.cfg.ReplanMax)
			res = b.beam(ctx, me, turn, min(b.cfg.BeamDepth, 16), b.cfg.Target, replan, 0, 8)
		}
		b.logf("turn %d: late: plan %d chains at ply %d (width %d, %d ms left)", turn, res.Best.Chains, res.Best.Ply, res.MaxWidth, remaining.Milliseconds())
		if res.Best.Chains > 0 && safe(res.Best.Moves[0]) {
			b.setPlan(turn, res.Best)
			if len(res.Best.Moves) > 1 {
				return res.Best.Moves[0], true
			}
		}
	}
	b.plan = nil
	m, under, free := lateHoldMove(ctx, me, b.packs[turn:], my, b.cfg.Threads, safe)
	if m < 0 {
		return 0, false
	}
	b.logf("turn %d: late: hold (ready %d chains %d sent; kept %d sent against a row next turn or the turn after, %d without; field %d high)", turn, now.Chains, now.Sent, under, free, me.f.MaxHeight())
	return m, true
}

// lateHoldMove is the drop this turn that fires at most smallFire chains
// and keeps the biggest fire against the opponent's fire landing this
// turn or next: under is the smaller of the fire next turn after one
// ojama row and the fire the turn after with the row falling then; ties by
// the fire next turn after the row, then without a row (free). m is -1 if
// no safe drop fires that little.
func lateHoldMove(ctx context.Context, me side, packs []sim.Pack, my *Table, threads int, safe func(int) bool) (m, under, free int) {
	now := exhaustIncoming(ctx, me, packs, 2, threads, &[MaxPly]int{codevs.OjamaRow})
	next := exhaustIncoming(ctx, me, packs, 3, threads, &[MaxPly]int{0, codevs.OjamaRow})
	m, under, free = -1, -1, -1
	first := -1
	for c := 0; c < moveSkill; c++ {
		if !safe(c) || my.ByFirst[c][0].Chains > smallFire || now.Depth < 2 {
			continue
		}
		u1, f := now.ByFirst[c][1].Sent, my.ByFirst[c][1].Sent
		u := u1
		if next.Depth >= 3 {
			u = min(u1, next.ByFirst[c][2].Sent)
		}
		if u > under || (u == under && (u1 > first || (u1 == first && f > free))) {
			m, under, first, free = c, u, u1, f
		}
	}
	return m, under, free
}
