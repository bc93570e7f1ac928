// refFast is a verbatim copy of the chain kernel (Fast) as it stood before
// session codevs-kernel sped it up (commit acb0004), kept as the slow
// reference of the differential tests in fast_kernel_test.go. Do not
// optimise it.
package sim

import (
	"fmt"
	"math/bits"
)

// refFast is a field with the same rules as Board, laid out for speed. The zero
// value is an empty field. It is a value type: copy it to branch a search.
type refFast struct {
	c [fastCols][fastRows]uint8 // c[x+1][h+1] is Board.Cell[x][h]
	h [fastCols]uint8           // blocks in column x+1
}

// refFastFrom converts a Board (stable, as every turn leaves it) to a refFast.
func refFastFrom(b *Board) refFast {
	var f refFast
	for x := 0; x < Width; x++ {
		for h := 0; h < fastCap && b.Cell[x][h] != 0; h++ {
			f.c[x+1][h+1] = uint8(b.Cell[x][h])
			f.h[x+1]++
		}
	}
	return f
}

// Board converts back to a Board.
func (f *refFast) Board() Board {
	var b Board
	for x := 0; x < Width; x++ {
		for h := 0; h < int(f.h[x+1]); h++ {
			b.Cell[x][h] = int8(f.c[x+1][h+1])
		}
	}
	return b
}

// At returns the block at column x, height h (0 = bottom); 0 when empty.
func (f *refFast) At(x, h int) int8 { return int8(f.c[x+1][h+1]) }

// Height returns the number of blocks in column x.
func (f *refFast) Height(x int) int { return int(f.h[x+1]) }

// Dead reports whether any column holds more than Danger blocks.
func (f *refFast) Dead() bool {
	for x := 1; x <= Width; x++ {
		if f.h[x] > Danger {
			return true
		}
	}
	return false
}

// MaxHeight returns the tallest column's height.
func (f *refFast) MaxHeight() int {
	m := uint8(0)
	for x := 1; x <= Width; x++ {
		m = max(m, f.h[x])
	}
	return int(m)
}

// Count returns the number of blocks and of ojama blocks on the field.
func (f *refFast) Count() (blocks, ojama int) {
	for x := 1; x <= Width; x++ {
		blocks += int(f.h[x])
		for h := 1; h <= int(f.h[x]); h++ {
			if f.c[x][h] == Ojama {
				ojama++
			}
		}
	}
	return
}

func (f *refFast) push(x int, v uint8) {
	if v != 0 && f.h[x] < fastCap {
		f.h[x]++
		f.c[x][f.h[x]] = v
	}
}

// DropOjamaRow puts one ojama block on top of every column (no chains:
// ojama never vanishes by the sum rule).
func (f *refFast) DropOjamaRow() {
	for x := 1; x <= Width; x++ {
		f.push(x, Ojama)
	}
}

// Drop drops pack p with rotation r at column x (0..8) and resolves chains;
// it returns the chain count. Out-of-range moves are an error and change
// nothing.
func (f *refFast) Drop(p Pack, x, r int) (int, error) {
	if x < 0 || x > 8 || r < 0 || r > 3 {
		return 0, fmt.Errorf("illegal move x=%d r=%d", x, r)
	}
	return f.DropRotated(p.Rotate(r), x), nil
}

// DropRotated drops an already rotated pack at column x (0..8, unchecked)
// and returns the chain count; searches rotate each pack once.
func (f *refFast) DropRotated(q Pack, x int) int {
	var from [fastCols]uint8
	for i := range from {
		from[i] = noChange
	}
	for i := 0; i < 2; i++ {
		c := x + 1 + i
		from[c] = f.h[c] + 1
		f.push(c, uint8(q.Bottom[i]))
		f.push(c, uint8(q.Top[i]))
	}
	return f.resolve(&from)
}

// resolve runs the vanish/fall loop, testing only cells at or above from[x]
// in each column (the cells that moved), and returns the chain count.
func (f *refFast) resolve(from *[fastCols]uint8) int {
	chains := 0
	for {
		var kill [fastCols]uint32
		any := false
		for x := 1; x <= Width; x++ {
			top := int(f.h[x])
			for h := int(from[x]); h <= top; h++ {
				v := f.c[x][h]
				if v == Ojama {
					continue
				}
				t := 10 - v
				l, m, r := &f.c[x-1], &f.c[x], &f.c[x+1]
				var k uint32
				if l[h-1] == t {
					kill[x-1] |= 1 << (h - 1)
					k = 1
				}
				if l[h] == t {
					kill[x-1] |= 1 << h
					k = 1
				}
				if l[h+1] == t {
					kill[x-1] |= 1 << (h + 1)
					k = 1
				}
				if r[h-1] == t {
					kill[x+1] |= 1 << (h - 1)
					k = 1
				}
				if r[h] == t {
					kill[x+1] |= 1 << h
					k = 1
				}
				if r[h+1] == t {
					kill[x+1] |= 1 << (h + 1)
					k = 1
				}
				if m[h-1] == t {
					kill[x] |= 1 << (h - 1)
					k = 1
				}
				if m[h+1] == t {
					kill[x] |= 1 << (h + 1)
					k = 1
				}
				if k != 0 {
					kill[x] |= 1 << h
					any = true
				}
			}
		}
		if !any {
			return chains
		}
		chains++
		f.fall(&kill, from)
	}
}

// fall removes the cells marked in kill (bit h of kill[x] = row h of column
// x), closes the gaps and sets from[x] to the lowest moved row (noChange for
// untouched columns).
func (f *refFast) fall(kill *[fastCols]uint32, from *[fastCols]uint8) {
	for x := 1; x <= Width; x++ {
		k := kill[x]
		if k == 0 {
			from[x] = noChange
			continue
		}
		low := refLowBit(k)
		from[x] = uint8(low)
		col := &f.c[x]
		top := int(f.h[x])
		w := low
		for h := low; h <= top; h++ {
			if k&(1<<h) == 0 {
				col[w] = col[h]
				w++
			}
		}
		for h := w; h <= top; h++ {
			col[h] = 0
		}
		f.h[x] = uint8(w - 1)
	}
}

func refLowBit(k uint32) int {
	n := 0
	for k&1 == 0 {
		k >>= 1
		n++
	}
	return n
}

// Explode applies the skill: every 5 and every non-ojama block 8-adjacent to
// one vanish, blocks fall, then chains resolve. It returns the blocks removed
// by the explosion and the chains that followed.
func (f *refFast) Explode() (blocks, chains int) {
	var kill [fastCols]uint32
	for x := 1; x <= Width; x++ {
		for h := 1; h <= int(f.h[x]); h++ {
			if f.c[x][h] != 5 {
				continue
			}
			for dx := -1; dx <= 1; dx++ {
				for dh := -1; dh <= 1; dh++ {
					v := f.c[x+dx][h+dh]
					if v != 0 && v != Ojama {
						kill[x+dx] |= 1 << (h + dh)
					}
				}
			}
		}
	}
	for x := 1; x <= Width; x++ {
		blocks += refPopcount(kill[x])
	}
	if blocks == 0 {
		return 0, 0
	}
	var from [fastCols]uint8
	f.fall(&kill, &from)
	return blocks, f.resolve(&from)
}

// SkillBlocks returns how many blocks the skill would remove now.
func (f *refFast) SkillBlocks() int {
	var kill [fastCols]uint32
	n := 0
	for x := 1; x <= Width; x++ {
		for h := 1; h <= int(f.h[x]); h++ {
			if f.c[x][h] != 5 {
				continue
			}
			for dx := -1; dx <= 1; dx++ {
				for dh := -1; dh <= 1; dh++ {
					v := f.c[x+dx][h+dh]
					if v != 0 && v != Ojama && kill[x+dx]&(1<<(h+dh)) == 0 {
						kill[x+dx] |= 1 << (h + dh)
						n++
					}
				}
			}
		}
	}
	return n
}

func refPopcount(k uint32) int {
	n := 0
	for ; k != 0; k &= k - 1 {
		n++
	}
	return n
}

// Hash returns a 64-bit FNV-1a style hash of the field contents.
func (f *refFast) Hash() uint64 {
	h := uint64(14695981039346656037)
	for x := 1; x <= Width; x++ {
		n := int(f.h[x])
		h ^= uint64(n)
		h *= 1099511628211
		col := &f.c[x]
		for i := 1; i <= n; i++ {
			h ^= uint64(col[i])
			h *= 1099511628211
		}
	}
	return h
}

// Triggers reports whether dropping the rotated pack q at column x (0..8,
// unchecked) would make anything vanish, without changing f. Searches use it
// to skip the copy and resolve of drops that make no chain.
func (f *refFast) Triggers(q Pack, x int) bool {
	var placed [4][2]int
	n := 0
	hs := [2]uint8{f.h[x+1], f.h[x+2]}
	for i := 0; i < 2; i++ {
		c := x + 1 + i
		for _, v := range [2]int8{q.Bottom[i], q.Top[i]} {
			if v != 0 && f.h[c] < fastCap {
				f.h[c]++
				f.c[c][f.h[c]] = uint8(v)
				placed[n] = [2]int{c, int(f.h[c])}
				n++
			}
		}
	}
	hit := false
	for i := 0; i < n && !hit; i++ {
		c, h := placed[i][0], placed[i][1]
		t := 10 - f.c[c][h]
		for dx := -1; dx <= 1 && !hit; dx++ {
			col := &f.c[c+dx]
			hit = col[h-1] == t || (dx != 0 && col[h] == t) || col[h+1] == t
		}
	}
	for i := 0; i < n; i++ {
		f.c[placed[i][0]][placed[i][1]] = 0
	}
	f.h[x+1], f.h[x+2] = hs[0], hs[1]
	return hit
}

// Potential returns the longest chain one extra block (any value 1..9)
// dropped on one column would trigger, the column (0..9) and the row (0 =
// bottom) where that block lands; chains is 0 (x, row -1) when no single
// block makes anything vanish. A search scores a field by the chain it
// holds ready rather than by the chains it has fired. Only columns whose
// new block stays at or below Danger count, and only values that sum to 10
// with a neighbour of the landing cell are tried. Ties go to the lower
// landing row, then the lower column.
func (f *refFast) Potential() (chains, x, row int) {
	x, row = -1, -1
	for c := 1; c <= Width; c++ {
		h := int(f.h[c]) + 1
		if h > Danger {
			continue
		}
		// Values that would vanish with a neighbour of (c, h): 10 - n for
		// each non-empty, non-ojama neighbour n (7 cells; above is empty).
		var want uint16
		for _, n := range [7]uint8{f.c[c-1][h-1], f.c[c-1][h], f.c[c-1][h+1], f.c[c+1][h-1], f.c[c+1][h], f.c[c+1][h+1], f.c[c][h-1]} {
			if n != 0 && n != Ojama {
				want |= 1 << (10 - n)
			}
		}
		for v := 1; v <= 9; v++ {
			if want&(1<<v) == 0 {
				continue
			}
			g := *f
			g.h[c]++
			g.c[c][h] = uint8(v)
			var from [fastCols]uint8
			for i := range from {
				from[i] = noChange
			}
			from[c] = uint8(h)
			n := g.resolve(&from)
			if n > chains || (n == chains && h-1 < row) {
				chains, x, row = n, c-1, h-1
			}
		}
	}
	return chains, x, row
}

// ojamaTop returns the row (1-based, as in c) of the highest ojama block in
// padded column c, 0 when it holds none.
func (f *refFast) ojamaTop(c int) int {
	for h := int(f.h[c]); h >= 1; h-- {
		if f.c[c][h] == Ojama {
			return h
		}
	}
	return 0
}

// ErasePotential returns the longest chain that follows when one block
// inside a column vanishes, counting that vanish as the first chain, and
// the block's column (0..9) and row (0 = bottom); chains is 0 (x, row -1)
// when no block qualifies. A qualifying block is not ojama, not its
// column's top block (blocks above it must fall into its place; erasing a
// top block moves nothing), and a block dropped beside it could still touch
// it: in some neighbour column the highest ojama row is at or below the
// block's row (ojama never vanishes, so a neighbour can be dug down only to
// just above it). Unlike Potential, whose extra block lands on a column top
// and is covered by one ojama row, this chain starts inside the field and
// survives a row above it. Ties go to the higher row, then the lower column.
func (f *refFast) ErasePotential() (chains, x, row int) {
	x, row = -1, -1
	oj := [fastCols + 1]int{}
	for c := 1; c <= Width; c++ {
		oj[c] = f.ojamaTop(c)
	}
	// Edge columns have one neighbour: the padding column never lets a
	// block be reached (its "ojama top" is above every row).
	oj[0], oj[Width+1] = fastRows, fastRows
	for c := 1; c <= Width; c++ {
		top := int(f.h[c])
		reach := min(oj[c-1], oj[c+1]) // lowest row a neighbour can touch from
		col := &f.c[c]
		for h := max(reach, 1); h < top; h++ {
			if col[h] == Ojama {
				continue
			}
			// After the erase, the block from row r+1 sits at row r (r >= h).
			// Only cells that moved can vanish first; test them in place.
			if !f.shiftTriggers(c, h) {
				if 1 > chains || (1 == chains && h-1 > row) {
					chains, x, row = 1, c-1, h-1
				}
				continue
			}
			g := *f
			gc := &g.c[c]
			copy(gc[h:top], gc[h+1:top+1])
			gc[top] = 0
			g.h[c]--
			var from [fastCols]uint8
			for i := range from {
				from[i] = noChange
			}
			from[c] = uint8(h)
			n := 1 + g.resolve(&from)
			if n > chains || (n == chains && h-1 > row) {
				chains, x, row = n, c-1, h-1
			}
		}
	}
	return chains, x, row
}

// shiftTriggers reports whether erasing the block at padded (c, h) makes
// any moved block vanish: the block from row r+1 lands at row r for r in
// h..top-1 and is tested against its new neighbours without a copy.
// Blocks that moved together keep their vertical pairs; only the lowest
// moved block gets a new block below it.
func (f *refFast) shiftTriggers(c, h int) bool {
	top := int(f.h[c])
	l, m, r := &f.c[c-1], &f.c[c], &f.c[c+1]
	for k := h; k < top; k++ {
		v := m[k+1]
		if v == Ojama {
			continue
		}
		t := 10 - v
		if l[k-1] == t || l[k] == t || l[k+1] == t || r[k-1] == t || r[k] == t || r[k+1] == t {
			return true
		}
		if k == h && m[h-1] == t {
			return true
		}
	}
	return false
}

// FireHeight returns, for dropping the rotated pack q at column x (0..8,
// unchecked), the highest row vanishing in the chain's first step among the
// columns the pack did not land in, less the highest among those it did
// (rows counted from 1, 0 when none vanishes there); f is not changed. A
// fire whose first vanish reaches up a neighbour column leaves the landing
// columns low (tanzaku ranks its actual fires by this, PEERS.md).
func (f *refFast) FireHeight(q Pack, x int) int {
	g := *f
	var from [fastCols]uint8
	for i := range from {
		from[i] = noChange
	}
	var landed [fastCols]bool
	for i := 0; i < 2; i++ {
		c := x + 1 + i
		from[c] = g.h[c] + 1
		for _, v := range [2]int8{q.Bottom[i], q.Top[i]} {
			if v != 0 && g.h[c] < fastCap {
				g.push(c, uint8(v))
				landed[c] = true
			}
		}
	}
	var kill [fastCols]uint32
	for c := 1; c <= Width; c++ {
		for h := int(from[c]); h <= int(g.h[c]); h++ {
			v := g.c[c][h]
			if v == Ojama {
				continue
			}
			t := 10 - v
			for dx := -1; dx <= 1; dx++ {
				col := &g.c[c+dx]
				for dh := -1; dh <= 1; dh++ {
					if (dx != 0 || dh != 0) && col[h+dh] == t {
						kill[c+dx] |= 1 << (h + dh)
						kill[c] |= 1 << h
					}
				}
			}
		}
	}
	in, out := 0, 0
	for c := 1; c <= Width; c++ {
		if kill[c] == 0 {
			continue
		}
		top := bits.Len32(kill[c]) - 1 // bit h is row h, counted from 1
		if landed[c] {
			in = max(in, top)
		} else {
			out = max(out, top)
		}
	}
	return out - in
}
