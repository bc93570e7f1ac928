// dag.go holds Cold Clear's search structure (spec §18): nodes grouped in
// generations, merged by state within a generation (transpositions), an
// arena of nodes addressed by int32, speculated generations keeping one
// child list per possible piece, CC1's selection weights and backup.

package bot

import (
	"math/bits"
	"math/rand/v2"
	"slices"
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
func (s *State) hashWith(bh uint64) uint64 {
	const m = 0x9E3779B97F4A7C15
	var q uint64 // the queue, 3 bits a piece (at most 16 pieces: 48 bits)
	for i := int(s.QLen) - 1; i >= 0; i-- {
		q = q<<3 | uint64(s.Queue[i])
	}
	h := (bh ^ uint64(s.Bag)<<8 ^ uint64(uint8(s.Hold))<<16 ^ uint64(uint8(s.QLen))<<24) * m
	h = (h ^ h>>29 ^ q) * m
	return h ^ h>>32
}

// boardHash mixes the board, combo and back-to-back into 64 bits.
func boardHash(b *Board) uint64 {
	const m = 0x9E3779B97F4A7C15
	h := uint64(b.Combo)<<32 ^ 0x5bd1e995
	if b.B2B {
		h ^= 1 << 40
	}
	h *= m
	for i := 0; i < 40; i += 4 {
		r := uint64(b.Rows[i]) | uint64(b.Rows[i+1])<<16 | uint64(b.Rows[i+2])<<32 | uint64(b.Rows[i+3])<<48
		if r == 0 && i > 0 {
			break
		}
		h = (h ^ r ^ h>>29) * m
	}
	return h
}

func (s *State) nextBag() uint8 { return nextBag(s.Bag, s.Queue[:s.QLen]) }

type child struct {
	mv   Move
	rw   Reward
	ev   Value // cached target value + rw, refreshed by backup
	n    int32
	dead bool // cached target death
}

type node struct {
	st     State
	val    Value
	drawn  int32 // absolute number of pieces drawn (placed, held or queued)
	gen    int32
	parent int32     // first parent (−1 for the root)
	more   []int32   // further parents (transpositions)
	kids   [][]child // nil: leaf; len 1: known; len 7: speculated, by piece
	stamp  uint32
	spec   bool
	dead   bool
	marked bool
}

func (n *node) expanded() bool { return n.kids != nil }

func (n *node) childEval(_ *arena, c *child) Value { return c.ev }

// refresh copies node j's value and death into the edges of p that point to it.
func (d *dag) refresh(p, j int32) {
	nj := d.nodes.at(j)
	for _, l := range d.nodes.at(p).kids {
		for k := range l {
			if l[k].n == j {
				l[k].ev = nj.val.Plus(l[k].rw)
				l[k].dead = nj.dead
			}
		}
	}
}

// arenaChunk is the number of nodes per arena chunk.
const arenaChunk = 1 << 12

// arena stores nodes in fixed chunks so growing never moves them.
type arena struct {
	chunks []*[arenaChunk]node
	n      int32
}

func (a *arena) at(i int32) *node { return &a.chunks[i>>12][i&(arenaChunk-1)] }

func (a *arena) len() int { return int(a.n) }

func (a *arena) add(n node) int32 {
	i, p := a.alloc()
	*p = n
	return i
}

// alloc appends a zero node and returns its index and address.
func (a *arena) alloc() (int32, *node) {
	if int(a.n>>12) == len(a.chunks) {
		a.chunks = append(a.chunks, new([arenaChunk]node))
	}
	i := a.n
	a.n++
	return i, a.at(i)
}

// dag is the search graph; callers hold Bot.mu.
type dag struct {
	nodes arena
	gens  []*table
	root  int32
	stamp uint32
	work  []int32
	next  []int32
	// touched sums the table words insert reads ahead (kept so the reads
	// stay in the program; the value means nothing).
	touched uint64
}

func newDAG(root State, drawn int32, v Value) *dag {
	d := &dag{}
	d.nodes.add(node{st: root, val: v, drawn: drawn, parent: -1})
	d.gens = []*table{newTable()}
	d.gens[0].put(root.hash(), 0)
	return d
}

// selectLeaf walks from the root by CC1's weights (spec §18) and returns a
// leaf to expand, or −1 if the walk ended on a marked or dead node.
func (d *dag) selectLeaf(rng *rand.Rand) int32 {
	i := d.root
	for {
		n := d.nodes.at(i)
		if n.dead || n.marked {
			return -1
		}
		if !n.expanded() {
			n.marked = true
			return i
		}
		list := n.kids[0]
		if n.spec {
			var avail [7]int
			k := 0
			for p, l := range n.kids {
				if len(l) > 0 {
					avail[k] = p
					k++
				}
			}
			if k == 0 {
				return -1
			}
			list = n.kids[avail[rng.IntN(k)]]
		}
		if len(list) == 0 {
			return -1
		}
		emin := int64(n.childEval(&d.nodes, &list[len(list)-1]).V)
		var total int64
		for r := range list {
			total += weight(int64(n.childEval(&d.nodes, &list[r]).V)-emin, r)
		}
		pick := 0
		if total > 0 {
			x := rng.Int64N(total)
			for r := range list {
				x -= weight(int64(n.childEval(&d.nodes, &list[r]).V)-emin, r)
				if x < 0 {
					pick = r
					break
				}
			}
		}
		i = list[pick].n
	}
}

// weight is CC1's selection weight ((E_i − E_min) + 10)² / (i² + 1).
func weight(diff int64, rank int) int64 {
	d := diff + 10
	return d * d / int64(rank*rank+1)
}

// insert adds the expansion of leaf (lists of placements with their child
// states and values, each taken in the order given by orders) and backs
// the result up.
func (d *dag) insert(leaf int32, spec bool, lists [][]expChild, orders [][]int32) {
	ln := d.nodes.at(leaf)
	g := ln.gen + 1
	drawnBase := ln.drawn
	for int(g) >= len(d.gens) {
		d.gens = append(d.gens, newTable())
	}
	m := d.gens[g]
	kids := make([][]child, len(lists))
	for p, l := range lists {
		if l == nil {
			continue
		}
		// Touch every child's first probe slot before the real lookups:
		// the loads are independent, so their cache misses overlap
		// instead of coming one after another in the loop below.
		mask := len(m.slots) - 1
		var touch uint64
		for i := range l {
			touch += m.slots[int(l[i].h>>7)&mask].key
		}
		d.touched += touch
		ks := make([]child, 0, len(l))
		for _, oi := range orders[p][:len(l)] {
			e := &l[oi]
			slot := m.find(e.h)
			empty := m.slots[slot].key == 0
			ci := m.slots[slot].val
			if empty || d.nodes.at(ci).st != e.st {
				// new state (or a 64-bit hash collision: keep the states apart)
				var nn *node
				ci, nn = d.nodes.alloc()
				nn.st, nn.val, nn.gen, nn.drawn, nn.parent = e.st, e.val, g, drawnBase+int32(e.drawn), leaf
				if empty {
					m.set(slot, e.h, ci)
				}
			}
			cn := d.nodes.at(ci)
			if cn.parent != leaf {
				if k := len(cn.more); k == 0 || cn.more[k-1] != leaf {
					cn.more = append(cn.more, leaf)
				}
			}
			ks = append(ks, child{mv: e.mv, rw: e.rw, n: ci, ev: cn.val.Plus(e.rw), dead: cn.dead})
		}
		kids[p] = ks
	}
	ln = d.nodes.at(leaf)
	ln.kids = kids
	ln.spec = spec
	ln.marked = false
	d.backup(leaf)
}

// update recomputes a node's value from its children (spec §18 backprop)
// and reports whether value or death changed.
func (d *dag) update(i int32) bool {
	n := d.nodes.at(i)
	old, oldDead := n.val, n.dead
	best := func(l []child) ([]child, Value, bool) {
		l = sortLive(l)
		if len(l) == 0 {
			return l, Value{}, false
		}
		v := l[0].ev
		for _, c := range l[1:] {
			v.Spike = max(v.Spike, c.ev.Spike)
		}
		return l, v, true
	}
	if !n.spec {
		l, v, ok := best(n.kids[0])
		n.kids[0] = l
		if ok {
			n.val = v
		} else {
			n.dead = true
		}
	} else {
		var sum Value
		var worst Value
		poss, deaths, live := int32(0), int32(0), 0
		for p := range n.kids {
			if n.kids[p] == nil {
				continue
			}
			poss++
			l, v, ok := best(n.kids[p])
			n.kids[p] = l
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
			wd := worst.modifyDeath()
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
			nj := d.nodes.at(j)
			if nj.parent >= 0 {
				d.refresh(nj.parent, j)
				d.mark(nj.parent)
			}
			for _, p := range nj.more {
				d.refresh(p, j)
				d.mark(p)
			}
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

// rebuild keeps only the nodes reachable from newRoot (renumbered from 0,
// generations renumbered from newRoot's), merging equal states again.
func (d *dag) rebuild(newRoot int32) {
	old := &d.nodes
	remap := make([]int32, old.len())
	for i := range remap {
		remap[i] = -1
	}
	order := []int32{newRoot}
	remap[newRoot] = 0
	for k := 0; k < len(order); k++ {
		n := old.at(order[k])
		for _, l := range n.kids {
			for _, c := range l {
				if remap[c.n] < 0 {
					remap[c.n] = int32(len(order))
					order = append(order, c.n)
				}
			}
		}
	}
	var nodes arena
	base := old.at(newRoot).gen
	for _, oi := range order {
		// The old arena is dropped after this, so its nodes' slices are
		// remapped in place instead of copied.
		n := *old.at(oi)
		n.gen -= base
		n.stamp = 0
		first := int32(-1)
		if n.parent >= 0 {
			first = remap[n.parent]
		}
		more := n.more[:0]
		for _, p := range n.more {
			if q := remap[p]; q >= 0 {
				if first < 0 {
					first = q
				} else {
					more = append(more, q)
				}
			}
		}
		n.parent, n.more = first, nil
		if len(more) > 0 {
			n.more = more
		}
		for _, l := range n.kids {
			for j := range l {
				l[j].n = remap[l[j].n]
			}
		}
		nodes.add(n)
	}
	d.nodes = nodes
	d.root = 0
	d.stamp = 0
	// Size each generation's table once (growing them node by node cost
	// more than the copy itself).
	var per []int
	for k := range int32(nodes.len()) {
		g := int(d.nodes.at(k).gen)
		for len(per) <= g {
			per = append(per, 0)
		}
		per[g]++
	}
	d.gens = make([]*table, len(per))
	for g, c := range per {
		d.gens[g] = newTableFor(c)
	}
	for k := range int32(nodes.len()) {
		n := d.nodes.at(k)
		d.gens[n.gen].put(n.st.hash(), k)
	}
}

// recomputeAll recomputes every expanded node's value, deepest generation first.
func (d *dag) recomputeAll() {
	idx := make([]int32, 0, d.nodes.len())
	for i := range int32(d.nodes.len()) {
		if d.nodes.at(i).expanded() {
			idx = append(idx, int32(i))
		}
	}
	slices.SortStableFunc(idx, func(a, b int32) int { return int(d.nodes.at(b).gen - d.nodes.at(a).gen) })
	for _, i := range idx {
		for _, l := range d.nodes.at(i).kids {
			for k := range l {
				c := d.nodes.at(l[k].n)
				l[k].ev, l[k].dead = c.val.Plus(l[k].rw), c.dead
			}
		}
		d.update(i)
	}
}

func popcount(b uint8) int { return bits.OnesCount8(b) }

// table is an open-addressing hash table from a state hash to a node index,
// one per generation (faster than a Go map for pre-mixed 64-bit keys). Key
// and value share a slot, so a probe touches one cache line.
type table struct {
	slots []tslot
	n     int
}

// tslot is one table entry; key 0 = empty (a zero hash is stored as 1).
type tslot struct {
	key uint64
	val int32
}

func newTable() *table { return &table{slots: make([]tslot, 64)} }

// newTableFor returns a table that holds n entries without growing.
func newTableFor(n int) *table {
	size := 64
	for size < 4*n {
		size *= 2
	}
	return &table{slots: make([]tslot, size)}
}

// find returns the slot holding h or the empty slot where it belongs.
func (t *table) find(h uint64) int {
	if h == 0 {
		h = 1
	}
	mask := len(t.slots) - 1
	i := int(h>>7) & mask
	for t.slots[i].key != 0 && t.slots[i].key != h {
		i = (i + 1) & mask
	}
	return i
}

// set stores h → v in an empty slot returned by find.
func (t *table) set(slot int, h uint64, v int32) {
	if h == 0 {
		h = 1
	}
	t.slots[slot] = tslot{h, v}
	t.n++
	if 2*t.n > len(t.slots) {
		old := t.slots
		t.slots = make([]tslot, 2*len(old))
		t.n = 0
		for _, e := range old {
			if e.key != 0 {
				t.set(t.find(e.key), e.key, e.val)
			}
		}
	}
}

// put stores h → v unless h is present.
func (t *table) put(h uint64, v int32) {
	if s := t.find(h); t.slots[s].key == 0 {
		t.set(s, h, v)
	}
}
