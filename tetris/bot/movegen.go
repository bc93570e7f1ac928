// movegen.go holds the bot's own placement generator (spec §17, complete
// 0G mode): a cheapest-first search over (orientation, x, y, spin) with
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
	keys    map[uint64]struct{}
}

// NewGenerator returns a generator with empty buffers.
func NewGenerator() *Generator {
	return &Generator{keys: make(map[uint64]struct{}, 128)}
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
// (none if p cannot spawn) and returns it.
func (g *Generator) Placements(dst []Move, b *Board, p Piece) []Move {
	sx, sy, ok := Spawn(b, p)
	if !ok {
		return dst
	}
	g.stamp++
	if g.stamp == 0 {
		g.seen = [4][14][44][3]uint32{}
		g.stamp = 1
	}
	clear(g.keys)
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
	push(0, mgState{North, int8(sx), int8(sy), SpinNone, 0})
	for c := 0; c < len(g.buckets); c++ {
		for i := 0; i < len(g.buckets[c]); i++ {
			s := g.buckets[c][i]
			x, y := int(s.x), int(s.y)
			// record the lock at the sonic-drop position
			dy := dropY(b, p, s.r, x, y)
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
				if _, dup := g.keys[k]; !dup {
					g.keys[k] = struct{}{}
					dst = append(dst, Move{Piece: p, Rot: s.r, X: int8(x), Y: int8(dy), Spin: spin, Time: int16(c)})
				}
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
