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
// from root on packs) with incoming ojama landing after ply 1, on nodes
// expanded states (and within budget when positive) with tanzaku's key:
// how far the ready field f builds grows while the opponent's fire falls
// on it.
func (c *Chokudai) extension(ctx context.Context, root side, packs []sim.Pack, f Fire, incoming int, nodes int64, budget time.Duration, threads int) int {
	s, ok := beforeFire(root, packs, f)
	if !ok {
		return 0
	}
	res := c.search(ctx, s, packs[len(f.Moves)-1:], ChokudaiConfig{Depth: extPlies, Nodes: nodes, Budget: budget, XMax: 8, Incoming: incoming, IncomingPly: 1, Threads: threads})
	best := 0
	for _, p := range res.PerPly[1:] {
		best = max(best, p.Chains)
	}
	return best
}

// searchExt is search, then under cfg.ExtNodes the pick among ready fields
// by their extension: every first move's best fire at the chosen fire's
// ply or before with at least its chains is a candidate (the ExtK
// earliest, then longest), each is read by extension with an opponent's
// fire of its own size landing, and the one that grows most replaces the
// choice (ties: the search's choice, then the earlier candidate). A plan
// whose ready field has no room to grow loses the exchange to an
// opponent that answers under our ojama (session codevs-chain).
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
	var cands []Fire
	for _, f := range c.byFirst() {
		if f.Ply <= best.Ply && f.Chains >= best.Chains && !slices.Equal(f.Moves, best.Moves) {
			cands = append(cands, f)
		}
	}
	sortFires(cands)
	if k := extK(cfg.ExtK); len(cands) > k {
		cands = cands[:k]
	}
	if len(cands) == 0 {
		return res
	}
	threads, budget := cfg.Threads, extBudget(cfg.Budget)
	top := c.extension(ctx, root, packs, best, ojamaOf(best.Chains), cfg.ExtNodes, budget, threads)
	res.ExtReads, res.Ext = 1+len(cands), top
	for _, f := range cands {
		if ctx.Err() != nil {
			break
		}
		if e := c.extension(ctx, root, packs, f, ojamaOf(f.Chains), cfg.ExtNodes, budget, threads); e > top {
			top, res.Best, res.Ext = e, f, e
		}
	}
	return res
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

// beforeFire plays f's moves but the last from root on packs: the ready
// field just before f fires. ok is false when a move dies.
func beforeFire(root side, packs []sim.Pack, f Fire) (s side, ok bool) {
	s = root
	for i, m := range f.Moves[:len(f.Moves)-1] {
		rot := rotate(packs[i])
		if o := s.act(m, &rot); o.dead {
			return s, false
		}
	}
	return s, true
}
