// Chain-size measurement (session codevs-chain): how big a fire the
// chokudai builder's plans hold, at a fixed node budget, from an empty
// field (solo build) and from positions of real games under the
// opponent's fire (the counter mode's search). `yomi codevs holds` prints
// it; the fixtures are in testdata/chains.

package ai

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/protocol"
	"github.com/yomi-ai/yomi/codevs/sim"
)

// HoldFixture is a position of a real game against tanzaku for the
// pressure measurement: a turn block of ours (File, under the manifest's
// directory) and which field of it is searched, with the other side's
// fire landing after the first ply, as the counter mode searches it.
type HoldFixture struct {
	Name string `json:"name"`
	Seed uint64 `json:"seed"` // pack seed (client profile)
	File string `json:"file"`
	// Side is "me" (our field; the landing is tanzaku's best fire now)
	// or "opp" (tanzaku's field; the landing is our best fire now).
	Side string `json:"side"`
	// Incoming, when positive, replaces the other side's best fire now
	// as the landing (the game's logged number when it differs).
	Incoming int `json:"incoming,omitempty"`
	// Plies is the search's depth (the counter mode's: 10).
	Plies int `json:"plies"`
	// Ref is tanzaku's per-ply best chains in this situation, from its
	// stderr ("counter done: TURN PLY [...]"); empty when it searched none.
	Ref []int `json:"ref,omitempty"`
	// Note says what happened in the game.
	Note string `json:"note"`
}

// LoadHoldFixtures reads a manifest (a JSON array of HoldFixture).
func LoadHoldFixtures(path string) ([]HoldFixture, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var fxs []HoldFixture
	if err := json.Unmarshal(data, &fxs); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i, fx := range fxs {
		if fx.Side != "me" && fx.Side != "opp" || fx.Plies < 1 || fx.Plies > 20 || fx.File == "" {
			return nil, fmt.Errorf("%s: fixture %d (%s): side must be me or opp, plies 1..20, file set", path, i, fx.Name)
		}
		fxs[i].File = filepath.Join(filepath.Dir(path), fx.File)
	}
	return fxs, nil
}

// HoldPosition is a fixture read: the packs from its turn on, the
// searched side and the landing.
type HoldPosition struct {
	Turn     int
	Packs    []sim.Pack
	Player   codevs.Player // the searched side
	Incoming int           // ojama landing after ply 1
	FireNow  int           // the other side's best fire now (net of its stock)
}

// Load reads the fixture's packs and turn block.
func (fx HoldFixture) Load() (HoldPosition, error) {
	packs, err := codevs.PacksForSeed(fx.Seed, codevs.ProfileClient)
	if err != nil {
		return HoldPosition{}, err
	}
	f, err := os.Open(fx.File)
	if err != nil {
		return HoldPosition{}, err
	}
	defer f.Close()
	in, err := protocol.NewReader(f).ReadTurn()
	if err != nil {
		return HoldPosition{}, fmt.Errorf("%s: %w", fx.File, err)
	}
	if in.Turn < 0 || in.Turn >= len(packs) {
		return HoldPosition{}, fmt.Errorf("%s: turn %d outside the packs", fx.File, in.Turn)
	}
	mine, other := &in.Me, &in.Opp
	if fx.Side == "opp" {
		mine, other = other, mine
	}
	p, err := codevs.PlayerFromProtocol(mine)
	if err != nil {
		return HoldPosition{}, fmt.Errorf("%s: %w", fx.File, err)
	}
	o, err := sideFrom(other)
	if err != nil {
		return HoldPosition{}, fmt.Errorf("%s: %w", fx.File, err)
	}
	now := bestFireNow(o, packs[in.Turn])
	pos := HoldPosition{Turn: in.Turn, Packs: packs[in.Turn:], Player: p, Incoming: now, FireNow: now}
	if fx.Incoming > 0 {
		pos.Incoming = fx.Incoming
	}
	return pos, nil
}

// bestFireNow is the most ojama, net of its stock, that s sends with one
// action on pack (36 drops and the skill): the counter mode's threat
// (noteEnemyFire).
func bestFireNow(s side, pack sim.Pack) int {
	rot := rotate(pack)
	best := 0
	for m := 0; m < numMoves; m++ {
		if m != moveSkill && !rot.uniq[m&3] {
			continue
		}
		if m == moveSkill && s.gauge < codevs.SkillCost {
			continue
		}
		c := s
		if o := c.act(m, &rot); !o.dead {
			best = max(best, o.sent)
		}
	}
	return max(best-s.stock, 0)
}

// Holds runs the chokudai search cfg from pos with its landing (cfg's
// Incoming and IncomingPly are replaced) and returns the result.
func (c *Chokudai) Holds(ctx context.Context, pos HoldPosition, cfg ChokudaiConfig) BeamResult {
	cfg.Incoming, cfg.IncomingPly = pos.Incoming, 1
	return c.Plan(ctx, &pos.Player, pos.Packs, cfg)
}

// SoloHold plans from an empty field on packs with plan (the opening: its
// Target and Depth) and, when the plan fires, runs the counter mode's
// search ext from the field just before that fire with incoming ojama
// landing after ply 1 (the opponent's counter-mode threat): how far the
// planned field extends under pressure. The first result is the plan's,
// the second ext's (its ply 1 includes the plan's own fire); a plan
// without a fire returns an empty second result.
func (c *Chokudai) SoloHold(ctx context.Context, packs []sim.Pack, plan, ext ChokudaiConfig, incoming int) (BeamResult, BeamResult) {
	res := c.searchExt(ctx, side{}, packs, plan)
	f := res.Best
	if f.Chains == 0 {
		return res, BeamResult{}
	}
	var s side
	for i, m := range f.Moves[:len(f.Moves)-1] {
		rot := rotate(packs[i])
		s.act(m, &rot)
	}
	ext.Incoming, ext.IncomingPly = incoming, 1
	return res, c.search(ctx, s, packs[len(f.Moves)-1:], ext)
}

// extPlies is the horizon of the extension read (the counter mode's).
const extPlies = 10

// extension is the longest fire after ply 1 of a chokudai search of
// extPlies from the field before f's fire (f's moves but the last played
// from root on packs) with incoming ojama landing after ply 1, on nodes
// expanded states (and within budget when positive) with tanzaku's key:
// how far the ready field f builds grows while the opponent's fire falls
// on it.
func (c *Chokudai) extension(ctx context.Context, root side, packs []sim.Pack, f Fire, incoming int, nodes int64, budget time.Duration, threads int) int {
	s := root
	for i, m := range f.Moves[:len(f.Moves)-1] {
		rot := rotate(packs[i])
		if o := s.act(m, &rot); o.dead {
			return 0
		}
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
