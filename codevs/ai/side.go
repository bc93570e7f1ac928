// Package ai is Yomi's CODE VS Reborn AI: a chain beam with per-chain-count
// buckets that plans the opening and each next chain (fastest-target-chain
// rule, plan reuse across turns), an exhaustive search of both sides' next
// plies that tables the best fire per ply (own side up to 4 plies, the
// opponent's worst case up to 3), and the rules that decide when to fire,
// counter and use the skill. The beams rank states by their one-block
// chain potential (sim.Fast.Potential; Config.Key picks the erase-one-block
// potential or a combination instead), and the fire rules race the
// opponent's chain beam: a chain is held to grow only if the opponent
// cannot fire first, and a replan picks the longest fire that goes off
// before the opponent's. Config.Counter (off by default: not better against
// tanzaku yet) is a counter stance: a chain goes first only when the
// opponent's answer, with our ojama falling on it, is smaller or our chain
// would not survive its first ojama row; else it grows the chain and
// answers the opponent's fire (PEERS.md has what the stronger public AIs
// do). Config.Late (off by default, late.go) is kera's late, high counter
// stance: no fire of its own until the opponent's ojama lands.
// Config.Chokudai (off by default, chokudai.go) makes the own plans with
// tanzaku's search instead of the chain beam: a priority queue per ply,
// ordered by the erase-one-block potential and shape terms;
// Config.ChokRow (off by default) blends into that order the chain left
// after one ojama row, so ready chains the opponent's first row would
// break rank down.
// Config.AntiCounter and Config.CounterMode (off by default,
// anticounter.go) are tanzaku's rules around an exchange: keep a ready
// chain whose answer is a chain longer, and answer an opponent's ready
// fire 1.5 times over; Config.AntiPick grows the kept chain along a plan
// whose first move survives an ojama row, and Config.AntiHold keeps a
// small chain (under AntiHold ojama) even when none does, as tanzaku does. Config.ClockBudgets (off by
// default, clock.go) sets every search budget as a share of the game's
// clock with a reserve for the late game. The clock guard (guard.go)
// gives every decision a hard deadline of half the remaining clock, plays
// a bounded emergency move under 1 s, and answers for a decision still
// running at three quarters of it.
// Start with Bot (one decision per turn) and Run (the stdin/stdout
// protocol loop).
package ai

import (
	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/protocol"
	"github.com/yomi-ai/yomi/codevs/sim"
)

// Move codes: 0..35 are drops x*4+r, moveSkill is the skill.
const (
	moveSkill = 36
	numMoves  = 37
)

// side is one player's state as the searches see it: field, ojama stock
// and skill gauge. The opponent's ojama and gauge drain are not modelled.
type side struct {
	f     sim.Fast
	stock int
	gauge int
}

// sideFrom converts a protocol player.
func sideFrom(p *protocol.Player) (side, error) {
	pl, err := codevs.PlayerFromProtocol(p)
	if err != nil {
		return side{}, err
	}
	return side{f: sim.FastFrom(&pl.Board), stock: pl.Ojama, gauge: pl.Gauge}, nil
}

// outcome is what one move did.
type outcome struct {
	chains int
	sent   int // ojama produced (before offsetting own stock)
	net    int // ojama left for the opponent after offsetting own stock
	dead   bool
}

// rotations holds a pack's four rotations and which of them are distinct.
type rotations struct {
	q    [4]sim.Pack
	uniq [4]bool
}

func rotate(p sim.Pack) rotations {
	var r rotations
	for i := range 4 {
		r.q[i] = p.Rotate(i)
		r.uniq[i] = true
		for j := 0; j < i; j++ {
			if r.uniq[j] && r.q[j] == r.q[i] {
				r.uniq[i] = false
			}
		}
	}
	return r
}

// act plays move m (drop code or moveSkill) with the rotated pack: an ojama
// row falls first if the stock allows, then the drop or skill, chains,
// gauge and the offset of the produced ojama against the own stock.
func (s *side) act(m int, rot *rotations) outcome {
	var o outcome
	if s.stock >= codevs.OjamaRow {
		s.f.DropOjamaRow()
		s.stock -= codevs.OjamaRow
	}
	if m == moveSkill {
		s.gauge = 0
		b, c := s.f.Explode()
		o.chains = c
		o.sent = int(codevs.ExplosionScore(b)/2 + codevs.ChainScore(c)/2)
	} else {
		o.chains = s.f.DropRotated(rot.q[m&3], m>>2)
		if o.chains > 0 {
			o.sent = codevs.ChainOjama(o.chains)
		}
	}
	if o.chains > 0 {
		s.gauge = min(s.gauge+codevs.GaugeCharge, codevs.MaxGauge)
	}
	c := min(s.stock, o.sent)
	s.stock -= c
	o.net = o.sent - c
	o.dead = s.f.Dead()
	return o
}

// toMove converts a move code to a protocol move.
func toMove(m int) codevs.Move {
	if m == moveSkill {
		return codevs.Skill
	}
	return codevs.Drop(m>>2, m&3)
}
