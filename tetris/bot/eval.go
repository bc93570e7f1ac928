// eval.go holds the "Standard" evaluator of Cold Clear (spec §19): a
// state-only Value stored in DAG nodes and a per-placement Reward stored on
// edges, both from the weights in weights.go.

package bot

import (
	"math/bits"
	"unsafe"

	"github.com/yomi-ai/yomi/tetris"
)

// Value is a node's evaluation: value, then spike (attack sent in the
// current run of clears), ordered lexicographically.
type Value struct {
	V     int32
	Spike int32
}

// Less reports whether a orders before b (value first, then spike).
func (a Value) Less(b Value) bool {
	if a.V != b.V {
		return a.V < b.V
	}
	return a.Spike < b.Spike
}

// Reward is what a placement itself earns: a score and the attack sent
// (−1 when no line was cleared, which resets the spike).
type Reward struct {
	V      int32
	Attack int32
}

// Plus returns v + r (spec §18: values add, spike resets on a non-clear).
func (v Value) Plus(r Reward) Value {
	if r.Attack < 0 {
		return Value{v.V + r.V, 0}
	}
	return Value{v.V + r.V, v.Spike + r.Attack}
}

func (v Value) modifyDeath(cost int32) Value { return Value{v.V - cost, 0} }

// cc1Death is CC1's modify_death constant (Weights.Death's default).
const cc1Death = 1000

// nextBag computes CC's next_bag (spec §7): the bag the front of queue was
// drawn from, given bag = the bag at the end of the queue (bit p = piece p).
func nextBag(bag uint8, queue []Piece) uint8 {
	for i := len(queue) - 1; i >= 0; i-- {
		if bag == 0x7F {
			bag = 0
		}
		bag |= 1 << uint(queue[i])
	}
	return bag
}

// Evaluator scores boards and placements with a weights set.
type Evaluator struct {
	W Weights
}

// EvalInput is what Evaluate needs beyond the board after the lock.
type EvalInput struct {
	Lock    LockResult
	Move    Move
	NextBag uint8 // next_bag() of the state after the placement
	Hold    Piece // hold piece after the placement
	// Heights, if set, are the column heights of the board after the
	// lock (Board.Heights); Evaluate computes them when nil.
	Heights *[10]int
	// clean: the board has no full row (the search's boards come from
	// locks), so the T-slot cut-outs lock with lockMoveClean.
	clean bool
}

// tslots returns how many T-slot cut-outs Evaluate looks for (0–3): the
// only part of the evaluation that depends on the queue rather than on the
// board, the lock and the move.
func (e *Evaluator) tslots(in *EvalInput) int {
	ts := 0
	if e.W.UseBag {
		if in.NextBag&(1<<T) != 0 {
			ts++
		}
		if bits.OnesCount8(in.NextBag) <= 3 {
			ts++
		}
	} else {
		ts = 1
	}
	if in.Hold == T {
		ts++
	}
	return ts
}

// lockReward is the part of the reward that depends only on the lock and
// the move's time (clears, spins, combo, back-to-back, perfect clear,
// a wasted T, time spent), and the move's time t it charged.
func lockReward(w *Weights, in *EvalInput) (r, t int32) {
	lock := &in.Lock
	if lock.PerfectClear {
		r += w.PerfectClear
	}
	if !lock.PerfectClear || w.StackPCDamage {
		if lock.B2BBonus {
			r += w.B2BClear
		}
		if lock.Lines > 0 && lock.Combo >= 1 {
			r += w.ComboGarbage * int32(comboGarbage[min(lock.Combo-1, 11)])
		}
		switch lock.Kind {
		case KindClear1:
			r += w.Clear1
		case KindClear2:
			r += w.Clear2
		case KindClear3:
			r += w.Clear3
		case KindClear4:
			r += w.Clear4
		case KindTspin1:
			r += w.TSpin1
		case KindTspin2:
			r += w.TSpin2
		case KindTspin3:
			r += w.TSpin3
		case KindMini1:
			r += w.MiniTSpin1
		case KindMini2:
			r += w.MiniTSpin2
		}
	}
	if in.Move.Piece == T && !(lock.Kind == KindTspin1 || lock.Kind == KindTspin2 || lock.Kind == KindTspin3) {
		r += w.WastedT
	}
	t = int32(in.Move.Time)
	if lock.Lines > 0 {
		t += 40
	}
	r += w.MoveTime * t
	return r, t
}

// Evaluate returns the value of board b (after the placement) and the
// reward of the placement described by in.
func (e *Evaluator) Evaluate(b *Board, in *EvalInput) (Value, Reward) {
	return e.evaluate(b, in, e.tslots(in))
}

// evaluate is Evaluate given ts = e.tslots(in) (the search's children of
// one piece share it).
func (e *Evaluator) evaluate(b *Board, in *EvalInput, ts int) (Value, Reward) {
	w := &e.W
	var vv int32
	lock := &in.Lock
	var rv, t int32
	if lock.Lines == 0 && !lock.PerfectClear && !lock.B2BBonus {
		// lockReward of a lock that clears nothing (none, mini or
		// T-spin): no clear, combo or spin reward; a wasted T and the
		// move's time
		t = int32(in.Move.Time)
		if in.Move.Piece == T {
			rv = w.WastedT
		}
		rv += w.MoveTime * t
	} else {
		rv, t = lockReward(w, in)
	}

	h := in.Heights
	if h == nil {
		h = new([10]int)
		b.Heights(h)
	}
	// the highest column, the well (the lowest, rightmost on ties) and
	// the bumpiness sums over all neighbouring columns
	H, well, bs, bsSq := profile(h)
	if H > 10 { // the terms below are 0 up to 10 high
		if w.TimedJeopardy {
			rv += w.Jeopardy * (H - 10) * t / 10
		} else {
			rv += w.Jeopardy * (H - 10)
		}
		vv += w.TopQuarter * max(0, H-15)
		vv += w.TopHalf * (H - 10)
	}
	rw := Reward{V: rv, Attack: -1}
	if lock.Lines > 0 {
		rw.Attack = int32(lock.Attack)
	}
	if b.B2B {
		vv += w.BackToBack
	}

	cav, ovh, cov, covSq, holeCols, trans := boardFeatures(b, int(H))
	// T-slot cut-outs: CC1 keeps the cut board only for doubles and
	// triples, and then looks for the next slot on it (cutOut). Every
	// detector needs a hole (findTSlotIn).
	if ts > 0 && (holeCols != 0 || H >= tetris.Height-4) {
		if r, x, y, ok := findTSlotIn(b, h, holeCols); ok {
			var lines int
			if in.clean {
				lines = tSlotLines(b, r, x, y)
			} else {
				nb := *b
				lines = lockMove(&nb, T, r, x, y, SpinFull).Lines
			}
			vv += w.TSlot[min(lines, 3)]
			if lines >= 2 {
				return Value{V: vv + e.cutOut(b, in.clean, r, x, y, ts-1)}, rw
			}
		}
	}
	return Value{V: vv + holesValue(&e.W, cav, ovh, cov, covSq) + e.shape(b, h, H, well, bs, bsSq, trans)}, rw
}

// cutOut returns the part of the value Evaluate adds after a T-slot (r,x,y)
// that clears two or three lines on b was found: b with that T locked in,
// up to more further T-slot cut-outs on it, and the shape features of the
// board that results. clean reports that b has no full row.
func (e *Evaluator) cutOut(b *Board, clean bool, r Rot, x, y, more int) int32 {
	w := &e.W
	cb := *b
	if clean {
		lockMoveClean(&cb, T, r, x, y, SpinFull)
	} else {
		lockMove(&cb, T, r, x, y, SpinFull)
	}
	var h [10]int
	cb.Heights(&h)
	var vv int32
	for range more {
		r, x, y, ok := findTSlot(&cb, &h)
		if !ok {
			break
		}
		lines := tSlotLines(&cb, r, x, y) // a board from a lock: no full row
		vv += w.TSlot[min(lines, 3)]
		if lines < 2 {
			break
		}
		lockMoveClean(&cb, T, r, x, y, SpinFull)
		cb.Heights(&h)
	}
	H, well, bs, bsSq := profile(&h)
	cav, ovh, cov, covSq, _, trans := boardFeatures(&cb, int(H))
	return vv + holesValue(w, cav, ovh, cov, covSq) + e.shape(&cb, &h, H, well, bs, bsSq, trans)
}

// holesValue returns the value of a board's hole features.
func holesValue(w *Weights, cav, ovh, cov, covSq int32) int32 {
	return w.CavityCells*cav + w.CavityCellsSq*cav*cav + w.OverhangCells*ovh + w.OverhangSq*ovh*ovh +
		w.CoveredCells*cov + w.CoveredSq*covSq
}

// shape returns the value of board b's shape features other than holes
// given its column heights h and their profile: height, well depth,
// bumpiness and row transitions (trans, counted by boardFeatures).
func (e *Evaluator) shape(b *Board, h *[10]int, H int32, well int, bs, bsSq, trans int32) int32 {
	w := &e.W
	vv := w.Height * H

	depth := int32(0)
	for y := h[well]; y < 20; y++ {
		if b.Rows[y]|1<<uint(well) != fullRow {
			break
		}
		depth++
	}
	vv += w.WellDepth * min(depth, w.MaxWellDepth)
	if depth != 0 {
		vv += w.WellColumn[well]
	}

	bump, bumpSq := bumpinessWell(h, well, bs, bsSq)
	vv += w.Bumpiness*bump + w.BumpinessSq*bumpSq

	return vv + w.RowTransitions*trans
}

// tSlotLines returns how many rows a T at (r,x,y), which fits, fills on b,
// a board with no full row: the lines lockMoveClean would clear, without
// writing the piece.
func tSlotLines(b *Board, r Rot, x, y int) int {
	sh := tetris.PieceShape(T, r)
	lx, by := x+int(sh.MinX), y+int(sh.MinY)
	n := 0
	for i, m := range sh.Rows[:sh.Height] {
		if b.Rows[by+i]|m<<uint(lx) == fullRow {
			n++
		}
	}
	return n
}

// rowTransitions counts filled/empty changes along every row of the
// matrix, the walls counting as filled. Rows from top up must be empty (top
// ≥ the stack height); each of them adds 2 (one at each wall). It reads
// the rows four at a time, as 16-bit lanes of 64-bit words (a row's
// transitions, (r | wall at bit 10) ^ (wall at bit 0 | r << 1), stay in its
// lane), one popcount per word.
func rowTransitions(b *Board, top int) int32 {
	const (
		lanes    = 0x0001000100010001
		leftWall = lanes
		rightWll = lanes << 10
	)
	words := boardWords(b)
	nw := (top + 3) / 4
	n := 2 * (len(b.Rows) - 4*nw)
	for _, w := range words[:nw] {
		n += bits.OnesCount64((w | rightWll) ^ (leftWall | w<<1))
	}
	return int32(n)
}

// boardWords returns b's rows as ten 64-bit words, row 4i+k in bits
// 16k…16k+15 of word i (the board is 8-byte aligned).
func boardWords(b *Board) *[tetris.Height / 4]uint64 {
	return (*[tetris.Height / 4]uint64)(unsafe.Pointer(&b.Rows))
}

// bumpiness reproduces CC1's sums (starting at −1, absolute value at the
// end) over the columns other than the well, each next to the previous
// one kept: the sums over all neighbouring columns, less the two pairs
// that touch the well, plus the pair across it.
func bumpiness(h *[10]int, well int) (int32, int32) {
	_, _, b, bs := profile(h)
	return bumpinessWell(h, well, b, bs)
}

// profile returns the highest column height, the well (the lowest column,
// rightmost on ties) and the sums of |h[i] − h[i+1]| and its square over
// all neighbouring columns, in straight-line code. The well minimises
// h[x]·16 + 15 − x (the lowest, the rightmost of the lowest); |d| and d²
// of each neighbouring pair come packed from diffTable.
func profile(h *[10]int) (top int32, well int, b, bs int32) {
	h0, h1, h2, h3, h4, h5, h6, h7, h8, h9 := h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8], h[9]
	t := &diffTable
	acc := t[uint8(h1-h0)] + t[uint8(h2-h1)] + t[uint8(h3-h2)] + t[uint8(h4-h3)] + t[uint8(h5-h4)] +
		t[uint8(h6-h5)] + t[uint8(h7-h6)] + t[uint8(h8-h7)] + t[uint8(h9-h8)]
	hi := max(h0, h1, h2, h3, h4, h5, h6, h7, h8, h9)
	k := wellKey(h0, h1, h2, h3, h4, h5, h6, h7, h8, h9)
	return int32(hi), 15 - k&15, int32(acc & 0xFFFF), int32(acc >> 16)
}

// wellKey returns the least h[x]·16 + 15 − x over the columns (the well:
// the lowest, the rightmost of the lowest, is 15 − key&15) without
// branches: the compiler's min of ten values branches, and the heights
// make those branches hard to predict.
func wellKey(h0, h1, h2, h3, h4, h5, h6, h7, h8, h9 int) int {
	k := minNB(h0<<4|15, h1<<4|14)
	k = minNB(k, h2<<4|13)
	k = minNB(k, h3<<4|12)
	k = minNB(k, h4<<4|11)
	k = minNB(k, h5<<4|10)
	k = minNB(k, h6<<4|9)
	k = minNB(k, h7<<4|8)
	k = minNB(k, h8<<4|7)
	return minNB(k, h9<<4|6)
}

// minNB returns min(a, b); the compiler makes it a conditional move.
func minNB(a, b int) int {
	if a < b {
		return a
	}
	return b
}

// diffTable[uint8(d)] is |d| | d²<<16 for a height difference d (|d| ≤ 40):
// nine of them sum without carrying from one half into the other.
var diffTable = func() (t [256]uint64) {
	for d := -128; d < 128; d++ {
		a := uint64(max(d, -d))
		t[uint8(d)] = a | a*a<<16
	}
	return
}()

// bumpinessWell is bumpiness given the sums over all neighbouring columns
// (profile's b and bs). The pairs it takes out and puts in come packed
// from diffTable: the two pairs out are part of the sums, so neither half
// goes negative.
func bumpinessWell(h *[10]int, well int, b, bs int32) (int32, int32) {
	acc := uint64(b) | uint64(bs)<<16
	t := &diffTable
	switch well {
	case 0:
		acc -= t[uint8(h[1]-h[0])]
	case 9:
		acc -= t[uint8(h[9]-h[8])]
	default:
		l, m, r := h[well-1], h[well], h[well+1]
		acc = acc - t[uint8(m-l)] - t[uint8(r-m)] + t[uint8(r-l)]
	}
	return absInt32(int32(acc&0xFFFF) - 1), absInt32(int32(acc>>16) - 1)
}

// absInt32 returns |x|.
func absInt32(x int32) int32 {
	m := x >> 31
	return (x ^ m) - m
}

// holeFeatures classifies the empty cells below their column height
// (spec §19) as cavities or overhangs, and sums, over every empty cell at
// least 3 below its column top, the cells above it in that column (capped
// at 6), and their squares. top must be b's highest column height.
//
// It works on column masks from the top down: m[y], the columns whose
// height is above y, is the OR of the rows from y up. An empty cell (x,y)
// under its column top is an overhang when h[x−1] ≤ y−1 and h[x−2] ≤ y (or
// the same to the right); its covered count min(6, h[x]−y−1) counts from
// 2 on, one per k = 3…6 with h[x] > y+k, and its square adds 4, 5, 7, 9,
// 11. Four rows are handled at once, as the 16-bit lanes of a 64-bit word
// (boardWords): the masks of a word are the suffix OR of its lanes and of
// everything above, lanes of the words above shift in for m[y+2…y+6], and
// one popcount counts the cells of four rows.
func holeFeatures(b *Board, top int) (cav, ovh, cov, covSq int32) {
	cav, ovh, cov, covSq, _ = holeFeaturesCols(b, top)
	return
}

// holeFeaturesCols is holeFeatures that also returns the columns that have
// an empty cell below their top (bit x: column x).
func holeFeaturesCols(b *Board, top int) (cav, ovh, cov, covSq int32, cols uint16) {
	cav, ovh, cov, covSq, cols, _ = boardFeatures(b, top)
	return
}

// boardFeatures is holeFeaturesCols that also counts the row transitions
// (rowTransitions) in the same pass over the words of rows.
func boardFeatures(b *Board, top int) (cav, ovh, cov, covSq int32, cols uint16, trans int32) {
	const (
		lanes    = 0x0001000100010001
		full     = fullRow * lanes
		leftWall = lanes
		rightWll = lanes << 10
	)
	words := boardWords(b)
	var up1, up2 uint64 // the masks of the two words above (m[y+4], m[y+8])
	var above uint64    // m[4i+4] in every lane
	var all uint64      // the holes of every row, lane by lane
	// the four sums in the 16-bit lanes of one word (cavities, overhangs,
	// covered cells, their squares: at most 400, 400, 2 400 and 14 400)
	var acc uint64
	nw := (top + 3) / 4
	tr := 2 * (tetris.Height - 4*nw) // the empty rows above: 2 each
	for i := nw - 1; i >= 0; i-- {
		r := words[i]
		tr += bits.OnesCount64((r | rightWll) ^ (leftWall | r<<1))
		x := r | r>>16
		m := x | x>>32 | above // lane k: m[4i+k]
		above = (m & 0xFFFF) * lanes
		if holes := m &^ r; holes != 0 {
			all |= holes
			// the row below each lane (a full row below row 0)
			// (i−1)>>63 is −1 at row 0
			below := words[max(i-1, 0)]>>48 | fullRow&uint64((i-1)>>63)
			free := ^m & full                        // columns with h ≤ y
			freeBelow := ^(m | r<<16 | below) & full // columns with h ≤ y−1
			// bits shifted right out of a lane land in bits 14–15 of
			// the lane below, outside holes
			acc += uint64(bits.OnesCount64(holes))
			// the overhangs and the first two covered counts without
			// branches (either way about as often)
			ov := holes & ((freeBelow<<1)&(free<<2) | (freeBelow>>1)&(free>>2))
			n := uint64(bits.OnesCount64(ov))
			acc += n<<16 - n
			// the covered counts: each mask inside the one before, so
			// the first empty one ends the sums
			c2 := holes & (m>>32 | up1<<32)
			p := uint64(bits.OnesCount64(c2))
			acc += p<<33 | p<<50 // 2 and 4 per cell
			c3 := c2 & (m>>48 | up1<<16)
			p = uint64(bits.OnesCount64(c3))
			acc += p<<32 | 5*p<<48
			if c4 := c3 & up1; c4 != 0 {
				p := uint64(bits.OnesCount64(c4))
				acc += p<<32 | 7*p<<48
				if c5 := c4 & (up1>>16 | up2<<48); c5 != 0 {
					p := uint64(bits.OnesCount64(c5))
					acc += p<<32 | 9*p<<48
					if c6 := c5 & (up1>>32 | up2<<32); c6 != 0 {
						p := uint64(bits.OnesCount64(c6))
						acc += p<<32 | 11*p<<48
					}
				}
			}
		}
		up2, up1 = up1, m
	}
	all |= all >> 32
	all |= all >> 16
	return int32(acc & 0xFFFF), int32(acc >> 16 & 0xFFFF), int32(acc >> 32 & 0xFFFF), int32(acc >> 48), uint16(all), int32(tr)
}

// pattern is a T-slot detector's cell pattern (spec §19 table), rows top
// to bottom, compiled from strings: '#' filled, '_' empty, '?' either.
// Bit j of fill[i] / empty[i] is column x+j of row startY−i.
type pattern struct {
	n           int
	fill, empty [5]uint32
}

func compilePattern(rows ...string) pattern {
	var p pattern
	p.n = len(rows)
	for i, row := range rows {
		for j := 0; j < len(row); j++ {
			switch row[j] {
			case '#':
				p.fill[i] |= 1 << uint(j)
			case '_':
				p.empty[i] |= 1 << uint(j)
			}
		}
	}
	return p
}

// The detectors' patterns.
var (
	patSkyLeft   = compilePattern("??#", "??_", "??#")
	patSkyRight  = compilePattern("#??", "_??", "#??")
	patCaveLeft  = compilePattern("??#", "??_", "??_", "?__", "??_")
	patCaveRight = compilePattern("#??", "_??", "_??", "__?", "_??")
	patFinLeft   = compilePattern("??##?", "??__?", "??__#", "??__?", "??#_#")
	patFinRight  = compilePattern("##??", "__??", "__??", "__??", "_#??")
)

// extRow is row y with column x at bit x+2; cells off the board (x < 0,
// x ≥ 10, y outside the matrix) read as filled, as Board.Occupied has it.
func extRow(b *Board, y int) uint32 {
	if uint(y) >= uint(len(b.Rows)) {
		return ^uint32(0)
	}
	return uint32(b.Rows[y])<<2 | 0b11 | 0xFFFFF000
}

// match checks pattern p top to bottom from startY at columns x, x+1, …
// (x ≥ −2).
func match(b *Board, x, startY int, p *pattern) bool {
	for i := 0; i < p.n; i++ {
		r := extRow(b, startY-i) >> uint(x+2)
		if r&p.fill[i] != p.fill[i] || r&p.empty[i] != 0 {
			return false
		}
	}
	return true
}

func tCorners(b *Board, x, y int) int {
	n := 0
	for _, d := range [4][2]int{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
		if b.Occupied(x+d[0], y+d[1]) {
			n++
		}
	}
	return n
}

// caveTSlot follows a twist spot down to a cave T-slot (spec §19).
func caveTSlot(b *Board, r Rot, x, y int) (Rot, int, int, bool) {
	if !b.Fits(T, r, x, y) {
		return 0, 0, 0, false
	}
	y = dropY(b, T, r, x, y)
	switch r {
	case East:
		if !b.Occupied(x-1, y) && b.Occupied(x-1, y-1) && b.Occupied(x+1, y-1) && b.Occupied(x-1, y+1) {
			return South, x, y, true
		}
		if !b.Occupied(x+1, y-1) && !b.Occupied(x+2, y-1) && !b.Occupied(x+1, y-2) && b.Occupied(x-1, y) && b.Occupied(x+2, y) && b.Occupied(x, y-2) && b.Occupied(x+2, y-2) {
			return South, x + 1, y - 1, true
		}
	case West:
		if !b.Occupied(x+1, y) && b.Occupied(x+1, y+1) && b.Occupied(x+1, y-1) && b.Occupied(x-1, y-1) {
			return South, x, y, true
		}
		if !b.Occupied(x-1, y-1) && !b.Occupied(x-2, y-1) && !b.Occupied(x-1, y-2) && b.Occupied(x+1, y) && b.Occupied(x-2, y) && b.Occupied(x-2, y-2) && b.Occupied(x, y-2) {
			return South, x - 1, y - 1, true
		}
	}
	if tCorners(b, x, y) >= 3 && !b.Fits(T, r, x, y-1) {
		return r, x, y, true
	}
	return 0, 0, 0, false
}

// above is a necessary condition for a pattern's filled cell at row y of a
// column of height hx (a top row that every detector has): the column
// reaches row y, or row y is above the matrix, where every cell reads as
// filled. It rejects most detector positions before their pattern is read.
func above(hx, y int) bool { return hx > y || y >= tetris.Height }

// findTSlot returns the first T-slot among CC1's detectors (spec §19
// table), the same as findTSlotScan. It first marks, for all columns at
// once, where each detector's height conditions can hold (heights as byte
// lanes of 64-bit words, lane x of word k holding h[x+k]; a ≥ b per lane
// is bit 7 of (a | 0x80) − b while lanes stay below 128) and runs the
// detector only there, in the scan's order. Stacks 36 or more high go
// through the scan (there the patterns reach above the matrix, where
// cells read as filled).
func findTSlot(b *Board, h *[10]int) (Rot, int, int, bool) {
	return findTSlotIn(b, h, fullRow)
}

// findTSlotIn is findTSlot given a superset holes of the columns that have
// an empty cell below their top. Every detector's pattern has a filled
// cell above an empty one in some columns — sky left in column x+2, sky
// right in x, cave left in x+1 and x+2, cave right in x and x+1, fin left
// in x+2 and x+3, fin right in x and x+1 — so it runs only where those columns are in holes (on
// stacks 36 or more high the patterns read the cells above the matrix as
// filled, and the scan runs regardless).
func findTSlotIn(b *Board, h *[10]int, holes uint16) (Rot, int, int, bool) {
	const (
		ones = 0x0101010101010101
		hi8  = 0x8080808080808080
	)
	ge := func(a, b uint64) uint64 { return ((a | hi8) - b) & hi8 }
	// w0 holds h[0..7]; each next word is the previous one a column on,
	// with zero lanes past column 9 (heights are below 41: 6 bits)
	w0 := uint64(h[0]) | uint64(h[1])<<8 | uint64(h[2])<<16 | uint64(h[3])<<24 |
		uint64(h[4])<<32 | uint64(h[5])<<40 | uint64(h[6])<<48 | uint64(h[7])<<56
	w1 := w0>>8 | uint64(h[8])<<56
	w2 := w1>>8 | uint64(h[9])<<56
	w3 := w2 >> 8
	if ge(w0, (tetris.Height-4)*ones)|ge(w2, (tetris.Height-4)*ones) != 0 {
		return findTSlotScan(b, h) // some column is 36 or more high
	}
	// hk: bit 7 of lane x set when column x+k is in holes
	h0, h1 := laneBits[uint8(holes)], laneBits[uint8(holes>>1)]
	h2, h3 := laneBits[uint8(holes>>2)], laneBits[uint8(holes>>3)]
	// sky_tslot_left: h[x+1] ≤ h[x]−1, top cell of column x+2 at row h[x]+1
	for m := ge(w0, w1+ones) & ge(w2, w0+2*ones) & h2; m != 0; m &= m - 1 {
		x := bits.TrailingZeros64(m) >> 3
		h1, h2 := h[x], h[x+1]
		if h2 <= h1-1 && match(b, x, h1+1, &patSkyLeft) {
			return South, x + 1, h1, true
		}
	}
	// sky_tslot_right: h[x+1] ≤ h[x+2]−1, column x filled at row h[x+2]+1
	for m := ge(w2, w1+ones) & ge(w0, w2+2*ones) & h0; m != 0; m &= m - 1 {
		x := bits.TrailingZeros64(m) >> 3
		h1, h2 := h[x+1], h[x+2]
		if h1 <= h2-1 && match(b, x, h2+1, &patSkyRight) {
			return South, x + 1, h2, true
		}
	}
	// caves, left then right at each x
	caveL := ge(w1, w0) & ge(w2, w1+2*ones) & h1 & h2
	caveR := ge(w1, w2) & ge(w0, w1+2*ones) & h0 & h1
	for m := caveL | caveR; m != 0; m &= m - 1 {
		bit := m & -m
		x := bits.TrailingZeros64(m) >> 3
		if caveL&bit != 0 {
			h1, h2 := h[x], h[x+1]
			if h1 <= h2 && b.Occupied(x-1, h2) == b.Occupied(x-1, h2+1) && match(b, x, h2+1, &patCaveLeft) {
				if r, cx, cy, ok := caveTSlot(b, West, x+2, h2-2); ok {
					return r, cx, cy, true
				}
			}
		}
		if caveR&bit != 0 {
			h1, h2 := h[x+1], h[x+2]
			if h2 <= h1 && b.Occupied(x+3, h1) == b.Occupied(x+3, h1+1) && match(b, x, h1+1, &patCaveRight) {
				if r, cx, cy, ok := caveTSlot(b, East, x, h1-2); ok {
					return r, cx, cy, true
				}
			}
		}
	}
	// fin_left (x ≤ 5): h[x] ≤ h[x+1]+1, columns x+2, x+3 filled at row h[x+1]+2
	finL := ge(w1+ones, w0) & ge(w2, w1+3*ones) & ge(w3, w1+3*ones) & h2 & h3 & 0x0000808080808080
	for m := finL; m != 0; m &= m - 1 {
		x := bits.TrailingZeros64(m) >> 3
		h1, h2 := h[x], h[x+1]
		if h1 <= h2+1 && match(b, x, h2+2, &patFinLeft) {
			return West, x + 3, h2 - 1, true
		}
	}
	// fin_right (x ≤ 6): h[x+3] ≤ h[x+2]+1, columns x, x+1 filled at row h[x+2]+2
	finR := ge(w2+ones, w3) & ge(w0, w2+3*ones) & ge(w1, w2+3*ones) & h0 & h1 & 0x0080808080808080
	for m := finR; m != 0; m &= m - 1 {
		x := bits.TrailingZeros64(m) >> 3
		h1, h2 := h[x+2], h[x+3]
		if h2 <= h1+1 && b.Occupied(x-1, h1) && b.Occupied(x-1, h1-2) && match(b, x, h1+2, &patFinRight) {
			return East, x, h1 - 1, true
		}
	}
	return 0, 0, 0, false
}

// laneBits[m] has bit 7 of byte lane i set when bit i of m is.
var laneBits = func() (t [256]uint64) {
	for m := range 256 {
		for i := range 8 {
			if m>>uint(i)&1 != 0 {
				t[m] |= 0x80 << uint(8*i)
			}
		}
	}
	return
}()

// findTSlotScan returns the first T-slot among CC1's detectors (spec §19
// table), trying every column in turn.
func findTSlotScan(b *Board, h *[10]int) (Rot, int, int, bool) {
	for x := 0; x+2 < 10; x++ { // sky_tslot_left
		h1, h2 := h[x], h[x+1]
		if h2 <= h1-1 && above(h[x+2], h1+1) && match(b, x, h1+1, &patSkyLeft) {
			return South, x + 1, h1, true
		}
	}
	for x := 0; x+2 < 10; x++ { // sky_tslot_right
		h1, h2 := h[x+1], h[x+2]
		if h1 <= h2-1 && above(h[x], h2+1) && match(b, x, h2+1, &patSkyRight) {
			return South, x + 1, h2, true
		}
	}
	for x := 0; x+2 < 10; x++ {
		h1, h2 := h[x], h[x+1]
		if h1 <= h2 && above(h[x+2], h2+1) && b.Occupied(x-1, h2) == b.Occupied(x-1, h2+1) && match(b, x, h2+1, &patCaveLeft) {
			if r, cx, cy, ok := caveTSlot(b, West, x+2, h2-2); ok {
				return r, cx, cy, true
			}
		}
		h1, h2 = h[x+1], h[x+2]
		if h2 <= h1 && above(h[x], h1+1) && b.Occupied(x+3, h1) == b.Occupied(x+3, h1+1) && match(b, x, h1+1, &patCaveRight) {
			if r, cx, cy, ok := caveTSlot(b, East, x, h1-2); ok {
				return r, cx, cy, true
			}
		}
	}
	for x := 0; x+4 < 10; x++ { // fin_left
		h1, h2 := h[x], h[x+1]
		if h1 <= h2+1 && above(h[x+2], h2+2) && above(h[x+3], h2+2) && match(b, x, h2+2, &patFinLeft) {
			return West, x + 3, h2 - 1, true
		}
	}
	for x := 0; x+3 < 10; x++ { // fin_right
		h1, h2 := h[x+2], h[x+3]
		if h2 <= h1+1 && above(h[x], h1+2) && above(h[x+1], h1+2) && b.Occupied(x-1, h1) && b.Occupied(x-1, h1-2) && match(b, x, h1+2, &patFinRight) {
			return East, x, h1 - 1, true
		}
	}
	return 0, 0, 0, false
}
