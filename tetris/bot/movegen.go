// movegen.go adapts the shared move generator (tetris/movegen) to the
// bot's Move type: complete 0G mode (Placements) and CC1's fast mode
// (FastPlacements), with times in CC1's cost model.

package bot

import (
	"slices"

	"github.com/yomi-ai/yomi/tetris"
	"github.com/yomi-ai/yomi/tetris/movegen"
)

// Move is one placement: the piece, its final origin and orientation (TBP
// convention), its spin status, whether the hold was used to get the piece,
// and its input time in the spec's cost model.
type Move struct {
	Piece Piece
	Rot   Rot
	X, Y  int8
	Spin  Spin
	Hold  bool
	Time  int16
}

// Placement returns the move's engine placement.
func (m Move) Placement() tetris.Placement {
	return tetris.Placement{Piece: m.Piece, Rot: m.Rot, X: m.X, Y: m.Y, Spin: m.Spin}
}

// Generator finds placements; it owns reusable buffers (one per thread).
type Generator struct {
	g   *movegen.Generator
	buf []movegen.Move
}

// NewGenerator returns a generator for CC1's rules (SRS, no 180, CC spins,
// Row19Or20 spawn).
func NewGenerator() *Generator {
	return &Generator{g: movegen.New(movegen.Options{})}
}

// Spawn returns the spawn position for p (spec §3, Row19Or20) and whether it fits.
func Spawn(b *Board, p Piece) (x, y int, ok bool) { return b.Spawn(p, tetris.Row19Or20) }

// Placements appends to dst every reachable final placement of piece p on b
// (none if p cannot spawn) and returns it (complete 0G mode).
func (g *Generator) Placements(dst []Move, b *Board, p Piece) []Move {
	g.buf = g.g.Generate(g.buf[:0], &b.Board, p)
	return g.convert(dst)
}

// FastPlacements is CC1's fast mode (spec §17): when every column is lower
// than 16 it seeds every orientation and column in free air, dropped, and
// expands further only states below the stack surface or with a spin. It
// may miss exotic placements; otherwise it behaves like Placements.
func (g *Generator) FastPlacements(dst []Move, b *Board, p Piece) []Move {
	g.buf = g.g.FastGenerate(g.buf[:0], &b.Board, p)
	return g.convert(dst)
}

// convert appends g.buf's moves to dst as Moves. It writes each field in
// place: a Move literal is built on the stack from byte stores and copied
// with one wider load, which the store buffer cannot forward (a stall per
// placement).
func (g *Generator) convert(dst []Move) []Move {
	n := len(dst)
	dst = slices.Grow(dst, len(g.buf))[:n+len(g.buf)]
	out := dst[n:]
	for i := range g.buf {
		m, o := &g.buf[i], &out[i]
		o.Piece, o.Rot, o.X, o.Y, o.Spin = m.Piece, m.Rot, m.X, m.Y, m.Spin
		o.Hold, o.Time = false, int16(min(m.Time, 1<<15-1))
	}
	return dst
}
