// This file holds the enemy AIs: HATETRIS (with the well-count loop rule) and
// Mild (without it), and Expander, which computes the enemy's choice and the
// chosen piece's futures with reusable buffers.

package hatetris

import (
	"fmt"
	"math"
)

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
	// v[p] is the best rating over the locks of p's flood so far: a lower
	// bound of p's rating, exact once the flood is done.
	v   [NumPieces]int
	rr  runs
	top int
	ls  lockSet
}

// prepare readies the expander for well w and starts every piece's flood.
func (e *Expander) prepare(w *Well) {
	e.top = w.Top()
	e.rr.build(w, e.top)
	for p := Piece(0); p < NumPieces; p++ {
		e.fl[p].start(e.top, p)
		e.v[p] = -1
	}
}

// advance floods piece p row by row until its flood is done or its bound
// e.v[p] exceeds t.
func (e *Expander) advance(w *Well, p Piece, t int) {
	f := &e.fl[p]
	lo := max(spawnY, f.y0-1)
	step := stepOf[p]
	for !f.done && e.v[p] <= t {
		step(f, &e.rr)
		// Row f.y-1 was computed: the locks of the row above are final.
		Y := f.y - 2
		if Y < lo {
			continue
		}
		lk := f.reach[Y] &^ f.fit[Y+1]
		if lk == 0 {
			continue
		}
		// Inlined f.rateRow: without a clear no lock rates above top.
		if e.v[p] < e.top {
			e.v[p] = max(e.v[p], min(e.top, lowestLock(p, Y, lk)))
		}
		if hits := lk & f.fill[Y]; hits != 0 {
			e.v[p] = max(e.v[p], rateClears(&e.rr, w, e.top, p, Y, hits))
		}
	}
}

// Choose returns the enemy's piece for well w and the futures of that piece
// (valid until the next call). loops reports, for a future well, how many
// times it was already seen at a spawn on this game's path including w
// itself; nil means Mild (no loop rule).
func (e *Expander) Choose(w *Well, loops func(*Well) int) (Piece, []Future) {
	e.prepare(w)
	// Every piece's first lock row, before comparing bounds.
	for p := Piece(0); p < NumPieces; p++ {
		e.advance(w, p, -1)
	}
	var used [NumPieces]bool
	// next returns the next piece in Mild order, by (rating, rank). Pieces
	// are flooded lazily: the unused piece c with the least (bound, rank) is
	// flooded until its bound passes the second least, or until its flood
	// is done, and then it comes first. So the winner's flood is complete,
	// and the others stop as soon as one lock rates above the winner.
	next := func() Piece {
		for {
			c, q := Piece(NumPieces), Piece(NumPieces)
			for p := Piece(0); p < NumPieces; p++ {
				if used[p] {
					continue
				}
				if c == NumPieces || e.v[p] < e.v[c] {
					c, q = p, c
				} else if q == NumPieces || e.v[p] < e.v[q] {
					q = p
				}
			}
			if e.fl[c].done {
				used[c] = true
				return c
			}
			// c stays first while its rating is at most t.
			t := math.MaxInt
			if q != NumPieces {
				t = e.v[q]
				if q < c {
					t--
				}
			}
			e.advance(w, c, t)
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
