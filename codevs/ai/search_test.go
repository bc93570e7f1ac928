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
	for k := 0; k < numMoves; k++ {
		m := toMove(k)
		q := p
		h, err := q.Act(packs[ply], m)
		if err != nil || q.Dead() {
			continue
		}
		*surv = max(*surv, ply+1)
		best[ply] = max(best[ply], h.Sent)
		if h.Sent > 0 && (h.Chains > smallFire || m.Skill) {
			*surv = depth
		} else if ply+1 < depth {
			bruteBest(q, packs, ply+1, depth, best, surv)
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
