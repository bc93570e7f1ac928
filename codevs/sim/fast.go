// Fast: a padded column-byte field for searches. Only cells that moved since
// the last stable state are tested for vanishing, so a drop costs a few
// dozen neighbour tests instead of a scan of the whole field.
package sim

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// Fast geometry: columns 1..10 and rows 1..Height+2 hold the field; column 0
// and 11 and row 0 and the rows above are zero padding, so neighbour reads
// need no bounds checks. A zero or an ojama (11) never sums to 10 with a
// block, so the padding and ojama need no special case in the vanish test.
const (
	fastCols = Width + 2
	fastRows = 24
	fastCap  = Height + 2 // blocks a column can hold, as in Board
	noChange = fastRows
)

// Fast is a field with the same rules as Board, laid out for speed. The zero
// value is an empty field. It is a value type: copy it to branch a search.
type Fast struct {
	c [fastCols][fastRows]uint8 // c[x+1][h+1] is Board.Cell[x][h]
	h [fastCols]uint8           // blocks in column x+1
}

// FastFrom converts a Board (stable, as every turn leaves it) to a Fast.
func FastFrom(b *Board) Fast {
	var f Fast
	for x := 0; x < Width; x++ {
		for h := 0; h < fastCap && b.Cell[x][h] != 0; h++ {
			f.c[x+1][h+1] = uint8(b.Cell[x][h])
			f.h[x+1]++
		}
	}
	return f
}

// Board converts back to a Board.
func (f *Fast) Board() Board {
	var b Board
	for x := 0; x < Width; x++ {
		for h := 0; h < int(f.h[x+1]); h++ {
			b.Cell[x][h] = int8(f.c[x+1][h+1])
		}
	}
	return b
}

// At returns the block at column x, height h (0 = bottom); 0 when empty.
func (f *Fast) At(x, h int) int8 { return int8(f.c[x+1][h+1]) }

// Height returns the number of blocks in column x.
func (f *Fast) Height(x int) int { return int(f.h[x+1]) }

// Dead reports whether any column holds more than Danger blocks.
func (f *Fast) Dead() bool {
	for x := 1; x <= Width; x++ {
		if f.h[x] > Danger {
			return true
		}
	}
	return false
}

// MaxHeight returns the tallest column's height.
func (f *Fast) MaxHeight() int {
	m := uint8(0)
	for x := 1; x <= Width; x++ {
		m = max(m, f.h[x])
	}
	return int(m)
}

// Count returns the number of blocks and of ojama blocks on the field.
func (f *Fast) Count() (blocks, ojama int) {
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

func (f *Fast) push(x int, v uint8) {
	if v != 0 && f.h[x] < fastCap {
		f.h[x]++
		f.c[x][f.h[x]] = v
	}
}

// DropOjamaRow puts one ojama block on top of every column (no chains:
// ojama never vanishes by the sum rule).
func (f *Fast) DropOjamaRow() {
	for x := 1; x <= Width; x++ {
		f.push(x, Ojama)
	}
}

// Drop drops pack p with rotation r at column x (0..8) and resolves chains;
// it returns the chain count. Out-of-range moves are an error and change
// nothing.
func (f *Fast) Drop(p Pack, x, r int) (int, error) {
	if x < 0 || x > 8 || r < 0 || r > 3 {
		return 0, fmt.Errorf("illegal move x=%d r=%d", x, r)
	}
	return f.DropRotated(p.Rotate(r), x), nil
}

// DropRotated drops an already rotated pack at column x (0..8, unchecked)
// and returns the chain count; searches rotate each pack once.
func (f *Fast) DropRotated(q Pack, x int) int {
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
func (f *Fast) resolve(from *[fastCols]uint8) int {
	chains := 0
	for {
		var kill [fastCols]uint32
		var any uint32
		for x := 1; x <= Width; x++ {
			top := int(f.h[x])
			h := int(from[x])
			if h > top {
				continue
			}
			l, m, r := &f.c[x-1], &f.c[x], &f.c[x+1]
			var kl, km, kr uint32
			for ; h <= top; h++ {
				v := m[h]
				if v == Ojama {
					continue
				}
				// Match masks of the three cells h-1, h, h+1 of each
				// neighbour column, shifted to rows below; set-on-compare
				// instead of eight branches.
				t := 10 - v
				a := b2u(l[h-1] == t) | b2u(l[h] == t)<<1 | b2u(l[h+1] == t)<<2
				b := b2u(r[h-1] == t) | b2u(r[h] == t)<<1 | b2u(r[h+1] == t)<<2
				// The cell above, when not empty, moved too and tests
				// this one as its own cell below.
				c := b2u(m[h-1] == t)
				kl |= a << (h - 1)
				kr |= b << (h - 1)
				if a|b|c != 0 {
					km |= (c | 2) << (h - 1)
				}
			}
			kill[x-1] |= kl
			kill[x] |= km
			kill[x+1] |= kr
			any |= kl | km | kr
		}
		if any == 0 {
			return chains
		}
		chains++
		f.fall(&kill, from)
	}
}

// b2u is 1 for true, 0 for false (compiled to a set-on-condition).
func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// fall removes the cells marked in kill (bit h of kill[x] = row h of column
// x), closes the gaps and sets from[x] to the lowest moved row (noChange for
// untouched columns). A column is three little-endian words (row h is byte
// h), so removing a cell is a masked shift of the words above it; the
// padding above the top is zero, so zeros shift in.
func (f *Fast) fall(kill *[fastCols]uint32, from *[fastCols]uint8) {
	for x := 1; x <= Width; x++ {
		k := kill[x]
		if k == 0 {
			from[x] = noChange
			continue
		}
		from[x] = uint8(bits.TrailingZeros32(k))
		f.h[x] -= uint8(bits.OnesCount32(k))
		col := f.c[x][:]
		w0 := binary.LittleEndian.Uint64(col[0:8])
		w1 := binary.LittleEndian.Uint64(col[8:16])
		w2 := binary.LittleEndian.Uint64(col[16:24])
		for k != 0 { // highest kill first: the rows below it stay put
			h := uint(31 - bits.LeadingZeros32(k))
			k &^= 1 << h
			m := uint64(1)<<(8*(h&7)) - 1 // bytes below h in its word
			switch h >> 3 {
			case 0:
				w0 = w0&m | (w0>>8)&^m | w1<<56
				w1 = w1>>8 | w2<<56
				w2 >>= 8
			case 1:
				w1 = w1&m | (w1>>8)&^m | w2<<56
				w2 >>= 8
			default:
				w2 = w2&m | (w2>>8)&^m
			}
		}
		binary.LittleEndian.PutUint64(col[0:8], w0)
		binary.LittleEndian.PutUint64(col[8:16], w1)
		binary.LittleEndian.PutUint64(col[16:24], w2)
	}
}

// Explode applies the skill: every 5 and every non-ojama block 8-adjacent to
// one vanish, blocks fall, then chains resolve. It returns the blocks removed
// by the explosion and the chains that followed.
func (f *Fast) Explode() (blocks, chains int) {
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
		blocks += bits.OnesCount32(kill[x])
	}
	if blocks == 0 {
		return 0, 0
	}
	var from [fastCols]uint8
	f.fall(&kill, &from)
	return blocks, f.resolve(&from)
}

// SkillBlocks returns how many blocks the skill would remove now.
func (f *Fast) SkillBlocks() int {
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

// Hash returns a 64-bit FNV-1a style hash of the field contents.
func (f *Fast) Hash() uint64 {
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
func (f *Fast) Triggers(q Pack, x int) bool {
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
func (f *Fast) Potential() (chains, x, row int) {
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
			// v sums to 10 with a neighbour, so the new block vanishes
			// first: mark that vanish here and resolve the rest.
			t := uint8(10 - v)
			l, m, r := &f.c[c-1], &f.c[c], &f.c[c+1]
			var kill [fastCols]uint32
			kill[c-1] = (b2u(l[h-1] == t) | b2u(l[h] == t)<<1 | b2u(l[h+1] == t)<<2) << (h - 1)
			kill[c+1] = (b2u(r[h-1] == t) | b2u(r[h] == t)<<1 | b2u(r[h+1] == t)<<2) << (h - 1)
			kill[c] = (b2u(m[h-1] == t) | 2) << (h - 1)
			g := *f
			g.h[c]++
			g.c[c][h] = uint8(v)
			var from [fastCols]uint8
			g.fall(&kill, &from)
			n := 1 + g.resolve(&from)
			if n > chains || (n == chains && h-1 < row) {
				chains, x, row = n, c-1, h-1
			}
		}
	}
	return chains, x, row
}

// ojamaTop returns the row (1-based, as in c) of the highest ojama block in
// padded column c, 0 when it holds none.
func (f *Fast) ojamaTop(c int) int {
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
func (f *Fast) ErasePotential() (chains, x, row int) {
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
			kl, km, kr, trig := f.shiftKill(c, h)
			if !trig {
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
			// The first vanish after the erase is known: fall it here and
			// resolve the rest (resolve would find the same kill first).
			var kill [fastCols]uint32
			kill[c-1], kill[c], kill[c+1] = kl, km, kr
			var from [fastCols]uint8
			g.fall(&kill, &from)
			n := 2 + g.resolve(&from)
			if n > chains || (n == chains && h-1 > row) {
				chains, x, row = n, c-1, h-1
			}
		}
	}
	return chains, x, row
}

// shiftKill returns the cells that vanish first (kill masks of padded
// columns c-1, c, c+1, as resolve marks them) when the block at padded
// (c, h) is erased: the block from row k+1 lands at row k for k in
// h..top-1 and is tested against its new neighbours without a copy. The
// erase counts as a trigger (trig) only by a pair with an unmoved block:
// blocks that moved together keep their vertical pairs, which a stable
// field never holds (an unstable one may; then they still vanish with
// the rest, as resolve would mark them).
func (f *Fast) shiftKill(c, h int) (kl, km, kr uint32, trig bool) {
	top := int(f.h[c])
	l, m, r := &f.c[c-1], &f.c[c], &f.c[c+1]
	below := m[h-1] // the block under row k after the shift
	for k := h; k < top; k++ {
		v := m[k+1]
		if v == Ojama {
			below = v
			continue
		}
		t := 10 - v
		a := b2u(l[k-1] == t) | b2u(l[k] == t)<<1 | b2u(l[k+1] == t)<<2
		b := b2u(r[k-1] == t) | b2u(r[k] == t)<<1 | b2u(r[k+1] == t)<<2
		d := b2u(below == t)
		kl |= a << (k - 1)
		kr |= b << (k - 1)
		if a|b|d != 0 {
			km |= (d | 2) << (k - 1)
			trig = trig || a|b != 0 || k == h
		}
		below = v
	}
	return kl, km, kr, trig
}

// FireHeight returns, for dropping the rotated pack q at column x (0..8,
// unchecked), the highest row vanishing in the chain's first step among the
// columns the pack did not land in, less the highest among those it did
// (rows counted from 1, 0 when none vanishes there); f is not changed. A
// fire whose first vanish reaches up a neighbour column leaves the landing
// columns low (tanzaku ranks its actual fires by this, PEERS.md).
func (f *Fast) FireHeight(q Pack, x int) int {
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
