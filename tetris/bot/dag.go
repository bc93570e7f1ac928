// dag.go holds Cold Clear's search structure (spec §18): nodes grouped in
// generations, merged by state within a generation (transpositions), an
// arena of nodes addressed by int32, speculated generations keeping one
// child list per possible piece, CC1's selection weights and backup.

package bot

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// maxQueue is the most known pieces a state keeps (TBP frontends send 5–6).
const maxQueue = 16

// State is everything a node needs to expand: the board (with combo and
// b2b), the hold piece, the pieces still to place (front first) and the bag
// at the end of that queue (bit p set = piece p not yet drawn).
type State struct {
	Board Board
	Hold  Piece
	QLen  int8
	Queue [maxQueue]Piece
	Bag   uint8
}

func (s *State) pop(n int) {
	copy(s.Queue[:], s.Queue[n:s.QLen])
	s.QLen -= int8(n)
	for i := s.QLen; i < maxQueue; i++ {
		s.Queue[i] = 0
	}
}

func (s *State) push(p Piece) bool {
	if s.QLen >= maxQueue {
		return false
	}
	s.Queue[s.QLen] = p
	s.QLen++
	s.Bag &^= 1 << uint(p)
	if s.Bag == 0 {
		s.Bag = 0x7F
	}
	return true
}

// hash mixes the whole state into 64 bits (transposition key).
func (s *State) hash() uint64 { return s.hashWith(boardHash(&s.Board)) }

// hashWith is hash given boardHash(&s.Board): the children of a
// speculated expansion share boards and differ in their queues.
func (s *State) hashWith(bh uint64) uint64 { return s.restHash().with(bh) }

// restHash is the part of a state's hash that does not depend on its
// board: children placed from one parent with one piece share it.
type restHash struct{ mix, q uint64 }

func (s *State) restHash() restHash {
	var q uint64 // the queue, 3 bits a piece (at most 16 pieces: 48 bits)
	for i := int(s.QLen) - 1; i >= 0; i-- {
		q = q<<3 | uint64(s.Queue[i])
	}
	return restHash{uint64(s.Bag)<<8 ^ uint64(uint8(s.Hold))<<16 ^ uint64(uint8(s.QLen))<<24, q}
}

// with returns the hash of the state with this rest and board hash bh.
func (r restHash) with(bh uint64) uint64 {
	const m = 0x9E3779B97F4A7C15
	h := (bh ^ r.mix) * m
	h = (h ^ h>>29 ^ r.q) * m
	return h ^ h>>32
}

// boardHash mixes the board, combo and back-to-back into 64 bits: the sum
// of rowsHash and comboHash. A lock that clears no line changes one or
// two words of rows, so a child's hash is its parent's corrected at those
// words (lockInto).
func boardHash(b *Board) uint64 { return comboHash(b) + rowsHash(b) }

// comboHash is boardHash's part for the combo and back-to-back.
func comboHash(b *Board) uint64 {
	x := uint64(b.Combo) << 1
	if b.B2B {
		x |= 1
	}
	return foldMul(x ^ 0x5bd1e995)
}

// rowsHash is boardHash's part for the rows: the sum over the ten words
// of four rows of wordHash.
func rowsHash(b *Board) uint64 {
	var h uint64
	for i, w := range boardWords(b) {
		h += wordHash(i, w)
	}
	return h
}

// wordHash is word i of a board's rows (rows 4i…4i+3) XORed with its own
// constant and folded (foldMul).
func wordHash(i int, w uint64) uint64 { return foldMul(w ^ hashKeys[i]) }

// foldMul returns the 128-bit product of x with an odd constant, its two
// halves XORed: every bit of x reaches every bit of the result.
func foldMul(x uint64) uint64 {
	hi, lo := bits.Mul64(x, 0xC2B2AE3D27D4EB4F)
	return hi ^ lo
}

// hashKeys are wordHash's per-word constants.
var hashKeys = [10]uint64{0x9E3779B97F4A7C15, 0xD6E8FEB86659FD93, 0x165667B19E3779F9, 0xFF51AFD7ED558CCD,
	0xC4CEB9FE1A85EC53, 0x94D049BB133111EB, 0xBF58476D1CE4E5B9, 0x8CB92BA72F3D8DD7, 0xA0761D6478BD642F, 0xE7037ED1A0B428DB}

func (s *State) nextBag() uint8 { return nextBag(s.Bag, s.Queue[:s.QLen]) }

type child struct {
	mv   Move
	rw   Reward
	ev   Value // cached target value + rw, refreshed by backup
	n    int32
	dead bool // cached target death
}

// nodeState is a node's State in 64 bytes instead of 112: the board's
// lowest nodeRows rows, its combo, and one word pk holding from bit 0 the
// queue, 3 bits a piece front first (at most 16 pieces: 48 bits), the hold
// piece + 1 (3 bits), the queue length (5 bits), the bag (7 bits) and
// back-to-back (bit 63). Rows above nodeRows are empty on every board a
// search makes from a root that has them empty (a placement that keeps a
// cell below row 20 ends below row 23; one that does not locks out and is
// skipped); a board that has some keeps them in the DAG's tall store,
// numbered from 1 in tall.
type nodeState struct {
	pk    uint64
	rows  [nodeRows]uint16
	combo uint32
	tall  int32
}

// nodeRows is the number of board rows a node keeps in itself.
const nodeRows = 24

// b2bBit is pk's back-to-back bit.
const b2bBit = 1 << 63

// packPieces returns the piece word of a nodeState for s (without the
// board's back-to-back bit).
func packPieces(s *State) uint64 {
	var q uint64
	for i := int(s.QLen) - 1; i >= 0; i-- {
		q = q<<3 | uint64(s.Queue[i])
	}
	return q | uint64(uint8(s.Hold+1)&7)<<48 | uint64(uint8(s.QLen)&31)<<51 | uint64(s.Bag&0x7F)<<56
}

// highRows returns the board's rows from nodeRows up as four words.
func highRows(b *Board) *[4]uint64 {
	return (*[4]uint64)(unsafe.Pointer(&b.Rows[nodeRows]))
}

// tallBoard reports whether the board has a cell from row nodeRows up.
func tallBoard(b *Board) bool {
	r := highRows(b)
	return r[0]|r[1]|r[2]|r[3] != 0
}

// tallStore keeps the high rows of the boards that have some.
type tallStore struct {
	mu   sync.Mutex
	rows [][4]uint64
}

// add stores high rows and returns their number (from 1).
func (t *tallStore) add(r [4]uint64) int32 {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.rows = append(t.rows, r)
	return int32(len(t.rows))
}

// get returns the high rows numbered i (0: none).
func (t *tallStore) get(i int32) [4]uint64 {
	if i == 0 {
		return [4]uint64{}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.rows[i-1]
}

// packBoard writes board b with piece word pk (packPieces) into ns.
func (d *dag) packBoard(ns *nodeState, b *Board, pk uint64) {
	if b.B2B {
		pk |= b2bBit
	}
	ns.pk = pk
	ns.rows = [nodeRows]uint16(b.Rows[:nodeRows])
	ns.combo = b.Combo
	ns.tall = 0
	if tallBoard(b) {
		ns.tall = d.tall.add(*highRows(b))
	}
}

// pack returns s as a nodeState.
func (d *dag) pack(s *State) nodeState {
	var ns nodeState
	d.packBoard(&ns, &s.Board, packPieces(s))
	return ns
}

// same reports whether ns holds board b and piece word pk (packPieces).
func (d *dag) same(ns *nodeState, b *Board, pk uint64) bool {
	if b.B2B {
		pk |= b2bBit
	}
	if ns.pk != pk || ns.combo != b.Combo || ns.rows != [nodeRows]uint16(b.Rows[:nodeRows]) {
		return false
	}
	if ns.tall == 0 {
		return !tallBoard(b)
	}
	return d.tall.get(ns.tall) == *highRows(b)
}

// state returns the State packed in ns (queue entries past its length are
// zero, as State.pop and State.push keep them).
func (d *dag) state(ns *nodeState) State {
	s := State{Hold: Piece(int8(ns.pk>>48&7) - 1), QLen: int8(ns.pk >> 51 & 31), Bag: uint8(ns.pk >> 56 & 0x7F)}
	copy(s.Board.Rows[:nodeRows], ns.rows[:])
	*(*[4]uint64)(unsafe.Pointer(&s.Board.Rows[nodeRows])) = d.tall.get(ns.tall)
	s.Board.Combo, s.Board.B2B = ns.combo, ns.pk&b2bBit != 0
	q := ns.pk
	for i := range int(s.QLen) {
		s.Queue[i] = Piece(q & 7)
		q >>= 3
	}
	return s
}

// node is one state of the DAG. It holds no pointers (its child lists and
// further parents live in the dag's stores, addressed by index), so the
// garbage collector never scans the node arena.
type node struct {
	st       nodeState
	val      Value
	drawn    int32 // absolute number of pieces drawn (placed, held or queued)
	gen      int32
	parent   int32 // first parent (−1 for the root)
	moreHead int32 // further parents (transpositions): 1-based link in dag.more, 0 none
	moreTail int32 // the last of them (appended there)
	lists    int32 // index in dag.lists of the first child list
	nlists   int8  // 0: leaf; 1: known; 7: speculated, by piece
	spec     bool
	dead     bool
	marked   bool
	stamp    uint32
}

func (n *node) expanded() bool { return n.nlists != 0 }

// kidList locates one child list in the dag's child store. A clean list
// is sorted, holds no dead child and has best as its best value (spike:
// the largest of the list); any change to its edges makes it dirty (the
// zero value), and update sorts and sums only dirty lists.
type kidList struct {
	start int32 // index of the first child
	n     int32 // children in the list; −1: no list (a piece the bag cannot give)
	best  Value
	clean bool
	// wt is the list's total selection weight (totalWeight) when wtOK:
	// a clean list's values do not change, so walks reuse it.
	wtOK bool
	wt   int64
}

// moreLink is one further parent in a node's list of them.
type moreLink struct {
	p, next int32 // parent; 1-based index of the next link (0: end)
}

// kidChunk is the number of children per chunk of the child store; one
// list never spans two chunks.
const kidChunk = 1 << 14

// maxKidChunks bounds the child store: 1<<14 chunks of kidChunk children.
const maxKidChunks = 1 << 14

// kidStore holds child lists in fixed chunks (growing never moves them),
// listed in a fixed directory so that readers never see it move. Search
// threads reserve lists under mu while other threads read older lists
// (under Bot.mu): a reserved list becomes visible through Bot.mu only
// after its chunk was installed.
type kidStore struct {
	mu  sync.Mutex
	dir *[maxKidChunks]*[kidChunk]child
	n   int32 // children reserved (guarded by mu when threads search)
}

// alloc reserves k consecutive children and returns the first's index; a
// new chunk comes from *spare if it holds one (see worker.refill).
func (s *kidStore) alloc(k int, spare **[kidChunk]child) int32 {
	if k > kidChunk {
		panic("bot: child list longer than a chunk")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.allocLocked(k, spare)
}

// allocLocked is alloc with s.mu held (or no other thread).
func (s *kidStore) allocLocked(k int, spare **[kidChunk]child) int32 {
	if k > kidChunk {
		panic("bot: child list longer than a chunk")
	}
	if s.dir == nil {
		s.dir = new([maxKidChunks]*[kidChunk]child)
	}
	if off := int(s.n & (kidChunk - 1)); off+k > kidChunk || s.dir[s.n>>14] == nil {
		if off != 0 && off+k > kidChunk {
			s.n = (s.n>>14 + 1) << 14 // skip the rest of this chunk
		}
		if int(s.n>>14) >= maxKidChunks {
			panic("bot: child store full")
		}
		if s.dir[s.n>>14] == nil {
			var c *[kidChunk]child
			if spare != nil && *spare != nil {
				c, *spare = *spare, nil
			} else {
				c, _ = getKidChunk()
			}
			s.dir[s.n>>14] = c
		}
	}
	i := s.n
	s.n += int32(k)
	return i
}

// allocLists reserves the expansion's child lists (under one lock),
// putting their first indices in w.kidAt.
func (s *kidStore) allocLists(lists [][]expChild, w *worker) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for p, l := range lists {
		if l != nil {
			w.kidAt[p] = s.allocLocked(len(l), &w.spareKids)
		}
	}
}

// slice returns the k children from index i.
func (s *kidStore) slice(i, k int32) []child {
	c := s.dir[i>>14]
	off := i & (kidChunk - 1)
	return c[off : off+k : off+k]
}

// kids returns node n's child list p (nil: no list).
func (d *dag) kids(n *node, p int) []child {
	l := d.lists[n.lists+int32(p)]
	if l.n < 0 {
		return nil
	}
	return d.kidStore.slice(l.start, l.n)
}

// bestOf sorts node n's child list p if it is dirty (dropping its dead
// children) and returns its best value with the largest spike, or false if
// no child is alive.
func (d *dag) bestOf(n *node, p int) (Value, bool) {
	kl := &d.lists[n.lists+int32(p)]
	if !kl.clean {
		l := sortLive(d.kidStore.slice(kl.start, kl.n))
		kl.n = int32(len(l))
		kl.best = Value{}
		if len(l) > 0 {
			v := l[0].ev
			for _, c := range l[1:] {
				v.Spike = max(v.Spike, c.ev.Spike)
			}
			kl.best = v
		}
		kl.clean, kl.wtOK = true, false
	}
	return kl.best, kl.n > 0
}

// dirty marks every child list of node n as changed.
func (d *dag) dirty(n *node) {
	for p := range int(n.nlists) {
		d.lists[n.lists+int32(p)].clean = false
		d.lists[n.lists+int32(p)].wtOK = false
	}
}

// linkParent adds leaf to node n's further parents unless it is the last
// of them already (an edge from leaf to n earlier in the same expansion).
func (d *dag) linkParent(n *node, leaf int32) {
	if n.moreTail == 0 || d.more[n.moreTail-1].p != leaf {
		d.addMore(n, leaf)
	}
}

// addMore appends parent p to node n's further parents.
func (d *dag) addMore(n *node, p int32) {
	d.more = append(d.more, moreLink{p: p})
	i := int32(len(d.more)) // 1-based
	if n.moreTail == 0 {
		n.moreHead = i
	} else {
		d.more[n.moreTail-1].next = i
	}
	n.moreTail = i
}

// refresh copies node j's value and death into the edges of p that point to it.
func (d *dag) refresh(p, j int32) {
	nj := d.nodes.at(j)
	np := d.nodes.at(p)
	for q := range int(np.nlists) {
		l := d.kids(np, q)
		for k := range l {
			if l[k].n == j {
				ev := nj.val.Plus(l[k].rw)
				if ev != l[k].ev || nj.dead != l[k].dead {
					l[k].ev, l[k].dead = ev, nj.dead
					kl := &d.lists[np.lists+int32(q)]
					kl.clean, kl.wtOK = false, false
				}
			}
		}
	}
}

// arenaChunk is the number of nodes per arena chunk.
const arenaChunk = 1 << 12

// maxArenaChunks bounds the arena: 1<<14 chunks of arenaChunk nodes.
const maxArenaChunks = 1 << 14

// arena stores nodes in fixed chunks so growing never moves them. Its
// directory has a fixed size, and every appender (each search thread, and
// the DAG itself for its root and rebuilds) fills a chunk of its own, so
// threads append nodes at once without sharing a counter or a cache line,
// and a node can be read by any thread that learned its index through a
// lock. A chunk's nodes past its fill count are not in use (the ends of
// chunks their appenders did not fill).
type arena struct {
	dir    *[maxArenaChunks]atomicNodeChunk
	fill   *[maxArenaChunks]int32 // nodes in use from the start of each chunk
	chunks atomic.Int32           // chunks handed out
	own    nodeCursor             // the DAG's own appends
}

// atomicNodeChunk is one entry of the arena's directory.
type atomicNodeChunk = atomic.Pointer[[arenaChunk]node]

// nodeCursor is the chunk one appender fills, and where.
type nodeCursor struct {
	dir *[maxArenaChunks]atomicNodeChunk // the arena it belongs to
	c   int32                            // chunk index
	off int32                            // next node in the chunk
	p   *[arenaChunk]node
}

// init empties the arena.
func (a *arena) init() {
	a.dir = new([maxArenaChunks]atomicNodeChunk)
	a.fill = new([maxArenaChunks]int32)
	a.chunks.Store(0)
	a.own = nodeCursor{}
}

func (a *arena) at(i int32) *node { return &a.dir[i>>12].Load()[i&(arenaChunk-1)] }

// bound returns one past the largest node index (not all below it are in
// use: see valid). Only when no thread appends.
func (a *arena) bound() int32 { return a.chunks.Load() << 12 }

// valid reports whether index i (below bound) holds a node.
func (a *arena) valid(i int32) bool { return i&(arenaChunk-1) < a.fill[i>>12] }

// len returns the number of nodes. Only when no thread appends.
func (a *arena) len() int {
	n := 0
	for c := range a.chunks.Load() {
		n += int(a.fill[c])
	}
	return n
}

// each calls f for every node, in index order. Only when no thread appends.
func (a *arena) each(f func(i int32, n *node)) {
	for c := range a.chunks.Load() {
		p := a.dir[c].Load()
		for k := range a.fill[c] {
			f(c<<12|k, &p[k])
		}
	}
}

// add appends node n for the DAG itself (not while threads search).
func (a *arena) add(n node) int32 {
	i, p := a.alloc(&a.own, nil)
	*p = n
	a.flush(&a.own)
	return i
}

// alloc appends a node at cursor cur and returns its index and address;
// the node may hold old data (chunks are recycled): the caller writes all
// of it. A new chunk comes from *spare if it holds one (see
// worker.refill), else the pool. The chunk's fill count is written by
// flush.
func (a *arena) alloc(cur *nodeCursor, spare **[arenaChunk]node) (int32, *node) {
	if cur.dir != a.dir || cur.off >= arenaChunk {
		a.newChunk(cur, spare)
	}
	k := cur.off
	cur.off++
	return cur.c<<12 | k, &cur.p[k&(arenaChunk-1)]
}

// newChunk gives cursor cur a fresh chunk (flushing the one it filled).
func (a *arena) newChunk(cur *nodeCursor, spare **[arenaChunk]node) {
	if cur.dir == a.dir {
		a.flush(cur)
	}
	c := a.chunks.Add(1) - 1
	if c >= maxArenaChunks {
		panic("bot: node arena full")
	}
	var p *[arenaChunk]node
	if spare != nil && *spare != nil {
		p, *spare = *spare, nil
	} else {
		p, _ = getNodeChunk()
	}
	a.dir[c].Store(p)
	*cur = nodeCursor{dir: a.dir, c: c, p: p}
}

// flush records how much of its chunk cursor cur filled.
func (a *arena) flush(cur *nodeCursor) {
	if cur.dir == a.dir {
		a.fill[cur.c] = cur.off
	}
}

// dag is the search graph. Callers hold Bot.mu, except for the part of an
// insertion that prepare does (see there).
type dag struct {
	nodes arena
	tab   *table // every node by its state and generation
	root  int32
	stamp uint32
	work  []int32
	next  []int32
	path  []selFrame // selectLeaf's walk (kept for its storage)
	// child lists, their children and further parents, by index
	lists    []kidList
	kidStore kidStore
	more     []moreLink
	tall     tallStore // high rows of tall boards (nodeState)
	touched  uint64    // sum of the slots rehash touched (kept so the loads are)
	order    []int32   // rebuild's walk (kept for its storage)
	catch    catchState
	death    int32   // Weights.Death: what a dead piece costs a speculated node
	rankC    float64 // Options.RankSelect: > 0 draws children by rank alone (Cold Clear 2)
}

func newDAG(root State, drawn int32, v Value) *dag {
	d := &dag{death: cc1Death}
	d.nodes.init()
	d.nodes.add(node{st: d.pack(&root), val: v, drawn: drawn, parent: -1})
	d.tab = newTable()
	d.put(d.tab, 0)
	return d
}

// selectLeaf walks from the root by CC1's weights (spec §18) and returns a
// leaf to expand, or −1 if the walk ended on a dead node or could not get
// past leaves other threads are expanding.
//
// CC1 gives up a walk that meets a marked leaf. With several threads that
// wastes most walks (selection is concentrated on the best line, where the
// other thread's leaf usually is), so here the walk instead draws again at
// the marked leaf's parent without that child, and if every child there is
// excluded, again at the grandparent without the parent, and so on (at most
// maxRedraws times). A walk that meets no marked leaf, the only kind one
// thread makes, draws exactly as CC1 does.
func (d *dag) selectLeaf(rng *rand.Rand) int32 {
	i := d.root
	if n := d.nodes.at(i); n.dead || n.marked {
		return -1
	}
	path := d.path[:0]
	defer func() { d.path = path[:0] }()
	redraws := 0
	for {
		n := d.nodes.at(i)
		if n.dead {
			return -1
		}
		if n.marked {
			// Another thread's leaf: exclude it and draw again above.
			for {
				if len(path) == 0 || redraws == maxRedraws {
					return -1
				}
				redraws++
				f := &path[len(path)-1]
				f.ex = append(f.ex, f.pick)
				draw := drawExcluding
				if d.rankC > 0 {
					draw = func(list []child, ex []int32, rng *rand.Rand) int32 {
						return rankDrawExcluding(len(list), ex, d.rankC, rng)
					}
				}
				if r := draw(f.list, f.ex, rng); r >= 0 {
					f.pick = r
					i = f.list[r].n
					break
				}
				path = path[:len(path)-1]
			}
			continue
		}
		if !n.expanded() {
			n.marked = true
			return i
		}
		kl := &d.lists[n.lists]
		if n.spec {
			var avail [7]int
			k := 0
			for p := range int(n.nlists) {
				if d.lists[n.lists+int32(p)].n > 0 {
					avail[k] = p
					k++
				}
			}
			if k == 0 {
				return -1
			}
			kl = &d.lists[n.lists+int32(avail[rng.IntN(k)])]
		}
		if kl.n <= 0 {
			return -1
		}
		list := d.kidStore.slice(kl.start, kl.n)
		var pick int
		if d.rankC > 0 {
			pick = rankDraw(len(list), d.rankC, rng)
		} else {
			if !kl.wtOK || !kl.clean {
				kl.wt, kl.wtOK = totalWeight(list), kl.clean
			}
			pick = drawTotal(list, kl.wt, rng)
		}
		if len(path) < cap(path) {
			path = path[:len(path)+1]
		} else {
			path = append(path, selFrame{})
		}
		f := &path[len(path)-1]
		f.list, f.pick, f.ex = list, int32(pick), f.ex[:0]
		i = list[pick].n
	}
}

// maxRedraws bounds the draws one walk makes after meeting marked leaves.
const maxRedraws = 16

// selFrame is one step of a selection walk: the child list drawn from,
// the rank drawn and the ranks excluded because they led to marked leaves.
type selFrame struct {
	list []child
	pick int32
	ex   []int32
}

// draw picks a child rank with CC1's weights.
func draw(list []child, rng *rand.Rand) int { return drawTotal(list, totalWeight(list), rng) }

// totalWeight sums CC1's weights over a child list.
func totalWeight(list []child) int64 {
	emin := int64(list[len(list)-1].ev.V)
	var total int64
	for r := range list {
		total += weight(int64(list[r].ev.V)-emin, r)
	}
	return total
}

// drawTotal is draw given the list's totalWeight.
func drawTotal(list []child, total int64, rng *rand.Rand) int {
	emin := int64(list[len(list)-1].ev.V)
	pick := 0
	if total > 0 {
		x := rng.Int64N(total)
		for r := range list {
			x -= weight(int64(list[r].ev.V)-emin, r)
			if x < 0 {
				pick = r
				break
			}
		}
	}
	return pick
}

// drawExcluding is draw over the ranks not in ex (−1: none left); with
// zero total weight it takes the first rank not excluded, as draw takes 0.
func drawExcluding(list []child, ex []int32, rng *rand.Rand) int32 {
	out := func(r int) bool { return slices.Contains(ex, int32(r)) }
	emin := int64(list[len(list)-1].ev.V)
	var total int64
	first := -1
	for r := range list {
		if out(r) {
			continue
		}
		if first < 0 {
			first = r
		}
		total += weight(int64(list[r].ev.V)-emin, r)
	}
	if first < 0 {
		return -1
	}
	if total == 0 {
		return int32(first)
	}
	x := rng.Int64N(total)
	for r := range list {
		if out(r) {
			continue
		}
		x -= weight(int64(list[r].ev.V)-emin, r)
		if x < 0 {
			return int32(r)
		}
	}
	return int32(first) // not reached: the weights sum to total
}

// rankDraw is Cold Clear 2's draw of a child rank among n, whatever the
// values: floor(−ln U / c) mod n for U uniform in (0, 1], so rank i comes
// with probability about e^(−c·i)(1 − e^(−c)) (c = ln 2: one half, one
// quarter, …). CC1's weights instead send a large share of the walks
// down the long tail of poor children at every level (rank i ≥ 5 gets
// about 1/(i²+1) of the weight once one child is much worse than the rest).
func rankDraw(n int, c float64, rng *rand.Rand) int {
	x := -math.Log(1-rng.Float64()) / c
	return int(math.Mod(x, float64(n)))
}

// rankDrawExcluding is rankDraw over the ranks not in ex, in rank order
// (−1: none left).
func rankDrawExcluding(n int, ex []int32, c float64, rng *rand.Rand) int32 {
	left := n - len(ex)
	if left <= 0 {
		return -1
	}
	k := rankDraw(left, c, rng)
	for r := range n {
		if slices.Contains(ex, int32(r)) {
			continue
		}
		if k == 0 {
			return int32(r)
		}
		k--
	}
	return -1
}

// weight is CC1's selection weight ((E_i − E_min) + 10)² / (i² + 1).
func weight(diff int64, rank int) int64 {
	d := diff + 10
	return d * d / int64(rank*rank+1)
}

// prepare does the part of leaf's insertion that does not need Bot.mu:
// it finds or creates each child's node of generation g in table t and
// writes the child lists into the child store (their move, reward and
// node), remembering where in w.kidAt. With one thread it links the edges
// too (prepareList); with shared set (several search threads) it holds
// the table's lock throughout and leaves the edges' values, deaths and
// further parents to attach, under Bot.mu. Nodes it creates name leaf as
// their first parent; other threads may find them in t before attach.
//
// (One lock for the table, taken once per expansion, beat a lock per
// shard with the children grouped by shard: the grouping wrote the child
// lists in a random order, its first-probe loads came in small groups,
// and both threads took all sixteen shard locks every expansion.)
func (d *dag) prepare(t *table, leaf, g, drawnBase int32, lists [][]expChild, orders [][]int32, w *worker, shared bool) {
	defer d.nodes.flush(&w.nodeCur)
	w.restPk = w.restPk[:0]
	for i := range w.rests {
		w.restPk = append(w.restPk, packPieces(&w.rests[i]))
	}
	d.kidStore.allocLists(lists, w)
	if shared {
		spinLock(&t.mu)
		defer t.mu.Unlock()
	}
	for p, l := range lists {
		if l == nil {
			continue
		}
		ks := d.kidStore.slice(w.kidAt[p], int32(len(l)))
		w.listClean[p], w.listBest[p] = d.prepareList(t, leaf, g, drawnBase, l, orders[p][:len(l)], ks, w, !shared)
	}
}

// prepareList does prepare's work for child list l (ord its order best
// first, ks its place in the child store): for each child in order it
// finds its node (lookup's probe) or makes it and writes the edge's move,
// reward and node, and with link set (one thread) links the edge as link
// does, all in one loop without calls, a new node's edge made from the
// expansion's child instead of the node (its value, no death, leaf its
// first parent). It returns whether the list is clean and its best value
// (link's; without link, when attach links the edges, the edges have
// zero values and these mean nothing).
func (d *dag) prepareList(t *table, leaf, g, drawnBase int32, l []expChild, ord []int32, ks []child, w *worker, link bool) (clean bool, best Value) {
	// Touch every child's first probe slot before the real lookups: the
	// loads are independent, so their cache misses overlap instead of
	// coming one after another below.
	var touch uint64
	for i := range l {
		sh := t.shard(l[i].h)
		touch += sh.slots[int(tag(l[i].h))&(len(sh.slots)-1)]
	}
	w.touched += touch
	clean = true
	ks = ks[:len(ord)]
	var prev Value
	for k, oi := range ord {
		e := &l[oi]
		board, pk := &w.locks[e.mv.Piece][e.lock].board, w.restPk[e.rest]
		sh := t.shard(e.h)
		ci, i := d.lookup(sh, e.h, g, board, pk)
		var ev Value
		dead := false
		if ci < 0 {
			// a new node
			cur := &w.nodeCur
			if cur.dir != d.nodes.dir || cur.off >= arenaChunk {
				d.nodes.newChunk(cur, &w.spareNodes)
			}
			o := cur.off
			cur.off++
			nn := &cur.p[o&(arenaChunk-1)]
			ci = cur.c<<12 | o
			// every field: a recycled chunk holds old nodes
			ns := &nn.st
			ns.pk = pk
			if board.B2B {
				ns.pk |= b2bBit
			}
			ns.rows, ns.combo, ns.tall = [nodeRows]uint16(board.Rows[:nodeRows]), board.Combo, 0
			if tallBoard(board) {
				ns.tall = d.tall.add(*highRows(board))
			}
			nn.val, nn.gen, nn.drawn, nn.parent = e.val, g, drawnBase+int32(e.drawn), leaf
			nn.moreHead, nn.moreTail, nn.lists, nn.nlists = 0, 0, 0, 0
			nn.spec, nn.dead, nn.marked, nn.stamp = false, false, false, 0
			sh.slots[i] = tag(e.h)<<32 | uint64(uint32(ci+1))
			sh.n++
			if 2*sh.n > len(sh.slots) {
				sh.grow()
			}
			if link {
				ev = e.val.Plus(e.rw)
			}
		} else if link {
			// link's further parent, for a node found
			cn := d.nodes.at(ci)
			if cn.parent != leaf {
				d.linkParent(cn, leaf)
			}
			ev, dead = cn.val.Plus(e.rw), cn.dead
		}
		ks[k] = child{mv: e.mv, rw: e.rw, ev: ev, n: ci, dead: dead}
		// link's list summary
		if k == 0 {
			best = ev
		} else if prev.Less(ev) {
			clean = false
		}
		prev = ev
		best.Spike = max(best.Spike, ev.Spike)
		clean = clean && !dead
	}
	return clean, best
}

// link completes edge k of leaf's new child list ks from its node cn: the
// value and death, and leaf as a further parent of a node that had
// another first; it keeps the list's best value and whether it is clean
// (sorted, no death) up to date.
func (d *dag) link(ks []child, k int, leaf int32, cn *node, best *Value, clean *bool) {
	c := &ks[k]
	if cn.parent != leaf {
		d.linkParent(cn, leaf)
	}
	ev := cn.val.Plus(c.rw)
	if k == 0 {
		*best = ev
	} else if ks[k-1].ev.Less(ev) {
		*clean = false
	}
	best.Spike = max(best.Spike, ev.Spike)
	*clean = *clean && !cn.dead
	c.ev, c.dead = ev, cn.dead
}

// attach completes leaf's insertion after prepare (under Bot.mu): the
// edges' values and deaths from their nodes, the further parents of
// children that already had one (unless fused: prepare linked them), the
// leaf's child lists, and the backup.
func (d *dag) attach(leaf int32, spec bool, lists [][]expChild, w *worker, fused bool) {
	first := int32(len(d.lists))
	for p, l := range lists {
		if l == nil {
			d.lists = append(d.lists, kidList{n: -1})
			continue
		}
		start := w.kidAt[p]
		ks := d.kidStore.slice(start, int32(len(l)))
		clean, best := w.listClean[p], w.listBest[p]
		if !fused {
			clean, best = true, Value{}
			for k := range ks {
				d.link(ks, k, leaf, d.nodes.at(ks[k].n), &best, &clean)
			}
		}
		// Presorted by the children's own values, the list is usually
		// sorted already; it is not when a transposition's node has a
		// backed-up value or is dead, and then the backup sorts it.
		d.lists = append(d.lists, kidList{start: start, n: int32(len(ks)), best: best, clean: clean && len(ks) > 0})
	}
	ln := d.nodes.at(leaf)
	ln.lists, ln.nlists = first, int8(len(lists))
	ln.spec = spec
	ln.marked = false
	d.backup(leaf)
}

// update recomputes a node's value from its children (spec §18 backprop)
// and reports whether value or death changed.
func (d *dag) update(i int32) bool {
	n := d.nodes.at(i)
	if !n.expanded() {
		// a leaf another thread is still inserting (its child was found
		// in a table and expanded first): attach backs it up
		return false
	}
	old, oldDead := n.val, n.dead
	if !n.spec {
		if v, ok := d.bestOf(n, 0); ok {
			n.val = v
		} else {
			n.dead = true
		}
	} else {
		var sum Value
		var worst Value
		poss, deaths, live := int32(0), int32(0), 0
		for p := range int(n.nlists) {
			if d.lists[n.lists+int32(p)].n < 0 {
				continue
			}
			poss++
			v, ok := d.bestOf(n, p)
			if !ok {
				deaths++
				continue
			}
			if live == 0 || v.Less(worst) {
				worst = v
			}
			live++
			sum.V += v.V
			sum.Spike += v.Spike
		}
		if live == 0 {
			n.dead = true
		} else {
			wd := worst.modifyDeath(d.death)
			n.val = Value{(sum.V + wd.V*deaths) / poss, (sum.Spike + wd.Spike*deaths) / poss}
		}
	}
	return n.val != old || n.dead != oldDead
}

// sortLive drops the dead children of l (keeping the order of the rest)
// and sorts the others best first by ev, stably: the same order as
// slices.DeleteFunc followed by slices.SortStableFunc. It is an insertion
// sort, linear on the nearly sorted lists a backup sees (presorted at
// insertion, one child's value changed since).
func sortLive(l []child) []child {
	k := 0
	for i := range l {
		if l[i].dead {
			continue
		}
		c := l[i]
		j := k
		for j > 0 && l[j-1].ev.Less(c.ev) {
			l[j] = l[j-1]
			j--
		}
		l[j] = c
		k++
	}
	clear(l[k:])
	return l[:k]
}

// backup propagates a change from node i towards the root, generation by
// generation, stopping where values stop changing.
func (d *dag) backup(i int32) {
	d.work = append(d.work[:0], i)
	first := true
	for len(d.work) > 0 {
		d.stamp++
		d.next = d.next[:0]
		for _, j := range d.work {
			if !d.update(j) && !first {
				continue
			}
			d.refreshParents(j)
		}
		first = false
		d.work, d.next = d.next, d.work
	}
}

func (d *dag) mark(p int32) {
	if n := d.nodes.at(p); n.stamp != d.stamp {
		n.stamp = d.stamp
		d.next = append(d.next, p)
	}
}

// newPiece is a piece AddPiece reveals: the nodes whose queue ends at
// known (their drawn count) get it.
type newPiece struct {
	p     Piece
	known int32
}

// push pushes the piece on node n's queue and returns the new state's
// hash (rebuild's walk did the rest of giving n the piece: drawn, and a
// speculated node keeps only that piece's child list).
func (d *dag) push(n *node, np *newPiece) uint64 {
	s := d.state(&n.st)
	s.push(np.p)
	n.st = d.pack(&s)
	return s.hash()
}

// hashed is a rebuilt node and its state's hash.
type hashed struct {
	h uint64
	k int32
}

// rebuild (the compaction of catchUp, which otherwise leaves the nodes in
// place) keeps only the nodes reachable from newRoot (renumbered from 0
// in breadth-first order, so by generation; generations renumbered from
// newRoot's); the child lists and further parents are copied into fresh
// stores. With np (AddPiece), each node the walk reaches is given the new
// piece first if it takes it (so a speculated node's other lists are not
// followed). The new table keeps the old one's entries of the kept nodes
// whose state did not change, and only the changed ones are hashed again;
// it ends as if every kept node had been put in index order: where
// several hold the same state and generation, the first one's.
//
// The walk copies each node as it takes it from the queue: every child
// is then numbered (it numbers them), and so is every kept parent (a
// parent is of the generation before, all of which the walk numbered
// before it took the first node of this one), so each node and list is
// read once.
func (d *dag) rebuild(newRoot int32, np *newPiece, o rebuildOptions) {
	old := &d.nodes
	remap := make([]int32, old.bound())         // new number + 1 (0: dropped)
	keep := make([]uint64, (old.bound()+63)/64) // remap ≠ 0, 32 times smaller
	var changed []uint64                        // old nodes given the piece
	if np != nil {
		changed = make([]uint64, (old.bound()+63)/64)
	}
	var nodes arena
	nodes.init()
	var lists []kidList
	var store kidStore
	var more []moreLink
	base := old.at(newRoot).gen
	var rh []hashed                       // the nodes given the piece, by new number
	order := append(d.order[:0], newRoot) // kept from the last rebuild: growing it cost more than the walk's copies
	remap[newRoot] = 1
	keep[newRoot/64] |= 1 << (newRoot % 64)
	for k := 0; k < len(order); k++ {
		oi := order[k]
		on := old.at(oi)
		// copied straight into the new arena (numbered in order)
		_, n := nodes.alloc(&nodes.own, nil)
		*n = *on
		ol := on.lists
		if np != nil && on.drawn == np.known {
			// given the piece (its state later: push)
			n.drawn++
			if n.spec {
				ol += int32(np.p)
				n.nlists = 1
				n.spec = false
			}
			rh = append(rh, hashed{k: int32(k)})
			changed[oi/64] |= 1 << (oi % 64)
		}
		n.gen -= base
		n.stamp = 0
		first := int32(-1)
		if n.parent >= 0 {
			first = remap[n.parent] - 1
		}
		n.moreHead, n.moreTail = 0, 0
		for j := on.moreHead; j != 0; j = d.more[j-1].next {
			if q := remap[d.more[j-1].p] - 1; q >= 0 {
				if first < 0 {
					first = q
				} else {
					more = append(more, moreLink{p: q})
					i := int32(len(more))
					if n.moreTail == 0 {
						n.moreHead = i
					} else {
						more[n.moreTail-1].next = i
					}
					n.moreTail = i
				}
			}
		}
		n.parent = first
		n.lists = int32(len(lists))
		for p := range int(n.nlists) {
			kl := d.lists[ol+int32(p)]
			if kl.n < 0 {
				lists = append(lists, kidList{n: -1})
				continue
			}
			l := d.kidStore.slice(kl.start, kl.n)
			start := store.alloc(len(l), nil)
			nl := store.slice(start, int32(len(l)))
			for j, c := range l {
				if remap[c.n] == 0 {
					order = append(order, c.n)
					remap[c.n] = int32(len(order))
					keep[c.n/64] |= 1 << (c.n % 64)
				}
				c.n = remap[c.n] - 1
				nl[j] = c
			}
			// the same children in the same order: a clean list stays
			// clean, with its best value and total weight
			kl.start = start
			lists = append(lists, kl)
		}
	}
	nodes.flush(&nodes.own)
	oldNodes, oldKids := d.nodes.dir, d.kidStore.dir
	d.nodes.dir, d.nodes.fill, d.nodes.own = nodes.dir, nodes.fill, nodes.own
	d.nodes.chunks.Store(nodes.chunks.Load())
	d.kidStore.dir, d.kidStore.n = store.dir, store.n
	d.lists, d.more = lists, more
	d.root = 0
	d.stamp = 0
	// a compacted DAG: one epoch, no dead node; the nodes left out of the
	// table are put in d.catch.shadow below
	d.catch.epoch, d.catch.dead, d.catch.shadow = 0, 0, d.catch.shadow[:0]
	// The nodes given the piece get it on their queues, hashed.
	pushAll := func() {
		for i := range rh {
			rh[i].h = d.push(d.nodes.at(rh[i].k), np)
		}
	}
	// The table: sized once for the kept nodes and the next search
	// (growing it node by node cost more than the copy itself), with the
	// old table's entries of the kept nodes that did not change,
	// renumbered, in the same shards (no hashing; a node's generation is
	// read from the node, so renumbering them changes no entry). With
	// o.parallel a second goroutine copies shards while this one pushes
	// the piece and runs o.then (neither reads the table, nor the copy the
	// nodes), then both take the shards left, one at a time.
	kept := len(order)
	d.order = order
	oldTab := d.tab
	tab := newTableFor(kept + min(o.room, maxReserve))
	in := make([]uint64, (kept+63)/64) // new nodes with an entry
	var copied int
	thenDone := false
	if o.parallel {
		var next atomic.Int32
		copyShards := func(in []uint64) int {
			added := 0
			for s := int(next.Add(1) - 1); s < tableShards; s = int(next.Add(1) - 1) {
				added += tab.copyFrom(oldTab, s, s+1, remap, keep, changed, in)
			}
			return added
		}
		in2 := make([]uint64, len(in))
		var copied2 int
		done := make(chan struct{})
		go func() {
			copied2 = copyShards(in2)
			close(done)
		}()
		pushAll()
		if o.then != nil {
			o.then()
			thenDone = true
		}
		copied = copyShards(in)
		<-done
		copied += copied2
		for i, w := range in2 {
			in[i] |= w
		}
	} else {
		pushAll()
		copied = tab.copyFrom(oldTab, 0, tableShards, remap, keep, changed, in)
	}
	releaseStores(oldNodes, oldKids, oldTab)
	d.tab = tab
	if copied == kept {
		if o.then != nil && !thenDone {
			o.then()
		}
		return
	}
	// The changed nodes (hashed by pushAll), and any other the old table
	// did not hold (a state AddPiece made equal to another's), in index
	// order, each taking the entry of a later node with its state.
	j := 0
	for k := range int32(kept) {
		if j < len(rh) && rh[j].k == k {
			if j%rehashBlock == 0 {
				// touch the next block's first probe slots: the
				// loads are independent, so their misses overlap
				var touch uint64
				for _, e := range rh[j:min(j+rehashBlock, len(rh))] {
					sh := tab.shard(e.h)
					touch += sh.slots[int(tag(e.h))&(len(sh.slots)-1)]
				}
				d.touched += touch
			}
			d.putHashed(tab, k, rh[j].h)
			j++
		} else if in[k/64]&(1<<(k%64)) == 0 {
			d.putFirst(tab, k)
		}
	}
	if o.then != nil && !thenDone {
		o.then()
	}
}

// rebuildOptions are the ways of rebuild.
type rebuildOptions struct {
	room     int    // table room for this many more nodes (the next search)
	parallel bool   // use a second goroutine (the bot searches with several threads)
	then     func() // run after the nodes are rebuilt (with parallel, while the table is copied; it must not change node states)
}

// copyFrom adds the entries of shards from to to−1 of table old whose
// nodes remap keeps (remap: new number + 1, 0 dropped; keep: the bit set
// of the kept ones, tested first as it is more often in cache) and that
// are not in the bit set changed (nil: none), under their new numbers,
// in the same shards; it sets their new numbers' bits in in and returns
// how many it added.
func (t *table) copyFrom(old *table, from, to int, remap []int32, keep, changed, in []uint64) int {
	added := 0
	for s := from; s < to; s++ {
		sh := &t.sh[s]
		for _, slot := range old.sh[s].slots {
			if slot == 0 {
				continue
			}
			oi := int32(uint32(slot)) - 1
			if keep[oi/64]&(1<<(oi%64)) == 0 || (changed != nil && changed[oi/64]&(1<<(oi%64)) != 0) {
				continue
			}
			ni := remap[oi] - 1
			in[ni/64] |= 1 << (ni % 64)
			mask := len(sh.slots) - 1
			i := int(slot>>32) & mask
			for sh.slots[i] != 0 {
				i = (i + 1) & mask
			}
			sh.slots[i] = slot&^0xFFFFFFFF | uint64(uint32(ni+1))
			sh.n++
			added++
			if 2*sh.n > len(sh.slots) {
				sh.grow()
			}
		}
	}
	return added
}

// recomputeAll recomputes every expanded node's value, deepest generation
// first (in index order within one). Right after a rebuild the nodes are
// numbered by generation, so that order needs no sort.
func (d *dag) recomputeAll() {
	idx := make([]int32, 0, d.nodes.len())
	sorted := true
	for i := range d.nodes.bound() {
		if d.nodes.valid(i) && d.nodes.at(i).expanded() {
			if k := len(idx); k > 0 && d.nodes.at(idx[k-1]).gen > d.nodes.at(i).gen {
				sorted = false
			}
			idx = append(idx, int32(i))
		}
	}
	if sorted {
		// generation blocks in reverse, each in index order
		out := make([]int32, 0, len(idx))
		for end := len(idx); end > 0; {
			g := d.nodes.at(idx[end-1]).gen
			start := end - 1
			for start > 0 && d.nodes.at(idx[start-1]).gen == g {
				start--
			}
			out = append(out, idx[start:end]...)
			end = start
		}
		idx = out
	} else {
		slices.SortStableFunc(idx, func(a, b int32) int { return int(d.nodes.at(b).gen - d.nodes.at(a).gen) })
	}
	for _, i := range idx {
		n := d.nodes.at(i)
		for p := range int(n.nlists) {
			l := d.kids(n, p)
			for k := range l {
				c := d.nodes.at(l[k].n)
				l[k].ev, l[k].dead = c.val.Plus(l[k].rw), c.dead
			}
		}
		d.dirty(n)
		d.update(i)
	}
}

// table is an open-addressing hash table from a state and a generation to
// their node's index (faster than a Go map for pre-mixed 64-bit keys),
// one for the whole DAG, split by the state hash's low bits into shards
// that grow separately. A slot is 8 bytes: the upper 32
// bits of the state's hash (its tag, whose low bits also give the first
// probe) and the node index + 1 (a zero slot is empty). The hash leaves
// out the generation: a tag match is confirmed by comparing the node's
// generation and state, so equal states of a generation always merge and
// different ones (or equal states of two generations) never do.
//
// One table instead of one per generation lets a search with a node
// budget size it once (reserve): growing the tables entry by entry moved
// every entry about once and cleared twice the memory.
type table struct {
	mu sync.Mutex // held by prepare when several threads search
	sh [tableShards]shard
}

// tableShards is the number of shards of a table.
const tableShards = 16

// shard is one part of a table (growing one moves a sixteenth of the
// entries at a time).
type shard struct {
	slots []uint64
	n     int
}

// shardOf returns the shard of a state hash.
func shardOf(h uint64) int { return int(h & (tableShards - 1)) }

// shard returns the shard of a state hash.
func (t *table) shard(h uint64) *shard { return &t.sh[shardOf(h)] }

// len returns the number of entries.
func (t *table) len() int {
	n := 0
	for i := range t.sh {
		n += t.sh[i].n
	}
	return n
}

func newTable() *table { return newTableFor(0) }

// newTableFor returns a table that holds n entries without growing (see
// shardSlots).
func newTableFor(n int) *table {
	size := shardSlots(n)
	t := &table{}
	for i := range t.sh {
		t.sh[i].slots = getSlots(size)
	}
	return t
}

// maxReserve bounds the entries reserve makes room for at once (32 MiB
// of slots): a larger node budget may end much earlier by time, and the
// table grows past it as needed.
const maxReserve = 1 << 20

// shardSlots returns the slots per shard for a table of n entries: a
// power of two, at least 16, holding n/tableShards entries plus four
// standard deviations of the hash's spread over the shards (and 16)
// below the growth load of one half.
func shardSlots(n int) int {
	per := n / tableShards
	need := per + 4*int(math.Sqrt(float64(per))) + 16
	size := 16
	for size/2 < need {
		size *= 2
	}
	return size
}

// reserve makes room for n more entries, growing every shard at once if
// the table would otherwise grow on the way (not while threads search).
func (t *table) reserve(n int) {
	size := shardSlots(t.len() + min(n, maxReserve))
	for i := range t.sh {
		if len(t.sh[i].slots) < size {
			t.sh[i].resize(size)
		}
	}
}

// clear empties the table.
func (t *table) clear() {
	for i := range t.sh {
		clear(t.sh[i].slots)
		t.sh[i].n = 0
	}
}

// tag is the part of a state hash a table slot keeps.
func tag(h uint64) uint64 { return h >> 32 }

// lookup returns the node of t (the shard of h) of generation g holding
// the state with this board and pieces pk (packPieces; the state's hash
// is h) and its slot, or −1 and the empty slot where that node belongs.
func (d *dag) lookup(t *shard, h uint64, g int32, board *Board, pk uint64) (int32, int) {
	k := tag(h)
	mask := len(t.slots) - 1
	i := int(k) & mask
	for {
		s := t.slots[i]
		if s == 0 {
			return -1, i
		}
		if s>>32 == k {
			ci := int32(uint32(s)) - 1
			if n := d.nodes.at(ci); n.gen == g && d.same(&n.st, board, pk) {
				return ci, i
			}
		}
		i = (i + 1) & mask
	}
}

// set stores node v, whose state hash is h, in an empty slot returned by lookup.
func (t *shard) set(slot int, h uint64, v int32) {
	t.slots[slot] = tag(h)<<32 | uint64(uint32(v+1))
	t.n++
	if 2*t.n > len(t.slots) {
		t.grow()
	}
}

// grow doubles the shard's slots.
func (t *shard) grow() { t.resize(2 * len(t.slots)) }

// resize moves the shard's entries into size slots (a power of two).
func (t *shard) resize(size int) {
	old := t.slots
	t.slots = getSlots(size)
	mask := len(t.slots) - 1
	for _, s := range old {
		if s != 0 {
			i := int(s>>32) & mask
			for t.slots[i] != 0 {
				i = (i + 1) & mask
			}
			t.slots[i] = s
		}
	}
	putSlots(old)
}

// putFirst stores node v in table t, replacing a node of its generation
// with its state that comes after it; the node left out goes to
// d.catch.shadow.
func (d *dag) putFirst(t *table, v int32) {
	n := d.nodes.at(v)
	st := d.state(&n.st)
	h := st.hash()
	sh := t.shard(h)
	ci, slot := d.lookup(sh, h, n.gen, &st.Board, packPieces(&st))
	switch {
	case ci < 0:
		sh.set(slot, h, v)
	case ci > v:
		sh.slots[slot] = tag(h)<<32 | uint64(uint32(v+1))
		d.catch.shadow = append(d.catch.shadow, ci)
	case ci < v:
		d.catch.shadow = append(d.catch.shadow, v)
	}
}

// putHashed is putFirst for a node whose state's hash h is known.
func (d *dag) putHashed(t *table, v int32, h uint64) {
	n := d.nodes.at(v)
	sh := t.shard(h)
	k := tag(h)
	mask := len(sh.slots) - 1
	i := int(k) & mask
	for {
		s := sh.slots[i]
		if s == 0 {
			sh.set(i, h, v)
			return
		}
		if s>>32 == k {
			ci := int32(uint32(s)) - 1
			if c := d.nodes.at(ci); c.gen == n.gen && d.sameState(&c.st, &n.st) {
				if ci > v {
					sh.slots[i] = k<<32 | uint64(uint32(v+1))
					d.catch.shadow = append(d.catch.shadow, ci)
				} else if ci < v {
					d.catch.shadow = append(d.catch.shadow, v)
				}
				return
			}
		}
		i = (i + 1) & mask
	}
}

// sameState reports whether a and b hold the same state.
func (d *dag) sameState(a, b *nodeState) bool {
	if a.pk != b.pk || a.combo != b.combo || a.rows != b.rows {
		return false
	}
	if a.tall == b.tall {
		return true
	}
	// a tall board's high rows are never all empty
	return a.tall != 0 && b.tall != 0 && d.tall.get(a.tall) == d.tall.get(b.tall)
}

// rehashBlock is the number of first probes rebuild's rehash touches ahead.
const rehashBlock = 32

// put stores node v in table t unless a node of its generation with its
// state is there.
func (d *dag) put(t *table, v int32) {
	n := d.nodes.at(v)
	st := d.state(&n.st)
	h := st.hash()
	sh := t.shard(h)
	if ci, slot := d.lookup(sh, h, n.gen, &st.Board, packPieces(&st)); ci < 0 {
		sh.set(slot, h, v)
	}
}

// refreshParents refreshes child j's entry in each of its parents' lists
// and marks each parent for the next round of value updates.
func (d *dag) refreshParents(j int32) {
	nj := d.nodes.at(j)
	if nj.parent >= 0 {
		d.refresh(nj.parent, j)
		d.mark(nj.parent)
	}
	for k := nj.moreHead; k != 0; k = d.more[k-1].next {
		p := d.more[k-1].p
		d.refresh(p, j)
		d.mark(p)
	}
}
