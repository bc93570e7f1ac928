// Package bot is Yomi's Cold-Clear-class Tetris bot: CC1's "Standard"
// evaluator (eval.go, weights.go) and its Monte-Carlo search over a DAG of
// boards with 7-bag speculation (dag.go), run by several threads.
//
// Start with New, Reset, Think, Suggest and Play; AddPiece tells the bot
// about a newly revealed queue piece; Stats reports nodes, nodes/s and
// depth. Rules come from the shared engine (package tetris) and placements
// from the shared move generator (tetris/movegen); board.go and movegen.go
// adapt them to the bot's names.
package bot

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/yomi-ai/yomi/tetris"
)

// Options configure a bot.
type Options struct {
	Threads  int      // search threads (default 1)
	Seed     uint64   // random seed for selection; thread t uses PCG(Seed, t)
	Weights  *Weights // nil: DefaultWeights
	NoHold   bool     // disable the hold
	Complete bool     // always use the complete move generator (default: CC1's fast mode below height 16)
	MaxNodes int64    // stop thinking after this many nodes (0: no limit)
	// RankSelect > 0 makes selection draw a child by its rank alone as
	// Cold Clear 2 does, rank i with probability ∝ e^(−RankSelect·i)
	// (CC2: ln 2 ≈ 0.693); 0 keeps CC1's value-weighted draw.
	RankSelect float64
	// Reserve is the search memory in bytes New makes ready in the
	// process-wide pool (see Reserve): 0 means DefaultReserve, a negative
	// value none.
	Reserve int

	// PerfectClear enables the perfect-clear mode (pcmode.go, spec §20): on
	// an empty board with 11 known pieces (10 without hold) follow a perfect
	// clear if the finder (tetris/pc) finds one.
	PerfectClear bool
	PCNodes      int64 // finder budget per search (0: DefaultPCNodes)
}

// ReserveBytes returns the search memory New makes ready for these
// options: Reserve, or DefaultReserve when it is 0, or none.
func (o Options) ReserveBytes() int {
	switch {
	case o.Reserve == 0:
		return DefaultReserve
	case o.Reserve < 0:
		return 0
	}
	return o.Reserve
}

// Stats report the search effort since the last Reset/Play.
type Stats struct {
	Nodes      int64         // child boards generated and evaluated
	Expansions int64         // leaves expanded
	Unique     int           // distinct nodes in the DAG (after transpositions)
	Depth      int           // deepest generation expanded (placements ahead)
	Elapsed    time.Duration // time spent in Think
}

// NodesPerSecond returns Nodes / Elapsed.
func (s Stats) NodesPerSecond() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Nodes) / s.Elapsed.Seconds()
}

// Bot is a searching Tetris player. Its methods are safe to call from one
// goroutine at a time; Think runs its own worker goroutines.
type Bot struct {
	opt      Options
	eval     Evaluator
	mu       sync.Mutex
	d        *dag // set by setDAG
	holder   *dagHolder
	known    int32 // absolute index one past the last known piece
	active   int   // leaves being expanded right now
	thinking int   // Think calls running
	stats    Stats
	// lastThink is the nodes the last Think made: the table is sized for
	// as many when a search has no node budget.
	lastThink int64
	rngs      []*rand.Rand
	wks       []*worker // one per thread (with rngs[t]), kept with their buffers; nil after Close

	// moved: Play moved the root without rebuilding the DAG (the
	// nodes it left behind are still there); settle rebuilds it, and
	// AddPiece's rebuild does it too, so a move and its new piece cost
	// one rebuild instead of two.
	moved    bool
	rebuilds int  // DAG rebuilds so far (for tests)
	parallel bool // rebuild with a second goroutine even at one thread (for tests)

	pc          *pcPlan // perfect clear being followed (nil: none)
	pcStats     PCStats
	pcTried     bool   // a search ran at the state with hash pcTriedHash
	pcTriedHash uint64 // (not repeated while the root stays there)
}

// New returns a bot; call Reset before thinking. It first makes
// Options.Reserve bytes of search memory ready in the process-wide pool
// (Reserve), so that its first search does not pay for fresh pages.
func New(opt Options) *Bot {
	if opt.Threads <= 0 {
		opt.Threads = 1
	}
	w := DefaultWeights()
	if opt.Weights != nil {
		w = *opt.Weights
	}
	Reserve(opt.ReserveBytes())
	b := &Bot{opt: opt, eval: Evaluator{W: w}}
	for t := range opt.Threads {
		b.rngs = append(b.rngs, rand.New(rand.NewPCG(opt.Seed, uint64(t))))
	}
	b.takeWorkers()
	return b
}

// takeWorkers gives the bot a worker per thread, recycled from closed
// bots when the pool has some (their move generators' and buffers' pages
// are mapped already; a worker's caches are keyed by its own expansion
// stamps, so nothing of the old bot's searches can be taken for the new
// one's).
func (b *Bot) takeWorkers() {
	b.wks = b.wks[:0]
	for t := range b.rngs {
		w := getWorker()
		w.rng = b.rngs[t]
		b.wks = append(b.wks, w)
	}
}

// Reset starts a new search from a position: board (with combo and b2b),
// the known queue (current piece first), the hold piece (NoPiece if empty)
// and the bag at the end of the queue (0 = infer it from the queue,
// assuming the queue started at a bag boundary).
func (b *Bot) Reset(board Board, queue []Piece, hold Piece, bag uint8) error {
	var s State
	s.Board = board
	s.Hold = hold
	s.Bag = 0x7F
	if bag != 0 && bag&^0x7F != 0 {
		return fmt.Errorf("bot: bad bag mask %#x", bag)
	}
	for _, p := range queue {
		if p < I || p > Z {
			return fmt.Errorf("bot: bad queue piece %d", p)
		}
		if !s.push(p) {
			return fmt.Errorf("bot: queue longer than %d pieces", maxQueue)
		}
	}
	if bag != 0 {
		s.Bag = bag
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.wks == nil {
		b.takeWorkers() // closed before
	}
	b.setDAG(newDAG(s, int32(s.QLen), Value{}))
	b.known = int32(s.QLen)
	b.stats = Stats{}
	return nil
}

// AddPiece appends a newly revealed piece to the queue, keeping the search:
// speculated generations waiting for it keep only that piece's children.
func (b *Bot) AddPiece(p Piece) error {
	if p < I || p > Z {
		return fmt.Errorf("bot: bad piece %d", p)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	d := b.d
	if d == nil {
		return errors.New("bot: AddPiece before Reset")
	}
	if b.thinking > 0 {
		// the search threads hold the DAG the rebuild would recycle
		return errors.New("bot: AddPiece during Think")
	}
	if d.state(&d.nodes.at(d.root).st).Bag&(1<<uint(p)) == 0 {
		// not in the bag: the frontend's randomizer is not a 7-bag; restart
		s := d.state(&d.nodes.at(d.root).st)
		q := append([]Piece(nil), s.Queue[:s.QLen]...)
		s.Bag = 0x7F
		s.QLen = 0
		for _, x := range q {
			s.push(x)
		}
		s.push(p)
		b.setDAG(newDAG(s, int32(s.QLen), Value{}))
		b.known = int32(s.QLen)
		return nil
	}
	// The catch-up gives the piece to the nodes it keeps whose queue ends
	// where the known one does (the others are dropped); it works in
	// place, and compacts by a rebuild (then recomputeAll) now and then.
	d.catchUp(d.root, &newPiece{p: p, known: b.known}, b.rebuildOptions(d.recomputeAll))
	b.known++
	b.rebuilds++
	b.moved = false
	return nil
}

// rebuildOptions returns how the bot rebuilds its DAG: a table with room
// for a search like the last one (Think would otherwise grow it at once),
// with a second goroutine when it searches with several threads, then
// running then.
func (b *Bot) rebuildOptions(then func()) rebuildOptions {
	return rebuildOptions{room: int(max(b.lastThink, minTableHint)), parallel: b.opt.Threads > 1 || b.parallel, then: then}
}

// settle rebuilds the DAG from the root Play moved to (b.mu held), as
// Play did before it left that to the next AddPiece or search.
func (b *Bot) settle() {
	if !b.moved {
		return
	}
	b.moved = false
	b.d.catchUp(b.d.root, nil, b.rebuildOptions(nil))
	b.rebuilds++
	b.stats.Unique = b.d.size()
}

// Budget bounds one Think call; zero fields mean no bound (then ctx must end it).
type Budget struct {
	Nodes    int64         // stop after this many more nodes
	Duration time.Duration // stop after this long
}

// expChild is one evaluated child of an expansion. Its state is not
// copied here: it is the worker's rests[rest] with the board of the lock
// entry locks[mv.Piece][lock] (see worker.childState).
type expChild struct {
	mv    Move
	rw    Reward
	val   Value
	h     uint64 // the state's hash
	lock  int16
	rest  uint8
	drawn int8
}

type worker struct {
	gen *Generator
	rng *rand.Rand
	// lists[p] holds the children of the last expansion for piece p (only
	// list 0 for a known node; for a speculated one, the pieces in inBag).
	// The buffers are kept from one expansion to the next.
	lists [7][]expChild
	inBag uint8
	// moves[p] holds piece p's placements on the board being expanded when
	// bit p of have is set: a speculated expansion places the hold (or
	// current) piece once per possible next piece, on the same board.
	moves [7][]Move
	have  uint8
	// evs[4·(2p+held)+ts] caches, within one expansion, the evaluations of
	// piece p's kept placements (kept[p], in order) with that hold use and
	// T-slot count ts, valid when evStamp of the same index is the
	// expansion's stamp: a speculated expansion places the same piece on
	// the same board once per possible next piece, and only the T-slot
	// count can differ.
	evs     [56][]evEntry
	evStamp [56]uint32
	order   [7][]int32 // order[p]: lists[p]'s indices best first (presortBlocks)
	// split and blocks describe the list knownChildren made last: its
	// first split children place the current piece, the rest the held
	// one; blocks are their evaluation slots (evs' index, −1 none), which
	// fix their keys within an expansion.
	split     int
	blocks    [2]int8
	sorted    [56]sortedBlock // presortBlocks' sorted blocks, by evaluation slot
	keys      []uint64        // presortBlocks' keys before sorting
	keyTmp    []uint64        // sortKeys' scratch
	lastBlock int8            // the evaluation slot of the last place call
	// locks[p][i] is placement i of moves[p] locked on the board being
	// expanded, and kept[p] the indices of the placements that are not
	// skipped, in order (both valid with bit p of have): a speculated
	// expansion locks the same piece on the same board once per possible
	// next piece, and only the queue of the child differs.
	locks [7][]lockEntry
	kept  [7][]int16
	// ph holds the heights of the board being expanded when phStamp is
	// the expansion's stamp (evalPiece).
	ph      [10]int
	phStamp uint32
	stamp   uint32 // this expansion's (0: no caching of evaluations or sorts)
	// rests holds the states of this expansion's children apart from
	// their boards (one per place call; the board part is unused).
	rests  []State
	restPk []uint64 // prepare's packPieces of rests
	// spare chunks for the DAG's stores, allocated and touched outside
	// the lock: a fresh chunk's page faults (hundreds of microseconds)
	// would otherwise stall every thread waiting for the lock.
	nodeCur    nodeCursor // where this thread appends nodes
	spareNodes *[arenaChunk]node
	spareKids  *[kidChunk]child
	// kidAt[p] is where dag.prepare put child list p in the child store.
	kidAt [7]int32
	// with one thread prepare links the edges too: each list's best
	// value and whether it is clean, for attach
	listBest  [7]Value
	listClean [7]bool
	// touched sums the table words prepare reads ahead (kept so the reads
	// stay in the program; the value means nothing).
	touched uint64
}

// refill gives the worker spare chunks if it has none; the DAG's stores
// take them when this worker needs a new chunk.
func (w *worker) refill() {
	if w.spareNodes == nil {
		var fresh bool
		if w.spareNodes, fresh = getNodeChunk(); fresh {
			touchPages(unsafe.Pointer(w.spareNodes), unsafe.Sizeof(*w.spareNodes))
		}
	}
	if w.spareKids == nil {
		var fresh bool
		if w.spareKids, fresh = getKidChunk(); fresh {
			touchPages(unsafe.Pointer(w.spareKids), unsafe.Sizeof(*w.spareKids))
		}
	}
}

// touchPages writes a zero byte to every 4 KiB page of the n bytes at p
// (memory the garbage collector just handed out zeroed), so that the
// operating system maps them now.
func touchPages(p unsafe.Pointer, n uintptr) {
	b := unsafe.Slice((*byte)(p), n)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 0
	}
}

// childState returns the state of child e of the worker's last expansion.
func (w *worker) childState(e *expChild) State {
	st := w.rests[e.rest]
	st.Board = w.locks[e.mv.Piece][e.lock].board
	return st
}

// lockEntry is one cached lock: the board after it, what it did and the
// board's hash (boardHash).
type lockEntry struct {
	res   LockResult
	bh    uint64
	board Board
}

// evEntry is one cached evaluation.
type evEntry struct {
	val Value
	rw  Reward
}

// Think searches until the budget or ctx ends (or the tree is exhausted)
// and returns the statistics so far.
func (b *Bot) Think(ctx context.Context, budget Budget) Stats {
	if b.d == nil {
		return b.stats
	}
	start := time.Now()
	var deadline time.Time
	if budget.Duration > 0 {
		deadline = start.Add(budget.Duration)
	}
	b.mu.Lock()
	if b.thinking == 0 {
		b.settle()
	}
	if b.pcUpdate() {
		// Following a perfect clear: the plan fixes the move, no search.
		b.stats.Elapsed += time.Since(start)
		st := b.stats
		b.mu.Unlock()
		return st
	}
	limit := int64(-1)
	if budget.Nodes > 0 {
		limit = b.stats.Nodes + budget.Nodes
	}
	if b.opt.MaxNodes > 0 && (limit < 0 || limit > b.opt.MaxNodes) {
		limit = b.opt.MaxNodes
	}
	switch {
	case b.thinking > 0:
		// another Think is searching: the table must not move under it
	case limit > b.stats.Nodes:
		// room in the table for every node the budget can make
		b.d.tab.reserve(int(limit - b.stats.Nodes))
	case limit < 0:
		// no node budget (a time budget, or until stopped): room for a
		// search like the last one, so that the table does not grow
		// (and rehash) its way up from small in every search
		b.d.tab.reserve(int(max(b.lastThink, minTableHint)))
	}
	startNodes := b.stats.Nodes
	b.thinking++
	b.mu.Unlock()
	var wg sync.WaitGroup
	for t := range b.opt.Threads {
		w := b.wks[t]
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.work(ctx, w, limit, deadline)
		}()
	}
	wg.Wait()
	b.mu.Lock()
	defer b.mu.Unlock()
	b.thinking--
	b.stats.Elapsed += time.Since(start)
	b.stats.Unique = b.d.size()
	b.lastThink = b.stats.Nodes - startNodes
	return b.stats
}

// minTableHint is the table room a search without a node budget gets when
// the bot has not searched before (or its last search was shorter): about
// 20 ms of search at two threads, 2 MiB of table.
const minTableHint = 1 << 17

func (b *Bot) work(ctx context.Context, w *worker, limit int64, deadline time.Time) {
	fails := 0
	for iter := 0; ; iter++ {
		if ctx.Err() != nil {
			return
		}
		if !deadline.IsZero() && iter&7 == 0 && time.Now().After(deadline) {
			return
		}
		b.lockWork()
		d := b.d
		if (limit >= 0 && b.stats.Nodes >= limit) || d.nodes.at(d.root).dead {
			b.mu.Unlock()
			return
		}
		leaf := d.selectLeaf(w.rng)
		if leaf < 0 {
			// The walk met a leaf another thread is expanding (or a dead
			// end). With nobody expanding, the tree is exhausted.
			busy := b.active > 0
			b.mu.Unlock()
			fails++
			if !busy && fails > 100 {
				return
			}
			runtime.Gosched()
			continue
		}
		b.active++
		fails = 0
		ln := d.nodes.at(leaf)
		st := d.state(&ln.st)
		g, drawnBase := ln.gen+1, ln.drawn
		tab := d.tab
		b.mu.Unlock()

		spec, n := b.expand(w, &st)
		w.refill()
		var lists [7][]expChild
		if spec {
			for p := range lists {
				if w.inBag&(1<<uint(p)) != 0 {
					lists[p] = w.lists[p]
					if lists[p] == nil {
						lists[p] = []expChild{} // a list without children
					}
				}
			}
		} else {
			lists[0] = w.lists[0]
			if lists[0] == nil {
				lists[0] = []expChild{}
			}
		}
		k := 1
		if spec {
			k = 7
		}
		// The children's nodes outside b.mu (under the table's lock),
		// then the edges and the backup under it.
		d.prepare(tab, leaf, g, drawnBase, lists[:k], w.order[:k], w, b.opt.Threads > 1)

		b.lockWork()
		if b.d != d { // reset meanwhile
			b.active--
			b.mu.Unlock()
			return
		}
		b.active--
		d.attach(leaf, spec, lists[:k], w, b.opt.Threads == 1)
		b.stats.Nodes += int64(n)
		b.stats.Expansions++
		b.stats.Depth = max(b.stats.Depth, int(relGen(g)))
		b.mu.Unlock()
	}
}

// lockWork takes b.mu for a search thread: with several threads by
// spinLock.
func (b *Bot) lockWork() {
	if b.opt.Threads > 1 {
		spinLock(&b.mu)
		return
	}
	b.mu.Lock()
}

// spinLock takes mu, first trying for a while (about 50 µs) without
// sleeping: search threads hold their locks (Bot.mu, the DAG's table) for
// a few microseconds at a time, and a thread that parks on the mutex
// takes longer than that to wake up again (futex and idle processor round
// trips, slower still in a virtual machine; parked on the table's lock,
// two threads lost a quarter of their time).
func spinLock(mu *sync.Mutex) {
	for range 1000 {
		if mu.TryLock() {
			return
		}
		for range 64 {
			spinSink.Load()
		}
	}
	mu.Lock()
}

// spinSink is never written: spinLock waits by reading it.
var spinSink atomic.Int32

// expand generates and evaluates the children of s into w.lists; it
// reports whether the node is speculated and how many children it made.
func (b *Bot) expand(w *worker, s *State) (bool, int) {
	hold := !b.opt.NoHold
	for p := range w.lists {
		w.lists[p] = w.lists[p][:0]
	}
	w.have = 0 // new board: no placements yet
	w.stamp++  // and no evaluations
	w.rests = w.rests[:0]
	if s.QLen == 0 || (hold && s.Hold == NoPiece && s.QLen == 1) {
		n := 0
		w.inBag = s.Bag
		for p := range Piece(7) {
			if s.Bag&(1<<uint(p)) == 0 {
				continue
			}
			t := *s
			t.push(p)
			w.lists[p] = b.knownChildren(w, &t, w.lists[p][:0], 1)
			w.order[p] = w.presortBlocks(w.lists[p], w.order[p])
			n += len(w.lists[p])
		}
		return true, n
	}
	w.lists[0] = b.knownChildren(w, s, w.lists[0], 0)
	w.order[0] = w.presortBlocks(w.lists[0], w.order[0])
	return false, len(w.lists[0])
}

// presortGeneral is presortBlocks through a comparison sort of (value,
// index) pairs: best first, ties in generation order.
func presortGeneral(l []expChild, order []int32) []int32 {
	type kv struct {
		v Value
		i int32
	}
	ks := make([]kv, len(l))
	for i := range l {
		ks[i] = kv{l[i].val.Plus(l[i].rw), int32(i)}
	}
	slices.SortFunc(ks, func(a, b kv) int {
		if b.v.Less(a.v) {
			return -1
		}
		if a.v.Less(b.v) {
			return 1
		}
		return int(a.i - b.i)
	})
	order = order[:0]
	for _, k := range ks {
		order = append(order, k.i)
	}
	return order
}

// knownChildren appends the children of s (whose current piece is known).
// It notes in w where the current piece's children end and the held
// piece's begin (presortBlocks).
func (b *Bot) knownChildren(w *worker, s *State, dst []expChild, drawn int8) []expChild {
	cur := s.Queue[0]
	start := len(dst)
	dst = b.place(w, s, dst, cur, 1, s.Hold, false, drawn)
	w.split, w.blocks = len(dst)-start, [2]int8{w.lastBlock, -1}
	if b.opt.NoHold {
		return dst
	}
	if s.Hold != NoPiece {
		if s.Hold != cur {
			dst = b.place(w, s, dst, s.Hold, 1, cur, true, drawn)
			w.blocks[1] = w.lastBlock
		}
	} else if s.QLen >= 2 && s.Queue[1] != cur {
		dst = b.place(w, s, dst, s.Queue[1], 2, cur, true, drawn)
		w.blocks[1] = w.lastBlock
	}
	return dst
}

// sortedBlock is one block's presort keys (block-local indices) sorted,
// between the sentinels keyLo and keyHi, kept for an expansion.
type sortedBlock struct {
	stamp uint32
	out   []uint64
}

// noBlock is an empty sorted block: the sentinels alone.
var noBlock = [2]uint64{keyLo, keyHi}

// presortBlocks finds the order of the fresh children knownChildren just
// made (l, described by w.split and w.blocks) best first outside the lock,
// so that the backup's stable sort finds them (nearly) in order: by value
// plus reward, ties in generation order. It returns the children's indices
// in that order (in order's storage). It sorts packed integer keys (value,
// spike, index) with sortKeys; a list whose spikes or length do not fit
// the packing goes through the general comparison sort instead (the same
// order either way).
// It sorts the current piece's children and the held piece's apart and
// merges them, ties to the current piece's (they come first).
// A speculated expansion places the same piece with the same hold use on
// the same board for every possible next piece, and a block's keys are
// fixed within an expansion by its evaluation slot (piece, hold use and
// T-slot count: place writes the same children from the same cached
// evaluations): a block whose slot was sorted before in this expansion
// takes that order without building or sorting its keys.
func (w *worker) presortBlocks(l []expChild, order []int32) []int32 {
	order = order[:0]
	if len(l) >= 1<<16 {
		return presortGeneral(l, order)
	}
	sorted := [2][]uint64{noBlock[:], noBlock[:]}
	bounds := [3]int{0, w.split, len(l)}
	for k := range 2 {
		blk := l[bounds[k]:bounds[k+1]]
		if len(blk) == 0 {
			continue
		}
		sb := &w.sorted[w.blocks[k]]
		if sb.stamp != w.stamp || w.stamp == 0 || len(sb.out) != len(blk)+2 {
			ks := slices.Grow(w.keys[:0], len(blk)+7)
			for i := range blk {
				v := blk[i].val.Plus(blk[i].rw)
				if uint32(v.Spike) > maxKeySpike {
					sb.stamp = 0
					return presortGeneral(l, order)
				}
				ks = append(ks, presortKey(v, i))
			}
			w.keys = ks
			m := sortKeysLen(len(blk))
			if cap(sb.out) < m {
				sb.out = make([]uint64, m+m/2)
			}
			if cap(w.keyTmp) < m {
				w.keyTmp = make([]uint64, m+m/2)
			}
			sb.stamp = w.stamp
			sb.out = sortKeys(ks[:len(blk)+7], sb.out[:cap(sb.out)], w.keyTmp[:cap(w.keyTmp)])
		}
		sorted[k] = sb.out
	}
	return mergeBlocks(sorted[0], sorted[1], int32(w.split), slices.Grow(order, len(l))[:len(l)])
}

// mergeBlocks writes into order (len(a)+len(c)−4 long) the indices of the
// sorted presort keys a and c (each between keyLo and keyHi; c's indices
// offset by off) in merged order, a's first on ties of value and spike,
// and returns it. Like mergeRuns it merges from both ends at once without
// branches on the keys.
func mergeBlocks(a, c []uint64, off int32, order []int32) []int32 {
	if len(order) == 0 {
		return order
	}
	pa, pc := unsafe.Pointer(&a[1]), unsafe.Pointer(&c[1])
	qa, qc := unsafe.Pointer(&a[len(a)-2]), unsafe.Pointer(&c[len(c)-2])
	po, qo := unsafe.Pointer(&order[0]), unsafe.Pointer(&order[len(order)-1])
	for uintptr(po) < uintptr(qo) {
		// front: c's key if it is better than a's (a's on ties)
		x, y := *(*uint64)(pa), *(*uint64)(pc)
		_, t := bits.Sub64(y>>16, x>>16, 0)
		k := x ^ (x^y)&-t
		*(*int32)(po) = int32(k&0xFFFF) + off&-int32(t)
		pa, pc = unsafe.Add(pa, 8-8*t), unsafe.Add(pc, 8*t)
		po = unsafe.Add(po, 4)
		// back: a's key if it is worse than c's (c's on ties)
		u, v := *(*uint64)(qa), *(*uint64)(qc)
		_, d := bits.Sub64(v>>16, u>>16, 0)
		k = v ^ (u^v)&-d
		*(*int32)(qo) = int32(k&0xFFFF) + off&(int32(d)-1)
		qa, qc = unsafe.Add(qa, -8*int(d)), unsafe.Add(qc, 8*int(d)-8)
		qo = unsafe.Add(qo, -4)
	}
	if po == qo {
		x, y := *(*uint64)(pa), *(*uint64)(pc)
		_, t := bits.Sub64(y>>16, x>>16, 0)
		k := x ^ (x^y)&-t
		*(*int32)(po) = int32(k&0xFFFF) + off&-int32(t)
	}
	return order
}

// maxKeySpike is the largest spike presortKey packs.
const maxKeySpike = 0xFFFD

// presortKey packs value v and index i into presort's ascending key:
// value descending (sign bit flipped, then inverted), spike descending
// (0 ≤ spike ≤ maxKeySpike, stored as 0xFFFE − spike: never all zeros or
// all ones, so every key lies strictly between keyLo and keyHi even on its
// top 48 bits), index ascending (i < 2^16).
func presortKey(v Value, i int) uint64 {
	return uint64(^(uint32(v.V)^0x80000000))<<32 | uint64(0xFFFE-uint32(v.Spike)&0xFFFF)<<16 | uint64(i&0xFFFF)
}

// place appends the children of s that place piece p (popping pop pieces
// off the queue, newHold the hold piece after it, held whether the hold
// was used) in three passes: once per expansion and piece it generates
// the placements and locks them (lockPiece); once per hold use and T-slot
// count it evaluates the kept ones (evalPiece); then it writes the
// children in a loop without calls.
func (b *Bot) place(w *worker, s *State, dst []expChild, p Piece, pop int, newHold Piece, held bool, drawn int8) []expChild {
	if w.have&(1<<uint(p)) == 0 {
		b.lockPiece(w, s, p)
		w.have |= 1 << uint(p)
	}
	// The child's state apart from its board: the same for every placement.
	ri := uint8(len(w.rests))
	w.rests = append(w.rests, *s)
	rest := &w.rests[ri]
	rest.pop(pop)
	rest.Hold = newHold
	rh := rest.restHash()
	in := EvalInput{NextBag: rest.nextBag(), Hold: newHold, clean: true}
	slot := 2 * int(p)
	var inc int16
	if held {
		slot++
		inc = 1
	}
	ci := 4*slot + b.eval.tslots(&in) // tslots depends on the queue and hold only
	w.lastBlock = int8(ci)
	kept := w.kept[p]
	if w.evStamp[ci] != w.stamp || w.stamp == 0 {
		b.evalPiece(w, s, p, held, &in, ci&3, ci)
	}
	evs := w.evs[ci][:len(kept)]
	moves, locks := w.moves[p], w.locks[p]
	n := len(dst)
	dst = slices.Grow(dst, len(kept))[:n+len(kept)]
	out := dst[n:]
	// Field by field into the list: a literal is built on the stack from
	// byte and word stores and copied in wider loads, which the store
	// buffer cannot forward (a stall per child).
	for k, i := range kept {
		c := &out[k]
		c.mv = moves[i]
		c.mv.Hold = held
		c.mv.Time += inc
		c.rw, c.val = evs[k].rw, evs[k].val
		c.h = rh.with(locks[i].bh)
		c.lock, c.rest, c.drawn = i, ri, drawn
	}
	return dst
}

// lockPiece generates piece p's placements on s's board into w.moves[p],
// locks them into w.locks[p] and lists those not skipped in w.kept[p]: a
// lock-out, or a mini spin that clears nothing on a low stack where a
// hard drop from above reaches the same spot.
func (b *Bot) lockPiece(w *worker, s *State, p Piece) {
	if b.opt.Complete {
		w.moves[p] = w.gen.Placements(w.moves[p][:0], &s.Board, p)
	} else {
		w.moves[p] = w.gen.FastPlacements(w.moves[p][:0], &s.Board, p)
	}
	lockMoves(w, s, p)
}

// lockMoves is lockPiece's part after generating the placements: it locks
// w.moves[p] on s's board into w.locks[p] and lists in w.kept[p] those not
// skipped.
func lockMoves(w *worker, s *State, p Piece) {
	moves := w.moves[p]
	if n := len(moves); len(w.locks[p]) < n {
		w.locks[p] = append(w.locks[p], make([]lockEntry, n-len(w.locks[p]))...)
	}
	locks := w.locks[p][:len(moves)]
	kept := w.kept[p][:0]
	lowStack := s.Board.MaxHeight() < 18
	// A board from a lock has no full row; only a root board might.
	clean := !s.Board.HasFullRow()
	srcRows := rowsHash(&s.Board) // corrected for each child below
	// lockInto's fast path, inline: a lock that fills no row on a clean
	// board ORs the piece's rows into one or two words of rows, resets the
	// combo (so every such child has the same comboHash) and keeps b2b.
	fastCombo := comboHash(&Board{B2B: s.Board.B2B})
	pws := &pieceWords[p]
	for i, mv := range moves {
		le := &locks[i]
		le.board = s.Board
		pw := &pws[mv.Rot&3]
		lx, by := int(mv.X)+int(pw.minX), int(mv.Y)+int(pw.minY)
		if clean && uint(lx) <= uint(tetris.Width-pw.width) && uint(by) <= uint(tetris.Height-pw.height) {
			if rows, filled := orPiece(&le.board, pw, lx, by, srcRows); !filled {
				le.board.Combo = 0
				lockedOut := by >= tetris.Visible
				le.res = LockResult{Kind: noClearKind[mv.Spin], LockedOut: lockedOut}
				if lockedOut || mv.Spin == SpinMini && lowStack && hardDroppable(&s.Board, p, mv) {
					continue
				}
				le.bh = fastCombo + rows
				kept = append(kept, int16(i))
				continue
			}
			le.board = s.Board
		}
		var res LockResult
		if clean {
			res = lockMoveClean(&le.board, p, mv.Rot, int(mv.X), int(mv.Y), mv.Spin)
		} else {
			res = lockMove(&le.board, p, mv.Rot, int(mv.X), int(mv.Y), mv.Spin)
		}
		le.res = res
		if res.LockedOut || mv.Spin == SpinMini && res.Lines == 0 && lowStack && hardDroppable(&s.Board, p, mv) {
			continue
		}
		le.bh = boardHash(&le.board)
		kept = append(kept, int16(i))
	}
	w.kept[p] = kept
}

// evalPiece evaluates piece p's kept placements with hold use held into
// w.evs[ci] (in: the children's next bag and hold piece, ts: their
// T-slot count, Evaluator.tslots(in)) and marks them
// valid for this expansion.
func (b *Bot) evalPiece(w *worker, s *State, p Piece, held bool, in *EvalInput, ts, ci int) {
	kept := w.kept[p]
	if len(w.evs[ci]) < len(kept) {
		w.evs[ci] = make([]evEntry, len(kept)+len(kept)/2)
	}
	evs := w.evs[ci][:len(kept)]
	moves, locks := w.moves[p], w.locks[p]
	// Without a line clear the child's heights are the parent's raised by
	// the piece's cells: no need to scan the child board for them. The
	// piece's four columns from its leftmost are raised whether it has
	// cells there or not (then its top is −64), past column 9 into ch's
	// padding.
	if w.phStamp != w.stamp || w.stamp == 0 {
		s.Board.Heights(&w.ph)
		w.phStamp = w.stamp
	}
	var ch [13]int
	tops := &pieceTops4[p]
	pws := &pieceWords[p]
	var inc int16
	if held {
		inc = 1
	}
	for k, i := range kept {
		le := &locks[i]
		mv := moves[i]
		// the hold use written into in.Move, not into a copy on the
		// stack that is then copied whole (the store buffer cannot
		// forward a word from a byte and a half-word store)
		in.Lock, in.Move, in.Heights = le.res, mv, nil
		in.Move.Hold = held
		in.Move.Time += inc
		if le.res.Lines == 0 {
			*(*[10]int)(ch[:10]) = w.ph
			r := mv.Rot & 3
			lx, y, t := int(mv.X)+int(pws[r].minX), int(mv.Y), &tops[r]
			c := ch[lx : lx+4 : lx+4]
			c[0] = max(c[0], y+int(t[0]))
			c[1] = max(c[1], y+int(t[1]))
			c[2] = max(c[2], y+int(t[2]))
			c[3] = max(c[3], y+int(t[3]))
			in.Heights = (*[10]int)(ch[:10])
		}
		evs[k].val, evs[k].rw = b.eval.evaluate(&le.board, in, ts)
	}
	w.evStamp[ci] = w.stamp
}

func hardDroppable(b *Board, p Piece, mv Move) bool {
	for y := int(mv.Y); y <= 21; y++ {
		if !b.Fits(p, mv.Rot, int(mv.X), y) {
			return false
		}
	}
	return true
}

// Candidate is a root move with its evaluation, best first.
type Candidate struct {
	Move   Move
	Value  Value  // child value + reward
	Reward Reward // the placement's own reward (Attack −1: no clear)
}

// Candidates returns the root's moves, best first (nil if the root is not
// expanded or its current piece is not known yet).
func (b *Bot) Candidates() []Candidate {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.candidates()
}

// candidates is Candidates with b.mu held.
func (b *Bot) candidates() []Candidate {
	if b.d == nil {
		return nil
	}
	if b.thinking == 0 {
		b.settle()
	}
	d := b.d
	r := d.nodes.at(d.root)
	if !r.expanded() {
		return nil
	}
	if r.spec {
		return b.specCandidates()
	}
	kids := d.kids(r, 0)
	out := make([]Candidate, 0, len(kids))
	for _, c := range kids {
		out = append(out, Candidate{Move: c.mv, Value: d.nodes.at(c.n).val.Plus(c.rw), Reward: c.rw})
	}
	return out
}

// specCandidates returns the moves of a speculated root whose current
// piece is known: one piece in the queue, the hold empty and allowed. The
// root then waits for the next piece because holding would play it, but
// placing the current piece needs no other: those placements are the
// moves, each valued as update values a speculated node (the mean over the
// pieces the bag can give of the move's value under each, a death counted
// as the worst live value's death). Hold moves are left out: they place a
// piece nobody knows yet.
func (b *Bot) specCandidates() []Candidate {
	d := b.d
	r := d.nodes.at(d.root)
	if d.state(&r.st).QLen == 0 {
		return nil
	}
	type acc struct {
		c     Candidate
		sum   Value
		worst Value
		live  int32
	}
	var accs []acc
	poss := int32(0)
	for p := range int(r.nlists) {
		if d.lists[r.lists+int32(p)].n < 0 {
			continue
		}
		poss++
		d.bestOf(r, p) // sorts the list and drops its dead children
		for _, c := range d.kids(r, p) {
			if c.mv.Hold || c.dead {
				continue
			}
			i := slices.IndexFunc(accs, func(a acc) bool { return sameMove(a.c.Move, c.mv) })
			if i < 0 {
				accs = append(accs, acc{c: Candidate{Move: c.mv, Reward: c.rw}})
				i = len(accs) - 1
			}
			a := &accs[i]
			if a.live == 0 || c.ev.Less(a.worst) {
				a.worst = c.ev
			}
			a.live++
			a.sum.V += c.ev.V
			a.sum.Spike += c.ev.Spike
		}
	}
	out := make([]Candidate, 0, len(accs))
	for _, a := range accs {
		deaths := poss - a.live
		wd := a.worst.modifyDeath(b.d.death)
		a.c.Value = Value{(a.sum.V + wd.V*deaths) / poss, (a.sum.Spike + wd.Spike*deaths) / poss}
		out = append(out, a.c)
	}
	// best first; ties keep the first list's order
	slices.SortStableFunc(out, func(x, y Candidate) int {
		switch {
		case y.Value.Less(x.Value):
			return -1
		case x.Value.Less(y.Value):
			return 1
		}
		return 0
	})
	return out
}

// Suggest returns the moves to consider, the chosen one first, by CC1's
// final-move rule (spec §18): the best move with no incoming garbage,
// otherwise the best one that keeps columns 3–5 at most 20 high after the
// incoming lines (minus what it sends), else the one with the largest spike.
func (b *Bot) Suggest(incoming int) []Move {
	b.mu.Lock()
	var pcMove *Move
	if b.pcUpdate() {
		m := b.pc.moves[0]
		pcMove = &m
	}
	b.mu.Unlock()
	cands := b.Candidates()
	if pcMove != nil {
		out := []Move{*pcMove}
		for _, c := range cands {
			if !sameMove(c.Move, *pcMove) {
				out = append(out, c.Move)
			}
		}
		return out
	}
	if len(cands) == 0 {
		return nil
	}
	pick := 0
	if incoming > 0 {
		pick = -1
		b.mu.Lock()
		s := b.d.state(&b.d.nodes.at(b.d.root).st)
		b.mu.Unlock()
		for i, c := range cands {
			t := s.Board
			lockMove(&t, c.Move.Piece, c.Move.Rot, int(c.Move.X), int(c.Move.Y), c.Move.Spin)
			var h [10]int
			t.Heights(&h)
			sent := max(int(c.Reward.Attack), 0)
			if incoming-sent+h[3] <= 20 && incoming-sent+h[4] <= 20 && incoming-sent+h[5] <= 20 {
				pick = i
				break
			}
		}
		if pick < 0 {
			pick = 0
			for i, c := range cands {
				if c.Value.Spike > cands[pick].Value.Spike {
					pick = i
				}
			}
		}
	}
	out := []Move{cands[pick].Move}
	for i, c := range cands {
		if i != pick {
			out = append(out, c.Move)
		}
	}
	return out
}

// Plan returns the principal variation: the best move at each known
// generation from the root.
func (b *Bot) Plan() []Move {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []Move
	if b.d == nil {
		return nil
	}
	if b.thinking == 0 {
		b.settle()
	}
	if r := b.d.nodes.at(b.d.root); r.expanded() && r.spec {
		// the line beyond the current piece waits for the next one
		if cs := b.specCandidates(); len(cs) > 0 {
			return []Move{cs[0].Move}
		}
		return nil
	}
	i := b.d.root
	for {
		n := b.d.nodes.at(i)
		if !n.expanded() || n.spec {
			return out
		}
		kids := b.d.kids(n, 0)
		if len(kids) == 0 {
			return out
		}
		out = append(out, kids[0].mv)
		i = kids[0].n
	}
}

// Play advances the root by a move. If it is one of the root's children
// (same piece, hold use, orientation, position and spin) the search below
// it is kept; otherwise the caller must Reset. Dropping the rest of the
// DAG is left to the following AddPiece (one rebuild for both) or the
// next Think or query.
func (b *Bot) Play(mv Move) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.d == nil {
		return errors.New("bot: Play before Reset")
	}
	if b.thinking > 0 {
		return errors.New("bot: Play during Think")
	}
	d := b.d
	r := d.nodes.at(d.root)
	next, planned := b.pcAdvance(mv)
	if r.expanded() && r.spec && !planned && !mv.Hold {
		// A placement of a speculated root's current piece: each list's
		// child is the same position with a different next piece. Restart
		// from that position without the speculated piece.
		rs := d.state(&r.st)
		for p := range int(r.nlists) {
			for _, c := range d.kids(r, p) {
				if !c.mv.Hold && sameMove(c.mv, mv) {
					s := d.state(&d.nodes.at(c.n).st)
					s.QLen, s.Queue, s.Bag = rs.QLen-1, [maxQueue]Piece{}, rs.Bag
					copy(s.Queue[:], rs.Queue[1:rs.QLen])
					b.setDAG(newDAG(s, int32(s.QLen), Value{}))
					b.known = int32(s.QLen)
					b.stats = Stats{}
					b.pcStats.Placed++
					return nil
				}
			}
		}
	}
	if (!r.expanded() || r.spec) && !planned {
		return errors.New("bot: Play before the root was searched")
	}
	if r.expanded() && !r.spec {
		for _, c := range d.kids(r, 0) {
			if sameMove(c.mv, mv) {
				// The rebuild waits for the new piece (AddPiece) or the
				// next search or query (settle).
				d.root = c.n
				b.moved = true
				b.stats = Stats{}
				b.pcStats.Placed++
				return nil
			}
		}
	}
	if planned {
		// A perfect-clear move the search did not hold: restart from it.
		b.setDAG(newDAG(next, int32(next.QLen), Value{}))
		b.known = int32(next.QLen)
		b.stats = Stats{}
		b.pcStats.Placed++
		return nil
	}
	return fmt.Errorf("bot: move %v %v (%d,%d) %v is not a root move", mv.Piece, mv.Rot, mv.X, mv.Y, mv.Spin)
}

// State returns the root state.
func (b *Bot) State() State {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.d == nil {
		return State{}
	}
	return b.d.state(&b.d.nodes.at(b.d.root).st)
}

// Stats returns the statistics since the last Reset/Play.
func (b *Bot) Stats() Stats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stats
}
