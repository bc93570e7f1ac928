// This file adapts the rules package (separo) to the API's plain numbers.

package api

import (
	"math/rand/v2"

	"github.com/yomi-ai/yomi/separo"
)

// board wraps a separo.Board with a reusable move buffer.
type board struct {
	b   separo.Board
	buf []separo.Move
}

func newBoard(size int) (board, error) {
	b, err := separo.New(size)
	return board{b: b}, err
}

func toMove(m separo.Move) Move {
	return Move{int(m.S1.X), int(m.S1.Y), int(m.S2.X), int(m.S2.Y), int(m.S3.X), int(m.S3.Y)}
}

func fromMove(m Move) separo.Move {
	p := func(x, y int) separo.Point { return separo.Point{X: int8(x), Y: int8(y)} }
	return separo.Move{S1: p(m[0], m[1]), S2: p(m[2], m[3]), S3: p(m[4], m[5])}
}

func (b *board) legal(c int) []Move {
	b.buf = b.b.Moves(separo.Color(c), b.buf)
	out := make([]Move, len(b.buf))
	for i, m := range b.buf {
		out[i] = toMove(m)
	}
	return out
}

// apply plays m for c; m must be one of b.legal(c).
func (b *board) apply(c int, m Move) { b.b.Apply(separo.Color(c), fromMove(m)) }

func (b *board) score(c int) int { return b.b.Score(separo.Color(c)) }

func (b *board) regions(c int) []int { return b.b.Regions(separo.Color(c)) }

func (b *board) stones() [][3]int {
	out := [][3]int{}
	n := b.b.Size()
	for x := range n {
		for y := range n {
			if c, ok := b.b.At(separo.Point{X: int8(x), Y: int8(y)}); ok {
				out = append(out, [3]int{x, y, int(c)})
			}
		}
	}
	return out
}

// roots lists every root once, from the end where it points right, or down
// when vertical.
func (b *board) roots() [][5]int {
	out := [][5]int{}
	n := b.b.Size()
	for x := range n {
		for y := range n {
			p := separo.Point{X: int8(x), Y: int8(y)}
			c, ok := b.b.At(p)
			if !ok {
				continue
			}
			for _, d := range b.b.Roots(p) {
				if d.X > 0 || (d.X == 0 && d.Y > 0) {
					out = append(out, [5]int{x, y, x + int(d.X), y + int(d.Y), int(c)})
				}
			}
		}
	}
	return out
}

// playouts plays n random games from the start position and returns the
// number of moves made in all of them.
func playouts(size, n int, seed uint64) (int, error) {
	start, err := separo.New(size)
	if err != nil {
		return 0, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x5e9a70))
	var buf separo.PlayoutBuf
	plies := 0
	for range n {
		b := start
		b.Playout(separo.Red, rng, &buf)
		plies += b.Plies()
	}
	return plies, nil
}
