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
	futs [NumPieces][]Future
	fl   [NumPieces]flood
	rr   runs
	wi   wellInfo
	ls   lockSet
}

// Choose returns the enemy's piece for well w and the futures of that piece
// (valid until the next call). loops reports, for a future well, how many
// times it was already seen at a spawn on this game's path including w
// itself; nil means Mild (no loop rule).
func (e *Expander) Choose(w *Well, loops func(*Well) int) (Piece, []Future) {
	e.wi.build(w)
	top := e.wi.top
	e.rr.build(w, top)
	// Ratings are computed lazily: peakNoClear is a lower bound (exact when
	// no lock can complete a line), and a piece's rating is only compared
	// with the next best bound, which a single lock may already beat.
	var lb [NumPieces]int
	var exact [NumPieces]bool
	for p := Piece(0); p < NumPieces; p++ {
		f := &e.fl[p]
		f.run(&e.rr, top, p)
		lb[p] = f.peakNoClear(top, p)
		exact[p] = !f.mayClear(&e.wi)
	}
	var used [NumPieces]bool
	// next returns the next piece in Mild order: by (rating, rank).
	next := func() Piece {
		for {
			// c and q are the first and second unused pieces by (bound, rank).
			c, q := Piece(NumPieces), Piece(NumPieces)
			for p := Piece(0); p < NumPieces; p++ {
				if used[p] {
					continue
				}
				if c == NumPieces || lb[p] < lb[c] {
					c, q = p, c
				} else if q == NumPieces || lb[p] < lb[q] {
					q = p
				}
			}
			if exact[c] || q == NumPieces {
				used[c] = true
				return c
			}
			// c comes first if its rating is at most t.
			t := lb[q]
			if q < c {
				t--
			}
			v := e.fl[c].exceeds(w, &e.wi, c, t)
			if v < 0 {
				used[c] = true
				return c
			}
			lb[c] = v
		}
	}
	futures := func(p Piece) []Future {
		e.fl[p].locks(&e.ls, p)
		e.futs[p] = e.ls.appendFutures(e.futs[p][:0], w, p)
		return e.futs[p]
	}
	if loops == nil {
		p := next()
		return p, futures(p)
	}
	// The first piece in Mild order with no looping future wins; if every
	// piece can loop, the smallest maximum count wins, ties by Mild order.
	best, bestLoops := Piece(0), -1
	for range NumPieces {
		p := next()
		futs := futures(p)
		ml := -1
		for i := range futs {
			ml = max(ml, loops(&futs[i].Well))
		}
		if ml <= 0 {
			return p, futs
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
