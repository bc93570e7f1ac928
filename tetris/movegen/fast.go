// fast.go is fast mode's direct formulation (fastRun): the same moves,
// times and order as pushing the seeds through the Dijkstra queue, with
// the seeds' hard drops handled without the queue.

package movegen

import (
	"slices"

	"github.com/yomi-ai/yomi/tetris"
)

// seedNode marks a Move.node that names a fast-mode seed.
const seedNode = 1 << 20

// fastRun is fast mode once every column is below fastFloor (g.surf
// computed). In the queue formulation every seed is popped (locking at
// its hard drop, which is exactly the surface y), its dropped state D is
// pushed and popped (locking at the same cells), and only D's neighbours
// that are below the surface or have a spin are explored further. So:
//
//   - tier A, the seeds' own locks, needs no queue: its keys are in (time,
//     inputs, index) order with the seeds, and a seed covering the cells of
//     an earlier one is a duplicate on every board (start.dup);
//   - tier B, the explored states, is the Dijkstra started from D's
//     neighbours. Without open holes (openHoles) no fitting position lies
//     below the surface, so for pieces other than T tier B is empty;
//   - the two lists are merged in (time, inputs, index) order keeping the
//     first move per key, which is the order the queue pops them in.
func (g *Generator) fastRun(dst []Move, slot int, b *tetris.Board, p tetris.Piece, hold bool) []Move {
	starts := g.starts[p]
	holdTime := uint32(0)
	if hold {
		holdTime = 1
	}
	if p != tetris.T && !openHoles(b) {
		return g.seedMoves(dst, slot, p, hold)
	}

	g.prepare(b, p)
	s := g.s[slot]
	s.reset()
	rotates := p != tetris.O
	allow180 := rotates && g.opts.Allow180
	explore := g.prepareNear(p)
	// Without any near bit no seed's drop leads anywhere fast mode
	// explores.
	for i := range starts {
		if !explore {
			break
		}
		st := &starts[i]
		r, x := st.r, int(st.x)
		y := int(g.surf[r][x])
		// Shifts reach (x±1, y) in orientation r, rotations positions
		// within maxKick in the target orientation: without a near bit
		// none of them is worth exploring.
		m := g.near[r][x]
		if rotates {
			m |= g.near[r.Cw()][x] | g.near[r.Ccw()][x]
			if allow180 {
				m |= g.near[r.Flip()][x]
			}
		}
		if m>>uint(y)&1 == 0 {
			continue
		}
		t := st.t + 2*uint32(int(st.y)-y)
		if st.last == Drop {
			t++
		}
		n := st.n + 1
		idxD := stateIndex(tetris.SpinNone, r, x, y, Drop)
		s.parent[st.idx] = int32(-2 - i)
		s.parent[idxD] = int32(st.idx)
		par := int32(idxD)
		// D's last input is Drop: every press costs one tick.
		if g.near[r][x]>>uint(y)&1 != 0 {
			if g.fits(r, x-1, y) && y < int(g.surf[r][x-1]) {
				s.pend(stateIndex(tetris.SpinNone, r, x-1, y, Left), par, t+1, n+1)
			}
			if g.fits(r, x+1, y) && y < int(g.surf[r][x+1]) {
				s.pend(stateIndex(tetris.SpinNone, r, x+1, y, Right), par, t+1, n+1)
			}
		}
		if !rotates {
			continue
		}
		if g.near[r.Cw()][x]>>uint(y)&1 != 0 {
			g.pushRotation(s, p, r, x, y, Cw, par, t+1, n+1)
		}
		if g.near[r.Ccw()][x]>>uint(y)&1 != 0 {
			g.pushRotation(s, p, r, x, y, Ccw, par, t+1, n+1)
		}
		if allow180 && g.near[r.Flip()][x]>>uint(y)&1 != 0 {
			g.pushRotation(s, p, r, x, y, Flip, par, t+1, n+1)
		}
	}
	mark := len(dst)
	if len(s.pending) > 0 {
		dst = g.drain(dst, s, slot, p, hold, true)
	}
	if len(dst) == mark {
		return g.seedMoves(dst, slot, p, hold)
	}
	// Merge the seeds' moves with tier B's (dst[mark:]), keeping the first
	// move per key.
	g.merged = append(g.merged[:0], dst[mark:]...)
	dst = dst[:mark]
	tier := g.merged
	j := 0
	emitTier := func() {
		m := tier[j]
		j++
		if k := keyIndex(m.Placement); s.mergeSeen[k] != s.stamp {
			s.mergeSeen[k] = s.stamp
			dst = append(dst, m)
		}
	}
	for i := range g.seeds[p] {
		sd := &g.seeds[p][i]
		st := &starts[sd.m.node&0xFFFF]
		for j < len(tier) && cmpKey(uint32(tier[j].Time)-holdTime, uint32(tier[j].Inputs), int(tier[j].node&0xFFFF), st.t, st.n, st.idx) < 0 {
			emitTier()
		}
		y := g.surf[sd.m.Rot][sd.m.X]
		if k := sd.key + int(y); s.mergeSeen[k] != s.stamp {
			s.mergeSeen[k] = s.stamp
			dst = append(dst, sd.m) // completed in place, as in seedMoves
			m := &dst[len(dst)-1]
			m.Y = y
			m.Hold = hold
			m.Time += int32(holdTime)
			m.node |= int32(slot << 16)
		}
	}
	for j < len(tier) {
		emitTier()
	}
	return dst
}

// seed is a fast-mode seed that is not a duplicate, ready to emit: its
// move without the landing y, hold or slot, and its key index without the
// landing y.
type seed struct {
	m   Move
	key int
}

// seedMoves appends the seeds' own moves: each non-duplicate seed hard
// dropped onto the surface.
func (g *Generator) seedMoves(dst []Move, slot int, p tetris.Piece, hold bool) []Move {
	seeds := g.seeds[p]
	n := len(dst)
	dst = slices.Grow(dst, len(seeds))[:n+len(seeds)]
	out := dst[n:]
	var ht int32
	if hold {
		ht = 1
	}
	node := int32(slot << 16)
	// Each move is copied into out and completed there: completing a
	// copy on the stack with byte stores and then copying it out with
	// wider loads would stall on store forwarding once per seed.
	for i := range seeds {
		m := &out[i]
		*m = seeds[i].m
		m.Y = g.surf[m.Rot][m.X]
		m.Hold = hold
		m.Time += ht
		m.node |= node
	}
	return dst
}

// maxKick bounds every kick test's offset in x and y.
const maxKick = 2

var _ = func() int {
	for p := range tetris.Piece(tetris.NumPieces) {
		for a := range tetris.Rot(4) {
			for b := range tetris.Rot(4) {
				for _, k := range tetris.Kicks(p, a, b) {
					if max(k.X, -k.X, k.Y, -k.Y) > maxKick {
						panic("movegen: a kick test is longer than maxKick")
					}
				}
			}
		}
	}
	return 0
}()

// pushRotation pushes the result of rotating a dropped seed (r, x, y)
// with input in at (t, n) if fast mode explores it: a spin or a position
// below the surface.
func (g *Generator) pushRotation(s *search, p tetris.Piece, r tetris.Rot, x, y int, in Input, par int32, t, n uint32) {
	if to, nx, ny, sp, ok := g.rotate(p, r, x, y, in); ok && (sp != tetris.SpinNone || ny < int(g.surf[to][nx])) {
		s.pend(stateIndex(sp, to, nx, ny, in), par, t, n)
	}
}

// prepareNear fills g.near (after prepare and computeSurf): bit y of
// near[to][x] is set when some fitting position in orientation to within
// maxKick columns and rows of (x, y) lies below the surface or (T) has
// three corners occupied — the only rotation targets fast mode explores.
// A rotation into to from (x, y) without the bit needs no kick tests, and
// a shift needs none without the bit in its own orientation. It reports
// whether any bit is set.
func (g *Generator) prepareNear(p tetris.Piece) bool {
	found := false
	isT := p == tetris.T
	for to := range tetris.Rot(4) {
		f := &footprints[p][to]
		var v [tetris.Width]uint64
		var any uint64
		for x := f.x0; x <= f.x1; x++ {
			want := uint64(1)<<uint(g.surf[to][x]) - 1
			if isT {
				want |= g.corner3[x]
			}
			m := g.fit[to][x] & want
			v[x] = m
			any |= m
		}
		near := &g.near[to]
		if any == 0 {
			*near = [tetris.Width]uint64{}
			continue
		}
		found = true
		// horizontally: v[x-maxKick..x+maxKick], in two steps of one column
		var a [tetris.Width]uint64
		a[0] = v[0] | v[1]
		for x := 1; x < tetris.Width-1; x++ {
			a[x] = v[x-1] | v[x] | v[x+1]
		}
		a[tetris.Width-1] = v[tetris.Width-2] | v[tetris.Width-1]
		near[0] = a[0] | a[1]
		for x := 1; x < tetris.Width-1; x++ {
			near[x] = a[x-1] | a[x] | a[x+1]
		}
		near[tetris.Width-1] = a[tetris.Width-2] | a[tetris.Width-1]
		// vertically: rows y-maxKick..y+maxKick
		for x := range near {
			m := near[x]
			m |= m<<1 | m>>1
			near[x] = m | m<<1 | m>>1
		}
	}
	return found
}

// openHoles reports whether some empty cell below a filled cell of its
// column (a hole) has an empty orthogonal neighbour. A piece can reach
// below the surface only with a cell in a hole, and a tetromino in a
// hole has another cell next to it: without open holes every fitting
// position lies at or above the surface.
func openHoles(b *tetris.Board) bool {
	var covered, below uint16
	top := b.MaxHeight()
	for y := top - 1; y >= 0; y-- {
		free := ^b.Rows[y] & tetris.FullRow
		if y > 0 {
			below = ^b.Rows[y-1] & tetris.FullRow
		} else {
			below = 0 // the floor
		}
		var above uint16 = tetris.FullRow // row top is empty
		if y+1 < tetris.Height {
			above = ^b.Rows[y+1] & tetris.FullRow
		}
		if holes := free & covered; holes&(free<<1|free>>1|below|above) != 0 {
			return true
		}
		covered |= b.Rows[y]
	}
	return false
}
