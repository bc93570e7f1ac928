// This file holds the finder: depth-first search over the queue with hold,
// memoised on (field, height, hold, remaining queue), and Percent, which runs
// it over every sequence of a pattern on all cores.

package pc

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
)

// maxSequences bounds the sequences a pattern may expand to.
const maxSequences = 5_000_000

// NoPiece marks an empty hold.
const NoPiece Piece = 7

// Options configures a search.
type Options struct {
	Height   int   // lines to clear (1..MaxHeight)
	Hold     bool  // hold allowed
	MaxNodes int64 // Find only: give up with ErrBudget after this many searched positions (0: no limit)
	// Progress, if set, is told how much of a Percent or Paths run is done,
	// in units of the run's own (sequences, or the root's moves on the
	// bitset path). It may be called from several goroutines at once.
	Progress func(done, total int)
}

// ErrBudget is returned by Find when Options.MaxNodes positions were searched
// without an answer.
var ErrBudget = errors.New("pc: node budget exhausted")

type memoKey struct {
	f    Field
	h    uint8
	hold Piece
	n    uint8
	q    uint64
}

type placeKey struct {
	f Field
	h uint8
	p Piece
}

// solver holds one worker's caches.
type solver struct {
	r      *fastTables
	slow   *reacher                    // if set, the reference generator is used instead (tests)
	memo   *table                      // search results, a lossless-on-hit direct-mapped table
	dbufs  [MaxHeight*10/4 + 1][]Field // placement buffers of the search, by pieces left
	places map[placeKey][]Field
	shared *sync.Map // placeKey -> []Field, shared by the workers of one run (may be nil)
	hold   bool
	nodes  int64 // positions expanded
	limit  int64 // stop expanding after this many (0: no limit)
	// ctx, if set, stops the search: polled every pollEvery calls (of
	// solve past its memo and of enumerate), not per node, to cost nothing
	// measurable. Once err is set every call fails at once and the results
	// are to be dropped (false may have been memoised on the way out).
	ctx   context.Context
	polls uint32
	err   error
	// onRoot, if set, is called after each of enumerate's root moves.
	onRoot func()
}

// pollEvery is how many search steps pass between two looks at the
// context (a power of two); one step costs at least a placement
// generation, so a look happens every few milliseconds at most.
const pollEvery = 1024

// stopped counts a search step and reports whether the context has ended
// (small enough to be inlined: the look itself is in poll).
func (s *solver) stopped() bool {
	if s.polls++; s.polls&(pollEvery-1) == 0 {
		return s.poll()
	}
	return s.err != nil
}

// poll looks at the context (kept out of line so that stopped inlines).
//
//go:noinline
func (s *solver) poll() bool {
	if s.ctx != nil && s.err == nil {
		s.err = s.ctx.Err()
	}
	return s.err != nil
}

func newSolver(hold bool) *solver {
	return &solver{r: fastTabs(), memo: newTable(10), places: map[placeKey][]Field{}, hold: hold}
}

func (s *solver) placementsOf(f Field, h int, p Piece) []Field {
	k := placeKey{f, uint8(h), p}
	if v, ok := s.places[k]; ok {
		return v
	}
	if s.shared != nil {
		if v, ok := s.shared.Load(k); ok {
			s.places[k] = v.([]Field)
			return v.([]Field)
		}
	}
	var v []Field
	if s.slow != nil {
		v = s.slow.placements(f, h, p, nil)
	} else {
		v = s.r.placements(f, h, p, nil)
	}
	s.places[k] = v
	if s.shared != nil {
		s.shared.Store(k, v)
	}
	return v
}

func packQueue(q []Piece) uint64 {
	var v uint64
	for _, p := range q {
		v = v<<3 | uint64(p)
	}
	return v
}

// feasible is the cheap pruning: empty cells a multiple of 4, enough
// pieces, and (as sfinder's PerfectValidator) the empty cells between two
// "walls" a multiple of 4, a wall being a column boundary with no row where
// the cells on both sides are empty: no piece can cross it, now or after
// line clears (rows clear whole).
func feasible(f Field, h, pieces int) bool {
	area := uint64(1)<<(10*h) - 1
	free := ^uint64(f) & area
	n := bits.OnesCount64(free)
	if n%4 != 0 || n/4 > pieces {
		return false
	}
	// Bit x of open: some row has cells x and x+1 both empty.
	pairs := free & (free >> 1) & repRows[h] // repRows clears bit 9 of each row
	var open uint64
	for ; pairs != 0; pairs >>= 10 {
		open |= pairs
	}
	walls := ^open & 0x1FF // boundaries (x, x+1), x in 0..8
	start := 0
	for walls != 0 {
		x := bits.TrailingZeros64(walls)
		walls &= walls - 1
		if bits.OnesCount64(free&colRange[h][start][x])%4 != 0 {
			return false
		}
		start = x + 1
	}
	return true // the last segment holds the rest, a multiple of 4
}

// repRows[h] has bits 0..8 of each of the lowest h rows; colRange[h][a][b]
// has columns a..b of each of them.
var repRows, colRange = func() (r [MaxHeight + 1]uint64, c [MaxHeight + 1][10][10]uint64) {
	for h := 0; h <= MaxHeight; h++ {
		for y := 0; y < h; y++ {
			r[h] |= 0x1FF << (10 * y)
			for a := 0; a < 10; a++ {
				for b := a; b < 10; b++ {
					c[h][a][b] |= (uint64(1)<<(b+1) - uint64(1)<<a) << (10 * y)
				}
			}
		}
	}
	return
}()

// solve reports whether a perfect clear of the remaining h rows exists.
// If path is non-nil the placements (fields after each lock, before clears)
// of one solution are appended in order.
func (s *solver) solve(f Field, h int, hold Piece, q []Piece, path *[]Step) bool {
	if h == 0 {
		return true
	}
	avail := len(q)
	if hold != NoPiece {
		avail++
	}
	if !feasible(f, h, avail) {
		return false
	}
	key := memoKey{f, uint8(h), hold, uint8(len(q)), packQueue(q)}
	if v, ok := s.memo.get(key); ok && (path == nil || !v) {
		return v // with a path to record, only a known failure prunes
	}
	s.nodes++
	if s.limit > 0 && s.nodes > s.limit {
		return false // not memoised: the caller reports ErrBudget
	}
	if s.stopped() {
		return false // the caller drops the run
	}
	ok := s.expand(f, h, hold, q, path)
	s.memo.put(key, ok)
	return ok
}

func (s *solver) expand(f Field, h int, hold Piece, q []Piece, path *[]Step) bool {
	n := (10*h - bits.OnesCount64(uint64(f))) / 4
	tryPiece := func(p Piece, nhold Piece, rest []Piece) bool {
		s.dbufs[n] = s.r.placements(f, h, p, s.dbufs[n][:0])
		for _, g := range s.dbufs[n] {
			ng, nh := clearLines(g, h)
			if path != nil {
				*path = append(*path, Step{Piece: p, Cells: g &^ f, Field: g, Height: h})
			}
			if s.solve(ng, nh, nhold, rest, path) {
				return true
			}
			if path != nil {
				*path = (*path)[:len(*path)-1]
			}
		}
		return false
	}
	if s.hold {
		if hold != NoPiece {
			if len(q) == 0 {
				// Queue exhausted: the held piece can still be placed (sfinder).
				return tryPiece(hold, NoPiece, nil)
			}
			if hold != q[0] && tryPiece(hold, q[0], q[1:]) {
				return true
			}
		} else if len(q) >= 2 && q[0] != q[1] {
			// Empty hold: the current piece goes to hold, the next is placed.
			if tryPiece(q[1], q[0], q[2:]) {
				return true
			}
		}
	}
	return len(q) > 0 && tryPiece(q[0], hold, q[1:])
}

// Step is one placement of a solution.
type Step struct {
	Piece  Piece
	Cells  Field // the piece's cells, in the frame of the field before it locked
	Field  Field // field after locking, before clearing lines
	Height int   // area height when it locked
}

// Find searches for a perfect clear of opt.Height lines on field f with the
// given queue (the first piece is current) and hold (NoPiece if empty). It
// returns the ordered placements of one solution.
func Find(f Field, queue []Piece, hold Piece, opt Options) ([]Step, bool, error) {
	if opt.Height < 1 || opt.Height > MaxHeight {
		return nil, false, fmt.Errorf("pc: clear height %d outside 1..%d", opt.Height, MaxHeight)
	}
	if len(queue) > 20 {
		return nil, false, fmt.Errorf("pc: queue of %d pieces, at most 20", len(queue))
	}
	if uint64(f)>>(10*opt.Height) != 0 {
		return nil, false, fmt.Errorf("pc: field has blocks above the clear height %d", opt.Height)
	}
	s := newSolver(opt.Hold)
	s.limit = opt.MaxNodes
	var path []Step
	g, h := clearLines(f, opt.Height)
	ok := s.solve(g, h, hold, queue, &path)
	if !ok && s.limit > 0 && s.nodes > s.limit {
		return nil, false, ErrBudget
	}
	return path, ok, nil
}

// PiecesNeeded returns the number of placements a perfect clear of h lines
// needs on f, or an error if the empty cells are not a multiple of 4.
func PiecesNeeded(f Field, h int) (int, error) {
	empty := 10*h - bits.OnesCount64(uint64(f&Field(uint64(1)<<(10*h)-1)))
	if empty%4 != 0 {
		return 0, fmt.Errorf("pc: %d empty cells in the clear area, not a multiple of 4", empty)
	}
	return empty / 4, nil
}

// Percent counts the sequences of the pattern from which a perfect clear
// exists. As sfinder does, it uses the first needed+1 pieces of each
// sequence with hold and the first needed without, and counts distinct
// truncated sequences (so total may be below pat.Count()). Work is split over all
// cores; the result does not depend on scheduling.
func Percent(ctx context.Context, f Field, pat *Pattern, opt Options) (success, total int, err error) {
	if opt.Height < 1 || opt.Height > MaxHeight {
		return 0, 0, fmt.Errorf("pc: clear height %d outside 1..%d", opt.Height, MaxHeight)
	}
	if uint64(f)>>(10*opt.Height) != 0 {
		return 0, 0, fmt.Errorf("pc: field has blocks above the clear height %d", opt.Height)
	}
	if n := pat.Count(); n > maxSequences {
		return 0, 0, fmt.Errorf("pc: pattern has %d sequences, at most %d", n, maxSequences)
	}
	need, err := PiecesNeeded(f, opt.Height)
	if err != nil {
		return 0, 0, err
	}
	use := need
	if opt.Hold {
		use++
	}
	seqs, err := pat.sequences(ctx)
	if err != nil {
		return 0, 0, err
	}
	for _, sq := range seqs {
		if len(sq) < need {
			return 0, 0, fmt.Errorf("pc: the pattern gives %d pieces, the field needs at least %d", len(sq), need)
		}
	}
	// Distinct truncated queues, solved once each.
	index := map[uint64]int{}
	var uniq [][]Piece
	for i, sq := range seqs {
		if i&4095 == 4095 && ctx.Err() != nil {
			return 0, 0, ctx.Err()
		}
		if len(sq) > use {
			sq = sq[:use]
		}
		k := packQueue(sq)<<5 | uint64(len(sq))
		if _, ok := index[k]; !ok {
			index[k] = len(uniq)
			uniq = append(uniq, sq)
		}
	}
	g, h := clearLines(f, opt.Height)
	var res []bool
	if need <= maxSeqPieces {
		res, err = percentSets(ctx, g, h, need, uniq, opt)
	} else {
		res, err = percentShared(ctx, g, h, uniq, opt)
	}
	if err != nil {
		return 0, 0, err
	}
	// As sfinder does, count distinct (truncated) sequences.
	for _, ok := range res {
		if ok {
			success++
		}
	}
	return success, len(uniq), nil
}

// percentSearch solves each truncated sequence with the depth-first search
// (the reference both fast paths are tested against); work is spread over
// all cores.
func percentSearch(ctx context.Context, g Field, h int, uniq [][]Piece, opt Options) ([]bool, error) {
	res := make([]bool, len(uniq))
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	var next int64
	var mu sync.Mutex
	var done atomic.Int64
	var shared sync.Map
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := newSolver(opt.Hold)
			s.shared = &shared
			s.ctx = ctx
			for {
				if ctx.Err() != nil {
					return
				}
				mu.Lock()
				i := int(next)
				next += 16
				mu.Unlock()
				if i >= len(uniq) {
					return
				}
				end := min(i+16, len(uniq))
				for j := i; j < end; j++ {
					res[j] = s.solve(g, h, NoPiece, uniq[j], nil)
				}
				if s.err != nil {
					return
				}
				if opt.Progress != nil {
					opt.Progress(int(done.Add(int64(end-i))), len(uniq))
				}
			}
		}()
	}
	wg.Wait()
	return res, ctx.Err()
}

// table is a direct-mapped cache of search results: each slot keeps one
// full key, so a hit is exact and a collision only costs a recomputation.
type table struct {
	keys []memoKey
	vals []uint8 // 0 empty, 1 false, 2 true
	mask uint64
	puts int
}

// maxTableBits bounds a table's growth (2^22 slots, about 140 MB).
const maxTableBits = 22

// newTable returns a table of 2^bits slots; it doubles (up to
// 2^maxTableBits) each time it has taken twice as many entries as slots.
func newTable(bits int) *table {
	n := 1 << bits
	return &table{keys: make([]memoKey, n), vals: make([]uint8, n), mask: uint64(n - 1)}
}

func (k *memoKey) hash() uint64 {
	h := uint64(k.f)*0x9E3779B97F4A7C15 ^ (k.q+uint64(k.n)<<56)*0xC2B2AE3D27D4EB4F ^ uint64(k.hold)<<8 ^ uint64(k.h)
	return h ^ h>>29
}

func (t *table) get(k memoKey) (bool, bool) {
	i := k.hash() & t.mask
	if t.vals[i] != 0 && t.keys[i] == k {
		return t.vals[i] == 2, true
	}
	return false, false
}

func (t *table) put(k memoKey, v bool) {
	if t.puts++; t.puts > 2*len(t.keys) && len(t.keys) < 1<<maxTableBits {
		old := *t
		*t = *newTable(bits.Len(uint(len(old.keys))))
		for i, ok := range old.vals {
			if ok != 0 {
				j := old.keys[i].hash() & t.mask
				t.keys[j], t.vals[j] = old.keys[i], ok
			}
		}
	}
	i := k.hash() & t.mask
	t.keys[i] = k
	t.vals[i] = 1
	if v {
		t.vals[i] = 2
	}
}
