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
	return c.hold(ctx, side{}, packs, plan, ext, incoming)
}

// CounterHold is SoloHold for the counter mode's plan from pos
// (counterMode): plan's Depth with pos's landing after ply 1 and the target
// of the earliest fire that sends 1.5 times it (else the longest); ext is
// read from the plan's ready field with the landing taken (or, for a fire
// at ply 1, added to incoming: the two fires cross).
func (c *Chokudai) CounterHold(ctx context.Context, pos HoldPosition, plan, ext ChokudaiConfig, incoming int) (BeamResult, BeamResult) {
	plan.Incoming, plan.IncomingPly = pos.Incoming, 1
	plan.Target = chainsToCancel(pos.Incoming*3/2, 20)
	root := side{f: sim.FastFrom(&pos.Player.Board), stock: pos.Player.Ojama, gauge: pos.Player.Gauge}
	return c.hold(ctx, root, pos.Packs, plan, ext, incoming)
}

// SecondHold is SoloHold for the replan after first, a fire of a plan from
// an empty field on packs: plan (its Depth, Target) from the field after
// that fire, at turn len(first.Moves) (returned; packs from there on).
// When plan.RowW is set, it applies from turn rowFrom on only.
func (c *Chokudai) SecondHold(ctx context.Context, packs []sim.Pack, first Fire, plan, ext ChokudaiConfig, incoming, rowFrom int) (int, BeamResult, BeamResult) {
	s := side{}
	for i, m := range first.Moves {
		rot := rotate(packs[i])
		if o := s.act(m, &rot); o.dead {
			return len(first.Moves), BeamResult{}, BeamResult{}
		}
	}
	turn := len(first.Moves)
	if turn < rowFrom {
		plan.RowW = 0
	}
	res, x := c.hold(ctx, s, packs[turn:], plan, ext, incoming)
	return turn, res, x
}

// hold is SoloHold from root: plan (searchExt), then ext from the plan's
// ready field (the plan's own landing taken, or added to incoming when the
// fire comes first).
func (c *Chokudai) hold(ctx context.Context, root side, packs []sim.Pack, plan, ext ChokudaiConfig, incoming int) (BeamResult, BeamResult) {
	res := c.searchExt(ctx, root, packs, plan)
	f := res.Best
	if f.Chains == 0 {
		return res, BeamResult{}
	}
	s, ok := beforeFire(root, packs, f, plan.Incoming, plan.IncomingPly)
	if !ok {
		return res, BeamResult{}
	}
	if plan.Incoming > 0 && len(f.Moves)-1 < max(plan.IncomingPly, 1) {
		incoming += plan.Incoming
	}
	ext.Incoming, ext.IncomingPly = incoming, 1
	return res, c.search(ctx, s, packs[len(f.Moves)-1:], ext)
}
