// versus_test.go drives two tetris.Players with random reachable moves
// (hold included) and garbage exchange, checking the engine's invariants
// over many games: no full rows after a turn, a constant queue length,
// the bag state consistent with the queue, and deaths only by the rules.

package movegen_test

import (
	"math/rand/v2"
	"testing"

	"github.com/yomi-ai/yomi/tetris"
	"github.com/yomi-ai/yomi/tetris/movegen"
)

func TestRandomVersusInvariants(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 10
	}
	g := movegen.New(movegen.Options{})
	var ms []movegen.Move
	deaths := map[tetris.Death]int{}
	sent, garbage := 0, 0
	for game := range games {
		rng := rand.New(rand.NewPCG(uint64(game), 77))
		rules := tetris.DefaultRules()
		ps := [2]*tetris.Player{
			tetris.NewPlayer(rules, uint64(game), 1),
			tetris.NewPlayer(rules, uint64(game), 2),
		}
		for turn := 0; turn < 400; turn++ {
			p, opp := ps[turn%2], ps[1-turn%2]
			if p.Death != tetris.Alive || opp.Death != tetris.Alive {
				break
			}
			next := tetris.NoPiece
			if len(p.Queue) > 0 {
				next = p.Queue[0]
			}
			ms = g.Turn(ms[:0], &p.Board, p.Current, p.Hold, next, true)
			if len(ms) == 0 {
				t.Fatalf("game %d turn %d: no moves but alive", game, turn)
			}
			// a greedy policy (low stack, clears, some noise) so that games
			// last and garbage flows; every third move is random
			m := ms[rng.IntN(len(ms))]
			if turn%3 != 0 {
				best := -1 << 30
				for _, c := range ms {
					s := p.State
					res := s.Lock(c.Placement, &rules.Attack)
					var h [tetris.Width]int
					s.Heights(&h)
					score := res.Attack*20 + res.Lines*3 + rng.IntN(3)
					for _, v := range h {
						score -= v * v
					}
					if score > best {
						best, m = score, c
					}
				}
			}
			before := p.Stats.Pieces
			tr, err := p.Play(m.Placement)
			if err != nil {
				t.Fatalf("game %d turn %d: generated move %v refused: %v", game, turn, m.Placement, err)
			}
			if tr.Hold != m.Hold {
				t.Fatalf("game %d: hold %v, move said %v", game, tr.Hold, m.Hold)
			}
			opp.ReceiveGarbage(tr.Sent)
			sent += tr.Sent
			garbage += len(tr.Garbage)
			if tr.Death != tetris.Alive {
				deaths[tr.Death]++
				break
			}
			if p.Stats.Pieces != before+1 || len(p.Queue) != rules.QueueSize {
				t.Fatalf("game %d: pieces %d queue %v", game, p.Stats.Pieces, p.Queue)
			}
			for y, r := range p.Board.Rows {
				if r == tetris.FullRow {
					t.Fatalf("game %d: full row %d left after a turn", game, y)
				}
			}
			// The bag left after the queue excludes every queued piece of
			// the current bag: walking the queue backwards must never meet
			// a piece still in the bag before the bag restarts.
			left := p.Bag.Left
			seen := tetris.PieceSet(0)
			for i := len(p.Queue) - 1; i >= 0 && seen|left != tetris.AllPieces; i-- {
				q := p.Queue[i]
				if left.Has(q) || seen.Has(q) {
					t.Fatalf("game %d: queue %v inconsistent with bag %v", game, p.Queue, left)
				}
				seen = seen.With(q)
			}
		}
	}
	t.Logf("deaths over %d games: %v; %d lines sent, %d garbage rows received", games, deaths, sent, garbage)
	if sent == 0 || garbage == 0 {
		t.Errorf("no garbage flowed: sent %d received %d", sent, garbage)
	}
}
