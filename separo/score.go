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

// A cell's cut internal edges split its four triangles into pieces (own
// diagonals come in pairs: none keeps one piece of 4, "\\" gives {N,E} and
// {S,W}, "/" gives {N,W} and {S,E}, both give four single triangles; the
// table covers all 16 patterns). piece[pattern][tri] is a triangle's piece,
// pieces[pattern] their number, pieceTris[pattern][piece] its triangles.
var (
	piece     [16][4]uint8
	pieces    [16]uint8
	pieceTris [16][4]uint16
)

func init() {
	// The internal edges of a cell: N–E, N–W, S–E, S–W with their cut bits.
	edges := [4]struct {
		a, b int
		bit  uint8
	}{{triN, triE, cutNE}, {triN, triW, cutNW}, {triS, triE, cutSE}, {triS, triW, cutSW}}
	for p := range 16 {
		comp := [4]int{0, 1, 2, 3}
		for changed := true; changed; {
			changed = false
			for _, e := range edges {
				if uint8(p)&e.bit == 0 && comp[e.a] != comp[e.b] {
					m := min(comp[e.a], comp[e.b])
					comp[e.a], comp[e.b] = m, m
					changed = true
				}
			}
		}
		var id [4]int
		for i := range id {
			id[i] = -1
		}
		for t := range 4 {
			if id[comp[t]] < 0 {
				id[comp[t]] = int(pieces[p])
				pieces[p]++
			}
			piece[p][t] = uint8(id[comp[t]])
			pieceTris[p][piece[p][t]]++
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
	if ra == rb {
		return
	}
	if s.size[ra] < s.size[rb] {
		ra, rb = rb, ra
	}
	s.parent[rb] = ra
	s.size[ra] += s.size[rb]
}

// Score returns c's score: the number of regions of c's graph with more than
// four triangles.
func (b *Board) Score(c Color) int {
	var s Scratch
	return b.ScoreWith(c, &s)
}

// ScoreWith is Score with a caller-owned buffer. It joins the pieces of
// neighbouring cells across every uncut side (union-find by size) and counts
// the regions of more than four triangles.
func (b *Board) ScoreWith(c Color, s *Scratch) int {
	g := int(b.w) - 1
	cuts := &b.cut[c]
	for cell := range g * g {
		base := uint16(4 * cell)
		k := cuts[cell] & 15
		for q := range uint16(pieces[k]) {
			s.parent[base+q] = base + q
			s.size[base+q] = pieceTris[k][q]
		}
	}
	for cx := range g {
		for cy := range g {
			cell := cx*g + cy
			base := uint16(4 * cell)
			k := cuts[cell]
			if cx+1 < g && k&cutEast == 0 {
				o := cell + g
				s.union(base+uint16(piece[k&15][triE]), uint16(4*o)+uint16(piece[cuts[o]&15][triW]))
			}
			if cy+1 < g && k&cutSouth == 0 {
				o := cell + 1
				s.union(base+uint16(piece[k&15][triS]), uint16(4*o)+uint16(piece[cuts[o]&15][triN]))
			}
		}
	}
	score := 0
	for cell := range g * g {
		base := uint16(4 * cell)
		for q := range uint16(pieces[cuts[cell]&15]) {
			if s.parent[base+q] == base+q && s.size[base+q] > 4 {
				score++
			}
		}
	}
	return score
}

// Regions labels every triangle of c's scoring graph with the region that
// scores it, so that a page can draw the regions behind c's score: the
// result has 4 entries per cell (index 4·cell + triangle, cell = cx·(size−1)
// + cy, triangles N, E, S, W), each a region number in 0..Score(c)−1
// (numbered in order of first triangle) or −1 when its region has four
// triangles or fewer and so does not score.
func (b *Board) Regions(c Color) []int {
	var s Scratch
	b.ScoreWith(c, &s)
	g := int(b.w) - 1
	out := make([]int, 4*g*g)
	label := map[uint16]int{}
	for cell := range g * g {
		k := b.cut[c][cell] & 15
		for t := range 4 {
			r := s.find(uint16(4*cell) + uint16(piece[k][t]))
			if s.size[r] <= 4 {
				out[4*cell+t] = -1
				continue
			}
			l, ok := label[r]
			if !ok {
				l = len(label)
				label[r] = l
			}
			out[4*cell+t] = l
		}
	}
	return out
}
