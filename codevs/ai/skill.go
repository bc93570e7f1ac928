// Skill mode (seed 002, "スキル発動を目指す"; Config.SkillMode): at the start
// of a turn both sides' chain beams give the earliest ply of each chain
// count; when the chain race looks lost the bot switches its beam to the
// skill beam (many 5s with many blocks around them) until either side fires
// something sizeable. Thresholds are those of ysai's source where it and the
// write-up differ (own best chain < 7, opponent's stock < 20).

package ai

import (
	"context"
	"time"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/protocol"
)

// Skill-mode settings (ysai's defaults).
const (
	skillLookahead   = 11  // beam plies for the decision: the chain now plus 10 turns (ysai depths 0..10)
	skillEnemyWidth  = 500 // opponent's decision beam (the write-up's submitted setting)
	skillEnemyBucket = 200
	skillOwnWidth    = 100 // own decision beam (ysai's next-chain beam: 100, 50 per chain count)
	skillOwnBucket   = 50
	skillBeamDepth   = 10 // the skill beam
	skillBeamWidth   = 1000
	skillBeamBucket  = 200
	skillBeamBudget  = 500 * time.Millisecond // the skill beam's cap, as ysai's
	skillFactsCap    = 2 * time.Second        // a decision beam cut by this (or by the turn's share) is not trusted
	skillMinTime     = 30 * time.Second       // no decision below this, as ysai (its contest clock: 180 s)
	skillBackoff     = 5                      // turns without decisions after a decision beam was cut short
	noChain          = 1000                   // earliest ply of a chain count never reached
)

// skillFacts is what the skill-mode decision looks at.
type skillFacts struct {
	OwnMax      int     // largest own chain within skillLookahead plies
	Own         [13]int // earliest own ply index (0 = now) with a chain of at least c; noChain if none
	EnMax       int     // largest opponent chain within skillLookahead plies
	En12        int     // earliest opponent ply index with a 12+ chain; noChain if none
	FieldOjama  int     // ojama on the own field at the start of the turn
	EnStock     int     // the opponent's ojama stock (ojama about to fall on it)
	SkillBlocks int     // blocks the own skill would remove after this turn's row
}

// goSkill is ysai's rule: give up the chain race when the own best chain
// within 10 turns is below 7, or when all of these hold: 20+ ojama on the
// own field, the opponent's stock below 20, the opponent can make a 12-chain
// within 10 turns, not (own 9+ chain while the skill would remove fewer than
// 10 blocks), and the own 12/11/10/9/8-chains come at least 3/3/2/1/0 plies
// after the opponent's first 12-chain.
func (f *skillFacts) goSkill() bool {
	if f.OwnMax < 7 {
		return true
	}
	return f.FieldOjama >= 20 && f.EnStock < 20 && f.EnMax >= 12 &&
		!(f.OwnMax >= 9 && f.SkillBlocks < 10) &&
		f.Own[12] >= f.En12+3 && f.Own[11] >= f.En12+3 && f.Own[10] >= f.En12+2 &&
		f.Own[9] >= f.En12+1 && f.Own[8] >= f.En12
}

// earliest fills the largest chain and the earliest ply index of each
// chain count (up to 12) from a beam's per-ply fires within the lookahead.
func earliest(res *BeamResult) (best int, at [13]int) {
	for c := range at {
		at[c] = noChain
	}
	at[0] = 0
	for p, f := range res.PerPly {
		if p >= skillLookahead {
			break
		}
		best = max(best, f.Chains)
		for c := 1; c <= min(f.Chains, 12); c++ {
			at[c] = min(at[c], p)
		}
	}
	return best, at
}

// skillTrack is the skill mode's state across turns: whether it is on and
// what the next turn should look like if nobody sends ojama (ysai's
// "situation changed" test).
type skillTrack struct {
	on       bool
	have     bool     // expectations below are set
	stock    [2]int   // expected stocks (own, opponent)
	field    [2]int   // expected field ojama
	score    [2]int64 // scores at the last turn
	switches int      // times skill mode was switched on
	turns    int      // turns decided in skill mode
	pending  bool     // decide after this turn's replanning beam (no plan to witness)
	quiet    int      // no decision before this turn (a decision beam was cut short)
	cut      int      // decision beams cut short
}

// SkillStats reports how often skill mode switched on and how many turns
// were decided in it (Config.SkillMode; zero otherwise).
func (b *Bot) SkillStats() (switches, turns int) { return b.skill.switches, b.skill.turns }

// updateSkillMode runs at the start of each turn: it turns skill mode off
// when the situation changed (a stock's tens, a field's ojama or a score by
// 10+ differ from what a quiet turn gives), then, when off, decides afresh.
func (b *Bot) updateSkillMode(ctx context.Context, t *protocol.Turn, me, en side, remaining, perTurn time.Duration) {
	k := &b.skill
	_, myOj := me.f.Count()
	_, enOj := en.f.Count()
	if k.have && (k.stock[0]/10 != me.stock/10 || k.stock[1]/10 != en.stock/10 ||
		k.field[0] != myOj || k.field[1] != enOj ||
		t.Me.Score >= k.score[0]+10 || t.Opp.Score >= k.score[1]+10) {
		if k.on {
			b.logf("turn %d: skill mode off (situation changed)", t.Turn)
		}
		k.on = false
	}
	k.have = true
	k.score = [2]int64{t.Me.Score, t.Opp.Score}
	for i, s := range [2]int{me.stock, en.stock} {
		k.stock[i], k.field[i] = s, [2]int{myOj, enOj}[i]
		if s >= codevs.OjamaRow {
			k.stock[i] -= codevs.OjamaRow
			k.field[i] += codevs.OjamaRow
		}
	}
	k.pending = false
	if k.on {
		k.turns++
		return
	}
	// As ysai: no decision during the opening (until the first chain is
	// fired), nor when time is short.
	if !b.fired || (b.cfg.FixedWidth == 0 && remaining < skillMinTime) || t.Turn < k.quiet {
		return
	}
	// Without a plan the bot replans this turn anyway: decide from that
	// beam (decideAfterBeam) instead of running another.
	if !b.plan.valid(t.Turn, &me) {
		k.pending = true
		return
	}
	b.switchOn(b.skillFacts(ctx, t.Turn, me, en, nil, factsLimit(perTurn)))
}

// factsLimit is the time the decision's beams may take together before
// they are not trusted: a quarter of the turn's slice, at most 2 s.
func factsLimit(perTurn time.Duration) time.Duration {
	return min(skillFactsCap, max(perTurn/4, 20*time.Millisecond))
}

// switchOn turns skill mode on if the facts say so.
func (b *Bot) switchOn(f skillFacts, ok bool, turn int) bool {
	if !ok || !f.goSkill() {
		return false
	}
	k := &b.skill
	k.on = true
	k.switches++
	k.turns++
	b.plan = nil
	b.logf("turn %d: SKILL MODE on (own max %d, 8..12 at %v, opponent max %d, its 12 at %d, field ojama %d, its stock %d, skill blocks %d)",
		turn, f.OwnMax, f.Own[8:], f.EnMax, f.En12, f.FieldOjama, f.EnStock, f.SkillBlocks)
	return true
}

// decideAfterBeam makes a pending decision from the turn's replanning beam
// own (trusted only if it searched the whole lookahead or reached a
// 12-chain, at least as wide as the decision's own beam; else that beam
// runs) and reports whether skill mode is now on.
func (b *Bot) decideAfterBeam(ctx context.Context, turn int, me, en side, own *BeamResult, perTurn time.Duration) bool {
	if !b.skill.pending {
		return false
	}
	b.skill.pending = false
	if best, _ := earliest(own); (own.Depth < skillLookahead && best < 12) || own.WidthCap < skillOwnWidth {
		own = nil // not trusted: a beam of its own (or nothing if that is cut short too)
	}
	return b.switchOn(b.skillFacts(ctx, turn, me, en, own, factsLimit(perTurn)))
}

// skillFacts gathers the decision's facts, cheapest first: the current
// plan, then own (the turn's replanning beam) or a beam of its own, then
// the opponent's beam. ok is false when a condition already rules skill
// mode out or a beam was cut short.
func (b *Bot) skillFacts(ctx context.Context, turn int, me, en side, own *BeamResult, limit time.Duration) (skillFacts, bool, int) {
	start, spent0 := time.Now(), b.spent
	var f skillFacts
	f.EnStock = en.stock
	after := me.f
	if me.stock >= codevs.OjamaRow {
		after.DropOjamaRow()
	}
	_, f.FieldOjama = me.f.Count() // before the row, as ysai
	f.SkillBlocks = after.SkillBlocks()
	// The current plan is a witness: with a 7+ chain planned within the
	// lookahead, only the second condition can hold, and its cheap parts
	// may rule it out without a beam.
	planMax, planAt := 0, noChain
	if b.plan.valid(turn, &me) {
		if i := b.plan.start + len(b.plan.moves) - 1 - turn; i < skillLookahead {
			planMax, planAt = b.plan.chains, i
		}
	}
	cheapNo := func(ownMax int) bool {
		return f.FieldOjama < 20 || f.EnStock >= 20 || (ownMax >= 9 && f.SkillBlocks < 10)
	}
	if planMax >= 7 && cheapNo(planMax) {
		return f, false, turn
	}
	if own == nil {
		// When only the first rule can hold, the beam may stop at the first
		// 7-chain.
		target := 12
		if f.FieldOjama < 20 || f.EnStock >= 20 {
			target = 7
		}
		res, ok := b.factsBeam(ctx, me, turn, skillOwnWidth, skillOwnBucket, target, limit)
		if !ok {
			b.backOff(turn)
			return f, false, turn
		}
		own = &res
	}
	f.OwnMax, f.Own = earliest(own)
	if b.cfg.NodeRate > 0 { // the virtual clock's time
		limit -= time.Duration(float64(b.spent-spent0) / b.cfg.NodeRate * float64(time.Second))
	} else {
		limit -= time.Since(start)
	}
	f.OwnMax = max(f.OwnMax, planMax)
	for c := 1; c <= min(planMax, 12); c++ {
		f.Own[c] = min(f.Own[c], planAt)
	}
	if f.OwnMax < 7 {
		return f, true, turn
	}
	if cheapNo(f.OwnMax) {
		return f, false, turn
	}
	enRes, ok := b.factsBeam(ctx, en, turn, skillEnemyWidth, skillEnemyBucket, 12, limit)
	if !ok {
		b.backOff(turn)
		return f, false, turn
	}
	var enAt [13]int
	f.EnMax, enAt = earliest(&enRes)
	f.En12 = enAt[12]
	return f, true, turn
}

// backOff stops decisions for a few turns after a decision beam was cut
// short (the clock is too busy for them).
func (b *Bot) backOff(turn int) {
	b.skill.cut++
	b.skill.quiet = turn + skillBackoff
	b.logf("turn %d: skill-mode decision beam cut short, none before turn %d", turn, b.skill.quiet)
}

// factsBeam runs a decision beam at a fixed width (no time budget, so that
// a busy machine does not make the race look lost) up to the first depth
// with a target chain; ok is false when limit cut it short (FixedWidth:
// no limit; NodeRate: no cut, but none once the virtual limit is spent).
func (b *Bot) factsBeam(ctx context.Context, s side, turn, width, bucket, target int, limit time.Duration) (BeamResult, bool) {
	cfg := BeamConfig{Depth: skillLookahead, Width: width, BucketWidth: bucket, XMin: 0, XMax: 8, Threads: b.cfg.Threads, Target: target}
	if b.cfg.FixedWidth > 0 {
		cfg.Width, cfg.BucketWidth = b.cfg.FixedWidth, max(b.cfg.FixedWidth*3/10, 4)
	} else if b.cfg.NodeRate > 0 && limit <= 0 {
		return BeamResult{}, false
	} else if b.cfg.NodeRate == 0 {
		if limit <= 0 {
			return BeamResult{}, false
		}
		b.noteTimed(limit)
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	res := runBeam(ctx, s, b.packs[turn:], cfg)
	b.nodes += res.Nodes
	b.charge(res.Nodes)
	return res, ctx.Err() == nil
}

// skillBeam runs the skill beam for the own side within min(perTurn, 500
// ms) (FixedWidth: that width, a 30 % bucket, no budget).
func (b *Bot) skillBeam(ctx context.Context, me side, turn int, perTurn time.Duration) Line {
	cfg := BeamConfig{Depth: skillBeamDepth, Width: skillBeamWidth, BucketWidth: skillBeamBucket, XMin: 0, XMax: 8, Threads: b.cfg.Threads, Skill: true}
	if b.cfg.FixedWidth > 0 {
		cfg.Width, cfg.BucketWidth = b.cfg.FixedWidth, max(b.cfg.FixedWidth*3/10, 4)
	} else if b.cfg.NodeRate > 0 {
		cfg.Nodes = b.nodesFor(min(perTurn, skillBeamBudget))
	} else {
		cfg.Budget = min(perTurn, skillBeamBudget)
		b.noteTimed(cfg.Budget)
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.Budget*3/2)
		defer cancel()
	}
	res := runBeam(ctx, me, b.packs[turn:], cfg)
	b.nodes += res.Nodes
	b.charge(res.Nodes)
	return res.Line
}
