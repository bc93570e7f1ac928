// pcmode.go holds the bot's perfect-clear mode (spec §20, Cold Clear's
// pcloop): on an empty board with enough known pieces (11 counting the hold,
// 10 without hold) it asks the perfect-clear finder (tetris/pc) for a clear
// of 2, then 4, then 6 lines, turns the solution into moves with the move
// generator and plays them; when the game leaves the plan (another move was
// played, garbage arrived, the queue differs) it drops the plan and the
// normal search takes over again.

package bot

import (
	"errors"
	"time"

	"github.com/yomi-ai/yomi/tetris/pc"
)

// DefaultPCNodes is the finder's budget per perfect-clear search when
// Options.PCNodes is 0.
const DefaultPCNodes = 200_000

// PCStats counts what the perfect-clear mode did since New.
type PCStats struct {
	Searches   int           // finder runs (one per empty-board position with enough pieces)
	Found      int           // searches that produced a playable plan
	Completed  int           // plans played to the end: perfect clears made by the mode
	Broken     int           // plans dropped because the game left them
	GaveUp     int           // searches stopped by the node budget
	Moves      int           // moves played from plans
	Placed     int           // moves played in total (Play calls that succeeded)
	SearchTime time.Duration // time spent in the finder
}

// Per100 returns perfect clears completed per 100 placed pieces.
func (s PCStats) Per100() float64 {
	if s.Placed == 0 {
		return 0
	}
	return 100 * float64(s.Completed) / float64(s.Placed)
}

// pcPlan is a perfect clear being followed: the moves still to play and,
// for each, the state it expects at the root (board, hold and the queue
// prefix the rest of the plan consumes).
type pcPlan struct {
	moves  []Move
	expect []State
	height int
}

// pcMinKnown returns how many known pieces (queue, plus hold if any) the
// mode needs: 11 with hold, 10 without (spec §20).
func (b *Bot) pcMinKnown() int {
	if b.opt.NoHold {
		return 10
	}
	return 11
}

// toPC converts a bot piece to the finder's piece.
func toPC(p Piece) pc.Piece {
	switch p {
	case I:
		return pc.I
	case O:
		return pc.O
	case T:
		return pc.T
	case L:
		return pc.L
	case J:
		return pc.J
	case S:
		return pc.S
	default:
		return pc.Z
	}
}

// fromPC converts a finder piece to the bot's piece.
func fromPC(p pc.Piece) Piece {
	return [...]Piece{pc.T: T, pc.I: I, pc.L: L, pc.J: J, pc.S: S, pc.Z: Z, pc.O: O}[p]
}

// pcValid reports whether the plan still applies at root state s.
func (pl *pcPlan) valid(s *State) bool {
	if len(pl.moves) == 0 {
		return false
	}
	e := &pl.expect[0]
	if s.Board.Board != e.Board.Board || s.Hold != e.Hold || s.QLen < e.QLen {
		return false
	}
	for i := range e.QLen {
		if s.Queue[i] != e.Queue[i] {
			return false
		}
	}
	return true
}

// pcUpdate runs at the start of Think and Suggest (b.mu held): it drops a
// plan the root has left and, on an eligible position without a plan,
// runs the finder. It reports whether a plan is active.
func (b *Bot) pcUpdate() bool {
	if !b.opt.PerfectClear || b.d == nil {
		return false
	}
	s := b.d.state(&b.d.nodes.at(b.d.root).st)
	if b.pc != nil {
		if b.pc.valid(&s) {
			return true
		}
		b.pc = nil
		b.pcStats.Broken++
	}
	h := s.hash()
	if b.pcTried && b.pcTriedHash == h {
		return false
	}
	known := int(s.QLen)
	if s.Hold != NoPiece {
		known++
	}
	if !s.Board.Empty() || known < b.pcMinKnown() {
		return false
	}
	b.pcTried, b.pcTriedHash = true, h
	b.pc = b.pcSearch(&s)
	return b.pc != nil
}

// pcSearch looks for a perfect clear from s with the first 11 (10) known
// pieces, trying 2, 4 and 6 lines, and returns its plan (nil if none).
func (b *Bot) pcSearch(s *State) *pcPlan {
	start := time.Now()
	defer func() { b.pcStats.SearchTime += time.Since(start) }()
	b.pcStats.Searches++
	use := b.pcMinKnown()
	hold := pc.NoPiece
	if s.Hold != NoPiece && !b.opt.NoHold {
		hold = toPC(s.Hold)
		use--
	}
	use = min(use, int(s.QLen))
	q := make([]pc.Piece, use)
	for i := range use {
		q[i] = toPC(s.Queue[i])
	}
	budget := b.opt.PCNodes
	if budget == 0 {
		budget = DefaultPCNodes
	}
	for _, height := range []int{2, 4, 6} {
		need := height * 10 / 4
		avail := use
		if hold != pc.NoPiece {
			avail++
		}
		if need > avail {
			break
		}
		steps, ok, err := pc.Find(0, q, hold, pc.Options{Height: height, Hold: !b.opt.NoHold, MaxNodes: budget})
		if errors.Is(err, pc.ErrBudget) {
			b.pcStats.GaveUp++
			continue
		}
		if err != nil || !ok {
			continue
		}
		if pl := b.pcMoves(s, steps); pl != nil {
			pl.height = height
			b.pcStats.Found++
			return pl
		}
	}
	return nil
}

// pcMoves turns the finder's steps into moves from s, checking each with
// the move generator; nil if a placement cannot be reached from spawn.
func (b *Bot) pcMoves(s *State, steps []pc.Step) *pcPlan {
	g := b.wks[0].gen
	pl := &pcPlan{}
	cur := *s
	var buf []Move
	var pops []int
	for _, st := range steps {
		p := fromPC(st.Piece)
		if cur.QLen == 0 {
			return nil
		}
		held := false
		pop := 1
		newHold := cur.Hold
		switch {
		case cur.Queue[0] == p:
		case b.opt.NoHold:
			return nil
		case cur.Hold == p:
			held, newHold = true, cur.Queue[0]
		case cur.Hold == NoPiece && cur.QLen >= 2 && cur.Queue[1] == p:
			held, newHold, pop = true, cur.Queue[0], 2
		default:
			return nil
		}
		buf = g.Placements(buf[:0], &cur.Board, p)
		best := -1
		for i, mv := range buf {
			if pcCells(mv) == uint64(st.Cells) && (best < 0 || mv.Time < buf[best].Time) {
				best = i
			}
		}
		if best < 0 {
			return nil
		}
		mv := buf[best]
		mv.Hold = held
		if held {
			mv.Time++
		}
		// The expected root before this move: its board, hold and the
		// pieces the plan has yet to consume (checked as a prefix).
		e := cur
		pl.moves = append(pl.moves, mv)
		pl.expect = append(pl.expect, e)
		pops = append(pops, pop)
		cur.pop(pop)
		cur.Hold = newHold
		lockMove(&cur.Board, p, mv.Rot, int(mv.X), int(mv.Y), mv.Spin)
	}
	if !cur.Board.Empty() {
		return nil
	}
	// Trim each expected queue to the pieces the remaining moves draw, so
	// later reveals or a longer preview do not break the plan.
	used := 0
	for i := len(pl.expect) - 1; i >= 0; i-- {
		used += pops[i]
		n := min(used, int(pl.expect[i].QLen))
		for k := n; k < maxQueue; k++ {
			pl.expect[i].Queue[k] = 0
		}
		pl.expect[i].QLen = int8(n)
	}
	return pl
}

// pcCells returns mv's cells in the finder's layout (bit 10*y+x), or 0 if
// a cell lies above the finder's rows.
func pcCells(mv Move) uint64 {
	var m uint64
	for _, c := range mv.Placement().Cells() {
		if c.Y < 0 || int(c.Y) >= pc.MaxHeight || c.X < 0 || c.X > 9 {
			return 0
		}
		m |= 1 << (10*int(c.Y) + int(c.X))
	}
	return m
}

// pcAdvance is called by Play (b.mu held) with the move being played: it
// reports whether the move is the plan's next one and, if so, returns the
// state after it, advancing the plan.
func (b *Bot) pcAdvance(mv Move) (State, bool) {
	if b.pc == nil {
		return State{}, false
	}
	s := b.d.state(&b.d.nodes.at(b.d.root).st)
	if !b.pc.valid(&s) || !sameMove(b.pc.moves[0], mv) {
		b.pc = nil
		b.pcStats.Broken++
		return State{}, false
	}
	pop := 1
	newHold := s.Hold
	if mv.Hold {
		newHold = s.Queue[0]
		if s.Hold == NoPiece {
			pop = 2
		}
	}
	s.pop(pop)
	s.Hold = newHold
	lockMove(&s.Board, mv.Piece, mv.Rot, int(mv.X), int(mv.Y), mv.Spin)
	b.pc.moves = b.pc.moves[1:]
	b.pc.expect = b.pc.expect[1:]
	b.pcStats.Moves++
	if len(b.pc.moves) == 0 {
		b.pc = nil
		if s.Board.Empty() {
			b.pcStats.Completed++
		}
	}
	return s, true
}

// sameMove reports whether two moves are the same root move.
func sameMove(a, m Move) bool {
	return m.Piece == a.Piece && m.Hold == a.Hold && m.Rot == a.Rot && m.X == a.X && m.Y == a.Y && m.Spin == a.Spin
}

// PCStats returns the perfect-clear mode's counters.
func (b *Bot) PCStats() PCStats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.pcStats
}

// PCActive reports whether the bot is following a perfect-clear plan and
// how many moves of it are left.
func (b *Bot) PCActive() (bool, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pc == nil {
		return false, 0
	}
	return true, len(b.pc.moves)
}

// PCPlan returns the moves left in the perfect-clear plan (nil if none).
func (b *Bot) PCPlan() []Move {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pc == nil {
		return nil
	}
	return append([]Move(nil), b.pc.moves...)
}
