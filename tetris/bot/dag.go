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

func (s *State) nextBag() uint8 { return nextBag(s.Bag, s.Queue[:s.QLen]) }

type child struct {
	mv Move
	rw Reward
	n  int32
}

type node struct {
	st      State
	val     Value
	drawn   int32 // absolute number of pieces drawn (placed, held or queued)
	gen     int32
	parents []int32
	kids    [][]child // nil: leaf; len 1: known; len 7: speculated, by piece
	stamp   uint32
	spec    bool
	dead    bool
	marked  bool
}

func (n *node) expanded() bool { return n.kids != nil }

func (n *node) childEval(nodes []node, c *child) Value { return nodes[c.n].val.Plus(c.rw) }

// dag is the search graph; callers hold Bot.mu.
type dag struct {
	nodes []node
	gens  []map[State]int32
	root  int32
	stamp uint32
	work  []int32
	next  []int32
}

func newDAG(root State, drawn int32, v Value) *dag {
	d := &dag{}
	d.nodes = append(d.nodes, node{st: root, val: v, drawn: drawn})
	d.gens = []map[State]int32{{root: 0}}
	return d
}

// selectLeaf walks from the root by CC1's weights (spec §18) and returns a
// leaf to expand, or −1 if the walk ended on a marked or dead node.
func (d *dag) selectLeaf(rng *rand.Rand) int32 {
	i := d.root
	for {
		n := &d.nodes[i]
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
		emin := int64(n.childEval(d.nodes, &list[len(list)-1]).V)
		var total int64
		for r := range list {
			total += weight(int64(n.childEval(d.nodes, &list[r]).V)-emin, r)
		}
		pick := 0
		if total > 0 {
			x := rng.Int64N(total)
			for r := range list {
				x -= weight(int64(n.childEval(d.nodes, &list[r]).V)-emin, r)
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
// states and values) and backs the result up.
func (d *dag) insert(leaf int32, spec bool, lists [][]expChild) {
	ln := &d.nodes[leaf]
	g := ln.gen + 1
	drawnBase := ln.drawn
	for int(g) >= len(d.gens) {
		d.gens = append(d.gens, map[State]int32{})
	}
	m := d.gens[g]
	kids := make([][]child, len(lists))
	for p, l := range lists {
		if l == nil {
			continue
		}
		ks := make([]child, 0, len(l))
		for _, e := range l {
			ci, ok := m[e.st]
			if !ok {
				ci = int32(len(d.nodes))
				d.nodes = append(d.nodes, node{st: e.st, val: e.val, gen: g, drawn: drawnBase + int32(e.drawn)})
				m[e.st] = ci
			}
			cn := &d.nodes[ci]
			if k := len(cn.parents); k == 0 || cn.parents[k-1] != leaf {
				cn.parents = append(cn.parents, leaf)
			}
			ks = append(ks, child{mv: e.mv, rw: e.rw, n: ci})
		}
		kids[p] = ks
	}
	ln = &d.nodes[leaf]
	ln.kids = kids
	ln.spec = spec
	ln.marked = false
	d.backup(leaf)
}

// update recomputes a node's value from its children (spec §18 backprop)
// and reports whether value or death changed.
func (d *dag) update(i int32) bool {
	n := &d.nodes[i]
	old, oldDead := n.val, n.dead
	nodes := d.nodes
	cmp := func(a, b child) int {
		ea, eb := nodes[a.n].val.Plus(a.rw), nodes[b.n].val.Plus(b.rw)
		if eb.Less(ea) {
			return -1
		}
		if ea.Less(eb) {
			return 1
		}
		return 0
	}
	best := func(l []child) ([]child, Value, bool) {
		l = slices.DeleteFunc(l, func(c child) bool { return nodes[c.n].dead })
		if len(l) == 0 {
			return l, Value{}, false
		}
		slices.SortStableFunc(l, cmp)
		v := nodes[l[0].n].val.Plus(l[0].rw)
		for _, c := range l[1:] {
			v.Spike = max(v.Spike, nodes[c.n].val.Plus(c.rw).Spike)
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
			for _, p := range d.nodes[j].parents {
				if d.nodes[p].stamp != d.stamp {
					d.nodes[p].stamp = d.stamp
					d.next = append(d.next, p)
				}
			}
		}
		first = false
		d.work, d.next = d.next, d.work
	}
}

// rebuild keeps only the nodes reachable from newRoot (renumbered from 0,
// generations renumbered from newRoot's), merging equal states again.
func (d *dag) rebuild(newRoot int32) {
	old := d.nodes
	remap := make([]int32, len(old))
	for i := range remap {
		remap[i] = -1
	}
	order := []int32{newRoot}
	remap[newRoot] = 0
	for k := 0; k < len(order); k++ {
		n := &old[order[k]]
		for _, l := range n.kids {
			for _, c := range l {
				if remap[c.n] < 0 {
					remap[c.n] = int32(len(order))
					order = append(order, c.n)
				}
			}
		}
	}
	nodes := make([]node, len(order), len(order)+len(order)/2+64)
	base := old[newRoot].gen
	for k, oi := range order {
		n := old[oi]
		n.gen -= base
		n.stamp = 0
		var ps []int32
		for _, p := range n.parents {
			if remap[p] >= 0 {
				ps = append(ps, remap[p])
			}
		}
		n.parents = ps
		if n.kids != nil {
			kids := make([][]child, len(n.kids))
			for p, l := range n.kids {
				if l == nil {
					continue
				}
				nl := make([]child, len(l))
				for j, c := range l {
					c.n = remap[c.n]
					nl[j] = c
				}
				kids[p] = nl
			}
			n.kids = kids
		}
		nodes[k] = n
	}
	d.nodes = nodes
	d.root = 0
	d.stamp = 0
	d.gens = nil
	for k := range nodes {
		g := int(nodes[k].gen)
		for len(d.gens) <= g {
			d.gens = append(d.gens, map[State]int32{})
		}
		if _, ok := d.gens[g][nodes[k].st]; !ok {
			d.gens[g][nodes[k].st] = int32(k)
		}
	}
}

// recomputeAll recomputes every expanded node's value, deepest generation first.
func (d *dag) recomputeAll() {
	idx := make([]int32, 0, len(d.nodes))
	for i := range d.nodes {
		if d.nodes[i].expanded() {
			idx = append(idx, int32(i))
		}
	}
	slices.SortStableFunc(idx, func(a, b int32) int { return int(d.nodes[b].gen - d.nodes[a].gen) })
	for _, i := range idx {
		d.update(i)
	}
}

func popcount(b uint8) int { return bits.OnesCount8(b) }
