// Package codevs is the CODE VS Reborn game: two players' states and the
// turn loop in the exact order of the rules, on top of the field simulator in
// codevs/sim. Start with Game and Game.Step; Player.Act and Settle are the
// two halves of a turn for searches that play one side at a time.
//
// Sub-packages: sim (one field: packs, drops, chains, skill explosion),
// protocol (the stdin/stdout format), referee (runs two AI processes).
package codevs

import (
	"errors"
	"fmt"

	"github.com/yomi-ai/yomi/codevs/protocol"
	"github.com/yomi-ai/yomi/codevs/sim"
)

// Game constants from the rules.
const (
	Turns        = protocol.Turns // turns per game, 0..499; pack t is used on turn t
	MaxGauge     = 100            // skill gauge maximum
	SkillCost    = 80             // gauge needed to use the skill
	GaugeCharge  = 8              // gauge gained on a turn with at least one vanish
	OjamaRow     = 10             // ojama falling per turn when the stock allows
	DrainMinimum = 3              // chains from which the opponent's gauge drains
)

// Move is one player's action for a turn: a drop "x r" or the skill "S".
type Move = protocol.Command

// Drop returns the move dropping the pack at column x with rotation r.
func Drop(x, r int) Move { return Move{X: x, R: r} }

// Skill is the skill move.
var Skill = Move{Skill: true}

// Player is one player's state between turns: field, ojama stock (not yet
// fallen), skill gauge and cumulative score.
type Player struct {
	Board sim.Board
	Ojama int   // stock; a row of 10 falls at the start of a turn while ≥ 10
	Gauge int   // 0..100
	Score int64 // cumulative points
}

// Half is what one player's own half of a turn produced (Player.Act).
type Half struct {
	Move      Move
	OjamaFell bool  // a row of ojama fell at the start of the turn
	Chains    int   // vanish steps (after the explosion on a skill turn)
	Exploded  int   // blocks removed by the skill explosion (b)
	Points    int64 // S(C), or E(b) + S(SC) on a skill turn
	Sent      int   // ojama produced for the opponent: ⌊S/2⌋ or ⌊E/2⌋+⌊S/2⌋
}

// Legal reports whether m may be played by p: a drop needs 0 ≤ x ≤ 8 and
// 0 ≤ r ≤ 3; the skill needs a gauge of at least 80 (the value at the end of
// the previous turn). A skill with no 5 on the field is legal and explodes
// nothing.
func (p *Player) Legal(m Move) error {
	if m.Skill {
		if p.Gauge < SkillCost {
			return fmt.Errorf("skill with gauge %d < %d", p.Gauge, SkillCost)
		}
		return nil
	}
	if m.X < 0 || m.X > protocol.MaxX || m.R < 0 || m.R > protocol.MaxR {
		return fmt.Errorf("illegal drop x=%d r=%d", m.X, m.R)
	}
	return nil
}

// Act plays steps 1–5 of a turn for one player (rules §6.1): one ojama row
// falls if the stock is at least 10, then the pack is dropped (or the skill
// used, which empties the gauge and discards the pack), chains resolve,
// points are added to the score and the gauge gains 8 if anything vanished
// through the vanish rule. The opponent-dependent steps are Settle's.
func (p *Player) Act(pack sim.Pack, m Move) (Half, error) { return p.ActTraced(pack, m, nil) }

// ActTraced is Act that also shows obs (if not nil) every stage on the
// field: the ojama row, the pack landed or the skill's explosion, each
// chain (see sim.Frame).
func (p *Player) ActTraced(pack sim.Pack, m Move, obs func(sim.Frame)) (Half, error) {
	if err := p.Legal(m); err != nil {
		return Half{}, err
	}
	h := Half{Move: m}
	if p.Ojama >= OjamaRow {
		p.Board.DropOjamaRow()
		p.Ojama -= OjamaRow
		h.OjamaFell = true
		if obs != nil {
			obs(sim.Frame{Stage: sim.StageOjama, Board: p.Board})
		}
	}
	if m.Skill {
		p.Gauge = 0
		h.Exploded, h.Chains = p.Board.ExplodeTraced(obs)
		e, s := ExplosionScore(h.Exploded), ChainScore(h.Chains)
		h.Points = e + s
		h.Sent = int(e/2 + s/2)
	} else {
		c, err := p.Board.DropTraced(pack, m.X, m.R, obs)
		if err != nil {
			return Half{}, err
		}
		h.Chains = c
		h.Points = ChainScore(c)
		h.Sent = int(h.Points / 2)
	}
	p.Score += h.Points
	if h.Chains > 0 {
		p.Gauge = min(p.Gauge+GaugeCharge, MaxGauge)
	}
	return h, nil
}

// Settle plays steps 6–8 of a turn once both players have acted: each
// gauge drains by 12+2C when the opponent made C ≥ 3 chains (clamped at 0),
// each player's produced ojama joins the opponent's stock, and the two
// stocks offset each other (both lose the smaller one).
func Settle(a, b *Player, ha, hb Half) {
	if hb.Chains >= DrainMinimum {
		a.Gauge = max(a.Gauge-Drain(hb.Chains), 0)
	}
	if ha.Chains >= DrainMinimum {
		b.Gauge = max(b.Gauge-Drain(ha.Chains), 0)
	}
	b.Ojama += ha.Sent
	a.Ojama += hb.Sent
	m := min(a.Ojama, b.Ojama)
	a.Ojama -= m
	b.Ojama -= m
}

// Drain is how much the opponent's gauge loses when a player makes c ≥ 3
// chains in a turn.
func Drain(c int) int { return 12 + 2*c }

// Dead reports whether the player's field holds a block at height 17 or
// more (more than 16 in a column) at the end of a turn.
func (p *Player) Dead() bool { return p.Board.Dead() }

// Field returns the visible field in protocol order (top row first); blocks
// above row 16 are not shown.
func (p *Player) Field() protocol.Field {
	var f protocol.Field
	for x := 0; x < sim.Width; x++ {
		for h := 0; h < protocol.Rows; h++ {
			f[protocol.Rows-1-h][x] = p.Board.Cell[x][h]
		}
	}
	return f
}

// PlayerFromProtocol rebuilds a player from its part of a turn block. It
// fails if a column has a hole (a block above an empty cell), which no real
// game produces.
func PlayerFromProtocol(pp *protocol.Player) (Player, error) {
	p := Player{Ojama: pp.Ojama, Gauge: pp.Gauge, Score: pp.Score}
	for x := 0; x < sim.Width; x++ {
		gap := -1
		for h := 0; h < protocol.Rows; h++ {
			v := pp.Field[protocol.Rows-1-h][x]
			if v == 0 {
				if gap < 0 {
					gap = h
				}
				continue
			}
			if gap >= 0 {
				return Player{}, fmt.Errorf("column %d: block at height %d above an empty cell at height %d", x, h+1, gap+1)
			}
			p.Board.Cell[x][h] = v
		}
	}
	return p, nil
}

// Outcome is how a game ended, from player 0's and 1's point of view.
type Outcome struct {
	Winner int    // 0 or 1; -1 for a draw
	Reason string // e.g. "player 2 died", "turn limit, higher score"
}

// Game is a whole game: the pack sequence, the turn about to be played and
// both players. The zero Turn is the first turn.
type Game struct {
	Packs  []sim.Pack
	Turn   int
	P      [2]Player
	Over   bool    // set by Step when the game has ended
	Result Outcome // valid once Over
}

// NewGame starts a game on the given pack sequence (Turns packs).
func NewGame(packs []sim.Pack) (*Game, error) {
	if len(packs) != Turns {
		return nil, fmt.Errorf("need %d packs, got %d", Turns, len(packs))
	}
	return &Game{Packs: packs}, nil
}

// ErrOver is returned by Step after the game has ended.
var ErrOver = errors.New("game is over")

// Step plays one turn with both players' moves, in the rules' order: both
// players act (ojama row, drop or skill, chains, points, own gauge), then
// gauges drain, ojama is exchanged and offset, and deaths are checked. The
// game ends when a player dies or after turn 499; then Over and Result are
// set. An illegal move is an error and changes nothing: the referee decides
// what illegal output means.
func (g *Game) Step(m [2]Move) ([2]Half, error) { return g.StepTraced(m, [2]func(sim.Frame){}) }

// StepTraced is Step that also shows obs[i] (if not nil) every stage of
// player i's field (Player.ActTraced), for replay viewers.
func (g *Game) StepTraced(m [2]Move, obs [2]func(sim.Frame)) ([2]Half, error) {
	var h [2]Half
	if g.Over {
		return h, ErrOver
	}
	for i := range 2 {
		if err := g.P[i].Legal(m[i]); err != nil {
			return h, fmt.Errorf("player %d: %w", i+1, err)
		}
	}
	pack := g.Packs[g.Turn]
	for i := range 2 {
		var err error
		if h[i], err = g.P[i].ActTraced(pack, m[i], obs[i]); err != nil {
			return h, fmt.Errorf("player %d: %w", i+1, err) // unreachable after Legal
		}
	}
	Settle(&g.P[0], &g.P[1], h[0], h[1])
	g.Turn++
	d0, d1 := g.P[0].Dead(), g.P[1].Dead()
	switch {
	case d0 && d1:
		g.end(g.byScore("both died"))
	case d0:
		g.end(Outcome{Winner: 1, Reason: "player 1 died"})
	case d1:
		g.end(Outcome{Winner: 0, Reason: "player 2 died"})
	case g.Turn >= Turns:
		g.end(g.byScore("turn limit"))
	}
	return h, nil
}

func (g *Game) end(o Outcome) {
	g.Over, g.Result = true, o
}

// byScore decides by cumulative score (equal = draw), the rule for both
// dying together, both timing out together and the turn limit.
func (g *Game) byScore(why string) Outcome {
	return ByScore(why, g.P[0].Score, g.P[1].Score)
}

// ByScore is the tie-break by cumulative score: the higher wins, equal
// scores draw. why says what led to it.
func ByScore(why string, s0, s1 int64) Outcome {
	switch {
	case s0 > s1:
		return Outcome{Winner: 0, Reason: fmt.Sprintf("%s, player 1 wins on score %d–%d", why, s0, s1)}
	case s1 > s0:
		return Outcome{Winner: 1, Reason: fmt.Sprintf("%s, player 2 wins on score %d–%d", why, s1, s0)}
	}
	return Outcome{Winner: -1, Reason: fmt.Sprintf("%s, equal scores %d–%d: draw", why, s0, s1)}
}

// Input returns the turn block that player i receives before the current
// turn; times are both players' remaining thinking times in ms.
func (g *Game) Input(i int, times [2]int64) protocol.Turn {
	me, op := &g.P[i], &g.P[1-i]
	return protocol.Turn{
		Turn: g.Turn,
		Me:   protocol.Player{TimeMs: times[i], Ojama: me.Ojama, Gauge: me.Gauge, Score: me.Score, Field: me.Field()},
		Opp:  protocol.Player{TimeMs: times[1-i], Ojama: op.Ojama, Gauge: op.Gauge, Score: op.Score, Field: op.Field()},
	}
}

// FromTurn rebuilds the game as the AI receiving turn block t sees it:
// P[0] is the receiver ("me"), P[1] the opponent, Turn is t.Turn. It is the
// inverse of Input (times aside); AIs use it to search both sides.
func FromTurn(packs []sim.Pack, t *protocol.Turn) (*Game, error) {
	g, err := NewGame(packs)
	if err != nil {
		return nil, err
	}
	if t.Turn < 0 || t.Turn >= Turns {
		return nil, fmt.Errorf("turn %d out of range", t.Turn)
	}
	g.Turn = t.Turn
	if g.P[0], err = PlayerFromProtocol(&t.Me); err != nil {
		return nil, fmt.Errorf("own field: %w", err)
	}
	if g.P[1], err = PlayerFromProtocol(&t.Opp); err != nil {
		return nil, fmt.Errorf("opponent field: %w", err)
	}
	return g, nil
}

// ProtocolPacks converts packs to their protocol form.
func ProtocolPacks(packs []sim.Pack) []protocol.Pack {
	out := make([]protocol.Pack, len(packs))
	for i, p := range packs {
		out[i] = protocol.Pack(p)
	}
	return out
}

// SimPacks converts protocol packs to simulator packs.
func SimPacks(packs []protocol.Pack) []sim.Pack {
	out := make([]sim.Pack, len(packs))
	for i, p := range packs {
		out[i] = sim.Pack(p)
	}
	return out
}
