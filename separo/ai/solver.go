// This file holds yomi's endgame solver: a negamax search with alpha-beta
// over win/draw/loss values, run when few moves remain, that stops at a
// node limit or when the clock runs out.

package ai

import (
	"github.com/yomi-ai/yomi/separo"
)

// solver proves game values near the end.
type solver struct {
	nodes, limit int
	clk          *clock
	bufs         [][]separo.Move
	aborted      bool
}

// value is c's result at the end of the game: +1 win, 0 draw, -1 loss.
func finalValue(b *separo.Board, c separo.Color) int {
	d := b.Score(c) - b.Score(c.Opponent())
	switch {
	case d > 0:
		return 1
	case d < 0:
		return -1
	}
	return 0
}

// negamax returns c's value with c to move at b, within (alpha, beta).
func (s *solver) negamax(b *separo.Board, c separo.Color, alpha, beta, depth int) int {
	s.nodes++
	if s.nodes > s.limit || s.nodes&1023 == 0 && s.clk.expired() {
		s.aborted = true
		return 0
	}
	for len(s.bufs) <= depth {
		s.bufs = append(s.bufs, make([]separo.Move, 0, 32))
	}
	moves := b.Moves(c, s.bufs[depth])
	s.bufs[depth] = moves
	if len(moves) == 0 {
		if !b.CanMove(c.Opponent()) {
			return finalValue(b, c)
		}
		return -s.negamax(b, c.Opponent(), -beta, -alpha, depth+1)
	}
	best := -2
	for _, m := range moves {
		nb := *b
		nb.Apply(c, m)
		v := -s.negamax(&nb, c.Opponent(), -beta, -alpha, depth+1)
		if s.aborted {
			return 0
		}
		if v > best {
			best = v
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta {
			break
		}
	}
	return best
}

// solve returns the best move for c at b with its proven value, or ok false
// when the search hit its limits.
func (s *solver) solve(b *separo.Board, c separo.Color) (separo.Move, int, bool) {
	s.nodes, s.aborted = 0, false
	moves := b.Moves(c, nil)
	best, bestV := separo.Move{}, -2
	alpha := -2
	for _, m := range moves {
		nb := *b
		nb.Apply(c, m)
		v := -s.negamax(&nb, c.Opponent(), -2, -alpha, 1)
		if s.aborted {
			return separo.Move{}, 0, false
		}
		if v > bestV {
			best, bestV = m, v
		}
		if v > alpha {
			alpha = v
		}
		if v == 1 {
			break
		}
	}
	return best, bestV, len(moves) > 0
}
