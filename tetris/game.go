// game.go holds Player, one side of a guideline game driven placement by
// placement: the piece to place, hold, the visible queue fed by a 7-bag,
// the incoming garbage queue with cancelling (spec §14, CC1 battle
// deal_garbage), and the death rules (§15).

package tetris

import (
	"fmt"
	"math/rand/v2"
)

// Death says why a player's game ended.
type Death int8

// Death reasons.
const (
	Alive    Death = iota
	BlockOut       // a piece could not spawn (also a hold swap)
	LockOut        // a piece locked with every cell at y ≥ 20
	TopOut         // garbage pushed a block out of row 39
)

// String names the death reason.
func (d Death) String() string {
	return [...]string{"alive", "block out", "lock out", "top out"}[d]
}

// Player is one playfield in a versus or solo game. Start with NewPlayer,
// then call Play with each placement (from a bot, checked against the move
// generator by the caller), feed the opponent Turn.Sent lines through its
// ReceiveGarbage, and stop when Death != Alive.
type Player struct {
	Rules   Rules
	State           // board, combo, back-to-back
	Current Piece   // the piece to place now (already spawned)
	Hold    Piece   // NoPiece when empty
	Queue   []Piece // the visible next pieces, Rules.QueueSize of them
	Bag     Bag     // randomizer; Bag.Left is TBP's bag_state at the end of Queue

	Incoming  int // garbage lines queued against this player (CC1 garbage_queue)
	Attacking int // attack not yet sent (CC1 attacking)
	Death     Death

	Stats Stats

	garbage rand.PCG
}

// Stats are running totals for one player.
type Stats struct {
	Pieces        int // placements locked
	Lines         int // lines cleared
	Attack        int // attack produced by clears (before cancelling)
	Sent          int // lines sent to the opponent
	Cancelled     int // lines of incoming garbage cancelled
	GarbageLines  int // garbage rows received into the board
	PerfectClears int
	Holds         int
}

// NewPlayer starts a game: fills the queue from a bag seeded with
// (pieceSeed, 0x7e7) and spawns the first piece; garbage holes come from a
// PCG seeded with (garbageSeed, 0x9a9). Equal seeds give equal sequences,
// so two players (or two games of a pair) can share them.
func NewPlayer(rules Rules, pieceSeed, garbageSeed uint64) *Player {
	if rules.QueueSize < 1 {
		rules.QueueSize = 1
	}
	p := &Player{
		Rules:   rules,
		Hold:    NoPiece,
		Bag:     NewBag(pieceSeed, 0x7e7),
		garbage: *rand.NewPCG(garbageSeed, 0x9a9),
	}
	p.Queue = make([]Piece, 0, rules.QueueSize+1)
	for range rules.QueueSize {
		p.Queue = append(p.Queue, p.Bag.Next())
	}
	p.spawnNext()
	return p
}

// Clone returns a deep copy (the queue is copied; the random sources
// continue identically in both).
func (p *Player) Clone() *Player {
	c := *p
	c.Queue = append(make([]Piece, 0, cap(p.Queue)), p.Queue...)
	return &c
}

// Pieces returns the TBP queue: the current piece followed by the visible
// queue.
func (p *Player) Pieces() []Piece {
	return append([]Piece{p.Current}, p.Queue...)
}

// spawnNext takes the queue's front as the current piece, draws one new
// piece into the queue, and checks the spawn (block out).
func (p *Player) spawnNext() {
	p.Queue = append(p.Queue, p.Bag.Next())
	p.Current = p.Queue[0]
	p.Queue = append(p.Queue[:0], p.Queue[1:]...)
	if _, _, ok := p.Board.Spawn(p.Current, p.Rules.Spawn); !ok {
		p.Death = BlockOut
	}
}

// Turn reports what one Play did.
type Turn struct {
	Placement Placement
	Hold      bool // the hold was used to get the placed piece
	Lock      LockResult
	Cancelled int    // incoming lines cancelled by this player's attack
	Sent      int    // lines to add to the opponent's Incoming now
	Garbage   []int8 // holes of the garbage rows inserted into this board, bottom-most last
	Death     Death
}

// Choice returns whether placing piece pc now needs the hold, or an error
// if pc is neither the current piece nor reachable through the hold.
func (p *Player) Choice(pc Piece) (hold bool, err error) {
	switch {
	case pc == p.Current:
		return false, nil
	case !p.Rules.Hold:
	case p.Hold != NoPiece && pc == p.Hold:
		return true, nil
	case p.Hold == NoPiece && len(p.Queue) > 0 && pc == p.Queue[0]:
		return true, nil
	}
	return false, fmt.Errorf("tetris: cannot place %v: current piece is %v, hold %v", pc, p.Current, p.Hold)
}

// Play locks placement pl (its Spin as given; reachability is the
// caller's check, e.g. with tetris/movegen) and runs the rest of the turn:
// hold if pl's piece is the hold piece (or the next piece with an empty
// hold), lock with line clears and scoring, garbage cancelling and
// insertion, and the next spawn. An error (game over, wrong piece, or a
// placement that overlaps, leaves the board or floats) leaves the player
// unchanged; a death is reported in Turn.Death and Player.Death.
func (p *Player) Play(pl Placement) (Turn, error) {
	t := Turn{Placement: pl}
	if p.Death != Alive {
		return t, fmt.Errorf("tetris: game is over (%v)", p.Death)
	}
	hold, err := p.Choice(pl.Piece)
	if err != nil {
		return t, err
	}
	if !p.Board.FitsPlacement(pl) {
		return t, fmt.Errorf("tetris: placement %v overlaps the stack or leaves the board", pl)
	}
	if !p.Board.Grounded(pl) {
		return t, fmt.Errorf("tetris: placement %v is not resting on the stack", pl)
	}
	if pl.Spin != SpinNone && pl.Piece != T {
		return t, fmt.Errorf("tetris: placement %v: only T pieces spin", pl)
	}
	t.Hold = hold
	if hold {
		p.Stats.Holds++
		if p.Hold == NoPiece {
			p.Hold = p.Current
			p.spawnNext() // the next piece spawns after the spawn delay
		} else {
			p.Hold, p.Current = p.Current, p.Hold
			if _, _, ok := p.Board.Spawn(p.Current, p.Rules.Spawn); !ok {
				p.Death = BlockOut
			}
		}
		if p.Death != Alive {
			t.Death = p.Death
			return t, nil
		}
	}
	t.Lock = p.State.Lock(pl, &p.Rules.Attack)
	p.Stats.Pieces++
	p.Stats.Lines += t.Lock.Lines
	if t.Lock.PerfectClear {
		p.Stats.PerfectClears++
	}
	if t.Lock.LockedOut {
		p.Death = LockOut
		t.Death = p.Death
		return t, nil
	}
	if t.Lock.Lines > 0 {
		p.Attacking += t.Lock.Attack
		p.Stats.Attack += t.Lock.Attack
		if !p.Rules.GarbageBlocking {
			p.deal(&t) // at the end of the line-clear delay
		}
	} else {
		p.deal(&t)
	}
	if p.Death == Alive {
		p.spawnNext()
	}
	t.Death = p.Death
	return t, nil
}

// ReceiveGarbage queues n incoming garbage lines (the opponent's Turn.Sent).
func (p *Player) ReceiveGarbage(n int) {
	if n > 0 {
		p.Incoming += n
	}
}

// deal is CC1's deal_garbage: cancel attack against incoming, then insert
// up to MaxGarbageAdd lines, or else send the remaining attack.
func (p *Player) deal(t *Turn) {
	m := min(p.Attacking, p.Incoming)
	p.Attacking -= m
	p.Incoming -= m
	t.Cancelled += m
	p.Stats.Cancelled += m
	if p.Incoming > 0 {
		n := p.Incoming
		if p.Rules.MaxGarbageAdd > 0 {
			n = min(n, p.Rules.MaxGarbageAdd)
		}
		col := int(boundedUint64(&p.garbage, Width))
		for range n {
			if float64From(&p.garbage) < p.Rules.Messiness {
				col = int(boundedUint64(&p.garbage, Width))
			}
			t.Garbage = append(t.Garbage, int8(col))
			if p.Board.AddGarbage(col) {
				p.Death = TopOut
			}
		}
		p.Incoming -= n
		p.Stats.GarbageLines += n
		return
	}
	if p.Attacking > 0 {
		t.Sent += p.Attacking
		p.Stats.Sent += p.Attacking
		p.Attacking = 0
	}
}
