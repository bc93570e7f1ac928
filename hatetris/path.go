// This file holds PathTo, which finds the moves that bring a piece from its
// spawn to a given lock: used to turn a search's placements into a replay.

package hatetris

import "fmt"

// PathTo returns a shortest move sequence that spawns piece p in well w and
// locks it on the cells of future f (the last move is the blocked D). Any
// orientation filling the same cells counts.
func PathTo(w *Well, p Piece, f *Future) ([]Move, error) {
	type pos struct{ x, y, o int8 }
	tsh := &shapes[p][f.O]
	tClass, txa, tya := tsh.class, int(f.X)+tsh.xMin, int(f.Y)+tsh.yMin
	g := &Game{Well: *w, Piece: p}
	start := pos{(Width - 4) / 2, 0, 0}
	type link struct {
		from pos
		m    Move
	}
	prev := map[pos]link{start: {}}
	queue := []pos{start}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, m := range [4]Move{Left, Right, Down, Up} {
			n := c
			switch m {
			case Left:
				n.x--
			case Right:
				n.x++
			case Down:
				n.y++
			case Up:
				n.o = (n.o + 1) & 3
			}
			if g.fits(int(n.x), int(n.y), int(n.o)) {
				if _, ok := prev[n]; !ok {
					prev[n] = link{c, m}
					queue = append(queue, n)
				}
				continue
			}
			if m != Down {
				continue
			}
			sh := &shapes[p][c.o]
			if sh.class != tClass || int(c.x)+sh.xMin != txa || int(c.y)+sh.yMin != tya {
				continue
			}
			moves := []Move{Down}
			for at := c; at != start; at = prev[at].from {
				moves = append(moves, prev[at].m)
			}
			for i, j := 0, len(moves)-1; i < j; i, j = i+1, j-1 {
				moves[i], moves[j] = moves[j], moves[i]
			}
			return moves, nil
		}
	}
	return nil, fmt.Errorf("hatetris: no path for %v to orientation %d at (%d,%d)", p, f.O, f.X, f.Y)
}
