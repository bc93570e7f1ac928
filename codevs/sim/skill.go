// Skill explosion: every 5 and its non-ojama 8-neighbours vanish, then chains.
package sim

import "math/big"

// ExplosionScore returns E(b) = floor(25 * 2^(b/12)) exactly: the largest n
// with n^12 <= 25^12 * 2^b; 0 when b = 0.
func ExplosionScore(b int) int64 {
	if b <= 0 {
		return 0
	}
	lim := new(big.Int).Exp(big.NewInt(25), big.NewInt(12), nil)
	lim.Lsh(lim, uint(b))
	lo, hi := int64(25), int64(26)
	pow := func(n int64) *big.Int { return new(big.Int).Exp(big.NewInt(n), big.NewInt(12), nil) }
	for pow(hi).Cmp(lim) <= 0 {
		hi *= 2
	}
	for hi-lo > 1 { // invariant: lo^12 <= lim < hi^12
		mid := (lo + hi) / 2
		if pow(mid).Cmp(lim) <= 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// Explode applies the skill: it removes every 5 and every non-ojama block
// 8-adjacent to one, lets blocks fall, then resolves chains. It returns the
// number of blocks removed by the explosion and the chains that followed.
func (b *Board) Explode() (blocks, chains int) { return b.ExplodeTraced(nil) }

// ExplodeTraced is Explode that also shows obs (if not nil) each stage: the
// exploding cells around the 5s before they go, then every chain's.
func (b *Board) ExplodeTraced(obs func(Frame)) (blocks, chains int) {
	var kill [Width][Height + 2]bool
	var fives [][4]int
	for x := 0; x < Width; x++ {
		for h := 0; h < Height+2; h++ {
			if b.Cell[x][h] != 5 {
				continue
			}
			if obs != nil {
				fives = append(fives, [4]int{x, h, x, h})
			}
			for dx := -1; dx <= 1; dx++ {
				for dh := -1; dh <= 1; dh++ {
					nx, nh := x+dx, h+dh
					if nx < 0 || nx >= Width || nh < 0 || nh >= Height+2 {
						continue
					}
					if v := b.Cell[nx][nh]; v != 0 && v != Ojama && !kill[nx][nh] {
						kill[nx][nh] = true
						blocks++
					}
				}
			}
		}
	}
	if blocks == 0 {
		return 0, 0
	}
	if obs != nil {
		obs(Frame{Stage: StageExplode, Board: *b, Vanish: marked(&kill), Pairs: fives})
	}
	b.fall(&kill)
	return blocks, b.resolve(obs)
}
