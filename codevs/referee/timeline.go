// Timeline: a replay digested into the events that decide a game (fires,
// skills, exchanges, death), for reading why a game was lost.

package referee

import (
	"fmt"
	"strings"
)

// Fire is one turn on which a side's move set off chains or its skill.
type Fire struct {
	Turn     int  `json:"turn"`
	Side     int  `json:"side"` // 0: player 1, 1: player 2
	Chains   int  `json:"chains"`
	Sent     int  `json:"sent"` // ojama produced, before the offset against the stock
	Skill    bool `json:"skill,omitempty"`
	Exploded int  `json:"exploded,omitempty"`
	// Stock is the side's own stock before the turn: 10+ means the fire
	// went off with a row falling on the field or about to.
	Stock int `json:"stock"`
	// LeftMs is the side's clock left before the turn.
	LeftMs int64 `json:"left_ms"`
}

// Exchange is a run of big fires where each follows the previous one within
// the grouping gap; Net is each side's ojama sent in it.
type Exchange struct {
	Fires []Fire `json:"fires"`
	Net   [2]int `json:"net"`
}

// Timeline is a replay reduced to what a loss analysis reads.
type Timeline struct {
	Names  [2]string `json:"names"`
	Winner int       `json:"winner"`
	Reason string    `json:"reason"`
	Turns  int       `json:"turns"`
	// ThinkMs is each side's total think time.
	ThinkMs [2]int64 `json:"think_ms"`
	// Fires holds every fire of 2+ chains or any ojama sent, and every skill.
	Fires     []Fire     `json:"fires"`
	Exchanges []Exchange `json:"exchanges"`
	// FirstBig is the side whose big fire came first (2: both on the same
	// turn, -1: none).
	FirstBig int `json:"first_big"`
	// Decisive is the index in Exchanges of the first exchange the loser
	// came out of behind by BigSent or more (-1: none, e.g. a draw).
	Decisive int `json:"decisive"`
	// Dead is the turn each side died (-1: alive).
	Dead [2]int `json:"dead"`
}

// TimelineOptions sets what counts as a big fire and how fires group.
type TimelineOptions struct {
	BigSent int // a fire that sends this many ojama is big (default 30: three rows)
	Gap     int // a big fire within Gap turns of the last joins its exchange (default 8)
}

// NewTimeline digests rp. It reads only the turn records, so it trusts
// them: call VerifyReplay first for a replay of unknown origin.
func NewTimeline(rp *Replay, o TimelineOptions) Timeline {
	if o.BigSent <= 0 {
		o.BigSent = 30
	}
	if o.Gap <= 0 {
		o.Gap = 8
	}
	tl := Timeline{Winner: rp.Result.Winner, Reason: rp.Result.Reason, Turns: rp.Result.Turns,
		FirstBig: -1, Decisive: -1, Dead: [2]int{-1, -1}}
	var left [2]int64
	for i, p := range rp.Players {
		tl.Names[i] = p.Name
		left[i] = rp.TimeMs
	}
	var stock [2]int
	for k, t := range rp.Turns {
		for i := range 2 {
			skill := t.Moves[i] == "S"
			if t.Chains[i] >= 2 || t.Sent[i] > 0 || skill {
				tl.Fires = append(tl.Fires, Fire{Turn: t.Turn, Side: i, Chains: t.Chains[i], Sent: t.Sent[i],
					Skill: skill, Exploded: t.Exploded[i], Stock: stock[i], LeftMs: left[i]})
			}
			if t.Dead[i] && tl.Dead[i] < 0 {
				tl.Dead[i] = t.Turn
			}
			if k < len(rp.Players[i].ThinkNs) {
				left[i] -= rp.Players[i].ThinkNs[k] / 1e6
			}
		}
		stock = t.Ojama
	}
	for i, p := range rp.Players {
		for _, ns := range p.ThinkNs {
			tl.ThinkMs[i] += ns / 1e6
		}
	}
	last := -1 << 30
	for _, f := range tl.Fires {
		if f.Sent < o.BigSent {
			continue
		}
		if tl.FirstBig < 0 {
			tl.FirstBig = f.Side
		} else if first := tl.Exchanges[0].Fires[0]; first.Turn == f.Turn && first.Side != f.Side {
			tl.FirstBig = 2
		}
		if f.Turn-last > o.Gap || len(tl.Exchanges) == 0 {
			tl.Exchanges = append(tl.Exchanges, Exchange{})
		}
		x := &tl.Exchanges[len(tl.Exchanges)-1]
		x.Fires = append(x.Fires, f)
		x.Net[f.Side] += f.Sent
		last = f.Turn
	}
	if w := tl.Winner; w == 0 || w == 1 {
		for k, x := range tl.Exchanges {
			if x.Net[w]-x.Net[1-w] >= o.BigSent {
				tl.Decisive = k
				break
			}
		}
	}
	return tl
}

// Line is the timeline on one line from side me's view: each exchange's
// big fires as turn, side (Y: me, T: the other), chains/ojama, "!" when
// fired with 10+ ojama in stock, then deaths and the clock left.
func (tl *Timeline) Line(me int) string {
	var b strings.Builder
	tag := func(side int) string {
		if side == me {
			return "Y"
		}
		return "T"
	}
	for k, x := range tl.Exchanges {
		if k > 0 {
			b.WriteString(" | ")
		}
		if k == tl.Decisive {
			b.WriteString("*")
		}
		for j, f := range x.Fires {
			if j > 0 {
				b.WriteString(" ")
			}
			mark := ""
			if f.Stock >= 10 {
				mark = "!"
			}
			kind := fmt.Sprintf("%d/%d", f.Chains, f.Sent)
			if f.Skill {
				kind = fmt.Sprintf("S%d/%d", f.Exploded, f.Sent)
			}
			fmt.Fprintf(&b, "t%d %s%s%s", f.Turn, tag(f.Side), kind, mark)
		}
	}
	for i := range 2 {
		if tl.Dead[i] >= 0 {
			fmt.Fprintf(&b, " ; %s dies t%d", tag(i), tl.Dead[i])
		}
	}
	return b.String()
}
