// This file holds random playouts: uniform random moves for both sides, in
// separo-rs's pairing (first mover, then the other), until neither can move.

package separo

import "math/rand/v2"

// PlayoutBuf is caller-owned scratch space for Playout. With Trace set,
// Playout also records the moves it plays in Steps (AMAF statistics use it).
type PlayoutBuf struct {
	Trace   bool
	Steps   []Step
	moves   []Move
	scratch Scratch
}

// Step is one move of a traced playout.
type Step struct {
	Color Color
	Move  Move
}

// Playout plays uniformly random moves on b (modified in place) until the
// game is over, first moving first in each round as separo-rs's
// Board::playout does, and returns the result.
func (b *Board) Playout(first Color, rng *rand.Rand, buf *PlayoutBuf) Result {
	if buf.moves == nil {
		buf.moves = make([]Move, 0, 64)
	}
	second := first.Opponent()
	buf.Steps = buf.Steps[:0]
	for {
		buf.moves = b.Moves(first, buf.moves)
		n1 := len(buf.moves)
		if n1 > 0 {
			m := buf.moves[rng.IntN(n1)]
			b.Apply(first, m)
			if buf.Trace {
				buf.Steps = append(buf.Steps, Step{first, m})
			}
		}
		buf.moves = b.Moves(second, buf.moves)
		n2 := len(buf.moves)
		if n2 > 0 {
			m := buf.moves[rng.IntN(n2)]
			b.Apply(second, m)
			if buf.Trace {
				buf.Steps = append(buf.Steps, Step{second, m})
			}
		}
		if n1 == 0 && n2 == 0 {
			break
		}
	}
	r, bl := b.ScoreWith(Red, &buf.scratch), b.ScoreWith(Blue, &buf.scratch)
	switch {
	case r > bl:
		return RedWin
	case bl > r:
		return BlueWin
	}
	return Draw
}
