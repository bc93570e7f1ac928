// This file holds path enumeration (sfinder `path`): every distinct set of
// placements that perfect-clears the area for some sequence of a pattern,
// and a reduced ("minimal") list covering the same sequences.

package pc

import (
	"context"
	"fmt"
	"math/bits"
	"sort"
	"strings"
)

// Solution is one set of placements, in the original field's frame.
type Solution struct {
	Pieces []Piece  // piece of each placement, sorted by Masks
	Masks  []uint64 // cells of each placement (bit 10*y+x of the original field)
	Covers []int    // indices of the pattern's sequences it solves
}

// Format draws the solution as a field, each placement's piece letter in its cells.
func (s Solution) Format(f Field, h int) string {
	var b strings.Builder
	for y := h - 1; y >= 0; y-- {
		for x := 0; x < 10; x++ {
			c := byte('_')
			if f.Filled(x, y) {
				c = 'X'
			}
			for i, m := range s.Masks {
				if m>>(10*y+x)&1 != 0 {
					c = pieceLetters[s.Pieces[i]]
				}
			}
			b.WriteByte(c)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

type placed struct {
	p Piece
	m uint64
}

// enumerate appends every solution key reachable from this state.
func (s *solver) enumerate(f Field, h int, rows []int, hold Piece, q []Piece, cur []placed, found map[string][]placed) {
	if s.stopped() {
		return // the caller drops the run
	}
	if h == 0 {
		c := append([]placed(nil), cur...)
		sort.Slice(c, func(i, j int) bool { return c[i].m < c[j].m })
		var b strings.Builder
		for _, x := range c {
			fmt.Fprintf(&b, "%x.", x.m)
		}
		found[b.String()] = c
		return
	}
	if !s.solve(f, h, hold, q, nil) {
		return
	}
	try := func(p Piece, nhold Piece, rest []Piece) {
		for _, g := range s.placementsOf(f, h, p) {
			cells := uint64(g &^ f)
			var orig uint64
			for y := 0; y < h; y++ {
				orig |= (cells >> (10 * y) & fullRow) << (10 * rows[y])
			}
			var nrows []int
			for y := 0; y < h; y++ {
				if g.Row(y) != fullRow {
					nrows = append(nrows, rows[y])
				}
			}
			ng, nh := clearLines(g, h)
			s.enumerate(ng, nh, nrows, nhold, rest, append(cur, placed{p, orig}), found)
			if len(cur) == 0 && s.onRoot != nil {
				s.onRoot()
			}
		}
	}
	if len(q) > 0 {
		try(q[0], hold, q[1:])
	}
	if !s.hold {
		return
	}
	if hold != NoPiece {
		if len(q) == 0 {
			try(hold, NoPiece, nil) // queue exhausted: the held piece is still playable
		} else if hold != q[0] {
			try(hold, q[0], q[1:])
		}
	} else if len(q) >= 2 && q[0] != q[1] {
		try(q[1], q[0], q[2:])
	}
}

// rootMoves is the number of moves enumerate makes at the root of queue q
// (empty hold): Paths' unit of progress.
func (s *solver) rootMoves(f Field, h int, q []Piece) int {
	if len(q) == 0 || h == 0 {
		return 0
	}
	n := len(s.placementsOf(f, h, q[0]))
	if s.hold && len(q) >= 2 && q[0] != q[1] {
		n += len(s.placementsOf(f, h, q[1]))
	}
	return n
}

// Paths enumerates the distinct solutions over all sequences of the pattern
// (using needed+1 pieces with hold, needed without), and returns them with
// the indices of the sequences each one solves, sorted by key.
func Paths(ctx context.Context, f Field, pat *Pattern, opt Options) ([]Solution, int, error) {
	if opt.Height < 1 || opt.Height > MaxHeight {
		return nil, 0, fmt.Errorf("pc: clear height %d outside 1..%d", opt.Height, MaxHeight)
	}
	if uint64(f)>>(10*opt.Height) != 0 {
		return nil, 0, fmt.Errorf("pc: field has blocks above the clear height %d", opt.Height)
	}
	if n := pat.Count(); n > maxSequences {
		return nil, 0, fmt.Errorf("pc: pattern has %d sequences, at most %d", n, maxSequences)
	}
	need, err := PiecesNeeded(f, opt.Height)
	if err != nil {
		return nil, 0, err
	}
	use := need
	if opt.Hold {
		use++
	}
	seqs, err := pat.sequences(ctx)
	if err != nil {
		return nil, 0, err
	}
	if need >= pathsTiledFrom {
		return pathsTiled(ctx, f, need, use, seqs, opt)
	}
	s := newSolver(opt.Hold)
	s.ctx = ctx
	all := map[string]*Solution{}
	rows := make([]int, opt.Height)
	for i := range rows {
		rows[i] = i
	}
	perSeq := map[uint64]map[string][]placed{}
	// Progress counts the root's moves of every sequence (rootMoves): a
	// sequence alone can take seconds.
	g0, h0 := clearLines(f, opt.Height)
	var steps, base, made, moves int
	if opt.Progress != nil {
		for _, sq := range seqs {
			steps += s.rootMoves(g0, h0, sq)
		}
		s.onRoot = func() { made++; opt.Progress(base+min(made, moves), steps) }
	}
	for i, sq := range seqs {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		if opt.Progress != nil {
			moves, made = s.rootMoves(g0, h0, sq), 0
		}
		if len(sq) > use {
			sq = sq[:use]
		}
		k := packQueue(sq)<<5 | uint64(len(sq))
		found, ok := perSeq[k]
		if !ok {
			found = map[string][]placed{}
			g, h := clearLines(f, opt.Height)
			var live []int
			for y := 0; y < opt.Height; y++ {
				if f.Row(y) != fullRow {
					live = append(live, y)
				}
			}
			_ = rows
			s.enumerate(g, h, live, NoPiece, sq, nil, found)
			if s.err != nil {
				return nil, 0, s.err
			}
			perSeq[k] = found
		}
		if opt.Progress != nil {
			base += moves // all of them, also those of a pruned or cached sequence
			opt.Progress(base, steps)
		}
		for key, c := range found {
			sol := all[key]
			if sol == nil {
				sol = &Solution{}
				for _, x := range c {
					sol.Pieces = append(sol.Pieces, x.p)
					sol.Masks = append(sol.Masks, x.m)
				}
				all[key] = sol
			}
			sol.Covers = append(sol.Covers, i)
		}
	}
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]Solution, len(keys))
	for i, k := range keys {
		out[i] = *all[k]
	}
	return out, len(seqs), nil
}

// Minimal reduces solutions as sfinder's path "minimal" does: a solution is
// dropped when the sequences it solves are a subset of those of one other
// solution (of two with equal sets the earlier is kept). This is not a
// minimum set cover. Sets are bitsets; equal ones are merged first and a
// superset is looked for only among the sets holding the rarest element,
// so hundreds of thousands of solutions take seconds, not hours.
func Minimal(sols []Solution) []Solution {
	maxC := 0
	for _, s := range sols {
		for _, c := range s.Covers {
			maxC = max(maxC, c+1)
		}
	}
	words := (maxC + 63) / 64
	type set struct {
		bits  []uint64
		size  int
		first int // earliest solution with this set
	}
	var sets []set
	byKey := map[string]int{}
	of := make([]int, len(sols)) // distinct set of each solution
	for i, s := range sols {
		b := make([]uint64, words)
		for _, c := range s.Covers {
			b[c/64] |= 1 << (c % 64)
		}
		k := string(func() []byte {
			out := make([]byte, 0, 8*words)
			for _, w := range b {
				for j := 0; j < 8; j++ {
					out = append(out, byte(w>>(8*j)))
				}
			}
			return out
		}())
		j, ok := byKey[k]
		if !ok {
			j = len(sets)
			byKey[k] = j
			n := 0
			for _, w := range b {
				n += bits.OnesCount64(w)
			}
			sets = append(sets, set{b, n, i})
		}
		of[i] = j
	}
	holders := make([][]int, maxC) // distinct sets holding each element
	for j, st := range sets {
		for wi, w := range st.bits {
			for ; w != 0; w &= w - 1 {
				holders[wi*64+bits.TrailingZeros64(w)] = append(holders[wi*64+bits.TrailingZeros64(w)], j)
			}
		}
	}
	dominated := make([]bool, len(sets))
	for j, st := range sets {
		rare := -1
		for wi, w := range st.bits {
			for ; w != 0; w &= w - 1 {
				e := wi*64 + bits.TrailingZeros64(w)
				if rare < 0 || len(holders[e]) < len(holders[rare]) {
					rare = e
				}
			}
		}
		if rare < 0 {
			dominated[j] = len(sets) > 1 // the empty set is within any other
			continue
		}
		for _, k := range holders[rare] {
			if k == j || sets[k].size <= st.size {
				continue
			}
			sub := true
			for wi, w := range st.bits {
				if w&^sets[k].bits[wi] != 0 {
					sub = false
					break
				}
			}
			if sub {
				dominated[j] = true
				break
			}
		}
	}
	var out []Solution
	for i := range sols {
		if j := of[i]; !dominated[j] && sets[j].first == i {
			out = append(out, sols[i])
		}
	}
	return out
}

// pathsTiledFrom is the fewest placements for which Paths enumerates
// tilings once instead of searching per sequence (a variable for tests).
var pathsTiledFrom = maxSeqPieces + 1

// maxPathEntries bounds pathsTiled's memory: the solutions kept, counted
// as their covered sequences plus 16 words each (about 8 bytes an entry,
// 1.6 GB at the bound, within the 4 GiB the finder is meant to fit in).
var maxPathEntries = 200_000_000

// pathsTiled is Paths beyond maxSeqPieces placements: the tilings are
// enumerated once for all sequences (pathsShared) instead of per sequence.
func pathsTiled(ctx context.Context, f Field, need, use int, seqs [][]Piece, opt Options) ([]Solution, int, error) {
	index := map[uint64]int{}
	var uniq [][]Piece
	var members [][]int // sequences of each distinct truncated queue
	for i, sq := range seqs {
		if len(sq) > use {
			sq = sq[:use]
		}
		k := packQueue(sq)<<5 | uint64(len(sq))
		j, ok := index[k]
		if !ok {
			j = len(uniq)
			index[k] = j
			uniq = append(uniq, sq)
			members = append(members, nil)
		}
		members[j] = append(members[j], i)
	}
	var live []int // rows of f not full: the frame of the tilings
	for y := 0; y < opt.Height; y++ {
		if f.Row(y) != fullRow {
			live = append(live, y)
		}
	}
	g, h := clearLines(f, opt.Height)
	all := map[string]*Solution{}
	var b strings.Builder
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var stored int // cover entries kept, the bulk of the memory
	tooMany := false
	err := pathsShared(ctx, g, h, need, uniq, opt, func(cs []cand, fits []int) {
		if tooMany {
			return
		}
		c := make([]placed, len(cs))
		for i, x := range cs {
			var m uint64
			for y := 0; y < h; y++ {
				m |= (x.m >> (10 * y) & fullRow) << (10 * live[y])
			}
			c[i] = placed{x.p, m}
		}
		sort.Slice(c, func(i, j int) bool { return c[i].m < c[j].m })
		b.Reset()
		for _, x := range c {
			fmt.Fprintf(&b, "%x.", x.m)
		}
		sol := &Solution{}
		for _, x := range c {
			sol.Pieces = append(sol.Pieces, x.p)
			sol.Masks = append(sol.Masks, x.m)
		}
		for _, j := range fits {
			sol.Covers = append(sol.Covers, members[j]...)
		}
		sort.Ints(sol.Covers)
		all[b.String()] = sol
		if stored += len(sol.Covers) + 16; stored > maxPathEntries {
			tooMany = true
			cancel()
		}
	})
	if tooMany {
		return nil, 0, fmt.Errorf("pc: more than %d solutions and sequences covered, beyond the memory bound; narrow the pattern", maxPathEntries)
	}
	if err != nil {
		return nil, 0, err
	}
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]Solution, len(keys))
	for i, k := range keys {
		out[i] = *all[k]
	}
	return out, len(seqs), nil
}
