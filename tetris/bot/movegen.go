// movegen.go holds the bot's own placement generator (spec §17: complete
// 0G mode and CC1's fast mode): a cheapest-first search over (orientation, x, y, spin) with
// shifts, SRS rotations and sonic drops, deduplicated by final cells plus
// spin. It stands in for tetris/movegen until that package lands.

package bot

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

type mgState struct {
	r    Rot
	x, y int8
	spin Spin
	last int8 // last input, for the repeat cost
}

const (
	inLeft int8 = iota + 1
	inRight
	inCw
	inCcw
	inDrop
)

// Generator finds placements; it owns reusable buffers (one per thread).
type Generator struct {
	seen    [4][14][44][3]uint32 // stamp of the search that reached the state
	stamp   uint32
	buckets [][]mgState
	keys    [512]uint64 // open-addressing set of placement keys (+1) for this search
	kstamp  [512]uint32
	h       [10]int
	surf    [4][14]int8 // per (rot, x+2): lowest y resting on the column tops
}

// NewGenerator returns a generator with empty buffers.
func NewGenerator() *Generator {
	return &Generator{}
}

// Spawn returns the spawn position for p (spec §3, Row19Or20) and whether it fits.
func Spawn(b *Board, p Piece) (x, y int, ok bool) {
	if b.fits(p, North, 4, 19) {
		return 4, 19, true
	}
	if b.fits(p, North, 4, 20) {
		return 4, 20, true
	}
	return 0, 0, false
}

func dropY(b *Board, p Piece, r Rot, x, y int) int {
	for b.fits(p, r, x, y-1) {
		y--
	}
	return y
}

func placementKey(p Piece, r Rot, x, y int, spin Spin) uint64 {
	cs := &pieceCells[p][r]
	ymin := 100
	for _, c := range cs {
		ymin = min(ymin, y+int(c.y))
	}
	var k uint64
	for _, c := range cs {
		k |= 1 << uint((y+int(c.y)-ymin)*10+x+int(c.x))
	}
	return k | uint64(ymin)<<40 | uint64(spin)<<48
}

// Placements appends to dst every reachable final placement of piece p on b
// (none if p cannot spawn) and returns it (complete 0G mode).
func (g *Generator) Placements(dst []Move, b *Board, p Piece) []Move {
	return g.placements(dst, b, p, false)
}

// FastPlacements is CC1's fast mode (spec §17): when every column is lower
// than 16 it seeds every orientation and column at the spawn row, dropped,
// and expands further only states below the stack surface or with a spin.
// It may miss exotic placements; otherwise it behaves like Placements.
func (g *Generator) FastPlacements(dst []Move, b *Board, p Piece) []Move {
	return g.placements(dst, b, p, true)
}

// startCost approximates CC1's zero_g_starts cost of reaching (r, x) at the
// spawn row: rotations (a repeated Cw costs its release) then shifts.
func startCost(r Rot, x int) int {
	c := [4]int{0, 1, 3, 1}[r]
	d := x - 4
	if d < 0 {
		d = -d
	}
	if d > 0 {
		c += 1 + 2*(d-1)
	}
	return c
}

func (g *Generator) placements(dst []Move, b *Board, p Piece, fast bool) []Move {
	sx, sy, ok := Spawn(b, p)
	if !ok {
		return dst
	}
	g.stamp++
	if g.stamp == 0 {
		g.seen = [4][14][44][3]uint32{}
		g.kstamp = [512]uint32{}
		g.stamp = 1
	}
	b.Heights(&g.h)
	for r := range 4 {
		for xi := range 14 {
			ys := -100
			for _, c := range pieceCells[p][r] {
				cx := xi - 2 + int(c.x)
				if cx >= 0 && cx < 10 {
					ys = max(ys, g.h[cx]-int(c.y))
				}
			}
			g.surf[r][xi] = int8(max(ys, -100))
		}
	}
	for i := range g.buckets {
		g.buckets[i] = g.buckets[i][:0]
	}
	push := func(c int, s mgState) {
		v := &g.seen[s.r][int(s.x)+2][int(s.y)+2][s.spin]
		if *v == g.stamp {
			return
		}
		*v = g.stamp
		for len(g.buckets) <= c {
			g.buckets = append(g.buckets, nil)
		}
		g.buckets[c] = append(g.buckets[c], s)
	}
	if fast {
		for x := range 10 {
			if g.h[x] >= 16 {
				fast = false
			}
		}
	}
	if fast {
		nr := 4
		if p == O {
			nr = 1
		}
		for r := range Rot(nr) {
			for x := -2; x < 12; x++ {
				if !b.fits(p, r, x, 19) {
					continue
				}
				y := int(g.surf[r][x+2])
				push(startCost(r, x), mgState{r, int8(x), int8(y), SpinNone, -1}) // last −1 marks a seed
			}
		}
	} else {
		push(0, mgState{North, int8(sx), int8(sy), SpinNone, 0})
	}
	for c := 0; c < len(g.buckets); c++ {
		for i := 0; i < len(g.buckets[c]); i++ {
			s := g.buckets[c][i]
			x, y := int(s.x), int(s.y)
			seed := s.last < 0
			// record the lock at the sonic-drop position
			dy := y
			if ys := int(g.surf[s.r][x+2]); y > ys {
				dy = ys
			} else {
				dy = dropY(b, p, s.r, x, y)
			}
			spin := s.spin
			if dy != y {
				spin = SpinNone
			}
			top := true
			for _, cl := range pieceCells[p][s.r] {
				if dy+int(cl.y) < 20 {
					top = false
				}
			}
			if !top {
				k := placementKey(p, s.r, x, dy, spin)
				if g.addKey(k) {
					dst = append(dst, Move{Piece: p, Rot: s.r, X: int8(x), Y: int8(dy), Spin: spin, Time: int16(c)})
				}
			}
			if fast && !seed && s.spin == SpinNone && y >= int(g.surf[s.r][x+2]) {
				continue // above the stack: nothing new below
			}
			cost := func(in int8) int {
				if in == s.last {
					return c + 2
				}
				return c + 1
			}
			if b.fits(p, s.r, x-1, y) {
				push(cost(inLeft), mgState{s.r, int8(x - 1), int8(y), SpinNone, inLeft})
			}
			if b.fits(p, s.r, x+1, y) {
				push(cost(inRight), mgState{s.r, int8(x + 1), int8(y), SpinNone, inRight})
			}
			if dy != y {
				push(c+2*(y-dy), mgState{s.r, int8(x), int8(dy), SpinNone, inDrop})
			}
			if p != O {
				for _, d := range [2]Rot{1, 3} {
					nr := (s.r + d) & 3
					for k, kc := range kicks[p][s.r][nr] {
						nx, ny := x+int(kc.x), y+int(kc.y)
						if !b.fits(p, nr, nx, ny) {
							continue
						}
						sp := SpinNone
						if p == T {
							sp = b.tSpinStatus(nr, nx, ny, k)
						}
						in := inCw
						if d == 3 {
							in = inCcw
						}
						push(cost(in), mgState{nr, int8(nx), int8(ny), sp, in})
						break
					}
				}
			}
		}
	}
	return dst
}

// addKey inserts k into the per-search key set and reports whether it was new.
func (g *Generator) addKey(k uint64) bool {
	h := (k * 0x9E3779B97F4A7C15) >> 55
	for {
		if g.kstamp[h] != g.stamp {
			g.kstamp[h] = g.stamp
			g.keys[h] = k
			return true
		}
		if g.keys[h] == k {
			return false
		}
		h = (h + 1) & 511
	}
}
