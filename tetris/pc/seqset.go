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
	"runtime"
	"sync"
	"sync/atomic"
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

// seqMemo is the memo shared by the workers of one run: a map split in
// shards, each under its own lock. Two workers may compute the same entry
// at once; they store the same set.
type seqMemo struct {
	shards [64]struct {
		mu sync.Mutex
		m  map[seqKey]seqSet
	}
}

func newSeqMemo() *seqMemo {
	m := &seqMemo{}
	for i := range m.shards {
		m.shards[i].m = map[seqKey]seqSet{}
	}
	return m
}

func (k seqKey) shard() int {
	return int((uint64(k.f)*0x9E3779B97F4A7C15 ^ uint64(k.budget)*0xC2B2AE3D27D4EB4F ^ uint64(k.h)) >> 58)
}

func (m *seqMemo) get(k seqKey) (seqSet, bool) {
	sh := &m.shards[k.shard()]
	sh.mu.Lock()
	v, ok := sh.m[k]
	sh.mu.Unlock()
	return v, ok
}

func (m *seqMemo) put(k seqKey, v seqSet) {
	sh := &m.shards[k.shard()]
	sh.mu.Lock()
	sh.m[k] = v
	sh.mu.Unlock()
}

// seqSolver computes the sets; it owns the placement cache (through a solver).
type seqSolver struct {
	ft   *fastTables
	bufs [MaxHeight*10/4 + 1][]Field // placement buffers, one per remaining-piece count
	memo *seqMemo
	ctx  context.Context
	err  error
	n    int // calls, to poll ctx

	fields int64 // distinct (field, budget) positions expanded
	gens   int64 // placement generations (one per position and piece)
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
	if v, ok := t.memo.get(key); ok {
		return v
	}
	if t.n++; t.n&1023 == 0 && t.err == nil {
		t.err = t.ctx.Err()
	}
	if t.err != nil {
		return nil
	}
	t.fields++
	var out seqSet
	for p := Piece(0); p < 7; p++ {
		if budget>>(4*p)&15 == 0 {
			continue
		}
		nb := budget - 1<<(4*p)
		t.gens++
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
			orChild(out, c, p, n)
		}
	}
	t.memo.put(key, out)
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
		if len(q) == 0 {
			return holdOrders(s, n, NoPiece, nil, append(order, hold), useHold)
		}
		return hold != q[0] && holdOrders(s, n, q[0], q[1:], append(order, hold), useHold)
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
	root, _, err := rootSet(ctx, f, h, n, budget, opt.Progress)
	if err != nil {
		return nil, err
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

// rootSet computes the set of f on all cores: the root's (piece,
// placement) moves are shared out to workers with one memo between them;
// the result does not depend on scheduling (a union of the same sets).
// progress, if set, is told how many of those moves are done.
func rootSet(ctx context.Context, f Field, h, n int, budget uint32, progress func(done, total int)) (seqSet, seqSolver, error) {
	if h == 0 || !feasible(f, h, n) {
		return nil, seqSolver{}, nil
	}
	type task struct {
		p Piece
		g Field
	}
	ft := fastTabs()
	var tasks []task
	var buf []Field
	for p := Piece(0); p < 7; p++ {
		if budget>>(4*p)&15 == 0 {
			continue
		}
		buf = ft.placements(f, h, p, buf[:0])
		for _, g := range buf {
			tasks = append(tasks, task{p, g})
		}
	}
	memo := newSeqMemo()
	workers := min(runtime.GOMAXPROCS(0), max(len(tasks), 1))
	parts := make([]seqSet, workers)
	solvers := make([]*seqSolver, workers)
	var next, done atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		t := &seqSolver{ft: ft, memo: memo, ctx: ctx}
		solvers[w] = t
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := make(seqSet, seqWords(n))
			for {
				i := int(next.Add(1) - 1)
				if i >= len(tasks) || t.err != nil {
					break
				}
				p := tasks[i].p
				ng, nh := clearLines(tasks[i].g, h)
				c := t.set(ng, nh, budget-1<<(4*p))
				orChild(out, c, p, n)
				if progress != nil && t.err == nil {
					progress(int(done.Add(1)), len(tasks))
				}
			}
			parts[w] = out
		}()
	}
	wg.Wait()
	var st seqSolver
	root := parts[0]
	for w, t := range solvers {
		if t.err != nil {
			return nil, st, t.err
		}
		st.fields += t.fields
		st.gens += t.gens
		if w > 0 {
			for i, x := range parts[w] {
				root[i] |= x
			}
		}
	}
	empty := true
	for _, x := range root {
		if x != 0 {
			empty = false
			break
		}
	}
	if empty {
		root = nil
	}
	return root, st, ctx.Err()
}

// orChild ORs c, a set of sequences of length n-1, into out (length n) as
// the sequences starting with p.
func orChild(out, c seqSet, p Piece, n int) {
	if c == nil {
		return
	}
	if n <= 2 {
		sh := uint(p)
		if n == 2 {
			sh *= 7
		}
		out[0] |= c[0] << sh
		return
	}
	blk := out[int(p)*len(c) : int(p)*len(c)+len(c)]
	for i, w := range c {
		blk[i] |= w
	}
}
