// Package movegen lists every reachable final placement of a piece on a
// tetris.Board (spec §17, complete 0G mode): shifts, SRS rotations with
// kicks (and optional 180° turns), sonic drops, tucks and spins, each
// placement once per (covered cells, spin status), with its fastest input
// path in Cold Clear 1's cost model (spec §16): a shift or rotation costs 1
// tick, plus 1 for releasing the button when it repeats the previous
// input; a sonic drop costs 2 per cell fallen; the final hard drop is
// free; using hold costs 1. Ties in time go to fewer inputs. (Tapping a
// direction costs the same as CC1's DAS-to-wall, 1 + 2 per further cell, so
// DAS needs no input of its own.)
//
// Start with New and Generator.Generate (one piece) or Generator.Turn (the
// current piece plus the hold alternative). FastGenerate/FastTurn are Cold
// Clear 1's fast-mode heuristic (for bots). Cold Clear's input model drops
// only all the way (sonic drop); a player (or another bot) can also stop a
// soft drop mid-fall, which reaches a few more placements on ragged stacks
// (about 2 % of random noisy fields in the tests): use Options.StepDrop to
// include those, e.g. to validate an opponent's moves. Buffers are owned by the
// Generator and by the caller's dst slice: a warm Generator allocates
// nothing per call. A Generator is not safe for concurrent use; give each
// thread its own.
//
// The search is an exact Dijkstra over states (orientation, x, y, spin,
// last input): the last input is part of the state because it decides
// whether the next press pays the release tick. Reference (in the tests)
// is a plain map-based search over the same states built only on the
// engine's Fits/Rotate/TSpin. Fast mode (fast.go) gives the same moves as
// that Dijkstra started from its seeds, but emits the seeds' hard drops
// straight from bit-parallel column surfaces and runs the Dijkstra only
// for the few states below the surface or with a T-spin that the dropped
// seeds reach (none for most boards and pieces).
package movegen

import (
	"cmp"
	"math/bits"
	"slices"
	"sync"

	"github.com/yomi-ai/yomi/tetris"
)

// Input is one button press of a path.
type Input uint8

// Inputs. Drop is a sonic drop (soft drop held until the piece lands).
const (
	Left Input = iota
	Right
	Cw
	Ccw
	Flip // 180° turn (Options.Allow180)
	Drop
	Down // soft drop by one row (Options.StepDrop)
	none // the spawn state has no last input
	nInputs
)

// String names the input ("left", "right", "cw", "ccw", "180", "drop", "down").
func (in Input) String() string {
	return [...]string{"left", "right", "cw", "ccw", "180", "drop", "down", "-", "?"}[min(in, nInputs)]
}

// Options selects the rule variants the generator follows.
type Options struct {
	Allow180  bool             // allow 180° turns (jstris kicks, spec §5)
	NoSpin180 bool             // a 180° turn never makes a T-spin
	StepDrop  bool             // also allow soft-dropping one row at a time (2 ticks, no release tick), as sfinder does
	SpinRule  tetris.SpinRule  // 5th-kick upgrade rule (spec §9)
	Spawn     tetris.SpawnRule // where the piece starts
}

// OptionsFor returns the options matching a rule set.
func OptionsFor(r *tetris.Rules) Options {
	return Options{Allow180: r.Allow180, NoSpin180: r.NoSpin180, SpinRule: r.SpinRule, Spawn: r.Spawn}
}

// Move is one reachable placement: the location where its fastest path
// ends (orientation and origin as reached, spin status), whether the hold
// was used, the path's time in ticks (hold included) and its number of
// inputs (hold and the final hard drop excluded).
type Move struct {
	tetris.Placement
	Hold   bool
	Time   int32
	Inputs int32
	node   int32 // search slot<<16 | state index, or seedNode | slot<<16 | seed index, for Path
}

// State indexing: ((spin*4+rot)*10+x)*40+y is a position; times nInputs
// plus the last input gives a state.
const (
	nPos    = 3 * 4 * tetris.Width * tetris.Height
	nStates = nPos * int(nInputs)
)

// Bucket entries keep a state index in 16 bits.
var _ = [1]int{}[nStates>>16]

func stateIndex(spin tetris.Spin, r tetris.Rot, x, y int, last Input) int {
	return ((((int(spin)*4+int(r))*tetris.Width+x)*tetris.Height)+y)*int(nInputs) + int(last)
}

func decode(idx int) (spin tetris.Spin, r tetris.Rot, x, y int, last Input) {
	last = Input(idx % int(nInputs))
	idx /= int(nInputs)
	y = idx % tetris.Height
	idx /= tetris.Height
	x = idx % tetris.Width
	idx /= tetris.Width
	r = tetris.Rot(idx & 3)
	spin = tetris.Spin(idx >> 2)
	return
}

// search holds one Dijkstra's buffers; stamps avoid clearing them.
type search struct {
	stamp    uint32
	dist     []uint64 // stamp<<32 | time<<16 | inputs per state
	parent   []int32
	keySeen  []uint32 // stamp per canonical (spin, placement) index
	lockSeen []uint32 // stamp per (spin, orientation, x, drop y) already locked
	posSeen  []uint32 // stamp when posBest was set
	posBest  []uint32 // best time<<16|inputs over all last inputs, per position
	buckets  [][]uint32

	mergeSeen []uint32 // stamp per key index emitted by fastRun's merge
	pending   []pending
}

func newSearch() *search {
	return &search{
		dist:     make([]uint64, nStates),
		parent:   make([]int32, nStates),
		keySeen:  make([]uint32, nPos),
		lockSeen: make([]uint32, nPos),
		posSeen:  make([]uint32, nPos),
		posBest:  make([]uint32, nPos),

		mergeSeen: make([]uint32, nPos),
	}
}

// Generator finds placements with reusable buffers.
type Generator struct {
	opts    Options
	s       [3]*search              // slots: current piece, hold piece, fast-mode seed building
	fit     [4][tetris.Width]uint64 // bit y: the piece fits with origin (x,y)
	free    [tetris.Width]uint64    // bit y: cell (x,y) is empty
	surf    [4][tetris.Width]int8   // lowest origin y with every cell at or above the column heights
	corner3 [tetris.Width]uint64    // bit y: three diagonal corners of (x,y) occupied (T only)
	near    [4][tetris.Width]uint64 // fastRun: see prepareNear

	starts [tetris.NumPieces][]start // fast-mode seeds per piece, built on first use
	seeds  [tetris.NumPieces][]seed  // the starts that are not duplicates, for fastRun
	found  []Move                    // Find's buffer
	merged []Move                    // fastRun's merge buffer

	// seedQueue makes fast mode push its seeds through the Dijkstra
	// queue (the original formulation, kept for the tests) instead of
	// fastRun's direct seed stage.
	seedQueue bool
}

// start is a fast-mode seed: a free-air position reached from the spawn
// on an empty board, with its fastest path there.
type start struct {
	r    tetris.Rot
	x, y int8
	last Input
	t, n uint32
	path []Input

	idx int // state index
	// dup: an earlier seed (in (t, n, idx) order) covers the same columns
	// with the same cells, so it always lands on the same cells first.
	dup bool
	// canonical orientation and column, and the canonical y minus the
	// seed's y, of the seed's location
	cRot tetris.Rot
	cX   int8
	cdy  int8
}

// New returns a generator for the given rule options.
func New(opts Options) *Generator {
	return &Generator{opts: opts, s: [3]*search{newSearch(), newSearch(), newSearch()}}
}

const yMask = 1<<tetris.Height - 1

// footprint lists the columns a piece orientation covers: offset dx from
// the origin, the lowest cell's offset dy and the number of cells n in
// that column (a tetromino's cells in one column are contiguous), and the
// origin columns x0..x1 where every cell is inside the board.
type footprint struct {
	cols   int
	x0, x1 int
	dx, dy [4]int
	n      [4]int
	// for prepare: the column's index (n-1)*16 + dx into the run masks
	// (minus the origin's x), and the shift dy+2
	run [4]int
	sh  [4]uint
	// for computeSurf: lane shifts right and left by dx, and the lane
	// constant surfBias - dy
	lr, ll [4]uint
	ladd   [4]uint64
}

// footprints[p][r] is piece p's footprint in orientation r.
var footprints = func() (t [tetris.NumPieces][4]footprint) {
	for p := range tetris.Piece(tetris.NumPieces) {
		for r := range tetris.Rot(4) {
			f := &t[p][r]
			sh := tetris.PieceShape(p, r)
			f.x0, f.x1 = -int(sh.MinX), tetris.Width-1-int(sh.MaxX)
		cells:
			for _, c := range tetris.PieceCells(p, r) {
				for i := range f.cols {
					if f.dx[i] == int(c.X) {
						f.dy[i] = min(f.dy[i], int(c.Y))
						f.n[i]++
						continue cells
					}
				}
				f.dx[f.cols], f.dy[f.cols], f.n[f.cols] = int(c.X), int(c.Y), 1
				f.cols++
			}
			for i := range f.cols {
				f.run[i] = (f.n[i]-1)*16 + f.dx[i]
				f.sh[i] = uint(f.dy[i] + 2)
				if f.dx[i] >= 0 {
					f.lr[i] = uint(laneBits * f.dx[i])
				} else {
					f.ll[i] = uint(-laneBits * f.dx[i])
				}
				f.ladd[i] = uint64(surfBias-f.dy[i]) * lanesOne
			}
			for i := range f.cols { // contiguity: the column's cells are dy..dy+n-1; dy in -2..surfBias
				if f.dy[i] < -2 || f.dy[i] > surfBias {
					panic("movegen: a footprint dy is out of range")
				}
				for _, c := range tetris.PieceCells(p, r) {
					if int(c.X) == f.dx[i] && (int(c.Y) < f.dy[i] || int(c.Y) >= f.dy[i]+f.n[i]) {
						panic("movegen: a piece column is not contiguous")
					}
				}
			}
		}
	}
	return
}()

// prepare builds the per-(orientation, x) fit masks for p on b, and for
// T the three-corner mask.
func (g *Generator) prepare(b *tetris.Board, p tetris.Piece) {
	free := &g.free
	for x := range tetris.Width {
		free[x] = yMask
	}
	top := b.MaxHeight()
	for y := range top {
		for row := b.Rows[y]; row != 0; row &= row - 1 {
			free[bits.TrailingZeros16(row)] &^= 1 << uint(y)
		}
	}
	// runs[(n-1)*16+x] bit y: cells (x, y..y+n-1) are all empty
	var runs [64]uint64
	for x := range tetris.Width {
		f := free[x]
		f2 := f & (f >> 1)
		runs[x] = f
		runs[16+x] = f2
		runs[32+x] = f2 & (f >> 2)
		runs[48+x] = f2 & (f2 >> 2)
	}
	// bit y of a column term: the column's run starts at y+dy (dy ≥ -2)
	for r := range tetris.Rot(4) {
		f := &footprints[p][r]
		fit := &g.fit[r]
		*fit = [tetris.Width]uint64{}
		b0, s0 := f.run[0], f.sh[0]
		b1, s1 := f.run[1], f.sh[1]
		b2, s2 := f.run[2], f.sh[2]
		b3, s3 := f.run[3], f.sh[3]
		switch f.cols {
		case 1:
			for x := f.x0; x <= f.x1; x++ {
				fit[x] = (runs[(b0+x)&63] << 2 >> s0) & yMask
			}
		case 2:
			for x := f.x0; x <= f.x1; x++ {
				fit[x] = (runs[(b0+x)&63] << 2 >> s0) & (runs[(b1+x)&63] << 2 >> s1) & yMask
			}
		case 3:
			for x := f.x0; x <= f.x1; x++ {
				fit[x] = (runs[(b0+x)&63] << 2 >> s0) & (runs[(b1+x)&63] << 2 >> s1) &
					(runs[(b2+x)&63] << 2 >> s2) & yMask
			}
		default:
			for x := f.x0; x <= f.x1; x++ {
				fit[x] = (runs[(b0+x)&63] << 2 >> s0) & (runs[(b1+x)&63] << 2 >> s1) &
					(runs[(b2+x)&63] << 2 >> s2) & (runs[(b3+x)&63] << 2 >> s3) & yMask
			}
		}
	}
	if p == tetris.T {
		g.prepareCorners()
	}
}

// prepareCorners fills g.corner3: bit y of corner3[x] is set when at least
// three of the four cells diagonal to (x, y) are occupied (walls, floor
// and ceiling count), the precondition of every T-spin.
func (g *Generator) prepareCorners() {
	const ceil = 1 << (tetris.Height - 1)
	for x := range tetris.Width {
		left, right := uint64(yMask), uint64(yMask)
		if x > 0 {
			left = ^g.free[x-1] & yMask
		}
		if x < tetris.Width-1 {
			right = ^g.free[x+1] & yMask
		}
		nw, ne := left>>1|ceil, right>>1|ceil
		sw, se := left<<1|1, right<<1|1
		g.corner3[x] = (nw&ne&(sw|se) | sw&se&(nw|ne)) & yMask
	}
}

// occupied is Board.Occupied on the prepared free-cell columns.
func (g *Generator) occupied(x, y int) bool {
	return uint(x) >= tetris.Width || uint(y) >= tetris.Height || g.free[x]>>uint(y)&1 == 0
}

// tspin is Board.TSpin (spec §9) on the prepared columns: three of the
// four diagonal corners filled make a spin, full with both nub-side
// corners or an allowed 5th-test upgrade.
func (g *Generator) tspin(r tetris.Rot, x, y, kick int) tetris.Spin {
	if g.corner3[x]>>uint(y)&1 == 0 {
		return tetris.SpinNone
	}
	nw, ne := g.occupied(x-1, y+1), g.occupied(x+1, y+1)
	se, sw := g.occupied(x+1, y-1), g.occupied(x-1, y-1)
	n := 0
	for _, c := range [4]bool{nw, ne, se, sw} {
		if c {
			n++
		}
	}
	if n < 3 {
		return tetris.SpinNone
	}
	var front bool
	switch r {
	case tetris.North:
		front = nw && ne
	case tetris.East:
		front = ne && se
	case tetris.South:
		front = se && sw
	default:
		front = sw && nw
	}
	if front || kick == 4 && (g.opts.SpinRule == tetris.FifthKickAlways || r == tetris.East || r == tetris.West) {
		return tetris.SpinFull
	}
	return tetris.SpinMini
}

func (g *Generator) fits(r tetris.Rot, x, y int) bool {
	return uint(x) < tetris.Width && uint(y) < tetris.Height && g.fit[r][x]>>uint(y)&1 != 0
}

// dropY returns the sonic-drop y from a fitting (r,x,y).
func (g *Generator) dropY(r tetris.Rot, x, y int) int {
	below := ^g.fit[r][x] & (1<<uint(y) - 1)
	if below == 0 {
		return 0
	}
	return 64 - bits.LeadingZeros64(below)
}

// Generate appends to dst every reachable final placement of piece p on b
// (none if p cannot spawn; placements that would lock out are skipped)
// and returns it. Moves are in order of increasing (time, inputs).
func (g *Generator) Generate(dst []Move, b *tetris.Board, p tetris.Piece) []Move {
	return g.run(dst, 0, b, p, false, false)
}

// FastGenerate is Cold Clear 1's fast mode (spec §17), a speed heuristic:
// when every column is lower than 16 it starts from every orientation and
// column in free air (with the fastest empty-board path there), drops
// them, and only explores states that have a spin or are not entirely
// above the stack. It may miss exotic placements that need moves above
// the stack; its moves are real (their paths replay) but may be slower
// than the fastest. Otherwise it is Generate.
func (g *Generator) FastGenerate(dst []Move, b *tetris.Board, p tetris.Piece) []Move {
	return g.run(dst, 0, b, p, false, true)
}

// Turn appends the moves of a whole turn: the current piece's placements,
// then (if hold is allowed, hold != cur and the alternative is known) the
// placements of the hold piece, or of next when the hold is empty, marked
// Hold with one extra tick.
func (g *Generator) Turn(dst []Move, b *tetris.Board, cur, hold, next tetris.Piece, holdAllowed bool) []Move {
	return g.turn(dst, b, cur, hold, next, holdAllowed, false)
}

// FastTurn is Turn with FastGenerate's heuristic.
func (g *Generator) FastTurn(dst []Move, b *tetris.Board, cur, hold, next tetris.Piece, holdAllowed bool) []Move {
	return g.turn(dst, b, cur, hold, next, holdAllowed, true)
}

func (g *Generator) turn(dst []Move, b *tetris.Board, cur, hold, next tetris.Piece, holdAllowed, fast bool) []Move {
	dst = g.run(dst, 0, b, cur, false, fast)
	if !holdAllowed {
		return dst
	}
	alt := hold
	if alt == tetris.NoPiece {
		alt = next
	}
	if alt.Valid() && alt != cur {
		dst = g.run(dst, 1, b, alt, true, fast)
	}
	return dst
}

// fastFloor is the lowest cell row of fast-mode seeds and the column
// height below which fast mode applies (CC1: all heights < 16).
const fastFloor = 16

// startsCache keeps the fast-mode seeds per rule options and piece: they
// depend on nothing else, and are read-only once built.
var startsCache struct {
	sync.Mutex
	m map[Options]*[tetris.NumPieces][]start
}

// buildStarts sets p's fast-mode seeds, from the cache or computed.
func (g *Generator) buildStarts(p tetris.Piece) {
	startsCache.Lock()
	defer startsCache.Unlock()
	if startsCache.m == nil {
		startsCache.m = map[Options]*[tetris.NumPieces][]start{}
	}
	c := startsCache.m[g.opts]
	if c == nil {
		c = new([tetris.NumPieces][]start)
		startsCache.m[g.opts] = c
	}
	if c[p] == nil {
		c[p] = g.computeStarts(p)
	}
	g.starts[p] = c[p]
	g.seeds[p] = g.seeds[p][:0]
	for i, st := range c[p] {
		if st.dup {
			continue
		}
		g.seeds[p] = append(g.seeds[p], seed{
			m: Move{Placement: tetris.Placement{Piece: p, Rot: st.r, X: st.x},
				Time: int32(st.t), Inputs: int32(st.n), node: int32(seedNode | i)},
			key: (int(st.cRot)*tetris.Width+int(st.cX))*tetris.Height + int(st.cdy),
		})
	}
}

// computeStarts computes p's fast-mode seeds: for every (orientation, x)
// the fastest empty-board state whose path stays at rows ≥ fastFloor.
func (g *Generator) computeStarts(p tetris.Piece) []start {
	var empty tetris.Board
	g.run(nil, 2, &empty, p, false, false)
	s := g.s[2]
	type best struct {
		idx int
		d   uint64
	}
	var bs [4][tetris.Width]best
	for idx := range nStates {
		d := s.dist[idx]
		if d>>32 != uint64(s.stamp) {
			continue
		}
		spin, r, x, _, _ := decode(idx)
		if spin != tetris.SpinNone {
			continue
		}
		ok := true
		for j := idx; j >= 0; j = int(s.parent[j]) {
			_, jr, _, jy, _ := decode(j)
			if jy+int(tetris.PieceShape(p, jr).MinY) < fastFloor {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		if cur := &bs[r][x]; cur.d == 0 || d < cur.d {
			*cur = best{idx, d}
		}
	}
	var out []start
	for r := range 4 {
		for x := range tetris.Width {
			b := bs[r][x]
			if b.d == 0 {
				continue
			}
			_, _, _, y, last := decode(b.idx)
			st := start{r: tetris.Rot(r), x: int8(x), y: int8(y), last: last,
				t: uint32(b.d>>16) & 0xFFFF, n: uint32(b.d) & 0xFFFF}
			for j := b.idx; s.parent[j] >= 0; j = int(s.parent[j]) {
				st.path = append(st.path, Input(j%int(nInputs)))
			}
			slices.Reverse(st.path)
			st.idx = b.idx
			c := tetris.Placement{Piece: p, Rot: st.r, X: st.x, Y: st.y}.Canonical()
			st.cRot, st.cX, st.cdy = c.Rot, c.X, c.Y-st.y
			out = append(out, st)
		}
	}
	// Dijkstra pops the seeds in (time, inputs, index) order.
	slices.SortFunc(out, func(a, b start) int {
		return cmpKey(a.t, a.n, a.idx, b.t, b.n, b.idx)
	})
	for i := range out {
		for j := range i {
			if out[j].cRot == out[i].cRot && out[j].cX == out[i].cX {
				out[i].dup = true
			}
		}
	}
	return out
}

// cmpKey orders two popped states by (time, inputs, index).
func cmpKey(ta, na uint32, ia int, tb, nb uint32, ib int) int {
	switch {
	case ta != tb:
		return cmp.Compare(ta, tb)
	case na != nb:
		return cmp.Compare(na, nb)
	}
	return cmp.Compare(ia, ib)
}

func (g *Generator) run(dst []Move, slot int, b *tetris.Board, p tetris.Piece, hold, fast bool) []Move {
	sx, sy, ok := b.Spawn(p, g.opts.Spawn)
	if !ok {
		return dst
	}
	top := 0
	if fast {
		top = b.MaxHeight()
		fast = top < fastFloor // every column lower than fastFloor
	}
	if fast && g.starts[p] == nil {
		g.buildStarts(p)
	}
	if fast {
		g.computeSurf(p, heightLanes(b, top))
		if !g.seedQueue {
			return g.fastRun(dst, slot, b, p, hold)
		}
	}
	g.prepare(b, p)
	s := g.s[slot]
	s.reset()
	if fast {
		for i, st := range g.starts[p] {
			s.pend(st.idx, int32(-2-i), st.t, st.n)
		}
	} else {
		s.pend(stateIndex(tetris.SpinNone, tetris.North, sx, sy, none), -1, 0, 0)
	}
	return g.drain(dst, s, slot, p, hold, fast)
}

// computeSurf fills g.surf for fast mode: per orientation and column, the
// highest column height minus the lowest cell offset over the columns the
// piece covers, i.e. the y at which a hard drop from above lands. Only
// origins with the piece inside the board are set (no other is read).
func (g *Generator) computeSurf(p tetris.Piece, hl uint64) {
	// Six-bit lanes, lane x = column x (heightLanes): lane values stay
	// below 32 (heights < fastFloor, surfBias - dy in 1..4), so adding
	// lane constants never carries and laneMax's compare never borrows
	// between lanes.
	for r := range tetris.Rot(4) {
		f := &footprints[p][r]
		// column i's term: hl moved by dx lanes plus surfBias - dy per lane
		v := hl>>f.lr[0]<<f.ll[0] + f.ladd[0]
		switch f.cols {
		case 2:
			v = laneMax(v, hl>>f.lr[1]<<f.ll[1]+f.ladd[1])
		case 3:
			v = laneMax(v, hl>>f.lr[1]<<f.ll[1]+f.ladd[1])
			v = laneMax(v, hl>>f.lr[2]<<f.ll[2]+f.ladd[2])
		case 4:
			v = laneMax(v, hl>>f.lr[1]<<f.ll[1]+f.ladd[1])
			v = laneMax(v, hl>>f.lr[2]<<f.ll[2]+f.ladd[2])
			v = laneMax(v, hl>>f.lr[3]<<f.ll[3]+f.ladd[3])
		}
		surf := g.surf[r][f.x0 : f.x1+1]
		v >>= uint(laneBits*f.x0) & 63
		for j := range surf {
			surf[j] = int8(v&laneMask) - surfBias
			v >>= laneBits
		}
	}
}

// Lanes for computeSurf: ten lanes of laneBits bits.
const (
	laneBits = 6
	laneMask = 1<<laneBits - 1
	lanesOne = 0x041041041041041 // 1 in every lane
	lanesTop = lanesOne << 5     // the top bit of every lane
	surfBias = 2                 // ≥ every footprint dy, so lanes never go negative
)

// spreadLanes[row] has a 1 in lane x for every column x filled in row.
var spreadLanes = func() (t [1 << tetris.Width]uint64) {
	for row := range t {
		for x := range tetris.Width {
			if row>>x&1 != 0 {
				t[row] |= 1 << (laneBits * x)
			}
		}
	}
	return
}()

// heightLanes returns b's column heights in six-bit lanes (lane x =
// column x); top is b.MaxHeight(), below 64.
func heightLanes(b *tetris.Board, top int) uint64 {
	var hl uint64
	for y := range top {
		s := spreadLanes[b.Rows[y]&tetris.FullRow]
		hl = hl&^(s*laneMask) | s*uint64(y+1)
	}
	return hl
}

// laneMax is the lane-wise maximum of a and b (lanes below 32).
func laneMax(a, b uint64) uint64 {
	ge := ((b | lanesTop) - a) & lanesTop >> 5 * 31 // 31 in lanes where b ≥ a
	return a ^ (a^b)&ge
}

// reset starts a new search: a new stamp and empty buckets.
func (s *search) reset() {
	s.stamp++
	if s.stamp == 0 {
		clear(s.dist)
		clear(s.keySeen)
		clear(s.lockSeen)
		clear(s.posSeen)
		clear(s.mergeSeen)
		s.stamp = 1
	}
	for i := range s.buckets {
		s.buckets[i] = s.buckets[i][:0]
	}
	s.pending = s.pending[:0]
}

// pend queues state idx at (t, n) from parent for the next drain.
func (s *search) pend(idx int, parent int32, t, n uint32) {
	s.pending = append(s.pending, pending{int32(idx), parent, t, n})
}

// pending is a state waiting for drain's first relaxations.
type pending struct {
	idx, parent int32
	t, n        uint32
}

// expand reports whether a newly reached state may be explored (fast
// mode: only spins and states not entirely above the stack).
func (g *Generator) expand(fast bool, spin tetris.Spin, r tetris.Rot, x, y int) bool {
	return !fast || spin != tetris.SpinNone || y < int(g.surf[r][x])
}

// drain runs the Dijkstra from the states pended on s, appending a move
// for every new placement key at the time its first state is popped.
func (g *Generator) drain(dst []Move, s *search, slot int, p tetris.Piece, hold, fast bool) []Move {
	// push relaxes state idx to (t, n) from parent. A state is also
	// skipped when the same position was reached with another last input
	// at (t', n') with t'+1 < t, or t'+1 == t and n' <= n: any
	// continuation from there costs at most one release tick more, so it
	// is never worse. (A closure: the compiler inlines it here.)
	push := func(idx int, parent int32, t, n uint32) {
		d := t<<16 | n
		sd := uint64(s.stamp)<<32 | uint64(d)
		if old := s.dist[idx]; old>>32 == uint64(s.stamp) && old <= sd {
			return
		}
		pos := idx / int(nInputs)
		if s.posSeen[pos] == s.stamp {
			if b := s.posBest[pos] + 1<<16; b <= d {
				return
			}
			if d < s.posBest[pos] {
				s.posBest[pos] = d
			}
		} else {
			s.posSeen[pos] = s.stamp
			s.posBest[pos] = d
		}
		s.dist[idx] = sd
		s.parent[idx] = parent
		for len(s.buckets) <= int(t) {
			s.buckets = append(s.buckets, make([]uint32, 0, 64))
		}
		s.buckets[t] = append(s.buckets[t], n<<16|uint32(idx))
	}
	for _, q := range s.pending {
		push(int(q.idx), q.parent, q.t, q.n)
	}
	holdTime := int32(0)
	if hold {
		holdTime = 1
	}
	lockMinY := tetris.Visible // a lock with every cell at y ≥ 20 locks out
	rotates := p != tetris.O
	isT := p == tetris.T
	for t := 0; t < len(s.buckets); t++ {
		bucket := s.buckets[t]
		if len(bucket) == 0 {
			continue
		}
		// No edge is free, so nothing joins this bucket while it is
		// processed: sort once by (inputs, index).
		slices.Sort(bucket)
		for _, e := range bucket {
			idx := int(e & 0xFFFF)
			n := e >> 16
			if s.dist[idx] != uint64(s.stamp)<<32|uint64(t)<<16|uint64(n) {
				continue // superseded
			}
			spin, r, x, y, last := decode(idx)
			dy := g.dropY(r, x, y)
			// Lock at the hard-drop position.
			lspin := spin
			if dy != y {
				lspin = tetris.SpinNone
			}
			pl := tetris.Placement{Piece: p, Rot: r, X: int8(x), Y: int8(dy), Spin: lspin}
			li := ((int(lspin)*4+int(r))*tetris.Width+x)*tetris.Height + dy
			if s.lockSeen[li] != s.stamp && dy+int(tetris.PieceShape(p, r).MinY) < lockMinY {
				s.lockSeen[li] = s.stamp
				k := keyIndex(pl)
				if s.keySeen[k] != s.stamp {
					s.keySeen[k] = s.stamp
					dst = append(dst, Move{Placement: pl, Hold: hold, Time: int32(t) + holdTime,
						Inputs: int32(n), node: int32(slot<<16 | idx)})
				}
			}
			cost := func(in Input) uint32 {
				if in == last {
					return uint32(t) + 2
				}
				return uint32(t) + 1
			}
			par := int32(idx)
			if dy != y {
				c := uint32(t + 2*(y-dy))
				if last == Drop {
					c++
				}
				// fast-mode seeds are always dropped and explored (CC1)
				if s.parent[idx] <= -2 || g.expand(fast, tetris.SpinNone, r, x, dy) {
					push(stateIndex(tetris.SpinNone, r, x, dy, Drop), par, c, n+1)
				}
				if s.parent[idx] <= -2 {
					continue
				}
			}
			if g.opts.StepDrop && dy < y-1 && g.expand(fast, tetris.SpinNone, r, x, y-1) {
				push(stateIndex(tetris.SpinNone, r, x, y-1, Down), par, uint32(t+2), n+1)
			}
			if g.fits(r, x-1, y) && g.expand(fast, tetris.SpinNone, r, x-1, y) {
				push(stateIndex(tetris.SpinNone, r, x-1, y, Left), par, cost(Left), n+1)
			}
			if g.fits(r, x+1, y) && g.expand(fast, tetris.SpinNone, r, x+1, y) {
				push(stateIndex(tetris.SpinNone, r, x+1, y, Right), par, cost(Right), n+1)
			}
			if !rotates {
				continue
			}
			for _, in := range [3]Input{Cw, Ccw, Flip} {
				if in == Flip && !g.opts.Allow180 {
					continue
				}
				to := rotTarget(r, in)
				// g.rotate, inlined by hand (a call per rotation costs ~10 %)
				for k, kc := range tetris.Kicks(p, r, to) {
					nx, ny := x+int(kc.X), y+int(kc.Y)
					if !g.fits(to, nx, ny) {
						continue
					}
					sp := tetris.SpinNone
					if isT && !(in == Flip && g.opts.NoSpin180) {
						sp = g.tspin(to, nx, ny, k)
					}
					if g.expand(fast, sp, to, nx, ny) {
						push(stateIndex(sp, to, nx, ny, in), par, cost(in), n+1)
					}
					break
				}
			}
		}
	}
	return dst
}

// rotTarget is the orientation rotation input in (Cw, Ccw or Flip) turns
// r to (small enough for the compiler to inline in the search loops).
func rotTarget(r tetris.Rot, in Input) tetris.Rot {
	switch in {
	case Cw:
		return r.Cw()
	case Ccw:
		return r.Ccw()
	}
	return r.Flip()
}

// rotate applies rotation input in (Cw, Ccw or Flip) to (r, x, y): the
// first fitting kick test wins; ok is false if none fits. The spin status
// is the T-spin rule's (spec §9) for T and none for other pieces.
func (g *Generator) rotate(p tetris.Piece, r tetris.Rot, x, y int, in Input) (to tetris.Rot, nx, ny int, sp tetris.Spin, ok bool) {
	to = rotTarget(r, in)
	for k, kc := range tetris.Kicks(p, r, to) {
		nx, ny = x+int(kc.X), y+int(kc.Y)
		if !g.fits(to, nx, ny) {
			continue
		}
		if p == tetris.T && !(in == Flip && g.opts.NoSpin180) {
			sp = g.tspin(to, nx, ny, k)
		}
		return to, nx, ny, sp, true
	}
	return
}

// keyIndex is a placement's dedupe index: spin and canonical location.
func keyIndex(pl tetris.Placement) int {
	c := pl.Canonical()
	return ((int(pl.Spin)*4+int(c.Rot))*tetris.Width+int(c.X))*tetris.Height + int(c.Y)
}

// Path appends to buf the inputs of m's fastest path (hold and the final
// hard drop not included) and returns it. m must come from the most recent
// Generate or Turn call of g.
func (g *Generator) Path(m Move, buf []Input) []Input {
	s := g.s[m.node>>16&3]
	first := len(buf)
	if m.node&seedNode != 0 { // a fast-mode seed's own lock
		sp := g.starts[m.Piece][m.node&0xFFFF].path
		return append(buf, sp...)
	}
	for idx := int(m.node & 0xFFFF); ; {
		par := s.parent[idx]
		if par <= -2 { // a fast-mode seed: its own path from the spawn
			sp := g.starts[m.Piece][-2-par].path
			for i := len(sp) - 1; i >= 0; i-- {
				buf = append(buf, sp[i])
			}
			break
		}
		if par < 0 {
			break
		}
		buf = append(buf, Input(idx%int(nInputs)))
		idx = int(par)
	}
	slices.Reverse(buf[first:])
	return buf
}

// Find reports whether placement pl (its piece, cells and spin; any
// orientation and origin covering the same cells) is reachable on b, and
// returns the generated move for it (complete mode, g's options). It is
// the check a frontend makes on a bot's move; the move's Path is valid
// until g's next call.
func (g *Generator) Find(b *tetris.Board, pl tetris.Placement) (Move, bool) {
	if !pl.Piece.Valid() || !b.FitsPlacement(pl) {
		return Move{}, false
	}
	y0, mask := pl.CellMask()
	g.found = g.Generate(g.found[:0], b, pl.Piece)
	for _, m := range g.found {
		if m.Spin != pl.Spin {
			continue
		}
		if my0, mm := m.CellMask(); my0 == y0 && mm == mask {
			return m, true
		}
	}
	return Move{}, false
}
