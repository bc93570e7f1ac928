// This file holds scoring: each colour's graph of four triangles per cell,
// the edges its own roots cut, and the count of regions of more than four
// triangles (union-find over the remaining edges).

package separo

// Bits of Board.cut[c][cell]: the four edges inside a cell and the links to
// the right (E of this cell to W of the next) and below (S to N of the next).
const (
	cutNE    = 1 << 0
	cutNW    = 1 << 1
	cutSE    = 1 << 2
	cutSW    = 1 << 3
	cutEast  = 1 << 4
	cutSouth = 1 << 5
)

// Triangle indices inside a cell, as in separo-rs: N, E, S, W.
const (
	triN = 0
	triE = 1
	triS = 2
	triW = 3
)

// cutMove removes from c's graph the edges crossed by m's two roots.
func (b *Board) cutMove(c Color, m Move) {
	g := int(b.w) - 1
	// Diagonal root: one cell; "\" when dx == dy cuts N–W and S–E, "/" cuts N–E and S–W.
	cx, cy := min(m.S1.X, m.S2.X), min(m.S1.Y, m.S2.Y)
	cell := int(cx)*g + int(cy)
	if m.S2.X-m.S1.X == m.S2.Y-m.S1.Y {
		b.cut[c][cell] |= cutNW | cutSE
	} else {
		b.cut[c][cell] |= cutNE | cutSW
	}
	// Orthogonal root: the edge between the two cells it separates, if any.
	ax, ay := min(m.S2.X, m.S3.X), min(m.S2.Y, m.S3.Y)
	if m.S2.Y == m.S3.Y { // horizontal on line ay, from x=ax to ax+1
		if ay >= 1 && int(ay) <= g-1 {
			b.cut[c][int(ax)*g+int(ay)-1] |= cutSouth
		}
	} else { // vertical on line ax, from y=ay to ay+1
		if ax >= 1 && int(ax) <= g-1 {
			b.cut[c][(int(ax)-1)*g+int(ay)] |= cutEast
		}
	}
}

// Scratch is a caller-owned buffer for scoring; its zero value is ready.
type Scratch struct {
	parent [4 * maxCells]uint16
	size   [4 * maxCells]uint16
}

func (s *Scratch) find(x uint16) uint16 {
	p := &s.parent
	for p[x] != x {
		p[x] = p[p[x]]
		x = p[x]
	}
	return x
}

func (s *Scratch) union(a, b uint16) {
	ra, rb := s.find(a), s.find(b)
	if ra != rb {
		if ra < rb {
			s.parent[rb] = ra
		} else {
			s.parent[ra] = rb
		}
	}
}

// Score returns c's score: the number of regions of c's graph with more than
// four triangles.
func (b *Board) Score(c Color) int {
	var s Scratch
	return b.ScoreWith(c, &s)
}

// ScoreWith is Score with a caller-owned buffer.
func (b *Board) ScoreWith(c Color, s *Scratch) int {
	g := int(b.w) - 1
	n := 4 * g * g
	cuts := &b.cut[c]
	for cell := range g * g {
		base := uint16(4 * cell)
		k := cuts[cell] & 15
		if k == 0 {
			s.parent[base] = base
			s.parent[base+1] = base
			s.parent[base+2] = base
			s.parent[base+3] = base
			continue
		}
		s.parent[base] = base
		s.parent[base+1] = base + 1
		s.parent[base+2] = base + 2
		s.parent[base+3] = base + 3
		if k&cutNE == 0 {
			s.union(base+triN, base+triE)
		}
		if k&cutNW == 0 {
			s.union(base+triN, base+triW)
		}
		if k&cutSE == 0 {
			s.union(base+triS, base+triE)
		}
		if k&cutSW == 0 {
			s.union(base+triS, base+triW)
		}
	}
	for cx := range g {
		for cy := range g {
			cell := cx*g + cy
			base := uint16(4 * cell)
			k := cuts[cell]
			if cx+1 < g && k&cutEast == 0 {
				s.union(base+triE, uint16(4*(cell+g))+triW)
			}
			if cy+1 < g && k&cutSouth == 0 {
				s.union(base+triS, uint16(4*(cell+1))+triN)
			}
		}
	}
	for i := range n {
		s.size[i] = 0
	}
	for i := range n {
		s.size[s.find(uint16(i))]++
	}
	score := 0
	for i := range n {
		if s.size[i] > 4 {
			score++
		}
	}
	return score
}
