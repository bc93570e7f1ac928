// players.go holds the sides of a game: the Player interface, the
// built-in player (Yomi's bot in process, working only inside its think
// time) and the TBP player (any TBP bot process, paused while it is not
// its turn), so that each side's work between its moves is on its own
// clock and both sides are told the same things.

package versus

import (
	"context"
	"fmt"
	"slices"
	"strconv"
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

// Player is one side's bot in a game. A player does its work for Begin,
// Played and PlayedGarbage inside its next Move, whose time is its clock.
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

// ParseSpec reads "builtin" or "yomi" (in process, with options opt),
// "builtin:K=V,..." (the same with some options changed: nodes=N, a node
// budget per move, bot.Options.MaxNodes, so that a search with one thread
// plays the same game at any machine load; rank=C, Options.RankSelect;
// weights=FILE, evaluator weights as bot.LoadWeights reads them),
// "tbp:CMD" or any other string
// (a TBP command line).
func ParseSpec(s string, opt bot.Options) (Spec, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return Spec{}, fmt.Errorf("versus: empty player")
	case s == "builtin" || s == "yomi":
		return Spec{Options: opt}, nil
	case strings.HasPrefix(s, "builtin:") || strings.HasPrefix(s, "yomi:"):
		_, kvs, _ := strings.Cut(s, ":")
		for kv := range strings.SplitSeq(kvs, ",") {
			k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
			switch {
			case !ok:
				return Spec{}, fmt.Errorf("versus: %q: want KEY=VALUE, got %q", s, kv)
			case k == "nodes":
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil || n < 1 {
					return Spec{}, fmt.Errorf("versus: %q: nodes must be a positive integer", s)
				}
				opt.MaxNodes = n
			case k == "rank":
				c, err := strconv.ParseFloat(v, 64)
				if err != nil || !(c >= 0 && c <= 100) {
					return Spec{}, fmt.Errorf("versus: %q: rank must be a number in [0, 100]", s)
				}
				opt.RankSelect = c
			case k == "weights":
				w, err := bot.LoadWeights(v)
				if err != nil {
					return Spec{}, fmt.Errorf("versus: %q: %w", s, err)
				}
				opt.Weights = &w
			default:
				return Spec{}, fmt.Errorf("versus: %q: unknown option %q (nodes, rank, weights)", s, k)
			}
		}
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
	t := &TBP{c: c, grace: grace, garbage: slices.Contains(c.Info.Features, tbp.FeatureGarbage)}
	r := tbp.Rules{Randomizer: "seven_bag"}
	if t.garbage {
		r.Garbage = "general"
	}
	if err := c.Rules(r); err != nil {
		c.Close()
		return nil, err
	}
	return t, nil
}

// Builtin is Yomi's bot in process. It works only inside Move: Begin and
// Played just note the new position, and Move first catches the search up
// (rebuild or re-root, new pieces) and then thinks for what is left of the
// think time, so that its bookkeeping between moves counts on its own
// clock exactly as a TBP bot's handling of start, play and new_piece does
// (the TBP bot reads them when it is resumed for its move).
type Builtin struct {
	b      *bot.Bot
	Stats  bot.Stats // the last move's search report
	Phases Phases    // where its Move calls' time went, summed over the game
	reset  bool      // Begin was called: Reset to the position at the next Move
	played *played   // Played was called: advance the search at the next Move
}

// Phases splits a built-in player's Move time: catching the search up
// with the moves since its last one (Play and AddPiece, or a Reset after
// garbage), Think, and reading the answer (Suggest). Restarts counts the
// moves that began with a Reset (the first, and those after garbage).
// Searching is the part of Think the bot counted as its own
// (Stats.Elapsed), so Think − Searching is what starting and ending the
// search threads cost.
type Phases struct {
	Moves, Restarts int
	Nodes           int64
	CatchUp         time.Duration
	Think           time.Duration
	Searching       time.Duration
	Answer          time.Duration
}

// played is a placement Builtin has not yet applied to its search.
type played struct {
	pl    tetris.Placement
	hold  bool
	fresh []tetris.Piece
}

// Begin notes that the search must restart from p's position (at the next
// Move, on the clock).
func (b *Builtin) Begin(p *tetris.Player) error {
	b.reset, b.played = true, nil
	return nil
}

// Move catches the search up with the moves and pieces since its last
// move, thinks for the rest of think (none if catching up took longer),
// and returns the final-move rule's choice first. The rule is not told the
// pending garbage (tetris.Player.Incoming): no TBP message carries it, so a
// TBP bot cannot know it either.
func (b *Builtin) Move(ctx context.Context, p *tetris.Player, think time.Duration) ([]tetris.Placement, MoveInfo, error) {
	start := time.Now()
	restart := b.reset
	if err := b.catchUp(p); err != nil {
		return nil, MoveInfo{}, err
	}
	caught := time.Now()
	if left := think - caught.Sub(start); left > 0 {
		b.b.Think(ctx, bot.Budget{Duration: left})
	}
	if len(b.b.Candidates()) == 0 {
		b.b.Think(ctx, bot.Budget{Nodes: 1})
	}
	thought := time.Now()
	ms := b.b.Suggest(0)
	out := make([]tetris.Placement, len(ms))
	for i, m := range ms {
		out[i] = m.Placement()
	}
	b.Stats = b.b.Stats()
	end := time.Now()
	ph := &b.Phases
	ph.Moves++
	if restart {
		ph.Restarts++
	}
	ph.CatchUp += caught.Sub(start)
	ph.Think += thought.Sub(caught)
	ph.Answer += end.Sub(thought)
	ph.Searching += b.Stats.Elapsed
	ph.Nodes += b.Stats.Nodes
	return out, MoveInfo{Nodes: b.Stats.Nodes, Depth: b.Stats.Depth}, nil
}

// Played notes the placement just played and the pieces it revealed (the
// search follows at the next Move).
func (b *Builtin) Played(p *tetris.Player, pl tetris.Placement, hold bool, fresh []tetris.Piece) error {
	if !b.reset {
		b.played = &played{pl: pl, hold: hold, fresh: append([]tetris.Piece(nil), fresh...)}
	}
	return nil
}

// catchUp applies what Begin and Played noted to the search.
func (b *Builtin) catchUp(p *tetris.Player) error {
	switch {
	case b.reset:
		b.reset, b.played = false, nil
		return b.restart(p)
	case b.played != nil:
		m := b.played
		b.played = nil
		return b.advance(p, m.pl, m.hold, m.fresh)
	}
	return nil
}

// restart resets the search to p's position.
func (b *Builtin) restart(p *tetris.Player) error {
	return b.b.Reset(p.State, p.Pieces(), p.Hold, uint8(p.Bag.Left))
}

// advance moves the search past the placement pl (keeping the subtree when
// it is a root child, or following the perfect-clear plan when it is the
// plan's next move) and adds the fresh pieces, or rebuilds the search at p.
func (b *Builtin) advance(p *tetris.Player, pl tetris.Placement, hold bool, fresh []tetris.Piece) error {
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
					return b.restart(p)
				}
			}
			return nil
		}
	}
	return b.restart(p)
}

// Close gives the bot's search memory to the pool later bots reuse (bot.Bot.Close).
func (b *Builtin) Close() error { b.b.Close(); return nil }

// TBP is a bot process; it is paused (SIGSTOP) except while it works on
// its own move, so a bot that thinks in the background gets the same
// think time as the built-in one, and the messages of the moves between
// (start, play, new_piece, garbage) are read and handled on its own clock.
type TBP struct {
	c       *tbp.Client
	grace   time.Duration
	garbage bool // it announced tbp.FeatureGarbage: rows go as PR #2 garbage messages, not as a mid-game start
}

// Begin pauses the bot and sends a start with p's position (read when the
// bot resumes for its move).
func (t *TBP) Begin(p *tetris.Player) error {
	if err := t.c.Pause(); err != nil {
		return err
	}
	var hold *string
	if p.Hold != tetris.NoPiece {
		h := p.Hold.String()
		hold = &h
	}
	return t.c.Send(tbp.Start{Hold: hold, Queue: tbp.PieceNames(p.Pieces()), Combo: int(p.Combo), BackToBack: p.B2B,
		Board: tbp.BoardFrom(&p.Board), Randomizer: tbp.SevenBag(p.Bag.Left)})
}

// Move resumes the bot, waits think, asks for its suggestion (within
// grace) and pauses it again. Its clock stops when suggest is sent; the
// reply's round trip is on no clock, as the built-in bot's answer after
// its search's deadline is not (turn records both as late time). Moves that do not parse
// are dropped (the frontend plays the first valid one).
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

// PlayedGarbage reports a placement after which garbage rows came in
// (holes, bottom-most last): play, new_piece and a garbage message to a
// bot with the garbage feature, else a mid-game start. It reports whether
// it restarted the bot.
func (t *TBP) PlayedGarbage(p *tetris.Player, pl tetris.Placement, hold bool, fresh []tetris.Piece, holes []int8) (bool, error) {
	if !t.garbage {
		return true, t.Begin(p)
	}
	if err := t.Played(p, pl, hold, fresh); err != nil {
		return false, err
	}
	return false, t.c.Send(tbp.GarbageRows(holes))
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
