// players.go holds the sides of a game: the Player interface, the
// built-in player (Yomi's bot in process, thinking a fixed time per move)
// and the TBP player (any TBP bot process, paused while it is not its
// turn so that think time is equal).

package versus

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/tetris"
	"github.com/yomi-ai/yomi/tetris/bot"
	"github.com/yomi-ai/yomi/tetris/tbp"
)

// MoveInfo is a bot's search report for one move.
type MoveInfo struct {
	Nodes int64
	Depth int
}

// Player is one side's bot in a game.
type Player interface {
	// Begin gives the full position: at the start and after garbage
	// changed the board (TBP's mid-game start).
	Begin(p *tetris.Player) error
	// Move thinks for think and returns the moves to try, best first
	// (the first legal one is played).
	Move(ctx context.Context, p *tetris.Player, think time.Duration) ([]tetris.Placement, MoveInfo, error)
	// Played reports the placement just played (hold tells whether the
	// hold was used) and the pieces it revealed; p is the position after it.
	Played(p *tetris.Player, pl tetris.Placement, hold bool, fresh []tetris.Piece) error
	// Close ends the player (its process, if any).
	Close() error
}

// Spec names a player: "builtin" (Yomi's bot in process) or a TBP
// command line.
type Spec struct {
	Cmd     string      // TBP command line ("" = builtin)
	Options bot.Options // built-in bot options
}

// ParseSpec reads "builtin" or "yomi" (in process), "tbp:CMD" or any
// other string (a TBP command line).
func ParseSpec(s string, opt bot.Options) (Spec, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return Spec{}, fmt.Errorf("versus: empty player")
	case s == "builtin" || s == "yomi":
		return Spec{Options: opt}, nil
	case strings.HasPrefix(s, "tbp:"):
		return Spec{Cmd: strings.TrimPrefix(s, "tbp:")}, nil
	}
	return Spec{Cmd: s}, nil
}

// String names the spec.
func (s Spec) String() string {
	if s.Cmd == "" {
		return "builtin"
	}
	return s.Cmd
}

// Open starts a player for one game; seed seeds the built-in bot.
// timeout bounds each TBP answer beyond the think time.
func (s Spec) Open(ctx context.Context, seed uint64, grace time.Duration) (Player, error) {
	if s.Cmd == "" {
		o := s.Options
		o.Seed ^= seed
		return &Builtin{b: bot.New(o)}, nil
	}
	c, err := tbp.Launch(ctx, s.Cmd, grace+5*time.Second, arena.ProcessOptions{})
	if err != nil {
		return nil, err
	}
	if err := c.Rules(tbp.Rules{Randomizer: "seven_bag"}); err != nil {
		c.Close()
		return nil, err
	}
	return &TBP{c: c, grace: grace}, nil
}

// Builtin is Yomi's bot in process; it thinks only inside Move.
type Builtin struct {
	b     *bot.Bot
	Stats bot.Stats // the last move's search report
}

// Begin resets the search to p's position.
func (b *Builtin) Begin(p *tetris.Player) error {
	return b.b.Reset(p.State, p.Pieces(), p.Hold, uint8(p.Bag.Left))
}

// Move thinks for think and returns the final-move rule's choice first.
func (b *Builtin) Move(ctx context.Context, p *tetris.Player, think time.Duration) ([]tetris.Placement, MoveInfo, error) {
	b.b.Think(ctx, bot.Budget{Duration: think})
	if len(b.b.Candidates()) == 0 {
		b.b.Think(ctx, bot.Budget{Nodes: 1})
	}
	ms := b.b.Suggest(p.Incoming)
	out := make([]tetris.Placement, len(ms))
	for i, m := range ms {
		out[i] = m.Placement()
	}
	b.Stats = b.b.Stats()
	return out, MoveInfo{Nodes: b.Stats.Nodes, Depth: b.Stats.Depth}, nil
}

// Played advances the search (keeping the subtree when the move is a root
// child, or following the perfect-clear plan when the move is its next one)
// or rebuilds it.
func (b *Builtin) Played(p *tetris.Player, pl tetris.Placement, hold bool, fresh []tetris.Piece) error {
	canon := pl.Canonical()
	moves := make([]bot.Move, 0, 1)
	if plan := b.b.PCPlan(); len(plan) > 0 {
		// The plan's move may be one the search tree does not hold; Play
		// accepts it and keeps the plan going (a rebuild would drop it).
		moves = append(moves, plan[0])
	}
	for _, c := range b.b.Candidates() {
		moves = append(moves, c.Move)
	}
	for _, m := range moves {
		if m.Hold == hold && m.Placement().Canonical() == canon {
			if b.b.Play(m) != nil {
				break
			}
			for _, f := range fresh {
				if err := b.b.AddPiece(f); err != nil {
					return b.Begin(p)
				}
			}
			return nil
		}
	}
	return b.Begin(p)
}

// Close gives the bot's search memory to the pool later bots reuse (bot.Bot.Close).
func (b *Builtin) Close() error { b.b.Close(); return nil }

// TBP is a bot process; it is paused (SIGSTOP) except while it thinks on
// its own move, so a bot that thinks in the background gets the same
// think time as the built-in one.
type TBP struct {
	c     *tbp.Client
	grace time.Duration
}

// Begin sends a start with p's position and pauses the bot.
func (t *TBP) Begin(p *tetris.Player) error {
	var hold *string
	if p.Hold != tetris.NoPiece {
		h := p.Hold.String()
		hold = &h
	}
	err := t.c.Send(tbp.Start{Hold: hold, Queue: tbp.PieceNames(p.Pieces()), Combo: int(p.Combo), BackToBack: p.B2B,
		Board: tbp.BoardFrom(&p.Board), Randomizer: tbp.SevenBag(p.Bag.Left)})
	if err != nil {
		return err
	}
	return t.c.Pause()
}

// Move resumes the bot, waits think, asks for its suggestion (within the
// think time plus grace) and pauses it again. Moves that do not parse are
// dropped (the frontend plays the first valid one).
func (t *TBP) Move(ctx context.Context, p *tetris.Player, think time.Duration) ([]tetris.Placement, MoveInfo, error) {
	if err := t.c.Resume(); err != nil {
		return nil, MoveInfo{}, err
	}
	select {
	case <-ctx.Done():
		return nil, MoveInfo{}, ctx.Err()
	case <-time.After(think):
	}
	t.c.Timeout = t.grace
	s, err := t.c.Suggest()
	if err != nil {
		return nil, MoveInfo{}, fmt.Errorf("%w (stderr: %s)", err, strings.TrimSpace(t.c.StderrTail()))
	}
	if err := t.c.Pause(); err != nil {
		return nil, MoveInfo{}, err
	}
	var out []tetris.Placement
	for _, m := range s.Moves {
		if pl, err := m.Placement(); err == nil {
			out = append(out, pl)
		}
	}
	var info MoveInfo
	if s.MoveInfo != nil {
		info = MoveInfo{Nodes: s.MoveInfo.Nodes, Depth: s.MoveInfo.Depth}
	}
	return out, info, nil
}

// Played sends play and new_piece messages (read when the bot resumes).
func (t *TBP) Played(p *tetris.Player, pl tetris.Placement, hold bool, fresh []tetris.Piece) error {
	if err := t.c.Send(tbp.Play{Move: tbp.MoveFrom(pl)}); err != nil {
		return err
	}
	for _, f := range fresh {
		if err := t.c.Send(tbp.NewPiece{Piece: f.String()}); err != nil {
			return err
		}
	}
	return nil
}

// Close sends quit and ends the process.
func (t *TBP) Close() error { return t.c.Close() }
