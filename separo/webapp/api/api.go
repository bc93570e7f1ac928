// Package api is the one operation SEPARO's page needs, shared by the server
// (POST api/step) and the WebAssembly build (separoStep): replay a game from
// its move list, checking every move, then optionally add one human move or
// one AI move, and describe the result for drawing.
//
// Start with Step. The client sends the whole move list each time and the
// server trusts none of it; only the AI players may be kept between calls, in
// a Session, so that they reuse their search trees.
package api

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/yomi-ai/yomi/separo/ai"
)

// Move is one move as six numbers: s1 = (x1, y1), s2 = (x2, y2), s3 = (x3, y3).
// Coordinates run 0..size-1 with x to the right and y downwards. The colour is
// implied: moves alternate Red, Blue, … except that a side with no legal move
// passes.
type Move [6]int

// String writes the move as (x1,y1)-(x2,y2)-(x3,y3).
func (m Move) String() string {
	return fmt.Sprintf("(%d,%d)-(%d,%d)-(%d,%d)", m[0], m[1], m[2], m[3], m[4], m[5])
}

// Colours as numbers in Request and Response.
const (
	Red  = 0
	Blue = 1
)

// Limits on requests.
const (
	MinSize         = 5
	MaxSize         = 19
	DefaultSize     = 9
	DefaultMoveTime = time.Second
	MaxMoveTime     = 60 * time.Second
)

// Request is the input of Step.
type Request struct {
	Size  int    `json:"size"`           // 5..19; 0 means 9
	Moves []Move `json:"moves"`          // the game so far
	Play  *Move  `json:"play,omitempty"` // a move of the side to move
	AI    string `json:"ai,omitempty"`   // or: let this AI move for the side to move
	// MoveTimeMS is the AI's thinking time (0 means 1 s, at most 60 s).
	MoveTimeMS int    `json:"movetime_ms,omitempty"`
	Seed       uint64 `json:"seed,omitempty"` // the AI's random seed
	// Record, if set, replaces Moves: a game as text (see ParseRecord), e.g.
	// one the page exported; its "size" line, if any, overrides Size.
	Record string `json:"record,omitempty"`
}

// Response describes the position after Step.
type Response struct {
	Size   int       `json:"size"`
	Moves  []Move    `json:"moves"`  // the game so far, including the new move
	Turn   int       `json:"turn"`   // side to move (Red or Blue), -1 when over
	Over   bool      `json:"over"`   // neither side can move
	Result string    `json:"result"` // "red", "blue" or "draw" when over, else ""
	Status string    `json:"status"` // "Red's turn", "Blue wins!", "draw!", …
	Score  [2]int    `json:"score"`  // Red's and Blue's scores
	Stones [][3]int  `json:"stones"` // x, y, colour
	Roots  [][5]int  `json:"roots"`  // x1, y1, x2, y2, colour; each root once
	Legal  [2][]Move `json:"legal"`  // each side's legal moves now
	Last   *Move     `json:"last"`   // the last move, nil at the start
	AI     *AIInfo   `json:"ai,omitempty"`
	// Notation is each move in the engine's notation with its colour
	// ("R:88-77-67"), so a page can list the moves and tell passes.
	Notation []string `json:"notation"`
	// Record is the game as text (FormatRecord), for export.
	Record string `json:"record"`
	// Regions labels each side's scoring regions triangle by triangle (see
	// separo.Board.Regions): Regions[c][4·(cx·(size−1)+cy)+t] for triangles
	// N, E, S, W of cell (cx, cy), -1 where no scoring region lies.
	Regions [2][]int `json:"regions"`
}

// AIInfo says what the AI did when Request.AI was set.
type AIInfo struct {
	Name   string `json:"name"`
	Color  int    `json:"color"`
	Millis int64  `json:"millis"` // wall time spent choosing
}

// AINames lists the AIs a Request may name, weakest first.
func AINames() []string { return append([]string(nil), aiNames...) }

// ErrGameOver is returned when a move is requested after the end.
var ErrGameOver = errors.New("the game is over")

// Step replays req.Moves from the start position, rejecting the first illegal
// one, then plays req.Play or asks req.AI for a move, and returns the new
// position. ctx stops the AI early (it then plays the best move found so far).
func Step(ctx context.Context, req Request) (*Response, error) {
	return step(ctx, req, nil)
}

// Session keeps AI players between Steps so that they reuse their search
// trees, as they do in `yomi separo match`; the page's Web Worker holds one.
// Players are keyed by name, colour and board size, and a player given a
// position its tree does not contain starts a fresh tree, so one Session can
// follow new games and undone moves. A Session is not safe for concurrent use.
type Session struct {
	players map[sessionKey]ai.Player
}

type sessionKey struct {
	name        string
	color, size int
}

// NewSession returns an empty Session.
func NewSession() *Session { return &Session{players: map[sessionKey]ai.Player{}} }

// Step is the package's Step with the session's players.
func (s *Session) Step(ctx context.Context, req Request) (*Response, error) {
	return step(ctx, req, s)
}

func step(ctx context.Context, req Request, sess *Session) (*Response, error) {
	size := req.Size
	if size == 0 {
		size = DefaultSize
	}
	if size < MinSize || size > MaxSize {
		return nil, fmt.Errorf("board size %d out of range %d..%d", size, MinSize, MaxSize)
	}
	var record []recordMove
	if req.Record != "" {
		if len(req.Moves) > 0 {
			return nil, errors.New("give either moves or record, not both")
		}
		rs, moves, err := ParseRecord(req.Record)
		if err != nil {
			return nil, fmt.Errorf("record: %w", err)
		}
		if rs != 0 {
			size = rs
		}
		record = moves
	}
	if len(req.Moves) > size*size {
		return nil, fmt.Errorf("%d moves is more than a %d×%d game can have", len(req.Moves), size, size)
	}
	if req.Play != nil && req.AI != "" {
		return nil, errors.New("give either play or ai, not both")
	}
	g, err := newGame(size)
	if err != nil {
		return nil, err
	}
	for i, m := range req.Moves {
		if err := g.play(m); err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	for i, m := range record {
		if m.color >= 0 && m.color != g.turn && g.turn >= 0 {
			return nil, fmt.Errorf("record: move %d %s: it is %s's turn", i+1, m.text, colorName(g.turn))
		}
		if err := g.play(m.move); err != nil {
			return nil, fmt.Errorf("record: move %d %s: %w", i+1, m.text, err)
		}
	}
	var info *AIInfo
	switch {
	case req.Play != nil:
		if err := g.play(*req.Play); err != nil {
			return nil, err
		}
	case req.AI != "":
		if !knownAI(req.AI) {
			return nil, fmt.Errorf("unknown AI %q (want one of %v)", req.AI, aiNames)
		}
		if g.turn < 0 {
			return nil, ErrGameOver
		}
		d := time.Duration(req.MoveTimeMS) * time.Millisecond
		if d <= 0 {
			d = DefaultMoveTime
		}
		d = min(d, MaxMoveTime)
		start := time.Now()
		color := g.turn
		m, err := g.aiMove(ctx, sess, req.AI, req.Seed, d)
		if err != nil {
			return nil, fmt.Errorf("AI %s: %w", req.AI, err)
		}
		if err := g.play(m); err != nil {
			return nil, fmt.Errorf("AI %s chose an illegal move: %w", req.AI, err)
		}
		info = &AIInfo{Name: req.AI, Color: color, Millis: time.Since(start).Milliseconds()}
	}
	r := g.response()
	r.AI = info
	return r, nil
}

func knownAI(name string) bool {
	for _, n := range aiNames {
		if n == name {
			return true
		}
	}
	return false
}

// game is a position with the side to move and the moves that led to it.
type game struct {
	b     board
	size  int
	turn  int // -1 when over
	moves []Move
	nota  []string // moves in notation, with their colours
	legal [2][]Move
}

func newGame(size int) (*game, error) {
	b, err := newBoard(size)
	if err != nil {
		return nil, err
	}
	g := &game{b: b, size: size}
	g.refresh(Red)
	return g, nil
}

// refresh recomputes the legal moves and the side to move, preferring want.
func (g *game) refresh(want int) {
	g.legal[Red] = g.b.legal(Red)
	g.legal[Blue] = g.b.legal(Blue)
	switch {
	case len(g.legal[want]) > 0:
		g.turn = want
	case len(g.legal[1-want]) > 0:
		g.turn = 1 - want
	default:
		g.turn = -1
	}
}

// play checks m against the side to move's legal moves and applies it.
func (g *game) play(m Move) error {
	if g.turn < 0 {
		return ErrGameOver
	}
	found := false
	for _, l := range g.legal[g.turn] {
		if l == m {
			found = true
			break
		}
	}
	if !found {
		return fmt.Errorf("%s is not a legal move for %s", m, colorName(g.turn))
	}
	g.b.apply(g.turn, m)
	g.moves = append(g.moves, m)
	g.nota = append(g.nota, notation(g.turn, m))
	g.refresh(1 - g.turn)
	return nil
}

func colorName(c int) string {
	if c == Red {
		return "Red"
	}
	return "Blue"
}

func (g *game) response() *Response {
	r := &Response{
		Size:   g.size,
		Moves:  g.moves,
		Turn:   g.turn,
		Over:   g.turn < 0,
		Score:  [2]int{g.b.score(Red), g.b.score(Blue)},
		Stones: g.b.stones(),
		Roots:  g.b.roots(),
		Legal:  g.legal,

		Notation: g.nota,
		Record:   FormatRecord(g.size, g.nota),
		Regions:  [2][]int{g.b.regions(Red), g.b.regions(Blue)},
	}
	if r.Moves == nil {
		r.Moves = []Move{}
	}
	if r.Notation == nil {
		r.Notation = []string{}
	}
	for c := range r.Legal {
		if r.Legal[c] == nil {
			r.Legal[c] = []Move{}
		}
	}
	if n := len(g.moves); n > 0 {
		last := g.moves[n-1]
		r.Last = &last
	}
	switch {
	case !r.Over:
		r.Status = colorName(g.turn) + "'s turn"
	case r.Score[Red] > r.Score[Blue]:
		r.Result, r.Status = "red", "Red wins!"
	case r.Score[Blue] > r.Score[Red]:
		r.Result, r.Status = "blue", "Blue wins!"
	default:
		r.Result, r.Status = "draw", "draw!"
	}
	return r
}

// BenchRequest asks Bench for random playouts from the start position, or,
// with AI set, for one search of that many iterations from the start.
type BenchRequest struct {
	Size     int    `json:"size"`         // 0 means 9
	Playouts int    `json:"playouts"`     // playouts or iterations; 0 means 1000
	Seed     uint64 `json:"seed"`         // random seed
	AI       string `json:"ai,omitempty"` // "" for plain playouts, else an AI name
}

// BenchResult is what Bench measured.
type BenchResult struct {
	Size      int     `json:"size"`
	Playouts  int     `json:"playouts"`
	Plies     int     `json:"plies"`          // moves made in all playouts (a deterministic check)
	Move      *Move   `json:"move,omitempty"` // the AI's choice (a deterministic check)
	Millis    float64 `json:"millis"`
	PerSecond float64 `json:"per_second"` // playouts or iterations per second
}

// Bench plays random playouts, or runs one AI search with a fixed number of
// iterations, to compare the speed in the browser (WebAssembly) with native
// code; the counts and the move depend only on the request.
func Bench(req BenchRequest) (*BenchResult, error) {
	size := req.Size
	if size == 0 {
		size = DefaultSize
	}
	if size < MinSize || size > MaxSize {
		return nil, fmt.Errorf("board size %d out of range %d..%d", size, MinSize, MaxSize)
	}
	n := req.Playouts
	if n <= 0 {
		n = 1000
	}
	if n > 10_000_000 {
		return nil, fmt.Errorf("%d playouts is too many", n)
	}
	res := &BenchResult{Size: size, Playouts: n}
	start := time.Now()
	if req.AI == "" {
		plies, err := playouts(size, n, req.Seed)
		if err != nil {
			return nil, err
		}
		res.Plies = plies
	} else {
		m, err := searchOnce(req.AI, size, n, req.Seed)
		if err != nil {
			return nil, err
		}
		res.Move = &m
	}
	el := time.Since(start)
	res.Millis = float64(el.Microseconds()) / 1000
	res.PerSecond = float64(n) / el.Seconds()
	return res, nil
}
