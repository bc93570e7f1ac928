// This file holds NetEval, the net as a beam-search evaluator for wells:
// quantised first-layer weights packed two to a 64-bit word, so that one
// integer add updates two hidden units exactly.
package train

import (
	"fmt"
	"math"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/nn"
)

// Blocks is the number of blocks NetEval splits a well's first-layer sum
// into: block s holds the 10 windows of window row s (padded rows s..s+3)
// and the row pattern of row s; the last block also holds rows 14 and 15.
// A block is a function of the 4 padded rows it covers, so its sum can be
// cached by them.
const Blocks = WindowStarts

// Packing: a hidden unit's first-layer sum is an integer (the float sum
// times Tables.Scale) in a 32-bit lane; a word holds lanes 0 and 1 as
// v₀ + v₁·2³² (two's complement, modulo 2⁶⁴). Adding words adds both lanes
// exactly as long as each lane's true sum stays inside ±2³¹, which
// NewTables guarantees by its choice of scale, so sums in any order give
// the same bits. (Three 21-bit lanes would halve the adds again, but the
// worst-case bound then forces a scale near 2¹³ for trained nets, and
// values off by 2e-3.)
const (
	laneBits = 32
	lanes    = 2
	laneMax  = 1<<(laneBits-1) - 1
)

// Tables is the per-net precomputation NetEval shares across goroutines.
type Tables struct {
	net   *nn.Net
	words int        // packed words per hidden vector
	scale float64    // quantisation: lane value = round(weight·scale)
	q     []uint64   // packed W1 rows, words per feature
	base  [][]uint64 // base[s] = B1 + s empty blocks
	empty []uint64   // one block of 4 empty rows
	// empties[k] = k empty blocks (no bias), for wells moved down k rows.
	empties [][]uint64
	maxErr  float64
}

// NewTables checks the net's shape, picks the quantisation scale (the
// largest power of two for which no first-layer sum of a well can leave
// its lane), packs the weights and precomputes the empty-block sums.
func NewTables(net *nn.Net) (*Tables, error) {
	f, err := NetFeatures(net)
	if err != nil {
		return nil, err
	}
	if f != Knewjade {
		return nil, fmt.Errorf("train: the fast evaluator takes %s nets; this net uses %s features", Knewjade, f)
	}
	h := net.Hidden
	// Bound every unit's |sum|: |bias| + 16 rows + 140 windows, each at the
	// largest weight of its kind, plus the rounding of 157 terms.
	worst := 0.0
	for j := 0; j < h; j++ {
		mr, mw := 0.0, 0.0
		for i := 0; i < Inputs; i++ {
			a := math.Abs(float64(net.W1[i*h+j]))
			if i < RowPatterns {
				mr = max(mr, a)
			} else {
				mw = max(mw, a)
			}
		}
		worst = max(worst, math.Abs(float64(net.B1[j]))+Rows*mr+WindowStarts*hatetris.Width*mw)
	}
	if math.IsNaN(worst) || math.IsInf(worst, 0) {
		return nil, fmt.Errorf("train: net has non-finite first-layer weights")
	}
	scale := math.Ldexp(1, 30)
	for scale > math.Ldexp(1, -30) && worst*scale+float64(PerWell+1) > laneMax {
		scale /= 2
	}
	words := (h + lanes - 1) / lanes
	t := &Tables{net: net, words: words, scale: scale, q: make([]uint64, Inputs*words),
		base: make([][]uint64, Blocks+1), empty: make([]uint64, words)}
	for i := 0; i < Inputs; i++ {
		pack(t.q[i*words:(i+1)*words], net.W1[i*h:(i+1)*h], scale)
	}
	bias := make([]uint64, words)
	pack(bias, net.B1, scale)
	var w hatetris.Well
	pad := padded(&w)
	t.blockSum(t.empty, blockKey(&pad, 0), 0)
	run := make([]uint64, words)
	for s := 0; s <= Blocks; s++ {
		t.base[s] = append([]uint64(nil), bias...)
		bias = append([]uint64(nil), bias...)
		addPacked(bias, t.empty)
		t.empties = append(t.empties, append([]uint64(nil), run...))
		addPacked(run, t.empty)
	}
	// Error bound of the value against the float net: each unit's sum is
	// off by at most 157 roundings of 1/(2·scale); tanhExp's slope is at
	// most tanhExpSlope; add the table's error, then Σ|W2| (tanh has slope ≤ 1).
	sumW2 := 0.0
	for _, v := range net.W2 {
		sumW2 += math.Abs(float64(v))
	}
	t.maxErr = sumW2*(tanhExpSlope*float64(PerWell+1)/(2*scale)+nn.FastMaxError) + 1e-6
	return t, nil
}

// tanhExpSlope bounds |d/dx x·tanh(eˣ)| (its maximum is about 1.10, near x = 0.9);
// TestTanhExpSlope checks it.
const tanhExpSlope = 1.11

// pack quantises v (one weight per hidden unit) into packed words.
func pack(dst []uint64, v []float32, scale float64) {
	clear(dst)
	for j, x := range v {
		q := int64(math.Round(float64(x) * scale))
		dst[j/lanes] += uint64(q << (laneBits * (j % lanes)))
	}
}

// Net returns the net the tables were built for.
func (t *Tables) Net() *nn.Net { return t.net }

// Scale is the quantisation scale: weights are rounded to multiples of 1/Scale.
func (t *Tables) Scale() float64 { return t.scale }

// MaxError bounds |NetEval value − Net.Forward value| for any valid well:
// quantisation of the first layer plus nn.TanhExpFast's error.
func (t *Tables) MaxError() float64 { return t.maxErr }

// addPacked adds row to acc word by word (two hidden units per add).
func addPacked(acc, row []uint64) {
	row = row[:len(acc)]
	for j := range acc {
		acc[j] += row[j]
	}
}

// sumPacked sets dst = a + b.
func sumPacked(dst, a, b []uint64) {
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

// blockSum sets sum to block s's packed first-layer contribution, from its
// key alone: the row pattern(s) and the 10 windows.
func (t *Tables) blockSum(sum []uint64, v uint64, s int) {
	n := t.words
	q := t.q
	rows := 1
	if s == Blocks-1 {
		rows = 3 // rows 13, 14 and 15 (the 4th padded row is the floor)
	}
	copy(sum, q[int(v>>1&1023)*n:][:n])
	for d := 1; d < rows; d++ {
		i := int(v >> (12*d + 1) & 1023)
		addPacked(sum, q[i*n:][:n])
	}
	for x := 0; x < hatetris.Width; x++ {
		u := v >> uint(x)
		i := RowPatterns + int(u&7|u>>9&0x38|u>>18&0x1c0|u>>27&0xe00)
		addPacked(sum, q[i*n:][:n])
	}
}

// NetEval values wells with a net. The first layer's sum is the base for
// the well's empty top blocks plus the sums of its other blocks, each
// cached by the 4 rows it covers. Sums are packed integers (see Tables),
// so every way of adding them up gives the same bits.
//
// Eval is incremental, NNUE-style, from a reference well whose prefix
// sums of blocks it keeps: a well that differs from the reference in rows
// a..b costs the prefix before block a−3, its own blocks a−3..b and the
// suffix after b (a lock changes at most 4 rows); above the change the
// well may be the reference moved down by the lines cleared since (see
// fromRef). There are two references: the parent given by SetParent (the
// beam calls it before valuing a parent's children) and the last well
// summed from scratch (a quiescence chain's next wells are one lock and
// one line clear away from it). When neither is cheaper it sums from
// scratch. The activations use nn.TanhExpFast. It owns its buffers and
// cache and allocates nothing per call: use one per goroutine (see
// Tables.New).
type NetEval struct {
	t    *Tables
	n    int       // words per vector
	acc  []uint64  // packed first-layer sum
	pre  []float32 // unpacked sum
	keys []uint64  // block cache keys (0 = empty slot)
	vals []uint64  // cacheSize × words block sums

	par  ref // the parent (SetParent)
	last ref // the last well summed from scratch

	incr  int64 // Evals summed incrementally (for tests and profiles)
	shift int64 // of which from a reference moved down (line clears)
	chain int64 // of which from the last well summed from scratch
}

// ref is a reference well for incremental sums.
type ref struct {
	ok   bool
	well hatetris.Well
	row  int      // its first non-empty row (Rows if none)
	s0   int      // its first non-empty block: pfx[s] = base[s] for s ≤ s0
	pfx  []uint64 // (Blocks+1) × words: base + blocks < s (valid for s > s0)
	sfx  []uint64 // (Blocks+1) × words: blocks ≥ s; nil: pfx[Blocks] − pfx[s]
}

// prefix returns the reference's sum of the bias and blocks < s.
func (r *ref) prefix(t *Tables, s, n int) []uint64 {
	if s <= r.s0 {
		return t.base[s]
	}
	return r.pfx[s*n : (s+1)*n]
}

// cacheBits sizes the per-goroutine block cache (16384 entries).
const cacheBits = 14

// New returns an evaluator for one goroutine.
func (t *Tables) New() *NetEval {
	n := t.words
	e := &NetEval{t: t, n: n, acc: make([]uint64, n), pre: make([]float32, t.net.Hidden),
		keys: make([]uint64, 1<<cacheBits), vals: make([]uint64, n<<cacheBits)}
	e.par.pfx, e.par.sfx = make([]uint64, (Blocks+1)*n), make([]uint64, (Blocks+1)*n)
	e.last.pfx = make([]uint64, (Blocks+1)*n)
	return e
}

// Value returns the net's value in [-1, 1] for w (higher is better for the
// player), within Tables.MaxError of Net.Forward. Wells with cells above
// the bar or full rows are an error.
func (e *NetEval) Value(w *hatetris.Well) (float32, error) {
	if err := check(w); err != nil {
		return 0, err
	}
	e.scratch(w)
	return e.output(), nil
}

// output unpacks acc and applies the hidden and output layers.
func (e *NetEval) output() float32 { return nn.Squash(e.outputRaw()) }

// outputRaw is output before the final tanh (nn.Net.OutputFastRaw).
func (e *NetEval) outputRaw() float32 {
	inv := float32(1 / e.t.scale)
	h := len(e.pre)
	if h == lanes*len(e.acc) {
		// Every word holds two units: the low lane is the low 32 bits as a
		// signed number, the high lane what remains once it is taken off.
		// nn.Net.OutputFastRaw fused with the unpacking: the same float32
		// operations in the same order (so the same bits; TestUnpackLanes),
		// without the store and reload of each unit's sum.
		net := e.t.net
		w2 := net.W2[:h]
		s := net.B2
		for k, word := range e.acc {
			lo := int32(word)
			a0 := float32(lo) * inv
			a1 := float32(int32((word-uint64(int64(lo)))>>laneBits)) * inv
			s += w2[2*k] * nn.TanhExpFast(a0)
			s += w2[2*k+1] * nn.TanhExpFast(a1)
		}
		return s
	}
	for k, word := range e.acc {
		x := int64(word)
		for l := 0; l < lanes; l++ {
			v := x << (64 - laneBits) >> (64 - laneBits) // sign-extend the low lane
			if j := k*lanes + l; j < h {
				e.pre[j] = float32(v) * inv
			}
			x = (x - v) >> laneBits
		}
	}
	return e.t.net.OutputFastRaw(e.pre)
}

// block returns the (cached) packed sum of block s of a padded well.
func (e *NetEval) block(pad *[Rows + 1]uint16, s int) []uint64 {
	v := blockKey(pad, s)
	n := e.n
	slot := int((v * 0x9e3779b97f4a7c15) >> (64 - cacheBits))
	sum := e.vals[slot*n : (slot+1)*n]
	if e.keys[slot] != v {
		e.t.blockSum(sum, v, s)
		e.keys[slot] = v
	}
	return sum
}

// addBlocks adds blocks lo..hi−1 of w to acc: block's lookup written out,
// since a call per block (block does not inline) costs, and the keys rolled
// from one block to the next (one padded row each) instead of padding all
// of w's rows first.
func (e *NetEval) addBlocks(w *hatetris.Well, lo, hi int) {
	if lo >= hi {
		return
	}
	n := e.n
	acc := e.acc[:n]
	keys := e.keys[:1<<cacheBits]
	// v holds padded rows s..s+3 in 12-bit fields (blockKey without the mark).
	v := uint64(0)
	for y := lo; y < lo+3; y++ {
		v = v>>12 | padRow(w, y)<<36
	}
	for s := lo; s < hi; s++ {
		v = v>>12 | padRow(w, s+3)<<36
		key := v
		if s == Blocks-1 {
			key |= 1 << 48
		}
		slot := int((key * 0x9e3779b97f4a7c15) >> (64 - cacheBits))
		sum := e.vals[slot*n : (slot+1)*n]
		if keys[slot] != key {
			e.t.blockSum(sum, key, s)
			keys[slot] = key
		}
		sum = sum[:len(acc)]
		for j := range acc {
			acc[j] += sum[j]
		}
	}
}

// padRow is row y of padded(w) (y = Rows is the floor).
func padRow(w *hatetris.Well, y int) uint64 {
	if y >= Rows {
		return 1<<(hatetris.Width+2) - 1
	}
	return uint64(1 | w[hatetris.Bar+y]<<1 | 1<<(hatetris.Width+1))
}

// topRow returns the first non-empty row of w below the bar (Rows if none).
func topRow(w *hatetris.Well) int {
	k := 0
	for k < Rows && w[hatetris.Bar+k] == 0 {
		k++
	}
	return k
}

// top returns the first block of w that is not wholly empty.
func top(w *hatetris.Well) int { return max(0, topRow(w)-3) }

// scratch sets acc to w's first-layer sum from the base and its blocks,
// and makes w the last-scratch reference (its prefix sums are the running
// sums).
func (e *NetEval) scratch(w *hatetris.Well) {
	n := e.n
	row := topRow(w)
	s0 := max(0, row-3)
	pad := padded(w)
	r := &e.last
	prev := e.t.base[s0]
	for s := s0; s < Blocks; s++ {
		next := r.pfx[(s+1)*n : (s+2)*n]
		sumPacked(next, prev, e.block(&pad, s))
		prev = next
	}
	copy(e.acc, prev)
	r.ok, r.well, r.row, r.s0 = true, *w, row, s0
}

// SetParent makes w the parent reference of the following Evals: it
// stores w's prefix and suffix sums of blocks. w must be a valid well (as
// for Value).
func (e *NetEval) SetParent(w *hatetris.Well) {
	n := e.n
	r := &e.par
	r.row = topRow(w)
	s0 := max(0, r.row-3)
	pad := padded(w)
	for s := 0; s <= s0; s++ {
		copy(r.pfx[s*n:(s+1)*n], e.t.base[s])
	}
	for s := s0; s < Blocks; s++ {
		sumPacked(r.pfx[(s+1)*n:(s+2)*n], r.pfx[s*n:(s+1)*n], e.block(&pad, s))
	}
	clear(r.sfx[Blocks*n:])
	for s := Blocks - 1; s >= 0; s-- {
		b := e.t.empty
		if s >= s0 {
			b = e.block(&pad, s)
		}
		sumPacked(r.sfx[s*n:(s+1)*n], r.sfx[(s+1)*n:(s+2)*n], b)
	}
	r.ok, r.well, r.s0 = true, *w, s0
}

// fromRef sets acc to w's first-layer sum from the reference r's prefix
// and suffix sums when that costs fewer than budget block additions, and
// reports whether it did. row is w's first non-empty row.
//
// Rows below the last row that differs from r are r's, so the blocks over
// them are r's suffix sum. Above the first differing row, w is r moved
// down by k rows (k = 0 for a lock that clears nothing; k lines cleared
// since r, e.g. a quiescence chain's wells), so its blocks there are r's
// blocks k places up, a prefix sum, after k empty blocks. Only the blocks
// in between are looked up. The sums are packed integers, so the result
// has exactly the bits of scratch's.
func (e *NetEval) fromRef(w *hatetris.Well, r *ref, row, budget int) bool {
	p := &r.well
	b := -1 // the last row that differs from r
	for y := Rows - 1; y >= 0; y-- {
		if w[hatetris.Bar+y] != p[hatetris.Bar+y] {
			b = y
			break
		}
	}
	n := e.n
	if b < 0 {
		e.incr++
		copy(e.acc, r.prefix(e.t, Blocks, n))
		return true
	}
	a := 0 // rows above a are r's moved down by k
	for a < Rows && w[hatetris.Bar+a] == p[hatetris.Bar+a] {
		a++
	}
	k := 0
	// The shift is the change in height. Blocks above r's rows moved down
	// are empty when r's top 3 rows are (they would hold rows of r above
	// the bar otherwise).
	if s := row - r.row; s > 0 && r.row >= 3 {
		as := 0
		for as < Rows && w[hatetris.Bar+as] == shifted(p, as, s) {
			as++
		}
		if as > a {
			a, k = as, s
		}
	}
	lo, hi := max(0, a-3), min(Blocks, b+1) // blocks < lo from the prefix, ≥ hi from the suffix
	lo = min(lo, hi)
	if hi-lo >= budget {
		return false
	}
	e.incr++
	if k > 0 {
		e.shift++
	}
	var pre []uint64
	if lo <= k {
		pre = e.t.base[lo] // blocks < lo lie in w's empty top rows
	} else {
		pre = r.prefix(e.t, lo-k, n)
	}
	if r.sfx != nil {
		sumPacked(e.acc, pre, r.sfx[hi*n:(hi+1)*n])
	} else {
		// Blocks ≥ hi of r: its whole sum minus its prefix (exact modulo 2⁶⁴).
		all, ph := r.prefix(e.t, Blocks, n), r.prefix(e.t, hi, n)
		for j := range e.acc {
			e.acc[j] = pre[j] + all[j] - ph[j]
		}
	}
	if lo > k && k > 0 {
		addPacked(e.acc, e.t.empties[k])
	}
	e.addBlocks(w, lo, hi)
	return true
}

// shifted is row y of the well p moved down by k rows (empty above).
func shifted(p *hatetris.Well, y, k int) uint16 {
	if y < k {
		return 0
	}
	return p[hatetris.Bar+y-k]
}

// ScoreFree implements player.ScoreFree: Eval ignores the score.
func (e *NetEval) ScoreFree() bool { return true }

// Eval implements player.Evaluator: the net's value, ignoring the score (as
// in the seed, the beam maximises the net's value only). The beam only
// hands it wells after a lock, which have no full rows and, below game
// over, no cells above the bar. Incremental or not, it returns exactly
// Value's bits.
func (e *NetEval) Eval(w *hatetris.Well, score int) float64 {
	return e.Squash(e.EvalRaw(w, score))
}

// Squash implements player.Squashing: the net's final tanh
// (nn.Squash, non-decreasing) of a raw value from EvalRaw.
func (e *NetEval) Squash(raw float64) float64 { return float64(nn.Squash(float32(raw))) }

// EvalRaw implements player.Squashing: Eval before the final tanh (the
// output layer's float32 sum, exact in a float64).
func (e *NetEval) EvalRaw(w *hatetris.Well, score int) float64 {
	row := topRow(w)
	// From scratch: the blocks from w's first non-empty one. A reference
	// costs 2 (parent) or 3 (last) more vector additions.
	cost := Blocks - max(0, row-3)
	switch {
	case e.par.ok && e.fromRef(w, &e.par, row, cost-2):
	case e.last.ok && e.fromRef(w, &e.last, row, cost-3):
		e.chain++
	default:
		e.scratch(w)
	}
	return float64(e.outputRaw())
}
