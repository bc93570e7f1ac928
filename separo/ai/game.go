// This file holds the game loop: two players alternate, a side without a
// move passes, and the game ends when neither side can move.

package ai

import (
	"context"
	"fmt"

	"github.com/yomi-ai/yomi/separo"
)

// Record is a finished (or stopped) game.
type Record struct {
	Size   int           `json:"size"`
	Moves  []string      `json:"moves"` // "R:x1y1-x2y2-x3y3" in order
	Red    int           `json:"red"`   // final scores
	Blue   int           `json:"blue"`
	Result string        `json:"result"` // "red", "blue" or "draw"
	Final  separo.Board  `json:"-"`
	Steps  []separo.Step `json:"-"`
	Winner separo.Result `json:"-"`
}

// Play runs one game between red and blue on a size×size board with the
// same budget per move. A player answering an illegal move loses the game
// (the error says who); ctx stops the game early with ctx's error.
func Play(ctx context.Context, red, blue Player, size int, budget Budget) (Record, error) {
	b, err := separo.New(size)
	if err != nil {
		return Record{}, err
	}
	rec := Record{Size: size}
	players := [2]Player{red, blue}
	turn := separo.Red
	for {
		if err := ctx.Err(); err != nil {
			return rec, err
		}
		m, ok := players[turn].Move(ctx, b, turn, budget)
		if !ok {
			return rec, fmt.Errorf("separo/ai: %s (%v) passed with legal moves", players[turn].Name(), turn)
		}
		if err := b.Play(turn, m); err != nil {
			return rec, fmt.Errorf("separo/ai: %s: %w", players[turn].Name(), err)
		}
		rec.Steps = append(rec.Steps, separo.Step{Color: turn, Move: m})
		rec.Moves = append(rec.Moves, turn.String()[:1]+":"+m.String())
		next, more := b.Next(turn)
		if !more {
			break
		}
		turn = next
	}
	rec.Final = b
	rec.Red, rec.Blue = b.Score(separo.Red), b.Score(separo.Blue)
	rec.Winner = b.Winner()
	rec.Result = rec.Winner.String()
	return rec, nil
}
