// Package player plays HATETRIS by beam search: a beam of wells, deduplicated,
// expanded with the exact enemy along each well's own path, valued by an
// Evaluator (a hand-made heuristic here; a neural net plugs into the same
// interface).
//
// Start with Search and Options.
package player

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/yomi-ai/yomi/hatetris"
)

// Options configure a beam search.
type Options struct {
	Width      int             // wells kept per depth (required)
	Quiescence bool            // value a well by the best of its single-line-clear chains too
	Workers    int             // goroutines expanding the beam (0 = GOMAXPROCS)
	AI         hatetris.AIKind // the enemy (default HATETRIS with the loop rule)
	MaxDepth   int             // stop after this many pieces (0 = play until the beam dies)
	// NewEval returns an evaluator for one worker (nil = DefaultHeuristic).
	NewEval func() Evaluator
	// Progress, if set, is called after every depth.
	Progress func(Stats)
	// Start is the well the search starts from (zero = the empty well). The
	// loop rule sees only the wells from Start on.
	Start hatetris.Well
	// OnDepth, if set, is called after every depth with the wells of the new
	// beam (in beam order; the slice is reused, copy what you keep), before
	// that depth's checkpoint is saved. A resumed search does not call it
	// again for the depths of its checkpoint.
	OnDepth func(depth int, beam []hatetris.Well)
	// Line, if set, is called after a depth with the best game so far, as
	// Search would return it if stopped there (the web page shows it grow);
	// at most once per LineEvery, since rebuilding the replay costs time
	// linear in the depth.
	Line      func(*Result)
	LineEvery time.Duration
	// Checkpoint, if set, is a file the search saves itself to after each
	// depth (at most once per CheckpointEvery, and always when it stops)
	// and resumes from when it exists: the resumed search plays exactly the
	// game an uninterrupted one plays. See checkpoint.go for the format.
	Checkpoint      string
	CheckpointEvery time.Duration
	// EvalID names the evaluator in the checkpoint (e.g. a hash of the net
	// file): a resume with another EvalID, Width, Quiescence, AI or Start
	// is refused, since it would not continue the same search.
	EvalID string
	// Resumed, if set, is called once when the search resumes from
	// Checkpoint, with the state it resumes from.
	Resumed func(Stats)
}

// Stats describe a search in progress.
type Stats struct {
	Depth     int           // pieces placed
	Beam      int           // wells in the beam
	BestScore int           // best score in the beam
	Wells     int64         // wells expanded so far
	Elapsed   time.Duration // since the search started (summed over resumes)
	// Kept counts the wells kept for the replay and the loop rule: the
	// beam and its ancestors (and the best game's).
	Kept int
}

// Result is the outcome of a search: the best game found.
type Result struct {
	Score    int              // lines of the best game
	Pieces   int              // pieces placed in it
	Moves    []hatetris.Move  // its replay (ends in game over when the beam died there)
	Depth    int              // deepest depth the beam reached
	Wells    int64            // wells expanded
	Elapsed  time.Duration    // wall time
	Stopped  bool             // ended by the context or MaxDepth, not by the beam dying
	Final    hatetris.Well    // the well at the end of the best game
	Spawned  []hatetris.Piece // pieces of the best game
	GameOver bool             // the replay ends in game over
	// BestValue is the highest evaluator value in the deepest beam reached
	// (−Inf when no piece could be placed).
	BestValue float64
}

// node is one child while a depth is expanded; parent indexes the previous layer.
type node struct {
	well    hatetris.Well
	value   float64
	score   int32
	parent  int32
	piece   hatetris.Piece // piece placed to reach this well
	o, x, y int8           // where it locked
	// hash is the top half of wellHash(&well), computed by the worker
	// that made the node (while the well is in its cache) for selectNext's
	// de-duplication; it fills what was padding (64 bytes either way).
	hash uint32
}

// entry is one well of a kept beam layer: the rows below the bar (beam
// wells are never over, so the rows above are empty) and the replay's
// links, without the value (44 bytes where a node takes 64; the layers of
// a whole game are most of a wide search's memory).
type entry struct {
	rows    [hatetris.Height - hatetris.Bar]uint16
	score   int32
	parent  int32
	piece   hatetris.Piece
	o, x, y int8
}

func (e *entry) well() (w hatetris.Well) {
	copy(w[hatetris.Bar:], e.rows[:])
	return w
}

// is reports whether e holds the well w.
func (e *entry) is(w *hatetris.Well) bool {
	return [hatetris.Height - hatetris.Bar]uint16(w[hatetris.Bar:]) == e.rows && w[0]|w[1]|w[2]|w[3] == 0
}

func toEntry(n *node) entry {
	w := &n.well
	if w[0]|w[1]|w[2]|w[3] != 0 {
		panic("player: a beam well has cells above the bar")
	}
	return entry{rows: [hatetris.Height - hatetris.Bar]uint16(w[hatetris.Bar:]), score: n.score, parent: n.parent, piece: n.piece, o: n.o, x: n.x, y: n.y}
}

// Search plays one game by beam search and returns the best game found.
func Search(ctx context.Context, opt Options) (*Result, error) {
	if opt.Width < 1 {
		return nil, errors.New("player: beam width must be at least 1")
	}
	if opt.NewEval == nil {
		opt.NewEval = func() Evaluator { return DefaultHeuristic() }
	}
	nw := opt.Workers
	if nw <= 0 {
		nw = runtime.GOMAXPROCS(0)
	}
	s := &search{opt: opt, start: time.Now(), saved: -1}
	s.bloom = newBloom(opt.Width)
	if opt.Start.Over() {
		return nil, errors.New("player: the start well is already game over")
	}
	if opt.Start[0]|opt.Start[1]|opt.Start[2]|opt.Start[3] != 0 {
		return nil, errors.New("player: the start well has cells above the bar")
	}
	s.layers = [][]entry{{toEntry(&node{well: opt.Start, parent: -1})}}
	s.bloom.add(&opt.Start)
	s.bestValue = math.Inf(-1)
	first := 0
	if opt.Checkpoint != "" {
		ok, err := s.load(opt.Checkpoint)
		if err != nil {
			return nil, err
		}
		if ok {
			first = len(s.layers) - 1
			if opt.MaxDepth > 0 && first > opt.MaxDepth {
				return nil, fmt.Errorf("player: checkpoint %s: %w: it is at depth %d, past the maximum depth %d; raise it or use another checkpoint file", opt.Checkpoint, ErrCheckpointSettings, first, opt.MaxDepth)
			}
			s.saved = first
			if opt.Resumed != nil {
				opt.Resumed(s.stats())
			}
		}
	}
	workers := make([]*worker, nw)
	for i := range workers {
		workers[i] = &worker{s: s, eval: opt.NewEval()}
		if sf, ok := workers[i].eval.(ScoreFree); ok && sf.ScoreFree() && opt.Quiescence {
			workers[i].memo = newMemo()
		}
		if sq, ok := workers[i].eval.(Squashing); ok && opt.Quiescence {
			workers[i].sq = sq
		}
	}
	res := &Result{}
	var beamWells []hatetris.Well
	var lastLine time.Time
	lastSave := time.Now()
	for depth := first; ; depth++ {
		if opt.MaxDepth > 0 && depth >= opt.MaxDepth {
			res.Stopped = true
			break
		}
		if ctx.Err() != nil {
			res.Stopped = true
			break
		}
		cur := s.layers[depth]
		// Workers take chunks of the beam in turn (a fixed half each left
		// one idle while the other finished its slower half), in the order
		// of expandOrder; selectNext reads each well's children back in
		// beam order, so the result does not depend on who expanded what,
		// nor when.
		chunk := max(16, min(2048, len(cur)/(nw*32)))
		nc := (len(cur) + chunk - 1) / chunk
		s.segs = slices.Grow(s.segs[:0], len(cur))[:len(cur)]
		s.order = expandOrder(s.order, cur)
		var taken atomic.Int64
		var wg sync.WaitGroup
		for i, w := range workers {
			w.out = w.out[:0]
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					c := int(taken.Add(1) - 1)
					if c >= nc {
						return
					}
					w.expand(ctx, depth, s.order[c*chunk:min((c+1)*chunk, len(cur))], int32(i))
				}
			}()
		}
		wg.Wait()
		if ctx.Err() != nil {
			// Stopped mid-depth: the depth is dropped, so the search ends
			// (and its checkpoint holds) the last whole depth, and a wide
			// beam stops within a fraction of a depth.
			res.Stopped = true
			break
		}
		s.wells += int64(len(cur))
		next := s.selectNext(workers)
		if len(next) == 0 {
			break
		}
		layer := make([]entry, len(next))
		s.bestValue = math.Inf(-1)
		for i := range next {
			s.bloom.add(&next[i].well)
			layer[i] = toEntry(&next[i])
			s.bestValue = max(s.bestValue, next[i].value)
		}
		s.layers = append(s.layers, layer)
		s.noteBest()
		s.compact()
		// OnDepth before the save: a caller that stores what OnDepth gives
		// holds every depth of a saved checkpoint (hatetris/train).
		if opt.OnDepth != nil {
			beamWells = beamWells[:0]
			for i := range next {
				beamWells = append(beamWells, next[i].well)
			}
			opt.OnDepth(depth+1, beamWells)
		}
		if opt.Checkpoint != "" && time.Since(lastSave) >= opt.CheckpointEvery {
			if err := s.save(opt.Checkpoint); err != nil {
				return nil, err
			}
			lastSave = time.Now()
		}
		if opt.Progress != nil {
			opt.Progress(s.stats())
		}
		if opt.Line != nil && (lastLine.IsZero() || time.Since(lastLine) >= opt.LineEvery) {
			line, err := s.result(&Result{Stopped: true})
			if err != nil {
				return nil, err
			}
			opt.Line(line)
			lastLine = time.Now()
		}
	}
	if opt.Checkpoint != "" && s.saved != len(s.layers)-1 {
		if err := s.save(opt.Checkpoint); err != nil {
			return nil, err
		}
	}
	return s.result(res)
}

// stats describes the newest layer.
func (s *search) stats() Stats {
	d := len(s.layers) - 1
	best, kept := 0, 0
	for i := range s.layers[d] {
		best = max(best, int(s.layers[d][i].score))
	}
	for _, l := range s.layers {
		kept += len(l)
	}
	return Stats{Depth: d, Beam: len(s.layers[d]), BestScore: best, Wells: s.wells, Elapsed: s.elapsed(), Kept: kept}
}

// elapsed is the search's wall time, earlier runs of a resumed one included.
func (s *search) elapsed() time.Duration { return s.before + time.Since(s.start) }

// noteBest updates the best well with the newest layer: the highest score,
// the deepest on ties, the first in beam order within a depth.
func (s *search) noteBest() {
	d := len(s.layers) - 1
	bi := int32(-1)
	for i := range s.layers[d] {
		if bi < 0 || s.layers[d][i].score > s.layers[d][bi].score {
			bi = int32(i)
		}
	}
	if s.layers[d][bi].score >= s.layers[s.bestD][s.bestI].score {
		s.bestD, s.bestI = d, bi
	}
}

// compact drops the kept wells nothing can read any more: the loop rule
// walks only the ancestors of the newest layer's wells and the replay only
// the best well's, so every other well is dropped (as D&F do) and the
// parent links renumbered; the newest layer keeps its order. Memory then
// grows with the width and the depth over which the beam's ancestries
// merge, not with the game's length. It also rebuilds the bloom filter
// from the kept wells when most of its wells are gone.
func (s *search) compact() {
	top := len(s.layers) - 1
	total := 0
	for _, l := range s.layers[:top] {
		total += len(l)
	}
	s.live = slices.Grow(s.live[:0], total)[:total]
	clear(s.live)
	// off[d] is layer d's offset in live, for d < top.
	s.off = slices.Grow(s.off[:0], top+1)[:top+1]
	o := 0
	for d := 0; d < top; d++ {
		s.off[d] = o
		o += len(s.layers[d])
	}
	s.off[top] = o
	live := func(d int) []bool { return s.live[s.off[d]:s.off[d+1]] }
	if s.bestD < top {
		live(s.bestD)[s.bestI] = true
	}
	for d := top; d > 0; d-- {
		prev := live(d - 1)
		l := s.layers[d]
		if d == top {
			for i := range l {
				prev[l[i].parent] = true
			}
			continue
		}
		lv := live(d)
		for i := range l {
			if lv[i] {
				prev[l[i].parent] = true
			}
		}
	}
	kept := len(s.layers[top])
	for d := 0; d < top; d++ {
		lv, l := live(d), s.layers[d]
		n := 0
		for i := range l {
			if lv[i] {
				n++
			}
		}
		kept += n
		if n == len(l) {
			continue
		}
		s.remap = slices.Grow(s.remap[:0], len(l))[:len(l)]
		n = 0
		for i := range l {
			if lv[i] {
				s.remap[i] = int32(n)
				l[n] = l[i]
				n++
			}
		}
		if n < cap(l)/2 {
			l = slices.Clone(l[:n]) // give the memory back
		}
		s.layers[d] = l[:n]
		for i := range s.layers[d+1] {
			s.layers[d+1][i].parent = s.remap[s.layers[d+1][i].parent]
		}
		if d == s.bestD {
			s.bestI = s.remap[s.bestI]
		}
	}
	s.sinceBloom += len(s.layers[top])
	if s.sinceBloom > 4*kept {
		s.rebuildBloom()
	}
}

// rebuildBloom refills the bloom filter with the kept wells only (wells
// dropped from every ancestry can no longer be met by the loop rule's walk).
func (s *search) rebuildBloom() {
	clear(s.bloom.bits)
	for d := range s.layers {
		for i := range s.layers[d] {
			w := s.layers[d][i].well()
			s.bloom.add(&w)
		}
	}
	s.sinceBloom = 0
}

type search struct {
	opt    Options
	start  time.Time
	before time.Duration // elapsed in the runs before a resume
	layers [][]entry
	bloom  bloom
	// sinceBloom counts the wells added to the bloom filter since it was
	// last rebuilt from the kept wells.
	sinceBloom int
	// bestValue is the highest value in the deepest layer.
	bestValue float64
	wells     int64
	// bestD, bestI locate the best well so far (see noteBest).
	bestD int
	bestI int32
	// saved is the depth of the newest checkpoint written or read (−1: none).
	saved int
	// segs[i] locates the children of beam well i in a worker's out.
	segs []segment
	// order is the order in which the workers expand the beam (see expandOrder).
	order []int32
	sel   selBufs
	// compact's and save's buffers.
	buf   []byte
	live  []bool
	off   []int
	remap []int32
}

// segment is where one beam well's children are: workers[worker].out[lo:hi].
type segment struct{ worker, lo, hi int32 }

// worker expands chunks of the beam (see expandOrder) with its own buffers.
type worker struct {
	s    *search
	eval Evaluator
	exp  hatetris.Expander
	out  []node
	qbuf [][]hatetris.Future
	clr  hatetris.Clearer
	memo *memo // quiescence values by well (ScoreFree evaluators only)
	// sq, if set, is eval as Squashing: with quiescence, value works on raw
	// values (the memo too) and expand squashes each child's once.
	sq Squashing
}

// memoBits sizes a worker's memo (2¹² entries of 32 bytes, 128 KB): the
// repeats are mostly near each other (the chains of one beam well, and the
// wells the beam's order puts next to it), which a small direct-mapped
// table catches. Counted at width 100 000, depth 34 → 35 (beam sorted):
// 2¹² slots left 37.1 M evaluations, 2¹⁴ 36.5 M, 2²⁰ 35.6 M; the small
// table stays in the L2 cache, and measured 5 % less CPU than 2¹⁴ (2¹³:
// 2.6 % more than 2¹², 2¹¹: the same).
const memoBits = 12

// memo is a direct-mapped table of wells and their values with quiescence.
type memo struct {
	slots []memoSlot
}

// memoSlot is one well (its 16 rows below the bar, 10 bits each, packed
// in 160 bits) and its value: 32 bytes, two to a cache line, so a lookup
// touches one line.
type memoSlot struct {
	k [3]uint64
	v float64
}

// memoEmpty marks an empty slot: no well's third key word has bits
// beyond its 40.
const memoEmpty = ^uint64(0)

func newMemo() *memo {
	m := &memo{slots: make([]memoSlot, 1<<memoBits)}
	for i := range m.slots {
		m.slots[i].k[2] = memoEmpty
	}
	return m
}

// key packs the rows of w below the bar and returns its slot; ok is false
// for a well with cells above the bar (never memoised).
func (m *memo) key(w *hatetris.Well) (k [3]uint64, slot int, ok bool) {
	if w[0]|w[1]|w[2]|w[3] != 0 {
		return k, 0, false
	}
	r := func(y int) uint64 { return uint64(w[hatetris.Bar+y]) }
	k[0] = r(0) | r(1)<<10 | r(2)<<20 | r(3)<<30 | r(4)<<40 | r(5)<<50
	k[1] = r(6) | r(7)<<10 | r(8)<<20 | r(9)<<30 | r(10)<<40 | r(11)<<50
	k[2] = r(12) | r(13)<<10 | r(14)<<20 | r(15)<<30
	h := (k[0]*0x9e3779b97f4a7c15 ^ k[1]) * 0xff51afd7ed558ccd
	h = (h ^ h>>32 ^ k[2]) * 0xc4ceb9fe1a85ec53
	return k, int(h >> (64 - memoBits)), true
}

// value is a well's value with quiescence: the best of its own value and
// its chains' (memoised when the evaluator ignores the score). With a
// Squashing evaluator the values are raw (see childValue).
func (w *worker) value(well *hatetris.Well, score, level int) float64 {
	if w.memo == nil {
		return max(w.own(well, score), w.quiesce(well, score, level))
	}
	k, i, ok := w.memo.key(well)
	if !ok {
		return max(w.own(well, score), w.quiesce(well, score, level))
	}
	if e := &w.memo.slots[i]; e.k[0] == k[0] && e.k[1] == k[1] && e.k[2] == k[2] {
		return e.v
	}
	v := max(w.own(well, score), w.quiesce(well, score, level))
	w.memo.slots[i] = memoSlot{k, v}
	return v
}

// own is a well's own value for value: raw with a Squashing evaluator.
func (w *worker) own(well *hatetris.Well, score int) float64 {
	if w.sq != nil {
		return w.sq.EvalRaw(well, score)
	}
	return w.eval.Eval(well, score)
}

// childValue is a beam child's value with quiescence: value, squashed once
// when value worked on raw values.
func (w *worker) childValue(well *hatetris.Well, score int) float64 {
	v := w.value(well, score, 0)
	if w.sq != nil {
		v = w.sq.Squash(v)
	}
	return v
}

func (w *worker) expand(ctx context.Context, depth int, idx []int32, id int32) {
	s := w.s
	cur := s.layers[depth]
	pa, _ := w.eval.(ParentAware)
	done := ctx.Done()
	for j, i := range idx {
		if j&7 == 0 {
			select {
			case <-done:
				return
			default:
			}
		}
		start := len(w.out)
		n := &cur[i]
		well := n.well()
		if pa != nil {
			pa.SetParent(&well)
		}
		var loops func(*hatetris.Well) int
		if s.opt.AI == hatetris.Hatetris {
			loops = func(f *hatetris.Well) int { return s.loops(depth, i, f) }
		}
		p, futs := w.exp.Choose(&well, loops)
		for k := range futs {
			f := &futs[k]
			if f.Well.Over() {
				continue
			}
			score := int(n.score) + int(f.Lines)
			var v float64
			if s.opt.Quiescence {
				v = w.childValue(&f.Well, score)
			} else {
				v = w.eval.Eval(&f.Well, score)
			}
			w.out = append(w.out, node{well: f.Well, value: v, score: int32(score), parent: i, piece: p, o: f.O, x: f.X, y: f.Y,
				hash: uint32(wellHash(&f.Well) >> 32)})
		}
		s.segs[i] = segment{worker: id, lo: int32(start), hi: int32(len(w.out))}
	}
}

// quiesce returns the best value over chains of single-line clears: each
// step uses the first piece (in the enemy's order) that cannot clear two or
// more lines at once; the chain stops when that piece clears nothing.
func (w *worker) quiesce(well *hatetris.Well, score, level int) float64 {
	// S, the first piece tried, puts 1 cell or 2 adjacent cells in a row:
	// unless some row lacks exactly that, it clears nothing and the chain
	// is empty. (Exact shortcut; S is skipped only when it can clear 2 lines.)
	if !sCanFill(well) {
		return math.Inf(-1)
	}
	return w.quiesceAll(well, score, level)
}

// quiesceAll is quiesce without the sCanFill shortcut.
func (w *worker) quiesceAll(well *hatetris.Well, score, level int) float64 {
	for len(w.qbuf) <= level {
		w.qbuf = append(w.qbuf, nil)
	}
	best := math.Inf(-1)
	for p := hatetris.Piece(0); p < hatetris.NumPieces; p++ {
		// Only the locks that clear lines matter: the piece is skipped if one
		// clears two or more, and the chain follows those that clear one.
		futs := w.clr.Clears(w.qbuf[level][:0], well, p)
		w.qbuf[level] = futs
		multi := false
		for k := range futs {
			if futs[k].Lines >= 2 {
				multi = true
				break
			}
		}
		if multi {
			continue
		}
		if len(futs) == 0 {
			return best
		}
		for k := range futs {
			f := &futs[k]
			if f.Well.Over() {
				continue
			}
			best = max(best, w.value(&f.Well, score+1, level+1))
		}
		return best
	}
	return best
}

// sCanFill reports whether some row below the bar lacks only 1 cell or 2
// adjacent cells (what an S piece can put in one row).
func sCanFill(w *hatetris.Well) bool {
	for y := hatetris.Bar; y < hatetris.Height; y++ {
		e := ^w[y] & hatetris.FullRow
		if e != 0 && (e&(e-1) == 0 || e == e&-e*3) {
			return true
		}
	}
	return false
}

// loops counts the wells equal to f on the path of node (depth, idx), at
// the spawns where a repeat is possible: a cycle of k pieces adds 4k cells
// and must clear them as whole rows of 10, so k is a multiple of 5.
func (s *search) loops(depth int, idx int32, f *hatetris.Well) int {
	if !s.bloom.has(f) {
		return 0
	}
	n := 0
	d, i := depth, idx
	for d >= 0 {
		if (depth+1-d)%5 == 0 && s.layers[d][i].is(f) {
			n++
		}
		i = s.layers[d][i].parent
		d--
	}
	return n
}

// selectNext merges the workers' children in beam order, drops repeated
// wells (same well at the same depth means the same score), and keeps the
// Width best by value (ties: earlier in beam order). The result is valid
// until the next call.
func (s *search) selectNext(workers []*worker) []node {
	total := 0
	for _, w := range workers {
		total += len(w.out)
	}
	// Children stay in the workers' buffers: all points at the unique ones
	// and vals holds their values (16 bytes per child instead of a copy).
	// These buffers, the set and the result are the search's, reused from
	// depth to depth instead of ≈ 30 bytes per child allocated, zeroed and
	// collected again each depth.
	b := &s.sel
	all := slices.Grow(b.all[:0], total)
	vals := slices.Grow(b.vals[:0], total)
	defer func() {
		clear(all) // drop the pointers into the workers' buffers
		b.all, b.vals = all[:0], vals[:0]
	}()
	// An open-addressing set of indices into all, at most half full
	// (4–8 bytes per child; a map keyed by the well took ≈ 50–100). The
	// slot is the top bits of the node's hash; the slot's spare high bits
	// (above those the index needs) keep more bits of the hash, so that
	// most probes of other wells are told apart without reading their
	// nodes (a cache miss each in a wide beam).
	size := 1
	for size < 2*total {
		size <<= 1
	}
	set := slices.Grow(b.set[:0], size)[:size] // all index + 1 in the low idxBits; 0 = empty
	clear(set)
	b.set = set
	logSize := bits.TrailingZeros(uint(size))
	idxBits := bits.Len(uint(total)) // all index + 1 ≤ total
	fpMask := ^uint32(0) << idxBits  // 0 when idxBits is 32
	if idxBits >= 32 {
		fpMask = 0
	}
	for _, g := range s.segs {
		out := workers[g.worker].out[g.lo:g.hi]
	children:
		for k := range out {
			c := &out[k]
			h := int(uint64(c.hash) << 32 >> (64 - logSize)) // 0 when size is 1
			fp := c.hash << idxBits & fpMask                 // hash bits below the slot's
			for ; set[h] != 0; h = (h + 1) & (size - 1) {
				if set[h]&fpMask == fp && sameWell(&all[set[h]&^fpMask-1].well, &c.well) {
					continue children
				}
			}
			all = append(all, c)
			vals = append(vals, c.value)
			set[h] = uint32(len(all)) | fp
		}
	}
	if len(all) <= s.opt.Width {
		out := slices.Grow(b.next[:0], len(all))[:len(all)]
		for i, c := range all {
			out[i] = *c
		}
		b.next = out
		return out
	}
	idx := slices.Grow(b.idx[:0], len(all))[:len(all)]
	b.idx = idx
	for i := range idx {
		idx[i] = int32(i)
	}
	cmp := func(a, b int32) int {
		va, vb := vals[a], vals[b]
		switch {
		case va > vb:
			return -1
		case va < vb:
			return 1
		}
		return int(a - b)
	}
	// Only the Width best are needed, in order: partition them to the
	// front (the order is total, so the set is unique), then sort them.
	selectFirst(idx, s.opt.Width, cmp)
	idx = idx[:s.opt.Width]
	slices.SortFunc(idx, cmp)
	out := slices.Grow(b.next[:0], s.opt.Width)[:s.opt.Width]
	for i := range out {
		out[i] = *all[idx[i]]
	}
	b.next = out
	return out
}

// selBufs are selectNext's buffers, kept by the search from depth to depth.
type selBufs struct {
	all  []*node
	vals []float64
	set  []uint32
	idx  []int32
	next []node // the result: valid until the next selectNext
}

// sameWell compares two wells four rows at a time (== on the arrays calls
// memequal).
func sameWell(a, b *hatetris.Well) bool {
	for i := 0; i < hatetris.Height; i += 4 {
		if a[i] != b[i] || a[i+1] != b[i+1] || a[i+2] != b[i+2] || a[i+3] != b[i+3] {
			return false
		}
	}
	return true
}

// selectFirst reorders x so that its k smallest elements under the total
// order cmp come first (in some order): quickselect with a median-of-three
// pivot, finishing small ranges by sorting.
func selectFirst(x []int32, k int, cmp func(a, b int32) int) {
	lo, hi := 0, len(x) // the k-th smallest lies in x[lo:hi]
	for hi-lo > 32 {
		m := lo + (hi-lo)/2
		a, b, c := x[lo], x[m], x[hi-1]
		if cmp(a, b) > 0 {
			a, b = b, a
		}
		if cmp(b, c) > 0 {
			b = c
			if cmp(a, b) > 0 {
				b = a
			}
		}
		pivot := b
		// Three-way partition: < pivot, == pivot (one element: the order is
		// total), > pivot.
		i, j := lo, hi
		for p := lo; p < j; {
			switch c := cmp(x[p], pivot); {
			case c < 0:
				x[i], x[p] = x[p], x[i]
				i++
				p++
			case c > 0:
				j--
				x[p], x[j] = x[j], x[p]
			default:
				p++
			}
		}
		switch {
		case k <= i:
			hi = i
		case k >= j:
			lo = j
		default:
			return
		}
	}
	slices.SortFunc(x[lo:hi], cmp)
}

// result rebuilds the replay of the best-scoring well seen at any depth
// (the deepest one on ties, the first in beam order within a depth).
func (s *search) result(res *Result) (*Result, error) {
	bd, bi := s.bestD, s.bestI
	res.Depth = len(s.layers) - 1
	res.BestValue = math.Inf(-1)
	if res.Depth > 0 {
		res.BestValue = s.bestValue
	}
	res.Wells = s.wells
	res.Score = int(s.layers[bd][bi].score)
	res.Pieces = bd
	res.Final = s.layers[bd][bi].well()
	var chain []*entry
	for d, i := bd, bi; d > 0; d-- {
		n := &s.layers[d][i]
		chain = append(chain, n)
		i = n.parent
	}
	well := s.opt.Start
	for k := len(chain) - 1; k >= 0; k-- {
		n := chain[k]
		f := hatetris.Future{O: n.o, X: n.x, Y: n.y}
		ms, err := hatetris.PathTo(&well, n.piece, &f)
		if err != nil {
			return nil, fmt.Errorf("player: rebuilding the replay: %w", err)
		}
		res.Moves = append(res.Moves, ms...)
		res.Spawned = append(res.Spawned, n.piece)
		well = n.well()
	}
	// If the beam died after this well, finish the game: any lock of the
	// enemy's next piece is game over.
	if bd == len(s.layers)-1 && !res.Stopped {
		var exp hatetris.Expander
		var loops func(*hatetris.Well) int
		if s.opt.AI == hatetris.Hatetris {
			loops = func(f *hatetris.Well) int { return s.loops(bd, bi, f) }
		}
		p, futs := exp.Choose(&well, loops)
		if len(futs) > 0 {
			ms, err := hatetris.PathTo(&well, p, &futs[0])
			if err != nil {
				return nil, fmt.Errorf("player: rebuilding the last piece: %w", err)
			}
			res.Moves = append(res.Moves, ms...)
			res.Spawned = append(res.Spawned, p)
			res.GameOver = true
		}
	}
	res.Elapsed = s.elapsed()
	return res, nil
}

// bloom is a one-probe bit filter over well hashes: a miss proves a well
// was never in any beam, so the exact path walk is needed only on hits.
type bloom struct {
	bits []uint64
	mask uint64
}

func newBloom(width int) bloom {
	n := uint64(1 << 20)
	for n < uint64(width)*4096 && n < 1<<31 {
		n <<= 1
	}
	return bloom{bits: make([]uint64, n/64), mask: n - 1}
}

func wellHash(w *hatetris.Well) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for i := 0; i < hatetris.Height; i += 4 {
		v := uint64(w[i]) | uint64(w[i+1])<<16 | uint64(w[i+2])<<32 | uint64(w[i+3])<<48
		h = (h ^ v) * 0xff51afd7ed558ccd
		h ^= h >> 32
	}
	return h
}

func (b *bloom) add(w *hatetris.Well) {
	h := wellHash(w) & b.mask
	b.bits[h>>6] |= 1 << (h & 63)
}

func (b *bloom) has(w *hatetris.Well) bool {
	h := wellHash(w) & b.mask
	return b.bits[h>>6]&(1<<(h&63)) != 0
}

// sortBeam switches expandOrder's sort (off: beam order); tests turn it
// off to check that the order changes nothing.
var sortBeam = true

// expandOrder returns the beam's indices in the order the workers expand
// them: sorted by the wells' rows from the bottom row up, so that wells
// with the same lower rows follow each other. Their children and chains
// then meet the same blocks and wells again while the evaluator's caches
// still hold them (the block cache and the quiescence memo; also the
// parents of a shared child, whose second valuation is a memo hit). The
// order does not change the result: each well's children are stored at
// its beam index, selectNext reads them back in beam order, and
// evaluators return the same bits in any order.
func expandOrder(buf []int32, cur []entry) []int32 {
	buf = slices.Grow(buf[:0], len(cur))[:len(cur)]
	for i := range buf {
		buf[i] = int32(i)
	}
	if !sortBeam {
		return buf
	}
	slices.SortFunc(buf, func(a, b int32) int {
		ra, rb := &cur[a].rows, &cur[b].rows
		for y := len(ra) - 1; y >= 0; y-- {
			if ra[y] != rb[y] {
				return int(ra[y]) - int(rb[y])
			}
		}
		return int(a - b)
	})
	return buf
}
