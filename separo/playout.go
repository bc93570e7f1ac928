// This file holds random playouts: uniform random moves for both sides, in
// separo-rs's pairing (first mover, then the other), until neither can move.

package separo

import "math/rand/v2"

// PlayoutBuf is caller-owned scratch space for Playout.
type PlayoutBuf struct {
	moves   []Move
	scratch Scratch
}

// Playout plays uniformly random moves on b (modified in place) until the
// game is over, first moving first in each round as separo-rs's
// Board::playout does, and returns the result.
func (b *Board) Playout(first Color, rng *rand.Rand, buf *PlayoutBuf) Result {
	if buf.moves == nil {
		buf.moves = make([]Move, 0, 64)
	}
	second := first.Opponent()
	for {
		buf.moves = b.Moves(first, buf.moves)
		n1 := len(buf.moves)
		if n1 > 0 {
			b.Apply(first, buf.moves[rng.IntN(n1)])
		}
		buf.moves = b.Moves(second, buf.moves)
		n2 := len(buf.moves)
		if n2 > 0 {
			b.Apply(second, buf.moves[rng.IntN(n2)])
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
