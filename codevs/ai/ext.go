// The extension pick of plans (ChokudaiConfig.ExtNodes, --chok-ext):
// among ready fields as long and early as the search's choice, the one
// that grows most under an opponent's fire of its size (session
// codevs-chain; measured by yomi codevs holds, holds.go).

package ai

import (
	"context"
	"slices"
	"time"

	"github.com/yomi-ai/yomi/codevs/sim"
)

// extPlies is the horizon of the extension read (the counter mode's).
const extPlies = 10

// extension is the longest fire after ply 1 of a chokudai search of
// extPlies from the field before f's fire (f's moves but the last played
// from root on packs, with in ojama joining the stock after ply inPly as
// the plan's search had it) with incoming ojama landing after ply 1, on
// nodes expanded states (and within budget when positive) with tanzaku's
// key: how far the ready field f builds grows while the opponent's fire
// falls on it. A landing of the plan's that f's ready field has not taken
// yet (f fires at ply inPly or before) joins incoming: it crosses f's fire.
func (c *Chokudai) extension(ctx context.Context, root side, packs []sim.Pack, f Fire, in, inPly, incoming int, nodes int64, budget time.Duration, threads int) int {
	s, ok := beforeFire(root, packs, f, in, inPly)
	if !ok {
		return 0
	}
	if in > 0 && len(f.Moves)-1 < max(inPly, 1) {
		incoming += in
	}
	res := c.search(ctx, s, packs[len(f.Moves)-1:], ChokudaiConfig{Depth: extPlies, Nodes: nodes, Budget: budget, XMax: 8, Incoming: incoming, IncomingPly: 1, Threads: threads})
	best := 0
	for _, p := range res.PerPly[1:] {
		best = max(best, p.Chains)
	}
	return best
}

// searchExt is search, then under cfg.ExtNodes the pick among ready fields
// by their extension: the candidates are extCandidates (every first move's
// best fire at least as long and early as the chosen fire, then, under
// ExtLater and ExtShorter, those up to ExtLater plies later or ExtShorter
// chains shorter), each is read by extension with an opponent's fire of
// its own size landing, and the one that grows most replaces the choice.
// Ties keep the search's choice, then the first read: a candidate as long
// and early before a later or shorter one (which gives up a ply or a chain
// of the race, so it must read a longer extension than all of them), and
// the earlier, longer one among each group. A plan whose ready field has
// no room to grow loses the exchange to an opponent that answers under
// our ojama (session codevs-chain).
func (c *Chokudai) searchExt(ctx context.Context, root side, packs []sim.Pack, cfg ChokudaiConfig) BeamResult {
	if cfg.ExtNodes <= 0 {
		return c.search(ctx, root, packs, cfg)
	}
	cfg.ByFirst = true
	res := c.search(ctx, root, packs, cfg)
	best := res.Best
	if best.Chains == 0 || ctx.Err() != nil {
		return res
	}
	cands := extCandidates(c.byFirst(), best, extK(cfg.ExtK), cfg.ExtLater, cfg.ExtShorter)
	if len(cands) == 0 {
		return res
	}
	threads, budget := cfg.Threads, extBudget(cfg.Budget)
	read := func(f Fire) int {
		return c.extension(ctx, root, packs, f, cfg.Incoming, cfg.IncomingPly, ojamaOf(f.Chains), cfg.ExtNodes, budget, threads)
	}
	top := read(best)
	res.ExtReads, res.Ext = 1+len(cands), top
	for _, f := range cands {
		if ctx.Err() != nil {
			break
		}
		if e := read(f); e > top {
			top, res.Best, res.Ext = e, f, e
		}
	}
	return res
}

// extCandidates returns the fires of fs other than best that searchExt
// reads, in reading order: those at best's ply or before with at least its
// chains (the k earliest, then longest: sortFires), then, when later or
// shorter is positive, the k earliest, longest of the rest that fire at
// most later plies after best with at least best's chains less shorter.
func extCandidates(fs []Fire, best Fire, k, later, shorter int) []Fire {
	var narrow, wide []Fire
	for _, f := range fs {
		switch {
		case f.Chains == 0 || slices.Equal(f.Moves, best.Moves):
		case f.Ply <= best.Ply && f.Chains >= best.Chains:
			narrow = append(narrow, f)
		case (later > 0 || shorter > 0) && f.Ply <= best.Ply+max(later, 0) && f.Chains >= best.Chains-max(shorter, 0):
			wide = append(wide, f)
		}
	}
	sortFires(narrow)
	sortFires(wide)
	return append(narrow[:min(len(narrow), k)], wide[:min(len(wide), k)]...)
}

// defExtK is the candidates an extension pick reads when ExtK is 0.
const defExtK = 4

// extK is ChokudaiConfig.ExtK, defExtK when 0.
func extK(k int) int {
	if k <= 0 {
		return defExtK
	}
	return k
}

// extReadsMax is the most extension reads of a searchExt with cfg: the
// choice and ExtK candidates, and ExtK more when widened.
func extReadsMax(cfg ChokudaiConfig) int {
	n := 1 + extK(cfg.ExtK)
	if cfg.ExtLater > 0 || cfg.ExtShorter > 0 {
		n += extK(cfg.ExtK)
	}
	return n
}

// extBudget is the time budget of one extension read of a search with
// budget (0: none): an eighth, so the reads of 4 candidates add at most 5/8.
func extBudget(budget time.Duration) time.Duration { return budget / 8 }

// sortFires orders fires by ply, then more chains, then more ojama, then
// their moves (deterministic).
func sortFires(fs []Fire) {
	slices.SortStableFunc(fs, func(a, b Fire) int {
		switch {
		case a.Ply != b.Ply:
			return a.Ply - b.Ply
		case a.Chains != b.Chains:
			return b.Chains - a.Chains
		case a.Sent != b.Sent:
			return b.Sent - a.Sent
		}
		return slices.Compare(a.Moves, b.Moves)
	})
}

// beforeFire plays f's moves but the last from root on packs, with in
// ojama joining the stock after move inPly (0 or 1: the first) less what
// that move sends: the ready field just before f fires. ok is false when
// a move dies.
func beforeFire(root side, packs []sim.Pack, f Fire, in, inPly int) (s side, ok bool) {
	s = root
	for i, m := range f.Moves[:len(f.Moves)-1] {
		rot := rotate(packs[i])
		o := s.act(m, &rot)
		if o.dead {
			return s, false
		}
		if in > 0 && i == max(inPly, 1)-1 {
			s.stock += max(in-o.net, 0)
		}
	}
	return s, true
}
