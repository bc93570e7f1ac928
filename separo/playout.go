// This file holds random playouts: uniform random moves for both sides, in
// separo-rs's pairing (first mover, then the other), until neither can move.

package separo

import "math/rand/v2"

// PlayoutBuf is caller-owned scratch space for Playout. With Trace set,
// Playout also records the moves it plays in Steps (AMAF statistics use it).
type PlayoutBuf struct {
	Trace   bool
	Steps   []Step
	codes   []uint32
	scratch Scratch
}

// Step is one move of a traced playout.
type Step struct {
	Color Color
	Move  Move
	Key   int32 // Board.MoveKey(Move)
}

// Playout plays uniformly random moves on b (modified in place) until the
// game is over, first moving first in each round as separo-rs's
// Board::playout does, and returns the result.
func (b *Board) Playout(first Color, rng *rand.Rand, buf *PlayoutBuf) Result {
	if buf.codes == nil {
		buf.codes = make([]uint32, 0, 64)
	}
	second := first.Opponent()
	buf.Steps = buf.Steps[:0]
	for {
		buf.codes = b.genCodes(first, buf.codes)
		n1 := len(buf.codes)
		if n1 > 0 {
			m := buf.codes[rng.IntN(n1)]
			b.applyCode(first, m)
			if buf.Trace {
				buf.Steps = append(buf.Steps, Step{first, b.codeMove(m), int32(codeKey(m))})
			}
		}
		buf.codes = b.genCodes(second, buf.codes)
		n2 := len(buf.codes)
		if n2 > 0 {
			m := buf.codes[rng.IntN(n2)]
			b.applyCode(second, m)
			if buf.Trace {
				buf.Steps = append(buf.Steps, Step{second, b.codeMove(m), int32(codeKey(m))})
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
