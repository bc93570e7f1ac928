// This file holds NetEval, the net as a beam-search evaluator for wells.
package train

import (
	"fmt"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/nn"
)

// Blocks is the number of blocks NetEval splits a well's first-layer sum
// into: block s holds the 10 windows of window row s (padded rows s..s+3)
// and the row pattern of row s; the last block also holds rows 14 and 15.
// A block is a function of the 4 padded rows it covers, so its sum can be
// cached by them.
const Blocks = WindowStarts

// Tables is the per-net precomputation NetEval shares across goroutines.
type Tables struct {
	net *nn.Net
	// base[s] = B1 + s empty blocks: the first-layer sum of the top s
	// blocks of a well whose top s+3 rows are empty.
	base [][]float32
	// empty is the sum of one block of 4 empty rows.
	empty []float32
}

// NewTables checks the net's shape and precomputes its empty-block sums.
func NewTables(net *nn.Net) (*Tables, error) {
	if net.Inputs != Inputs {
		return nil, fmt.Errorf("train: net has %d inputs, HATETRIS features need %d", net.Inputs, Inputs)
	}
	t := &Tables{net: net, base: make([][]float32, Blocks+1), empty: make([]float32, net.Hidden)}
	var w hatetris.Well
	pad := padded(&w)
	blockSum(net, t.empty, blockKey(&pad, 0), 0)
	acc := append([]float32(nil), net.B1...)
	for s := 0; s <= Blocks; s++ {
		t.base[s] = append([]float32(nil), acc...)
		addRow(acc, t.empty)
	}
	return t, nil
}

// Net returns the net the tables were built for.
func (t *Tables) Net() *nn.Net { return t.net }

// addRow adds row to acc, four lanes at a time (the compiler does not
// vectorise; unrolling removes most loop and bounds-check overhead).
func addRow(acc, row []float32) {
	row = row[:len(acc)]
	j := 0
	for ; j+4 <= len(acc); j += 4 {
		a, r := acc[j:j+4:j+4], row[j:j+4:j+4]
		a[0] += r[0]
		a[1] += r[1]
		a[2] += r[2]
		a[3] += r[3]
	}
	for ; j < len(acc); j++ {
		acc[j] += row[j]
	}
}

// sumRows sets dst = a + b.
func sumRows(dst, a, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for j := range dst {
		dst[j] = a[j] + b[j]
	}
}

// blockKey packs the 4 padded rows of block s (and a mark for the last
// block, whose row patterns differ) into a cache key; it is never 0.
func blockKey(pad *[Rows + 1]uint16, s int) uint64 {
	v := uint64(pad[s]) | uint64(pad[s+1])<<12 | uint64(pad[s+2])<<24 | uint64(pad[s+3])<<36
	if s == Blocks-1 {
		v |= 1 << 48
	}
	return v
}

// blockSum sets sum to block s's first-layer contribution, from its key
// alone: the row pattern(s) first, then the 10 windows left to right.
func blockSum(net *nn.Net, sum []float32, v uint64, s int) {
	h := net.Hidden
	w1 := net.W1
	clear(sum)
	rows := 1
	if s == Blocks-1 {
		rows = 3 // rows 13, 14 and 15 (the 4th padded row is the floor)
	}
	for d := 0; d < rows; d++ {
		i := int(v >> (12*d + 1) & 1023)
		addRow(sum, w1[i*h:][:h])
	}
	for x := 0; x < hatetris.Width; x++ {
		t := v >> uint(x)
		i := RowPatterns + int(t&7|t>>9&0x38|t>>18&0x1c0|t>>27&0xe00)
		addRow(sum, w1[i*h:][:h])
	}
}

// NetEval values wells with a net. The first layer's sum is the base for
// the well's empty top blocks plus the sums of its other blocks, each
// cached by the 4 rows it covers (children of one parent share most of
// them), so a cached block gives the same bits as a fresh one.
//
// After SetParent (the beam calls it before valuing a parent's children),
// Eval is incremental, NNUE-style: it keeps the parent's prefix and suffix
// sums of blocks, and a child that differs from the parent in rows a..b
// costs the prefix before block a−3, the child's blocks a−3..b and the
// suffix after b (a lock changes at most 4 rows); when that is not cheaper
// (line clears shift the rows above them) it sums from scratch. The
// activations use nn.TanhExpFast. It owns its buffers and cache and
// allocates nothing per call: use one per goroutine (see Tables.New).
type NetEval struct {
	t    *Tables
	h    int
	acc  []float32
	keys []uint64  // block cache keys (0 = empty slot)
	vals []float32 // cacheSize × Hidden block sums

	parent   hatetris.Well
	hasPar   bool
	pre, suf []float32 // (Blocks+1) × Hidden: pre[s] = base + blocks < s, suf[s] = blocks ≥ s
	incr     int64     // Evals summed incrementally (for tests and profiles)
}

// cacheBits sizes the per-goroutine block cache (4096 entries).
const cacheBits = 12

// New returns an evaluator for one goroutine.
func (t *Tables) New() *NetEval {
	h := t.net.Hidden
	return &NetEval{t: t, h: h, acc: make([]float32, h), keys: make([]uint64, 1<<cacheBits), vals: make([]float32, h<<cacheBits),
		pre: make([]float32, (Blocks+1)*h), suf: make([]float32, (Blocks+1)*h)}
}

// Value returns the net's value in [-1, 1] for w (higher is better for the
// player), summed from scratch. Wells with cells above the bar or full rows
// are an error.
func (e *NetEval) Value(w *hatetris.Well) (float32, error) {
	if err := check(w); err != nil {
		return 0, err
	}
	e.scratch(w)
	return e.t.net.OutputFast(e.acc), nil
}

// block returns the (cached) sum of block s of a padded well.
func (e *NetEval) block(pad *[Rows + 1]uint16, s int) []float32 {
	v := blockKey(pad, s)
	h := e.h
	slot := int((v * 0x9e3779b97f4a7c15) >> (64 - cacheBits))
	sum := e.vals[slot*h : (slot+1)*h]
	if e.keys[slot] != v {
		blockSum(e.t.net, sum, v, s)
		e.keys[slot] = v
	}
	return sum
}

// top returns the first non-empty row below the bar (Rows if none) and the
// first block that is not wholly empty.
func top(w *hatetris.Well) (k, s0 int) {
	for k < Rows && w[hatetris.Bar+k] == 0 {
		k++
	}
	return k, max(0, k-3)
}

// scratch sets acc to w's first-layer sum from the base and its blocks.
func (e *NetEval) scratch(w *hatetris.Well) {
	_, s0 := top(w)
	acc := e.acc
	copy(acc, e.t.base[s0])
	pad := padded(w)
	for s := s0; s < Blocks; s++ {
		addRow(acc, e.block(&pad, s))
	}
}

// SetParent makes w the reference of the following Evals: it stores w's
// prefix and suffix sums of blocks. w must be a valid well (as for Value).
func (e *NetEval) SetParent(w *hatetris.Well) {
	h := e.h
	_, s0 := top(w)
	pad := padded(w)
	for s := 0; s <= s0; s++ {
		copy(e.pre[s*h:(s+1)*h], e.t.base[s])
	}
	for s := s0; s < Blocks; s++ {
		sumRows(e.pre[(s+1)*h:(s+2)*h], e.pre[s*h:(s+1)*h], e.block(&pad, s))
	}
	clear(e.suf[Blocks*h:])
	for s := Blocks - 1; s >= 0; s-- {
		b := e.t.empty
		if s >= s0 {
			b = e.block(&pad, s)
		}
		sumRows(e.suf[s*h:(s+1)*h], e.suf[(s+1)*h:(s+2)*h], b)
	}
	e.parent, e.hasPar = *w, true
}

// incremental sets acc to w's first-layer sum from the parent's prefix and
// suffix sums, or reports false when summing from scratch is cheaper.
func (e *NetEval) incremental(w *hatetris.Well) bool {
	a, b := -1, -1
	for y := 0; y < Rows; y++ {
		if w[hatetris.Bar+y] != e.parent[hatetris.Bar+y] {
			if a < 0 {
				a = y
			}
			b = y
		}
	}
	h := e.h
	if a < 0 {
		e.incr++
		copy(e.acc, e.pre[Blocks*h:])
		return true
	}
	lo, hi := max(0, a-3), min(Blocks-1, b)
	_, s0 := top(w)
	if hi-lo+2 >= Blocks-s0 {
		return false
	}
	e.incr++
	pad := padded(w)
	sumRows(e.acc, e.pre[lo*h:(lo+1)*h], e.suf[(hi+1)*h:(hi+2)*h])
	for s := lo; s <= hi; s++ {
		addRow(e.acc, e.block(&pad, s))
	}
	return true
}

// Eval implements player.Evaluator: the net's value, ignoring the score (as
// in the seed, the beam maximises the net's value only). The beam only
// hands it wells after a lock, which have no full rows and, below game
// over, no cells above the bar. After SetParent the sum is incremental, so
// the last bits may differ from Value's (by float32 rounding only).
func (e *NetEval) Eval(w *hatetris.Well, score int) float64 {
	if !e.hasPar || !e.incremental(w) {
		e.scratch(w)
	}
	return float64(e.t.net.OutputFast(e.acc))
}
