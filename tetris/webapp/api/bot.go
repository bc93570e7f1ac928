// This file holds the Tetris Bot Protocol side: the messages (tetris/tbp
// has the same ones, but it also runs bot processes, which WebAssembly
// cannot) and BotSession, Yomi's bot behind them.

package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/yomi-ai/yomi/tetris"
	"github.com/yomi-ai/yomi/tetris/bot"
)

// Message is any TBP message, frontend's or bot's; unused attributes are
// left out. Unknown attributes of incoming messages are ignored (TBP).
type Message struct {
	Type string `json:"type"`
	// rules
	Randomizer any `json:"randomizer,omitempty"` // rules: a name; start: a Randomizer
	// PerfectClear (rules, a Yomi extension other bots ignore) turns the
	// bot's perfect-clear mode on.
	PerfectClear bool `json:"perfect_clear,omitempty"`
	// start
	Hold       *string     `json:"hold,omitempty"`
	Queue      []string    `json:"queue,omitempty"`
	Combo      int         `json:"combo,omitempty"`
	BackToBack bool        `json:"back_to_back,omitempty"`
	Board      [][]*string `json:"board,omitempty"`
	// play
	Move *Move `json:"move,omitempty"`
	// new_piece
	Piece string `json:"piece,omitempty"`
	// info
	Name     string   `json:"name,omitempty"`
	Version  string   `json:"version,omitempty"`
	Author   string   `json:"author,omitempty"`
	Features []string `json:"features,omitempty"`
	// suggestion
	Moves    []Move    `json:"moves,omitempty"`
	MoveInfo *MoveInfo `json:"move_info,omitempty"`
	// Plan (suggestion, a Yomi extension) is the bot's principal
	// variation after its first move: the placements it expects next.
	Plan []Move `json:"plan,omitempty"`
	// error
	Reason string `json:"reason,omitempty"`
}

// Randomizer is a start message's randomizer state (seven_bag only here).
type Randomizer struct {
	Type     string   `json:"type"`
	BagState []string `json:"bag_state"`
}

// Move is a TBP move: a location and its spin.
type Move struct {
	Location Location `json:"location"`
	Spin     string   `json:"spin"`
}

// Location is a piece, orientation and centre (TBP's, equal to the
// engine's origin).
type Location struct {
	Type        string `json:"type"`
	Orientation string `json:"orientation"`
	X           int    `json:"x"`
	Y           int    `json:"y"`
}

// MoveInfo is a suggestion's search report.
type MoveInfo struct {
	Nodes int64   `json:"nodes,omitempty"`
	NPS   float64 `json:"nps,omitempty"`
	Depth int     `json:"depth,omitempty"`
}

var orientations = [4]string{"north", "east", "south", "west"}
var spins = [3]string{"none", "mini", "full"}

// MoveFrom converts an engine placement.
func MoveFrom(pl tetris.Placement) Move {
	return Move{Location: Location{Type: pl.Piece.String(), Orientation: orientations[pl.Rot&3], X: int(pl.X), Y: int(pl.Y)},
		Spin: spins[pl.Spin]}
}

func parsePiece(s string) (tetris.Piece, error) {
	if len(s) != 1 {
		return tetris.NoPiece, fmt.Errorf("unknown piece %q", s)
	}
	p, err := tetris.ParsePiece(s)
	if err != nil || !p.Valid() {
		return tetris.NoPiece, fmt.Errorf("unknown piece %q", s)
	}
	return p, nil
}

// Placement converts m, checking every field.
func (m Move) Placement() (tetris.Placement, error) {
	var pl tetris.Placement
	p, err := parsePiece(m.Location.Type)
	if err != nil {
		return pl, err
	}
	rot, spin := -1, -1
	for i, o := range orientations {
		if o == m.Location.Orientation {
			rot = i
		}
	}
	for i, s := range spins {
		if s == m.Spin {
			spin = i
		}
	}
	if rot < 0 {
		return pl, fmt.Errorf("unknown orientation %q", m.Location.Orientation)
	}
	if spin < 0 {
		return pl, fmt.Errorf("unknown spin %q", m.Spin)
	}
	if m.Location.X < -2 || m.Location.X > tetris.Width+1 || m.Location.Y < -2 || m.Location.Y > tetris.Height+1 {
		return pl, fmt.Errorf("location (%d,%d) is off the board", m.Location.X, m.Location.Y)
	}
	return tetris.Placement{Piece: p, Rot: tetris.Rot(rot), X: int8(m.Location.X), Y: int8(m.Location.Y), Spin: tetris.Spin(spin)}, nil
}

// BotSession is Yomi's bot answering TBP frontend messages one at a time
// (Handle); the caller decides when it thinks (Think). It is not safe for
// concurrent use.
type BotSession struct {
	Options bot.Options
	b       *bot.Bot
	rules   tetris.Rules
}

// NewBotSession returns a session whose bots use opt.
func NewBotSession(opt bot.Options) *BotSession {
	return &BotSession{Options: opt, rules: tetris.DefaultRules()}
}

// Info is the info message a session starts with.
func (s *BotSession) Info() Message {
	return Message{Type: "info", Name: "Yomi", Version: "0.1", Author: "yomi", Features: []string{}}
}

// Active reports whether a game is started (a bot to think with).
func (s *BotSession) Active() bool { return s.b != nil }

// Handle processes one frontend message and returns the replies (ready to
// rules, a suggestion to suggest). Invalid messages are errors; unknown
// types are ignored, as TBP says.
func (s *BotSession) Handle(ctx context.Context, m Message) ([]Message, error) {
	switch m.Type {
	case "rules":
		if r, ok := m.Randomizer.(string); ok && r != "seven_bag" && r != "" {
			return []Message{{Type: "error", Reason: "unsupported_rules"}}, nil
		}
		s.Options.PerfectClear = m.PerfectClear
		s.Close()
		return []Message{{Type: "ready"}}, nil
	case "start":
		return nil, s.start(m)
	case "suggest":
		if s.b == nil {
			return nil, errors.New("suggest before start")
		}
		return []Message{s.suggest(ctx)}, nil
	case "play":
		if s.b == nil {
			return nil, errors.New("play before start")
		}
		if m.Move == nil {
			return nil, errors.New("play without a move")
		}
		return nil, s.play(*m.Move)
	case "new_piece":
		if s.b == nil {
			return nil, errors.New("new_piece before start")
		}
		p, err := parsePiece(m.Piece)
		if err != nil {
			return nil, err
		}
		return nil, s.b.AddPiece(p)
	case "stop", "quit":
		s.Close()
	}
	return nil, nil
}

// Close gives the bot's memory back to the pool.
func (s *BotSession) Close() {
	if s.b != nil {
		s.b.Close()
		s.b = nil
	}
}

// Think searches within budget (no-op without a started game).
func (s *BotSession) Think(ctx context.Context, budget bot.Budget) {
	if s.b != nil {
		s.b.Think(ctx, budget)
	}
}

// Nodes returns the nodes searched since the last move.
func (s *BotSession) Nodes() int64 {
	if s.b == nil {
		return 0
	}
	return s.b.Stats().Nodes
}

func (s *BotSession) start(m Message) error {
	if len(m.Board) != tetris.Height {
		return fmt.Errorf("board has %d rows, want %d", len(m.Board), tetris.Height)
	}
	var st bot.Board
	for y, row := range m.Board {
		if len(row) != tetris.Width {
			return fmt.Errorf("board row %d has %d cells, want %d", y, len(row), tetris.Width)
		}
		for x, c := range row {
			if c != nil {
				st.Set(x, y)
			}
		}
	}
	if len(m.Queue) == 0 || len(m.Queue) > 20 {
		return fmt.Errorf("queue of %d pieces (1 to 20)", len(m.Queue))
	}
	var queue []tetris.Piece
	for _, q := range m.Queue {
		p, err := parsePiece(q)
		if err != nil {
			return err
		}
		queue = append(queue, p)
	}
	hold := tetris.NoPiece
	if m.Hold != nil {
		p, err := parsePiece(*m.Hold)
		if err != nil {
			return err
		}
		hold = p
	}
	if m.Combo < 0 {
		return fmt.Errorf("negative combo %d", m.Combo)
	}
	var left []string
	switch r := m.Randomizer.(type) {
	case *Randomizer:
		if r.Type == "seven_bag" {
			left = r.BagState
		}
	case map[string]any:
		if r["type"] == "seven_bag" {
			l, _ := r["bag_state"].([]any)
			for _, v := range l {
				name, _ := v.(string)
				left = append(left, name)
			}
		}
	}
	var bag tetris.PieceSet
	for _, name := range left {
		p, err := parsePiece(name)
		if err != nil {
			return err
		}
		bag = bag.With(p)
	}
	st.Combo, st.B2B = uint32(m.Combo), m.BackToBack
	if s.b == nil {
		s.b = bot.New(s.Options)
	}
	return s.b.Reset(st, queue, hold, uint8(bag))
}

func (s *BotSession) suggest(ctx context.Context) Message {
	if len(s.b.Candidates()) == 0 {
		s.b.Think(ctx, bot.Budget{Nodes: 1}) // expand the root at least
	}
	out := Message{Type: "suggestion", Moves: []Move{}}
	for _, mv := range s.b.Suggest(0) {
		out.Moves = append(out.Moves, MoveFrom(mv.Placement()))
	}
	plan := s.b.PCPlan()
	if len(plan) == 0 {
		plan = s.b.Plan()
	}
	if len(plan) > 1 {
		for _, mv := range plan[1:] {
			out.Plan = append(out.Plan, MoveFrom(mv.Placement()))
		}
	}
	st := s.b.Stats()
	out.MoveInfo = &MoveInfo{Nodes: st.Nodes, NPS: st.NodesPerSecond(), Depth: st.Depth}
	return out
}

// play advances the bot by the move played, keeping its search when the
// move is a root child, else replaying it on the root position.
func (s *BotSession) play(m Move) error {
	pl, err := m.Placement()
	if err != nil {
		return err
	}
	st := s.b.State()
	queue := append([]tetris.Piece(nil), st.Queue[:st.QLen]...)
	if len(queue) == 0 {
		return errors.New("no piece to play")
	}
	hold := pl.Piece != queue[0]
	canon := pl.Canonical()
	moves := s.b.PCPlan()
	if len(moves) > 1 {
		moves = moves[:1]
	}
	for _, c := range s.b.Candidates() {
		moves = append(moves, c.Move)
	}
	for _, c := range moves {
		if c.Hold == hold && c.Placement().Canonical() == canon {
			if err := s.b.Play(c); err == nil {
				return nil
			}
			break
		}
	}
	h := st.Hold
	switch {
	case !hold:
		queue = queue[1:]
	case h == tetris.NoPiece:
		if len(queue) < 2 || queue[1] != pl.Piece {
			return fmt.Errorf("played %v but the queue starts %v", pl.Piece, queue[:min(2, len(queue))])
		}
		h, queue = queue[0], queue[2:]
	default:
		if h != pl.Piece {
			return fmt.Errorf("played %v but the current piece is %v and the hold %v", pl.Piece, queue[0], h)
		}
		h, queue = queue[0], queue[1:]
	}
	board := st.Board
	if !board.FitsPlacement(pl) || !board.Grounded(pl) {
		return fmt.Errorf("played %v does not rest on the board", pl)
	}
	board.Lock(pl, &s.rules.Attack)
	if len(queue) == 0 {
		return errors.New("queue ran out: send new_piece first")
	}
	return s.b.Reset(board, queue, h, st.Bag)
}

// Decode reads one JSON message.
func Decode(b []byte) (Message, error) {
	var m Message
	if err := json.Unmarshal(b, &m); err != nil {
		return m, err
	}
	if m.Type == "" {
		return m, errors.New(`message without "type"`)
	}
	return m, nil
}

// ThinkSlice is how long the browser's bot thinks before it lets the page
// (or the Worker's message loop) run again.
const ThinkSlice = 15 * time.Millisecond

// MarshalJSON writes the attributes TBP requires of the message's type
// even when they are zero (a start's combo and back_to_back, a
// suggestion's moves).
func (m Message) MarshalJSON() ([]byte, error) {
	type plain Message
	b, err := json.Marshal(plain(m))
	if err != nil {
		return nil, err
	}
	var extra map[string]any
	switch m.Type {
	case "start":
		extra = map[string]any{"combo": m.Combo, "back_to_back": m.BackToBack, "hold": m.Hold}
	case "info":
		f := m.Features
		if f == nil {
			f = []string{}
		}
		extra = map[string]any{"features": f}
	case "suggestion":
		mv := m.Moves
		if mv == nil {
			mv = []Move{}
		}
		extra = map[string]any{"moves": mv}
	default:
		return b, nil
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, err
	}
	for k, v := range extra {
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		all[k] = raw
	}
	return json.Marshal(all)
}
