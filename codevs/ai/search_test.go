// Tests of the exhaustive search against a brute force over codevs.Player.
package ai

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/sim"
)

// randomSide plays random drops (and some ojama) from an empty field.
func randomSide(rng *rand.Rand, packs []sim.Pack) (side, codevs.Player) {
	var p codevs.Player
	n := 5 + rng.IntN(20)
	for i := 0; i < n; i++ {
		q := p
		if _, err := q.Act(packs[i], codevs.Drop(rng.IntN(9), rng.IntN(4))); err != nil || q.Dead() {
			break
		}
		p = q
		p.Ojama = 0
	}
	p.Ojama = rng.IntN(3) * 7
	p.Gauge = []int{0, 40, 80, 100}[rng.IntN(4)]
	return side{f: sim.FastFrom(&p.Board), stock: p.Ojama, gauge: p.Gauge}, p
}

// bruteBest is the reference: best ojama sent at each ply per first move,
// by plain recursion over codevs.Player.Act.
func bruteBest(p codevs.Player, packs []sim.Pack, ply, depth int, best *[MaxPly]int, surv *int) {
	bruteIncoming(p, packs, ply, depth, best, surv, &[MaxPly]int{})
}

// bruteIncoming also lets incoming[ply] ojama arrive from an opponent
// through codevs.Settle at the end of each ply.
func bruteIncoming(p codevs.Player, packs []sim.Pack, ply, depth int, best *[MaxPly]int, surv *int, incoming *[MaxPly]int) {
	for k := 0; k < numMoves; k++ {
		m := toMove(k)
		q := p
		h, err := q.Act(packs[ply], m)
		if err != nil || q.Dead() {
			continue
		}
		var op codevs.Player
		codevs.Settle(&q, &op, h, codevs.Half{Sent: incoming[ply]})
		*surv = max(*surv, ply+1)
		best[ply] = max(best[ply], h.Sent)
		if h.Sent > 0 && (h.Chains > smallFire || m.Skill) {
			*surv = depth
		} else if ply+1 < depth {
			bruteIncoming(q, packs, ply+1, depth, best, surv, incoming)
		}
	}
}

func TestExhaustMatchesBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	n := 12
	if testing.Short() {
		n = 4
	}
	for i := 0; i < n; i++ {
		packs, err := codevs.PacksForSeed(uint64(i+1), codevs.ProfileClient)
		if err != nil {
			t.Fatal(err)
		}
		s, p := randomSide(rng, packs)
		off := 30 + rng.IntN(100)
		tab := exhaust(context.Background(), s, packs[off:], 2, 2)
		if one := exhaust(context.Background(), s, packs[off:], 2, 1); one != tab {
			t.Fatalf("case %d: 1 and 2 threads give different tables", i)
		}
		for k := 0; k < numMoves; k++ {
			m := toMove(k)
			q := p
			h, err := q.Act(packs[off], m)
			var best [MaxPly]int
			surv := 0
			if err == nil && !q.Dead() {
				surv = 1
				best[0] = h.Sent
				if h.Sent > 0 && (h.Chains > smallFire || m.Skill) {
					surv = 2
				} else {
					bruteBest(q, packs[off:], 1, 2, &best, &surv)
				}
			}
			if k < 36 && !rotate(packs[off]).uniq[k&3] {
				continue // duplicate rotation: not searched
			}
			for d := 0; d < 2; d++ {
				if got := tab.ByFirst[k][d].Sent; got != best[d] {
					t.Fatalf("case %d move %v ply %d: sent %d, brute force %d", i, m, d+1, got, best[d])
				}
			}
			if tab.Survive[k] != surv {
				t.Fatalf("case %d move %v: survives %d, brute force %d", i, m, tab.Survive[k], surv)
			}
		}
	}
}

func BenchmarkExhaust4(b *testing.B) {
	rng := rand.New(rand.NewPCG(21, 22))
	packs, _ := codevs.PacksForSeed(3, codevs.ProfileClient)
	s, _ := randomSide(rng, packs)
	for i := 0; i < b.N; i++ {
		exhaust(context.Background(), s, packs[40:], 4, 1)
	}
}

// TestExhaustIncoming checks survival under an opponent's fire against the
// brute force through codevs.Settle, at depth 3 on crowded fields.
func TestExhaustIncoming(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	differs := 0
	for i := 0; i < 6; i++ {
		packs, _ := codevs.PacksForSeed(uint64(i+50), codevs.ProfileClient)
		s, p := randomSide(rng, packs)
		for s.f.MaxHeight() < 13 {
			s.f.DropOjamaRow()
			p.Board.DropOjamaRow()
		}
		s.stock, p.Ojama = 0, 0
		in := [MaxPly]int{rng.IntN(3) * 10, 30 + rng.IntN(40)}
		off := 40
		plain := exhaust(context.Background(), s, packs[off:], 3, 2)
		tab := exhaustIncoming(context.Background(), s, packs[off:], 3, 2, &in)
		for k := 0; k < numMoves; k++ {
			if k < 36 && !rotate(packs[off]).uniq[k&3] {
				continue
			}
			var best [MaxPly]int
			surv := 0
			q := p
			// Ply 0 by hand, then the brute force from ply 1.
			m := toMove(k)
			h, err := q.Act(packs[off], m)
			if err == nil && !q.Dead() {
				surv = 1
				best[0] = h.Sent
				var op codevs.Player
				codevs.Settle(&q, &op, h, codevs.Half{Sent: in[0]})
				if h.Sent > 0 && (h.Chains > smallFire || m.Skill) {
					surv = 3
				} else {
					bruteIncoming(q, packs[off:], 1, 3, &best, &surv, &in)
				}
			}
			if tab.Survive[k] != surv {
				t.Fatalf("case %d move %v: survives %d, brute force %d", i, m, tab.Survive[k], surv)
			}
			if tab.Survive[k] != plain.Survive[k] {
				differs++
			}
		}
	}
	if differs == 0 {
		t.Fatal("incoming ojama never changed survival: the test is too weak")
	}
	t.Logf("%d first moves survive less under incoming ojama", differs)
}

// TestExhaustTransposition checks that the transposition table changes
// nothing but the work: the same table (best fires per ply and first move,
// survival) with it and without it, at depths 3 and 4, with and without
// incoming ojama, and that it does save positions.
func TestExhaustTransposition(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	n := 8
	if testing.Short() {
		n = 3
	}
	saved := int64(0)
	for i := 0; i < n; i++ {
		packs, err := codevs.PacksForSeed(uint64(i+70), codevs.ProfileClient)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := randomSide(rng, packs)
		depth := 3 + i%2
		var in [MaxPly]int
		if i%3 == 2 {
			in = [MaxPly]int{0, 20 + rng.IntN(30), rng.IntN(20)}
		}
		off := 30 + rng.IntN(100)
		with := exhaustWith(context.Background(), s, packs[off:], depth, 2, &in, true)
		without := exhaustWith(context.Background(), s, packs[off:], depth, 1, &in, false)
		saved += without.Nodes - with.Nodes
		if with.Nodes > without.Nodes {
			t.Fatalf("case %d: %d positions with the table, %d without", i, with.Nodes, without.Nodes)
		}
		with.Nodes, without.Nodes = 0, 0
		if with != without {
			t.Fatalf("case %d (depth %d): the table changed the result:\nwith    %+v\nwithout %+v", i, depth, with.Ply, without.Ply)
		}
	}
	if saved == 0 {
		t.Fatal("the table never saved a position: the test is too weak")
	}
	t.Logf("the table saved %d positions", saved)
}
