// onepiece_test.go: a start with one piece in the queue and an empty hold
// must be answered with a placement of that piece, not an empty suggestion
// (which a frontend reads as giving up).

package tbp

import (
	"testing"

	"github.com/yomi-ai/yomi/tetris"
	"github.com/yomi-ai/yomi/tetris/movegen"
)

func TestStartOnePiece(t *testing.T) {
	for _, piece := range []string{"T", "I"} {
		c := newConv(t)
		c.recv()
		c.send(`{"type":"start","hold":null,"queue":["` + piece + `"],"combo":0,"back_to_back":false,"board":` + emptyBoardJSON() + `}`)
		c.send(`{"type":"suggest"}`)
		s, ok := c.recv().(Suggestion)
		if !ok || len(s.Moves) == 0 {
			t.Fatalf("%s: suggestion %#v", piece, s)
		}
		pl, err := s.Moves[0].Placement()
		if err != nil {
			t.Fatal(err)
		}
		if pl.Piece.String() != piece {
			t.Fatalf("%s: suggested %v", piece, pl)
		}
		var b tetris.Board
		if _, ok := movegen.New(movegen.Options{}).Find(&b, pl); !ok {
			t.Fatalf("%s: %v is not reachable", piece, pl)
		}
		// the game goes on: play it, reveal the next piece, ask again
		c.send(`{"type":"play","move":` + string(mustJSON(t, s.Moves[0])) + `}`)
		c.send(`{"type":"new_piece","piece":"O"}`)
		c.send(`{"type":"suggest"}`)
		s, ok = c.recv().(Suggestion)
		if !ok || len(s.Moves) == 0 {
			t.Fatalf("%s then O: suggestion %#v", piece, s)
		}
		if pl, err := s.Moves[0].Placement(); err != nil || pl.Piece != tetris.O {
			t.Fatalf("%s then O: suggested %v (%v)", piece, pl, err)
		}
		c.send(`{"type":"quit"}`)
		if err := <-c.done; err != nil {
			t.Fatal(err)
		}
		if c.log.Len() != 0 {
			t.Errorf("%s: log %s", piece, c.log.String())
		}
	}
}
