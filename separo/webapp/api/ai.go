// This file connects the API to the AIs of separo/ai.

package api

import (
	"context"
	"errors"
	"time"

	"github.com/yomi-ai/yomi/separo"
	"github.com/yomi-ai/yomi/separo/ai"
)

var aiNames = ai.Names()

// aiMove asks the named AI for a move of the side to move within d. Without
// a session each call builds a fresh player (no tree reuse); with one, the
// session's player for this AI, colour and size moves. The AIs check the wall
// clock themselves, which also works in WebAssembly, where timers do not fire
// during a CPU-bound search.
func (g *game) aiMove(ctx context.Context, sess *Session, name string, seed uint64, d time.Duration) (Move, error) {
	var p ai.Player
	key := sessionKey{name: name, color: g.turn, size: g.size}
	if sess != nil {
		p = sess.players[key]
	}
	if p == nil {
		var err error
		if p, err = ai.New(name, ai.Options{Seed: seed ^ uint64(len(g.moves))<<32}); err != nil {
			return Move{}, err
		}
		if sess != nil {
			sess.players[key] = p
		}
	}
	m, ok := p.Move(ctx, g.b.b, separo.Color(g.turn), ai.Budget{Time: d})
	if err := ctx.Err(); err != nil {
		return Move{}, err
	}
	if !ok {
		return Move{}, errors.New("no move although the side to move has one")
	}
	return toMove(m), nil
}

// searchOnce runs the named AI from the start position with an iteration
// budget only, so its choice depends on the seed alone.
func searchOnce(name string, size, iterations int, seed uint64) (Move, error) {
	b, err := separo.New(size)
	if err != nil {
		return Move{}, err
	}
	p, err := ai.New(name, ai.Options{Seed: seed})
	if err != nil {
		return Move{}, err
	}
	m, ok := p.Move(context.Background(), b, separo.Red, ai.Budget{Iterations: iterations})
	if !ok {
		return Move{}, errors.New("no move from the start position")
	}
	return toMove(m), nil
}
