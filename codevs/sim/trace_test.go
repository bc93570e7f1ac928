// Tests of the traced drop and explosion: on random fields the frames agree
// with the untraced result and with each other.

package sim

import (
	"math/rand/v2"
	"testing"
)

// TestTraceConsistent plays random drops and skills: one vanish frame per
// chain, each frame's vanishing cells removed (and columns closed) give the
// next frame's field, the last gives the untraced result, and every vanish
// cell is in a listed pair that sums to 10 (or next to a listed 5).
func TestTraceConsistent(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	chains := 0
	for game := range 200 {
		var b Board
		for turn := 0; turn < 60 && !b.Dead(); turn++ {
			want := b
			var frames []Frame
			obs := func(f Frame) { frames = append(frames, f) }
			var c int
			skill := rng.IntN(10) == 0
			if skill {
				_, c = want.Explode()
				_, c2 := b.ExplodeTraced(obs)
				if c2 != c {
					t.Fatalf("game %d turn %d: traced explosion %d chains, untraced %d", game, turn, c2, c)
				}
			} else {
				p, x, r := randPack(rng), rng.IntN(9), rng.IntN(4)
				c, _ = want.Drop(p, x, r)
				c2, _ := b.DropTraced(p, x, r, obs)
				if c2 != c {
					t.Fatalf("game %d turn %d: traced drop %d chains, untraced %d", game, turn, c2, c)
				}
			}
			if b != want {
				t.Fatalf("game %d turn %d: traced field differs", game, turn)
			}
			chains += c
			vanish := 0
			for i, f := range frames {
				if f.Stage == StageVanish {
					vanish++
					if f.Chain != vanish {
						t.Fatalf("frame %d: chain %d, want %d", i, f.Chain, vanish)
					}
					in := map[[2]int]bool{}
					for _, p := range f.Pairs {
						if f.Board.Cell[p[0]][p[1]]+f.Board.Cell[p[2]][p[3]] != 10 {
							t.Fatalf("pair %v does not sum to 10", p)
						}
						in[[2]int{p[0], p[1]}], in[[2]int{p[2], p[3]}] = true, true
					}
					if len(in) != len(f.Vanish) {
						t.Fatalf("%d cells in pairs, %d vanish", len(in), len(f.Vanish))
					}
				}
				next := want
				if i+1 < len(frames) {
					next = frames[i+1].Board
				}
				if f.Stage == StagePack {
					if i+1 == len(frames) && f.Board != want {
						t.Fatalf("game %d turn %d: no chain but the landed field differs from the result", game, turn)
					}
					continue
				}
				after := f.Board
				var kill [Width][Height + 2]bool
				for _, v := range f.Vanish {
					kill[v[0]][v[1]] = true
				}
				after.fall(&kill)
				if after != next {
					t.Fatalf("game %d turn %d frame %d (%s): removing its cells does not give the next field", game, turn, i, f.Stage)
				}
			}
			if vanish != c {
				t.Fatalf("game %d turn %d: %d vanish frames for %d chains", game, turn, vanish, c)
			}
		}
	}
	if chains < 100 {
		t.Fatalf("only %d chains in all games: the test saw too few", chains)
	}
}
