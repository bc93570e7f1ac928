// This file holds the enemy AIs: HATETRIS (with the well-count loop rule) and
// Mild (without it), and Expander, which computes the enemy's choice and the
// chosen piece's futures with reusable buffers.

package hatetris

import "fmt"

// AIKind names an enemy AI.
type AIKind uint8

// The enemy AIs.
const (
	// Hatetris is the current rule: avoid pieces that can lead back into a
	// well already seen at a spawn, then give the piece whose best placement
	// leaves the highest stack.
	Hatetris AIKind = iota
	// Mild is the rule without loop prevention (the game before June 2021).
	Mild
)

// String returns "hatetris" or "mild".
func (k AIKind) String() string {
	if k == Mild {
		return "mild"
	}
	return "hatetris"
}

// ParseAI reads "hatetris" or "mild".
func ParseAI(s string) (AIKind, error) {
	switch s {
	case "hatetris", "":
		return Hatetris, nil
	case "mild":
		return Mild, nil
	}
	return 0, fmt.Errorf("hatetris: unknown AI %q (want hatetris or mild)", s)
}

// Expander computes the enemy's piece for a well together with that piece's
// futures. Its buffers are reused between calls; it is not safe for
// concurrent use (give each goroutine its own).
type Expander struct {
	futs  [NumPieces][]Future
	locks [NumPieces]lockSet
	fl    flood
}

// Choose returns the enemy's piece for well w and the futures of that piece
// (valid until the next call). loops reports, for a future well, how many
// times it was already seen at a spawn on this game's path including w
// itself; nil means Mild (no loop rule).
func (e *Expander) Choose(w *Well, loops func(*Well) int) (Piece, []Future) {
	top := w.Top()
	pw := pad(w)
	nf := nearFull(w)
	// Ratings are computed lazily: peakNoClear is a cheap lower bound, and
	// the exact rating (which builds the wells of line-clearing locks) is
	// needed only for pieces that could come next in Mild order.
	var peak [NumPieces]int
	var exact [NumPieces]bool
	for p := Piece(0); p < NumPieces; p++ {
		e.fl.run(&pw, top, p)
		e.fl.locks(&e.locks[p], p)
		peak[p] = e.locks[p].peakNoClear(top)
		exact[p] = nf&e.locks[p].all == 0
	}
	var used [NumPieces]bool
	// next returns the next piece in Mild order: by (highest peak, rank).
	next := func() Piece {
		for {
			best := Piece(NumPieces)
			for p := Piece(0); p < NumPieces; p++ {
				if !used[p] && (best == NumPieces || peak[p] < peak[best]) {
					best = p
				}
			}
			if exact[best] {
				used[best] = true
				return best
			}
			peak[best] = e.locks[best].highestPeak(w, top, nf, best)
			exact[best] = true
		}
	}
	if loops == nil {
		p := next()
		e.futs[p] = e.locks[p].appendFutures(e.futs[p][:0], w, p)
		return p, e.futs[p]
	}
	// The first piece in Mild order with no looping future wins; if every
	// piece can loop, the smallest maximum count wins, ties by Mild order.
	best, bestLoops := Piece(0), -1
	for range NumPieces {
		p := next()
		e.futs[p] = e.locks[p].appendFutures(e.futs[p][:0], w, p)
		ml := -1
		for i := range e.futs[p] {
			ml = max(ml, loops(&e.futs[p][i].Well))
		}
		if ml <= 0 {
			return p, e.futs[p]
		}
		if bestLoops < 0 || ml < bestLoops {
			best, bestLoops = p, ml
		}
	}
	return best, e.futs[best]
}

// Enemy is a stateful enemy AI for one game: it remembers the wells seen at
// each spawn (for the loop rule).
type Enemy struct {
	kind AIKind
	seen map[Well]int
	exp  Expander
}

// NewEnemy returns a fresh enemy of the given kind.
func NewEnemy(kind AIKind) *Enemy {
	return &Enemy{kind: kind, seen: map[Well]int{}}
}

// Next records w as seen (HATETRIS) and returns the piece to spawn.
func (e *Enemy) Next(w *Well) Piece {
	if e.kind == Mild {
		p, _ := e.exp.Choose(w, nil)
		return p
	}
	e.seen[*w]++
	p, _ := e.exp.Choose(w, func(f *Well) int { return e.seen[*f] })
	return p
}
