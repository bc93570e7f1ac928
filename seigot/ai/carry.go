// This file holds the Carry term: the expected number of cells that will
// sit above the four rows of the next tetris when it is made, if the pieces
// still to come are drawn uniformly at random (the level-2 rule, and what a
// controller that sees only the previews can assume at level 1).
//
// By the drop-bonus identity (see Weights.DropPot) every cell left on the
// board by a tetris costs about one point of drop bonus, so at weight 1 the
// term is in points. The model is a small Markov decision process on the
// frame alone: the frame is the four rows above the well's bottom over the
// nine other columns, described by the cells each column still needs (0..4);
// the hold slot is part of the state. A piece is dropped either into the
// frame, resting on its surface with no gap under any of its columns (cells
// that stick out above the frame are carried), or anywhere above it (four
// cells carried); the hold may be swapped as in the game. The frame is done
// when it is full and an I is at hand (the current piece or the hold).
package ai

import (
	"math"
	"sync"

	"github.com/yomi-ai/yomi/seigot"
)

// carryKeys is the number of need vectors: nine columns of 0..4 cells.
const carryKeys = 1953125 // 5^9

// pow5[i] is the weight of column i in a need vector's key.
var pow5 = func() (t [frameCols]int32) {
	k := int32(1)
	for i := range t {
		t[i] = k
		k *= 5
	}
	return t
}()

// shapeProfiles lists, per shape, its distinct orientations as column
// profiles (each column of a tetromino is one contiguous run of cells).
var shapeProfiles = func() (t [8][]profile) {
	for s := uint8(1); s <= 7; s++ {
		for d := range dirCount(s) {
			offs := seigot.Offsets(int(s), d)
			minX, maxX, maxY := 9, -9, -9
			for _, o := range offs {
				minX, maxX, maxY = min(minX, o.X), max(maxX, o.X), max(maxY, o.Y)
			}
			p := profile{w: maxX - minX + 1}
			for i := range p.w {
				p.bot[i], p.top[i] = 9, -1
			}
			for _, o := range offs {
				h := int8(maxY - o.Y) // rows above the lowest cell (y grows downward)
				i := o.X - minX
				p.bot[i], p.top[i] = min(p.bot[i], h), max(p.top[i], h)
			}
			t[s] = append(t[s], p)
		}
	}
	return t
}()

// carryModel memoises the expected carried cells per need vector and hold
// (index 0: the hold has not been used yet; its first use is free here).
type carryModel struct {
	done []bool
	v    [][8]float32
	// States counts the need vectors solved so far.
	States int
}

// needKey returns the key of the frame above the well's bottom: column c
// (other than the well) needs b+4-h cells, clamped to 0..4 (cells already
// above the frame are the DropPot term's business; a column lower than the
// well's bottom is treated as needing four).
func needKey(ft *features, well int) int32 {
	b := ft.heights[well]
	var key int32
	i := 0
	for c, h := range ft.heights {
		if c == well {
			continue
		}
		d := min(max(b+4-h, 0), 4)
		key += int32(d) * pow5[i]
		i++
	}
	return key
}

// sharedCarry is the one memo all players use (its values depend on
// nothing else); carryMu guards it.
var (
	sharedCarry carryModel
	carryMu     sync.Mutex
)

// carryValue returns the expected cells carried from frame key with hold
// hold, from the shared memo.
func carryValue(key int32, hold uint8) float64 {
	carryMu.Lock()
	defer carryMu.Unlock()
	return sharedCarry.value(key, hold)
}

// value returns the expected cells carried from frame key with hold hold.
func (m *carryModel) value(key int32, hold uint8) float64 {
	if m.done == nil {
		m.done = make([]bool, carryKeys)
		m.v = make([][8]float32, carryKeys)
	}
	if !m.done[key] {
		m.solve(key)
	}
	return float64(m.v[key][hold])
}

// carryPlace drops profile p at frame column x onto the frame need (cells
// still needed per column). It reports whether the piece rests with every
// column on the surface and puts at least one cell inside the frame, and
// returns the new need vector's key and the cells above the frame.
func carryPlace(need *[frameCols]int8, key int32, p *profile, x int) (next int32, above int, ok bool) {
	if x+p.w > frameCols {
		return 0, 0, false
	}
	l := 4 - need[x] - p.bot[0]
	for i := 1; i < p.w; i++ {
		if 4-need[x+i]-p.bot[i] != l {
			return 0, 0, false
		}
	}
	next = key
	inside := 0
	for i := range p.w {
		lo, hi := l+p.bot[i], l+p.top[i]+1 // cells [lo, hi) of this column
		if hi > 4 {
			above += int(hi - max(lo, 4))
		}
		top := min(hi, 4)
		inside += int(max(top-lo, 0))
		next -= int32(need[x+i]-(4-top)) * pow5[x+i]
	}
	return next, above, inside > 0
}

// solve fills m.v[key] (and, first, every frame it can reach).
func (m *carryModel) solve(key int32) {
	var need [frameCols]int8
	sum := 0
	for i, k := 0, key; i < frameCols; i++ {
		need[i] = int8(k % 5)
		sum += int(need[i])
		k /= 5
	}
	inf := math.Inf(1)
	// g[p][q]: the least cost of putting piece p into the frame when the
	// hold holds q afterwards (a full frame takes an I as the tetris).
	var g [8][8]float64
	for p := 1; p <= 7; p++ {
		for q := range g[p] {
			g[p][q] = inf
		}
		if sum == 0 {
			if p == seigot.ShapeI {
				g[p] = [8]float64{}
			}
			continue
		}
		for pi := range shapeProfiles[p] {
			pr := &shapeProfiles[p][pi]
			for x := 0; x+pr.w <= frameCols; x++ {
				next, above, ok := carryPlace(&need, key, pr, x)
				if !ok {
					continue
				}
				if !m.done[next] {
					m.solve(next)
				}
				for q := range g[p] {
					g[p][q] = min(g[p][q], float64(above)+float64(m.v[next][q]))
				}
			}
		}
	}
	// Value iteration on the hold states of this frame (they reach each
	// other only through pieces put above the frame), from below.
	var v [8]float64
	for it := 0; it < 2000; it++ {
		delta := 0.0
		for h := 1; h <= 7; h++ {
			sum := 0.0
			for s := 1; s <= 7; s++ {
				sum += min(g[s][h], 4+v[h], g[h][s], 4+v[s])
			}
			n := sum / 7
			delta = max(delta, n-v[h])
			v[h] = n
		}
		if delta < 1e-6 {
			break
		}
	}
	sum0 := 0.0
	for s := 1; s <= 7; s++ {
		sum0 += min(g[s][0], v[s]) // place it, or put it in the unused hold
	}
	// With an unused hold, putting a piece above also keeps the hold empty.
	v0 := sum0 / 7
	for it := 0; it < 2000; it++ {
		sum := 0.0
		for s := 1; s <= 7; s++ {
			sum += min(g[s][0], v[s], 4+v0)
		}
		n := sum / 7
		d := math.Abs(n - v0)
		v0 = n
		if d < 1e-6 {
			break
		}
	}
	v[0] = v0
	for h := range v {
		m.v[key][h] = float32(v[h])
	}
	m.done[key] = true
	m.States++
}
