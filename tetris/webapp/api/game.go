// Package api is the Go side of the Guideline Tetris page, compiled both
// into the server and into the page's WebAssembly build: Game (the versus
// or solo game the page shows, run by the exact engine, with the human's
// falling piece moved by SRS and every lock checked by the move
// generator), BotSession (Yomi's bot behind Tetris Bot Protocol messages,
// for the server's api/bot and the page's TBP Web Worker) and PC (the
// perfect-clear finder form).
package api

import (
	"errors"
	"fmt"

	"github.com/yomi-ai/yomi/tetris"
	"github.com/yomi-ai/yomi/tetris/movegen"
)

// Config starts a Game.
type Config struct {
	Seed     uint64 `json:"seed"`     // pieces and garbage holes
	Sides    int    `json:"sides"`    // 1 (solo) or 2 (versus)
	Allow180 bool   `json:"allow180"` // 180° rotation (jstris kicks)
}

// GarbageSeed derives the garbage holes' seed from a game's seed (both
// sides get the same holes, as in `yomi tetris versus`).
func GarbageSeed(seed uint64) uint64 { return seed*0x9e3779b97f4a7c15 + 0x2545f4914f6cdd1d }

// Game is one page game: each side a tetris.Player under the versus rules
// (CC1's battle config) plus the falling piece a person moves.
type Game struct {
	Rules tetris.Rules
	Sides []*Side
	gen   *movegen.Generator
}

// Side is one playfield: the engine's player, the cells' colours (piece
// letters, G for garbage) and the falling piece.
type Side struct {
	P      *tetris.Player
	colors [tetris.Height][tetris.Width]byte
	// The falling piece (the current piece, spawned): orientation and
	// origin, the kick test of the last move if it was a rotation (−1
	// otherwise; T-spins need it) and whether that rotation was a 180.
	Rot      tetris.Rot
	X, Y     int
	kick     int
	was180   bool
	holdUsed bool
	Last     *Turn // the last lock's report
}

// NewGame starts a game.
func NewGame(cfg Config) (*Game, error) {
	if cfg.Sides != 1 && cfg.Sides != 2 {
		return nil, fmt.Errorf("sides must be 1 or 2, got %d", cfg.Sides)
	}
	r := tetris.DefaultRules()
	r.Allow180 = cfg.Allow180
	g := &Game{Rules: r}
	o := movegen.OptionsFor(&r)
	o.StepDrop = true // a person may stop a soft drop anywhere
	g.gen = movegen.New(o)
	for range cfg.Sides {
		s := &Side{P: tetris.NewPlayer(r, cfg.Seed, GarbageSeed(cfg.Seed))}
		s.spawn()
		g.Sides = append(g.Sides, s)
	}
	return g, nil
}

// spawn puts the current piece at its spawn position.
func (s *Side) spawn() {
	s.Rot, s.kick, s.was180, s.holdUsed = tetris.North, -1, false, false
	x, y, ok := s.P.Board.Spawn(s.P.Current, s.P.Rules.Spawn)
	if !ok {
		if s.P.Death == tetris.Alive {
			s.P.Death = tetris.BlockOut
		}
		return
	}
	s.X, s.Y = x, y
}

func (g *Game) side(i int) (*Side, error) {
	if i < 0 || i >= len(g.Sides) {
		return nil, fmt.Errorf("no side %d", i)
	}
	return g.Sides[i], nil
}

// Over reports whether some side died.
func (g *Game) Over() bool {
	for _, s := range g.Sides {
		if s.P.Death != tetris.Alive {
			return true
		}
	}
	return false
}

// Input applies one of a person's inputs to side i's falling piece:
// left, right, cw, ccw, 180, down (one row), sonic (to the floor), hold.
// It reports whether the piece moved (a hold always does unless refused).
func (g *Game) Input(i int, action string) (bool, error) {
	s, err := g.side(i)
	if err != nil {
		return false, err
	}
	if g.Over() {
		return false, nil
	}
	b := &s.P.Board
	p := s.P.Current
	switch action {
	case "left", "right":
		dx := -1
		if action == "right" {
			dx = 1
		}
		if !b.Fits(p, s.Rot, s.X+dx, s.Y) {
			return false, nil
		}
		s.X += dx
		s.kick = -1
	case "down":
		if !b.Fits(p, s.Rot, s.X, s.Y-1) {
			return false, nil
		}
		s.Y--
		s.kick = -1
	case "sonic":
		y := b.DropY(p, s.Rot, s.X, s.Y)
		if y == s.Y {
			return false, nil
		}
		s.Y = y
		s.kick = -1
	case "cw", "ccw", "180":
		to := s.Rot.Cw()
		switch action {
		case "ccw":
			to = s.Rot.Ccw()
		case "180":
			if !g.Rules.Allow180 {
				return false, nil
			}
			to = s.Rot.Flip()
		}
		x, y, k, ok := b.Rotate(p, s.Rot, s.X, s.Y, to)
		if !ok {
			return false, nil
		}
		s.Rot, s.X, s.Y, s.kick, s.was180 = to, x, y, k, action == "180"
	case "hold":
		return s.hold(), nil
	default:
		return false, fmt.Errorf("unknown input %q", action)
	}
	return true, nil
}

// hold swaps the falling piece with the hold (or the next piece when the
// hold is empty), once per piece, exactly as tetris.Player.Play does when
// a placement uses the hold; the lock then places the new current piece.
func (s *Side) hold() bool {
	p := s.P
	if s.holdUsed || !p.Rules.Hold {
		return false
	}
	p.Stats.Holds++
	if p.Hold == tetris.NoPiece {
		p.Hold = p.Current
		p.Queue = append(p.Queue, p.Bag.Next())
		p.Current = p.Queue[0]
		p.Queue = append(p.Queue[:0], p.Queue[1:]...)
	} else {
		p.Hold, p.Current = p.Current, p.Hold
	}
	s.spawn()
	s.holdUsed = true
	return true
}

// Grounded reports whether side i's falling piece rests on the stack.
func (g *Game) Grounded(i int) bool {
	s, err := g.side(i)
	if err != nil {
		return false
	}
	return !s.P.Board.Fits(s.P.Current, s.Rot, s.X, s.Y-1)
}

// Falling returns side i's falling piece as a placement, with the spin a
// lock there would score.
func (s *Side) Falling() tetris.Placement {
	pl := tetris.Placement{Piece: s.P.Current, Rot: s.Rot, X: int8(s.X), Y: int8(s.Y)}
	if pl.Piece == tetris.T && s.kick >= 0 && !(s.was180 && s.P.Rules.NoSpin180) {
		pl.Spin = s.P.Board.TSpin(s.Rot, s.X, s.Y, s.kick, s.P.Rules.SpinRule)
	}
	return pl
}

// Lock hard-drops side i's falling piece and locks it (the person's move).
func (g *Game) Lock(i int) (*Turn, error) {
	s, err := g.side(i)
	if err != nil {
		return nil, err
	}
	if g.Over() {
		return nil, errors.New("game is over")
	}
	if y := s.P.Board.DropY(s.P.Current, s.Rot, s.X, s.Y); y != s.Y {
		s.Y, s.kick = y, -1
	}
	return g.play(i, s.Falling(), true)
}

// Play plays a bot's move on side i: its piece must be the current piece
// or reachable through the hold, and the placement reachable with its spin.
func (g *Game) Play(i int, m Move) (*Turn, error) {
	s, err := g.side(i)
	if err != nil {
		return nil, err
	}
	if g.Over() {
		return nil, errors.New("game is over")
	}
	pl, err := m.Placement()
	if err != nil {
		return nil, err
	}
	if _, err := s.P.Choice(pl.Piece); err != nil {
		return nil, err
	}
	if s.holdUsed && pl.Piece != s.P.Current {
		return nil, errors.New("hold already used for this piece")
	}
	return g.play(i, pl, false)
}

// play checks pl with the move generator (cells and spin reachable from
// the spawn), plays it and sends the attack to the other side. The move
// generator leaves out placements that lock out (every cell above the
// visible rows); a person's piece may lock there, and loses.
func (g *Game) play(i int, pl tetris.Placement, human bool) (*Turn, error) {
	s := g.Sides[i]
	if _, ok := g.gen.Find(&s.P.Board, pl); !ok && !(human && locksOut(pl)) {
		return nil, fmt.Errorf("placement %v is not reachable", pl)
	}
	before := s.P.Board
	holdWasEmpty := s.P.Hold == tetris.NoPiece
	t, err := s.P.Play(pl)
	if err != nil {
		return nil, err
	}
	s.paint(&before, t)
	turn := &Turn{
		Move: MoveFrom(pl), Hold: t.Hold, Kind: t.Lock.Kind.String(), Lines: t.Lock.Lines,
		Attack: t.Lock.Attack, B2B: t.Lock.B2BBonus, Combo: int(t.Lock.Combo), PerfectClear: t.Lock.PerfectClear,
		Cancelled: t.Cancelled, Sent: t.Sent, GarbageRows: len(t.Garbage), Death: deathName(t.Death),
	}
	// The pieces this turn revealed (TBP new_piece), unless the bot must
	// restart anyway because garbage changed its board.
	if t.Death == tetris.Alive {
		fresh := 1
		if t.Hold && holdWasEmpty {
			fresh = 2
		}
		q := s.P.Queue
		fresh = min(fresh, len(q))
		for _, p := range q[len(q)-fresh:] {
			turn.Fresh = append(turn.Fresh, p.String())
		}
	}
	if len(g.Sides) == 2 && t.Sent > 0 {
		g.Sides[1-i].P.ReceiveGarbage(t.Sent)
	}
	s.Last = turn
	s.spawn()
	return turn, nil
}

func locksOut(pl tetris.Placement) bool {
	for _, c := range pl.Cells() {
		if c.Y < tetris.Visible {
			return false
		}
	}
	return true
}

func deathName(d tetris.Death) string {
	if d == tetris.Alive {
		return ""
	}
	return d.String()
}

// paint updates the colours after a turn: the piece's letter in its
// cells, the cleared rows removed, the garbage rows inserted; if that
// disagrees with the engine's board (it should not), the board wins.
func (s *Side) paint(before *tetris.Board, t tetris.Turn) {
	c := &s.colors
	for _, cell := range t.Placement.Cells() {
		if uint(cell.X) < tetris.Width && uint(cell.Y) < tetris.Height {
			c[cell.Y][cell.X] = t.Placement.Piece.String()[0]
		}
	}
	if t.Lock.Lines > 0 {
		w := 0
		for y := range tetris.Height {
			full := true
			for x := range tetris.Width {
				if c[y][x] == 0 {
					full = false
				}
			}
			if !full {
				c[w] = c[y]
				w++
			}
		}
		for ; w < tetris.Height; w++ {
			c[w] = [tetris.Width]byte{}
		}
	}
	for _, hole := range t.Garbage {
		copy(c[1:], c[:tetris.Height-1])
		for x := range tetris.Width {
			c[0][x] = 'G'
		}
		c[0][hole] = 0
	}
	b := &s.P.Board
	for y := range tetris.Height {
		for x := range tetris.Width {
			if b.Occupied(x, y) != (c[y][x] != 0) {
				if b.Occupied(x, y) {
					c[y][x] = 'G'
				} else {
					c[y][x] = 0
				}
			}
		}
	}
}

// Turn reports one lock to the page.
type Turn struct {
	Move         Move     `json:"move"`
	Hold         bool     `json:"hold"`
	Kind         string   `json:"kind"` // "none", "single", …, "tspin double"
	Lines        int      `json:"lines"`
	Attack       int      `json:"attack"`
	B2B          bool     `json:"b2b"`   // got the back-to-back bonus
	Combo        int      `json:"combo"` // consecutive clears (REN = combo − 1)
	PerfectClear bool     `json:"perfect_clear"`
	Cancelled    int      `json:"cancelled"`
	Sent         int      `json:"sent"`
	GarbageRows  int      `json:"garbage_rows"` // rows inserted into this board (a bot must restart)
	Fresh        []string `json:"fresh"`        // pieces revealed at the end of the queue
	Death        string   `json:"death,omitempty"`
}

// View is what the page draws of one side.
type View struct {
	// Cells are the rows 0..21 bottom first, 10 characters each: '.' empty,
	// a piece letter, or G.
	Cells    []string  `json:"cells"`
	Piece    string    `json:"piece"` // the falling piece, "" when dead
	Falling  [][2]int  `json:"falling"`
	Ghost    [][2]int  `json:"ghost"`
	Hold     string    `json:"hold"`
	HoldUsed bool      `json:"hold_used"`
	Queue    []string  `json:"queue"`
	Incoming int       `json:"incoming"` // the garbage meter
	Combo    int       `json:"combo"`
	B2B      bool      `json:"b2b"`
	Death    string    `json:"death,omitempty"`
	Stats    ViewStats `json:"stats"`
	Last     *Turn     `json:"last,omitempty"`
}

// ViewStats are one side's totals.
type ViewStats struct {
	Pieces        int `json:"pieces"`
	Lines         int `json:"lines"`
	Attack        int `json:"attack"`
	Sent          int `json:"sent"`
	Cancelled     int `json:"cancelled"`
	GarbageLines  int `json:"garbage_lines"`
	PerfectClears int `json:"perfect_clears"`
}

// ViewRows is how many rows a View shows (the 20 visible and 2 above).
const ViewRows = 22

// View returns side i's drawing.
func (g *Game) View(i int) (*View, error) {
	s, err := g.side(i)
	if err != nil {
		return nil, err
	}
	p := s.P
	v := &View{Hold: pieceName(p.Hold), HoldUsed: s.holdUsed, Incoming: p.Incoming, Combo: int(p.Combo), B2B: p.B2B,
		Death: deathName(p.Death), Last: s.Last}
	for y := range ViewRows {
		row := make([]byte, tetris.Width)
		for x := range tetris.Width {
			row[x] = '.'
			if c := s.colors[y][x]; c != 0 {
				row[x] = c
			}
		}
		v.Cells = append(v.Cells, string(row))
	}
	for _, q := range p.Queue {
		v.Queue = append(v.Queue, q.String())
	}
	if p.Death == tetris.Alive {
		v.Piece = p.Current.String()
		pl := s.Falling()
		for _, c := range pl.Cells() {
			v.Falling = append(v.Falling, [2]int{int(c.X), int(c.Y)})
		}
		pl.Y = int8(p.Board.DropY(pl.Piece, pl.Rot, int(pl.X), int(pl.Y)))
		for _, c := range pl.Cells() {
			v.Ghost = append(v.Ghost, [2]int{int(c.X), int(c.Y)})
		}
	}
	st := p.Stats
	v.Stats = ViewStats{Pieces: st.Pieces, Lines: st.Lines, Attack: st.Attack, Sent: st.Sent, Cancelled: st.Cancelled,
		GarbageLines: st.GarbageLines, PerfectClears: st.PerfectClears}
	return v, nil
}

func pieceName(p tetris.Piece) string {
	if !p.Valid() {
		return ""
	}
	return p.String()
}

// Start returns the TBP start message for side i's position (the bot's
// start at the beginning and after garbage changed its board).
func (g *Game) Start(i int) (*Message, error) {
	s, err := g.side(i)
	if err != nil {
		return nil, err
	}
	p := s.P
	m := &Message{Type: "start", Combo: int(p.Combo), BackToBack: p.B2B}
	if p.Hold != tetris.NoPiece {
		h := p.Hold.String()
		m.Hold = &h
	}
	for _, q := range p.Pieces() {
		m.Queue = append(m.Queue, q.String())
	}
	m.Board = make([][]*string, tetris.Height)
	for y := range tetris.Height {
		m.Board[y] = make([]*string, tetris.Width)
		for x := range tetris.Width {
			if c := s.colors[y][x]; c != 0 {
				l := string(c)
				m.Board[y][x] = &l
			}
		}
	}
	r := &Randomizer{Type: "seven_bag", BagState: []string{}}
	for _, q := range p.Bag.Left.Pieces() {
		r.BagState = append(r.BagState, q.String())
	}
	m.Randomizer = r
	return m, nil
}

// PlanCells returns the cells (x, y) each of a bot's planned moves will
// cover, in side i's board as it is now: the moves are locked one after
// the other on a copy of the board, and the cells of a move made after
// some lines cleared are drawn in the rows they are in now. Moves that do
// not fit end the plan.
func (g *Game) PlanCells(i int, moves []Move) ([][][2]int, error) {
	s, err := g.side(i)
	if err != nil {
		return nil, err
	}
	b := s.P.Board
	rows := make([]int, tetris.Height) // row in the plan's board → row now
	for y := range rows {
		rows[y] = y
	}
	out := make([][][2]int, 0, len(moves))
	for _, m := range moves {
		pl, err := m.Placement()
		if err != nil || !b.FitsPlacement(pl) {
			break
		}
		var cs [][2]int
		for _, c := range pl.Cells() {
			cs = append(cs, [2]int{int(c.X), rows[c.Y]})
		}
		out = append(out, cs)
		written := b
		for _, c := range pl.Cells() {
			written.Set(int(c.X), int(c.Y))
		}
		var full []int // the rows this move clears, mirrored in rows
		for y := range tetris.Height {
			if written.Rows[y] == tetris.FullRow {
				full = append(full, y)
			}
		}
		b.Place(pl)
		for k := len(full) - 1; k >= 0; k-- {
			rows = append(rows[:full[k]], rows[full[k]+1:]...)
		}
		for len(rows) < tetris.Height {
			rows = append(rows, rows[len(rows)-1]+1)
		}
	}
	return out, nil
}
