// This file holds incremental scoring: a Tracker follows a game move by
// move and keeps both scores up to date by removing one graph edge at a
// time and, when an edge splits a region, relabelling the smaller side
// (found by two breadth-first searches run in lock step).

package separo

// Tracker keeps both colours' scores of a game incrementally. It mirrors
// the scoring graph of the board it was made from; feed it every move
// applied to that board.
type Tracker struct {
	g int // cells per side
	t [2]trackGraph
	// BFS scratch shared by both colours.
	seen   []uint32
	stamp  uint32
	qa, qb []uint16
	alt    []uint16
}

// trackGraph is one colour's graph with region labels.
type trackGraph struct {
	cut   [maxCells]uint8
	label []uint16 // per triangle
	size  []int32  // per label
	next  uint16
	score int
}

// NewTracker starts tracking from b's position (any position).
func NewTracker(b *Board) *Tracker {
	g := int(b.w) - 1
	n := 4 * g * g
	tr := &Tracker{g: g, seen: make([]uint32, n)}
	for c := range tr.t {
		tg := &tr.t[c]
		tg.cut = b.cut[c]
		tg.label = make([]uint16, n)
		tg.size = make([]int32, n+1)
		// Initial labels from a full union-find pass.
		var s Scratch
		b.ScoreWith(Color(c), &s) // leaves piece roots in s
		cuts := &b.cut[c]
		ids := make(map[uint16]uint16)
		for cell := range g * g {
			for tri := range 4 {
				r := s.find(uint16(4*cell) + uint16(piece[cuts[cell]&15][tri]))
				l, ok := ids[r]
				if !ok {
					l = tg.next
					tg.next++
					ids[r] = l
				}
				tg.label[4*cell+tri] = l
				tg.size[l]++
			}
		}
		for l := range tg.next {
			if tg.size[l] > 4 {
				tg.score++
			}
		}
	}
	return tr
}

// Score returns c's current score.
func (tr *Tracker) Score(c Color) int { return tr.t[c].score }

// Apply updates c's graph for m, a move just applied (or about to be) on
// the tracked board, and returns c's new score.
func (tr *Tracker) Apply(c Color, m Move) int {
	g := tr.g
	tg := &tr.t[c]
	cx, cy := int(min(m.S1.X, m.S2.X)), int(min(m.S1.Y, m.S2.Y))
	cell := cx*g + cy
	if m.S2.X-m.S1.X == m.S2.Y-m.S1.Y {
		tr.remove(tg, cell, cutNW, 4*cell+triN, 4*cell+triW)
		tr.remove(tg, cell, cutSE, 4*cell+triS, 4*cell+triE)
	} else {
		tr.remove(tg, cell, cutNE, 4*cell+triN, 4*cell+triE)
		tr.remove(tg, cell, cutSW, 4*cell+triS, 4*cell+triW)
	}
	ax, ay := int(min(m.S2.X, m.S3.X)), int(min(m.S2.Y, m.S3.Y))
	if m.S2.Y == m.S3.Y {
		if ay >= 1 && ay <= g-1 {
			up := ax*g + ay - 1
			tr.remove(tg, up, cutSouth, 4*up+triS, 4*(up+1)+triN)
		}
	} else if ax >= 1 && ax <= g-1 {
		left := (ax-1)*g + ay
		tr.remove(tg, left, cutEast, 4*left+triE, 4*(left+g)+triW)
	}
	return tg.score
}

// neighbours appends the triangles joined to node v under the cuts.
func (tr *Tracker) neighbours(tg *trackGraph, v int, out []uint16) []uint16 {
	g := tr.g
	cell, tri := v>>2, v&3
	cx, cy := cell/g, cell%g
	k := tg.cut[cell]
	base := uint16(cell * 4)
	switch tri {
	case triN:
		if k&cutNE == 0 {
			out = append(out, base+triE)
		}
		if k&cutNW == 0 {
			out = append(out, base+triW)
		}
		if cy > 0 && tg.cut[cell-1]&cutSouth == 0 {
			out = append(out, uint16(4*(cell-1)+triS))
		}
	case triE:
		if k&cutNE == 0 {
			out = append(out, base+triN)
		}
		if k&cutSE == 0 {
			out = append(out, base+triS)
		}
		if cx+1 < g && k&cutEast == 0 {
			out = append(out, uint16(4*(cell+g)+triW))
		}
	case triS:
		if k&cutSE == 0 {
			out = append(out, base+triE)
		}
		if k&cutSW == 0 {
			out = append(out, base+triW)
		}
		if cy+1 < g && k&cutSouth == 0 {
			out = append(out, uint16(4*(cell+1)+triN))
		}
	case triW:
		if k&cutNW == 0 {
			out = append(out, base+triN)
		}
		if k&cutSW == 0 {
			out = append(out, base+triS)
		}
		if cx > 0 && tg.cut[cell-g]&cutEast == 0 {
			out = append(out, uint16(4*(cell-g)+triE))
		}
	}
	return out
}

// remove cuts one edge (u, v) and, if that splits u's region, gives the
// smaller part a new label and updates the score.
func (tr *Tracker) remove(tg *trackGraph, cell int, bit uint8, u, v int) {
	if tg.cut[cell]&bit != 0 {
		return
	}
	tg.cut[cell] |= bit
	// Lock-step BFS from u (side A, stamp s) and v (side B, stamp s+1).
	tr.stamp += 2
	if tr.stamp < 2 { // wrapped
		clear(tr.seen)
		tr.stamp = 2
	}
	sa, sb := tr.stamp, tr.stamp+1
	tr.seen[u], tr.seen[v] = sa, sb
	tr.qa = append(tr.qa[:0], uint16(u))
	tr.qb = append(tr.qb[:0], uint16(v))
	ia, ib := 0, 0
	for {
		// One step of A.
		if ia == len(tr.qa) {
			tr.split(tg, tr.qa)
			return
		}
		x := int(tr.qa[ia])
		ia++
		tr.alt = tr.neighbours(tg, x, tr.alt[:0])
		for _, y := range tr.alt {
			switch tr.seen[y] {
			case sb:
				return // met B: still connected
			case sa:
			default:
				tr.seen[y] = sa
				tr.qa = append(tr.qa, y)
			}
		}
		// One step of B.
		if ib == len(tr.qb) {
			tr.split(tg, tr.qb)
			return
		}
		x = int(tr.qb[ib])
		ib++
		tr.alt = tr.neighbours(tg, x, tr.alt[:0])
		for _, y := range tr.alt {
			switch tr.seen[y] {
			case sa:
				return
			case sb:
			default:
				tr.seen[y] = sb
				tr.qb = append(tr.qb, y)
			}
		}
	}
}

// split moves the nodes of part (a whole new region) to a fresh label.
func (tr *Tracker) split(tg *trackGraph, part []uint16) {
	old := tg.label[part[0]]
	s := tg.size[old]
	k := int32(len(part))
	nl := tg.next
	tg.next++
	for _, x := range part {
		tg.label[x] = nl
	}
	tg.size[nl] = k
	tg.size[old] = s - k
	b2i := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	tg.score += b2i(k > 4) + b2i(s-k > 4) - b2i(s > 4)
}
