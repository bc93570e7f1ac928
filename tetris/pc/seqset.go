// This file holds the fast path of Percent: instead of searching every
// sequence of the pattern, it computes once, for each field, the set of
// piece orders (without hold) that clear it, as a bitset over sequences
// memoised on (field, pieces still allowed); then each pattern sequence is
// checked by enumerating the orders the hold makes possible from it (at
// most 2^n) and looking them up in the root's set.

package pc

import (
	"context"
	"math/bits"
)

// maxSeqPieces is the most placements the bitset path handles: the root set
// has 7^(n-2) words (7^6 words, 941 KiB, for 8 placements).
const maxSeqPieces = 8

// seqSet is a set of piece sequences of one length n, nil when empty. A
// sequence p1..pn is bit 7*p(n-1)+pn of word p1..p(n-2) read in base 7
// (for n <= 2 everything is in word 0: bit p1 for n = 1, 7*p1+p2 for n = 2,
// bit 0 for the empty sequence).
type seqSet []uint64

// seqWords returns the length of a seqSet of sequences of length n.
func seqWords(n int) int {
	w := 1
	for i := 2; i < n; i++ {
		w *= 7
	}
	return w
}

// seqKey is a memo key: a field, its height and the per-piece budget.
type seqKey struct {
	f      Field
	h      uint8
	budget uint32 // 4 bits per piece: how many more of that piece may be used
}

// seqSolver computes the sets; it owns the placement cache (through a solver).
type seqSolver struct {
	ft   *fastTables
	bufs [MaxHeight*10/4 + 1][]Field // placement buffers, one per remaining-piece count
	memo map[seqKey]seqSet
	ctx  context.Context
	err  error
	n    int // calls, to poll ctx
}

// set returns the orders (without hold) of pieces, within the budget, that
// perfect-clear the lowest h rows of f.
func (t *seqSolver) set(f Field, h int, budget uint32) seqSet {
	if h == 0 {
		return seqSet{1}
	}
	empty := 10*h - bits.OnesCount64(uint64(f))
	n := empty / 4
	if !feasible(f, h, n) {
		return nil
	}
	// Counts above n are equivalent: cap them so more positions share a key.
	for p := range 7 {
		if c := int(budget >> (4 * p) & 15); c > n {
			budget -= uint32(c-n) << (4 * p)
		}
	}
	key := seqKey{f, uint8(h), budget}
	if v, ok := t.memo[key]; ok {
		return v
	}
	if t.n++; t.n&1023 == 0 && t.err == nil {
		t.err = t.ctx.Err()
	}
	if t.err != nil {
		return nil
	}
	var out seqSet
	for p := Piece(0); p < 7; p++ {
		if budget>>(4*p)&15 == 0 {
			continue
		}
		nb := budget - 1<<(4*p)
		t.bufs[n] = t.ft.placements(f, h, p, t.bufs[n][:0])
		for _, g := range t.bufs[n] {
			ng, nh := clearLines(g, h)
			c := t.set(ng, nh, nb)
			if c == nil {
				continue
			}
			if out == nil {
				out = make(seqSet, seqWords(n))
			}
			if n <= 2 {
				sh := uint(p)
				if n == 2 {
					sh *= 7
				}
				out[0] |= c[0] << sh
				continue
			}
			blk := out[int(p)*len(c) : int(p+1)*len(c)]
			for i, w := range c {
				blk[i] |= w
			}
		}
	}
	t.memo[key] = out
	return out
}

// has reports whether sequence q (of the set's length) is in s.
func (s seqSet) has(q []Piece) bool {
	if s == nil {
		return false
	}
	n := len(q)
	switch n {
	case 0:
		return s[0]&1 != 0
	case 1:
		return s[0]>>q[0]&1 != 0
	}
	w := 0
	for _, p := range q[:n-2] {
		w = w*7 + int(p)
	}
	return s[w]>>(7*uint(q[n-2])+uint(q[n-1]))&1 != 0
}

// holdOrders reports whether some order of placing n pieces from queue q
// with hold (the finder's hold rules, see solver.expand) is in s.
func holdOrders(s seqSet, n int, hold Piece, q []Piece, order []Piece, useHold bool) bool {
	if len(order) == n {
		return s.has(order)
	}
	if len(q) > 0 && holdOrders(s, n, hold, q[1:], append(order, q[0]), useHold) {
		return true
	}
	if !useHold {
		return false
	}
	if hold != NoPiece {
		return len(q) > 0 && hold != q[0] && holdOrders(s, n, q[0], q[1:], append(order, hold), useHold)
	}
	return len(q) >= 2 && q[0] != q[1] && holdOrders(s, n, q[0], q[2:], append(order, q[1]), useHold)
}

// percentSets is Percent's fast path for n <= maxSeqPieces placements:
// res[i] reports whether uniq[i] (already truncated) has a perfect clear.
func percentSets(ctx context.Context, f Field, h, n int, uniq [][]Piece, opt Options) ([]bool, error) {
	// Budget: the most of each piece any one sequence holds (capped at 15).
	var budget uint32
	for _, q := range uniq {
		var c [7]int
		for _, p := range q {
			c[p]++
		}
		for p, k := range c {
			cur := int(budget >> (4 * p) & 15)
			if k > cur {
				budget += uint32(min(k, 15)-cur) << (4 * p)
			}
		}
	}
	t := &seqSolver{ft: fastTabs(), memo: map[seqKey]seqSet{}, ctx: ctx}
	root := t.set(f, h, budget)
	if t.err != nil {
		return nil, t.err
	}
	res := make([]bool, len(uniq))
	if root == nil {
		return res, ctx.Err()
	}
	order := make([]Piece, 0, n)
	for i, q := range uniq {
		res[i] = holdOrders(root, n, NoPiece, q, order[:0], opt.Hold)
	}
	return res, ctx.Err()
}
