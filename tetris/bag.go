// bag.go holds the 7-bag randomizer (spec §7) on a math/rand/v2 PCG, as a
// value type, plus the piece-set type used for TBP's bag_state.

package tetris

import (
	"math/rand/v2"
	"strings"
)

// PieceSet is a set of pieces as a bit mask (bit p = piece p).
type PieceSet uint8

// AllPieces is the full bag.
const AllPieces PieceSet = 1<<NumPieces - 1

// Has reports whether p is in the set.
func (s PieceSet) Has(p Piece) bool { return p.Valid() && s>>uint(p)&1 != 0 }

// With returns the set with p added.
func (s PieceSet) With(p Piece) PieceSet { return s | 1<<uint(p) }

// Without returns the set with p removed.
func (s PieceSet) Without(p Piece) PieceSet { return s &^ (1 << uint(p)) }

// Len returns the number of pieces in the set.
func (s PieceSet) Len() int {
	n := 0
	for ; s != 0; s &= s - 1 {
		n++
	}
	return n
}

// Pieces returns the set's pieces in I, O, T, L, J, S, Z order.
func (s PieceSet) Pieces() []Piece {
	var out []Piece
	for p := I; p <= Z; p++ {
		if s.Has(p) {
			out = append(out, p)
		}
	}
	return out
}

// String lists the pieces ("IOT").
func (s PieceSet) String() string {
	var sb strings.Builder
	for _, p := range s.Pieces() {
		sb.WriteString(p.String())
	}
	return sb.String()
}

// Bag is a 7-bag randomizer: Left is the set of pieces still undrawn in
// the current bag (never empty: it refills when the last piece is drawn),
// exactly TBP's bag_state at the end of the drawn sequence.
type Bag struct {
	Left PieceSet
	rng  rand.PCG
}

// NewBag returns a full bag drawing from a PCG seeded with (seed1, seed2).
func NewBag(seed1, seed2 uint64) Bag {
	return Bag{Left: AllPieces, rng: *rand.NewPCG(seed1, seed2)}
}

// Next draws a piece uniformly from Left and removes it, refilling Left
// when it becomes empty.
func (b *Bag) Next() Piece {
	if b.Left == 0 {
		b.Left = AllPieces
	}
	n := uint64(b.Left.Len())
	k := boundedUint64(&b.rng, n)
	var p Piece
	for p = I; p <= Z; p++ {
		if b.Left.Has(p) {
			if k == 0 {
				break
			}
			k--
		}
	}
	b.Left = b.Left.Without(p)
	if b.Left == 0 {
		b.Left = AllPieces
	}
	return p
}

// boundedUint64 returns a uniform value in [0,n) without modulo bias.
func boundedUint64(src *rand.PCG, n uint64) uint64 {
	limit := -n % n // 2^64 mod n
	for {
		v := src.Uint64()
		if v >= limit {
			return v % n
		}
	}
}

// float64From returns a uniform float in [0,1).
func float64From(src *rand.PCG) float64 {
	return float64(src.Uint64()>>11) / (1 << 53)
}
