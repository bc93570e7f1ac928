// Package sim holds the CODE VS Reborn field simulator: pack rotation and
// dropping, the 8-neighbour sum-to-10 vanish/fall chain loop, ojama rows and
// chain scores. Start with Board and Board.Drop.
package sim

import (
	"fmt"
	"math/big"
)

// Board geometry.
const (
	Width   = 10 // columns
	Height  = 19 // internal rows (16 + ojama row + 2 pack rows)
	Danger  = 16 // a column holding more than Danger blocks at turn end is dead
	Ojama   = 11 // cell value of an ojama block
	Visible = 16 // rows shown in the protocol
)

// Board is one player's field; Cell[x][h] with h=0 at the bottom, 0 = empty.
type Board struct {
	Cell [Width][Height + 2]int8
}

// Pack is a 2x2 pack: Top = [a b], Bottom = [c d].
type Pack struct{ Top, Bottom [2]int8 }

// Rotate returns the pack turned clockwise r times.
func (p Pack) Rotate(r int) Pack {
	for ; r > 0; r-- {
		a, b, c, d := p.Top[0], p.Top[1], p.Bottom[0], p.Bottom[1]
		p = Pack{Top: [2]int8{c, a}, Bottom: [2]int8{d, b}}
	}
	return p
}

func (b *Board) height(x int) int {
	h := 0
	for h < Height+2 && b.Cell[x][h] != 0 {
		h++
	}
	return h
}

func (b *Board) push(x int, v int8) {
	if v == 0 {
		return
	}
	if h := b.height(x); h < Height+2 {
		b.Cell[x][h] = v
	}
}

// DropOjamaRow puts one ojama block on top of every column.
func (b *Board) DropOjamaRow() {
	for x := 0; x < Width; x++ {
		b.push(x, Ojama)
	}
}

// ChainScore returns S(C) = sum_{i=1..C} floor(13^i / 10^i), computed exactly.
func ChainScore(c int) int64 {
	var s int64
	num, den := big.NewInt(1), big.NewInt(1)
	q := new(big.Int)
	for i := 1; i <= c; i++ {
		num.Mul(num, big.NewInt(13))
		den.Mul(den, big.NewInt(10))
		s += q.Quo(num, den).Int64()
	}
	return s
}

// Drop drops pack p with rotation r at column x and resolves chains. It
// returns the chain count and an error for an illegal move.
func (b *Board) Drop(p Pack, x, r int) (int, error) { return b.DropTraced(p, x, r, nil) }

// DropTraced is Drop that also shows obs (if not nil) each stage: the pack
// landed, then every chain's vanishing cells before they go.
func (b *Board) DropTraced(p Pack, x, r int, obs func(Frame)) (int, error) {
	if x < 0 || x > 8 || r < 0 || r > 3 {
		return 0, fmt.Errorf("illegal move x=%d r=%d", x, r)
	}
	q := p.Rotate(r)
	for i := 0; i < 2; i++ {
		b.push(x+i, q.Bottom[i])
		b.push(x+i, q.Top[i])
	}
	if obs != nil {
		obs(Frame{Stage: StagePack, Board: *b})
	}
	return b.resolve(obs), nil
}

// Resolve runs the vanish/fall loop and returns the number of chains.
func (b *Board) Resolve() int { return b.resolve(nil) }

func (b *Board) resolve(obs func(Frame)) int {
	chains := 0
	for {
		var kill [Width][Height + 2]bool
		var pairs [][4]int
		any := false
		for x := 0; x < Width; x++ {
			for h := 0; h < Height+2; h++ {
				v := b.Cell[x][h]
				if v == 0 || v == Ojama {
					continue
				}
				for _, d := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
					nx, nh := x+d[0], h+d[1]
					if nx >= Width || nh < 0 || nh >= Height+2 {
						continue
					}
					if w := b.Cell[nx][nh]; w != 0 && w != Ojama && v+w == 10 {
						kill[x][h], kill[nx][nh], any = true, true, true
						if obs != nil {
							pairs = append(pairs, [4]int{x, h, nx, nh})
						}
					}
				}
			}
		}
		if !any {
			return chains
		}
		chains++
		if obs != nil {
			obs(Frame{Stage: StageVanish, Chain: chains, Board: *b, Vanish: marked(&kill), Pairs: pairs})
		}
		b.fall(&kill)
	}
}

// fall removes the marked cells and closes the gaps in every column.
func (b *Board) fall(kill *[Width][Height + 2]bool) {
	for x := 0; x < Width; x++ {
		k := 0
		for h := 0; h < Height+2; h++ {
			if b.Cell[x][h] != 0 && !kill[x][h] {
				b.Cell[x][k] = b.Cell[x][h]
				k++
			}
		}
		for ; k < Height+2; k++ {
			b.Cell[x][k] = 0
		}
	}
}

// Dead reports whether any column holds more than Danger blocks.
func (b *Board) Dead() bool {
	for x := 0; x < Width; x++ {
		if b.Cell[x][Danger] != 0 {
			return true
		}
	}
	return false
}
