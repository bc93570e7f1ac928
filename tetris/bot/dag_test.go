// dag_test.go checks the DAG's index-linked stores (child lists, further
// parents) after searches, Play and AddPiece.

package bot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// dagInvariants checks that every child list is inside the child store,
// every child points to a node of the next generation that names its
// parent (first parent or further ones), every parent link points back to
// a child edge, every node is in the table under its generation (which holds
// nothing else but dead nodes) or left out for another node of its state
// (d.catch.shadow), and that after a compacting rebuild the stores hold
// nothing else. Dead nodes (left in place by catchUp) are skipped.
func dagInvariants(d *dag, rebuilt bool) error {
	lists := 0
	for i := range d.nodes.bound() {
		n := d.nodes.at(i)
		if !d.live(i) || !n.expanded() {
			continue
		}
		if n.nlists != 1 && n.nlists != 7 || n.spec != (n.nlists == 7) {
			return fmt.Errorf("node %d: %d lists, spec %v", i, n.nlists, n.spec)
		}
		lists += int(n.nlists)
		for p := range int(n.nlists) {
			l := d.lists[n.lists+int32(p)]
			if l.n >= 0 && (l.start < 0 || l.start+l.n > d.kidStore.n) {
				return fmt.Errorf("node %d list %d outside the store: %+v of %d", i, p, l, d.kidStore.n)
			}
			if l.clean {
				if err := cleanList(d, d.kids(n, p), l); err != nil {
					return fmt.Errorf("node %d list %d: %v", i, p, err)
				}
			}
			for _, c := range d.kids(n, p) {
				cn := d.nodes.at(c.n)
				if !d.live(c.n) || cn.gen != n.gen+1 {
					return fmt.Errorf("node %d (gen %d) has child %d of gen %d", i, n.gen, c.n, cn.gen)
				}
				found := cn.parent == i
				for k := cn.moreHead; k != 0 && !found; k = d.more[k-1].next {
					found = d.more[k-1].p == i
				}
				if !found {
					return fmt.Errorf("child %d does not list its parent %d", c.n, i)
				}
			}
		}
	}
	for i := range d.nodes.bound() {
		if !d.live(i) {
			continue
		}
		n := d.nodes.at(i)
		parents := []int32{}
		if n.parent >= 0 {
			parents = append(parents, n.parent)
		}
		for k := n.moreHead; k != 0; k = d.more[k-1].next {
			parents = append(parents, d.more[k-1].p)
		}
		if i != d.root && len(parents) == 0 {
			return fmt.Errorf("node %d has no parent", i)
		}
		for _, p := range parents {
			if !d.live(p) {
				return fmt.Errorf("node %d names dead parent %d", i, p)
			}
			pn := d.nodes.at(p)
			ok := false
			for q := range int(pn.nlists) {
				for _, c := range d.kids(pn, q) {
					ok = ok || c.n == i
				}
			}
			// a parent may have dropped the edge as dead (sortLive)
			if !ok && !n.dead {
				return fmt.Errorf("node %d names parent %d, which has no edge to it", i, p)
			}
		}
	}
	// every node is in the table, found by its own state and
	// generation, or shadowed by another node of its state that is;
	// the table holds nothing else but entries of dead nodes
	count := 0
	for i := range d.nodes.bound() {
		if !d.live(i) {
			continue
		}
		n := d.nodes.at(i)
		s := d.state(&n.st)
		h := s.hash()
		ci, _ := d.lookup(d.tab.shard(h), h, n.gen, &s.Board, packPieces(&s))
		if ci == i {
			count++
			continue
		}
		if ci < 0 || !d.live(ci) || !slices.Contains(d.catch.shadow, i) {
			return fmt.Errorf("node %d: the table finds %d", i, ci)
		}
	}
	liveEntries := 0
	for k := range d.tab.sh {
		for _, slot := range d.tab.sh[k].slots {
			if slot != 0 && d.live(int32(uint32(slot))-1) {
				liveEntries++
			}
		}
	}
	if liveEntries != count {
		return fmt.Errorf("%d table entries of live nodes for %d nodes in the table", liveEntries, count)
	}
	if d.catch.epoch == 0 && d.tab.len() != count {
		return fmt.Errorf("after a compaction: %d table entries for %d nodes", d.tab.len(), count)
	}
	if rebuilt && d.catch.epoch == 0 && lists != len(d.lists) {
		return fmt.Errorf("after a rebuild: %d child lists in use, %d stored", lists, len(d.lists))
	}
	return nil
}

// cleanList checks what a clean child list promises: sorted best first,
// no dead child, edges up to date with their nodes, and best = the first
// child's value with the largest spike of the list, and a cached total
// weight equal to the list's.
func cleanList(d *dag, l []child, kl kidList) error {
	var best Value
	for k, c := range l {
		cn := d.nodes.at(c.n)
		if c.dead || cn.dead {
			return fmt.Errorf("clean list holds dead child %d", c.n)
		}
		if c.ev != cn.val.Plus(c.rw) {
			return fmt.Errorf("clean list's edge to %d is stale: %+v, node %+v", c.n, c.ev, cn.val)
		}
		if k > 0 && l[k-1].ev.Less(c.ev) {
			return fmt.Errorf("clean list not sorted at %d", k)
		}
		if k == 0 {
			best = c.ev
		}
		best.Spike = max(best.Spike, c.ev.Spike)
	}
	if best != kl.best {
		return fmt.Errorf("clean list's best %+v, want %+v", kl.best, best)
	}
	if kl.wtOK && len(l) > 0 && kl.wt != totalWeight(l) {
		return fmt.Errorf("clean list's cached weight %d, want %d", kl.wt, totalWeight(l))
	}
	return nil
}

// TestTableGenerations checks that the DAG's one table keeps a node per
// state and generation: inserting one state in the given generations
// (the root's state, generation 0 being the root's own) makes a node for
// each generation not seen before and finds the earlier ones.
func TestTableGenerations(t *testing.T) {
	cases := []struct {
		name string
		gens []int32
		made int // new nodes
	}{
		{"the root's generation", []int32{0}, 0},
		{"one generation twice", []int32{1, 1}, 1},
		{"two generations", []int32{1, 2}, 2},
		{"three generations, each twice", []int32{2, 1, 0, 3, 2, 1, 0, 3}, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := State{Bag: 0x7F}
			root.push(T)
			root.push(I)
			d := newDAG(root, 0, Value{})
			insert := func(s State, g int32) int32 {
				h := s.hash()
				sh := d.tab.shard(h)
				ci, slot := d.lookup(sh, h, g, &s.Board, packPieces(&s))
				if ci >= 0 {
					return ci
				}
				v := d.nodes.add(node{st: d.pack(&s), gen: g, parent: 0})
				sh.set(slot, h, v)
				return v
			}
			byGen := map[int32]int32{0: 0}
			for _, g := range tc.gens {
				v := insert(root, g)
				if old, ok := byGen[g]; ok && old != v {
					t.Fatalf("generation %d: node %d, earlier %d", g, v, old)
				}
				if got := d.nodes.at(v).gen; got != g {
					t.Fatalf("generation %d found node %d of generation %d", g, v, got)
				}
				byGen[g] = v
			}
			if d.nodes.len() != 1+tc.made || d.tab.len() != 1+tc.made {
				t.Fatalf("%d nodes, %d table entries, want %d", d.nodes.len(), d.tab.len(), 1+tc.made)
			}
			for g, v := range byGen {
				if ci, _ := d.lookup(d.tab.shard(root.hash()), root.hash(), g, &root.Board, packPieces(&root)); ci != v {
					t.Fatalf("generation %d: lookup finds %d, want %d", g, ci, v)
				}
			}
		})
	}
}

// TestTableReserve checks that reserve keeps a table's entries (each
// found again from its tag) and makes room for the promised number of
// entries without any shard growing.
func TestTableReserve(t *testing.T) {
	cases := []struct{ before, reserve int }{
		{0, 0},
		{0, 1000},
		{300, 5000},
		{5000, 100},
		{0, 100000},
		{20000, 50000},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%d+%d", tc.before, tc.reserve), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tc.before), uint64(tc.reserve)))
			tab := newTable()
			add := func(v int32) {
				h := rng.Uint64() | 1<<32 // any tag but zero
				sh := tab.shard(h)
				mask := len(sh.slots) - 1
				i := int(tag(h)) & mask
				for sh.slots[i] != 0 {
					i = (i + 1) & mask
				}
				sh.set(i, h, v)
			}
			for v := range int32(tc.before) {
				add(v)
			}
			tab.reserve(tc.reserve)
			var sizes [tableShards]int
			for s := range tab.sh {
				sizes[s] = len(tab.sh[s].slots)
			}
			for v := range int32(tc.reserve) {
				add(int32(tc.before) + v)
			}
			seen := map[int32]bool{}
			for s := range tab.sh {
				sh := &tab.sh[s]
				if len(sh.slots) != sizes[s] {
					t.Fatalf("shard %d grew from %d to %d slots after reserve", s, sizes[s], len(sh.slots))
				}
				mask := len(sh.slots) - 1
				for _, slot := range sh.slots {
					if slot == 0 {
						continue
					}
					v := int32(uint32(slot)) - 1
					for i := int(slot>>32) & mask; sh.slots[i] != slot; i = (i + 1) & mask {
						if sh.slots[i] == 0 {
							t.Fatalf("entry %d not found from its tag", v)
						}
					}
					seen[v] = true
				}
			}
			if len(seen) != tc.before+tc.reserve || tab.len() != len(seen) {
				t.Fatalf("%d distinct entries (len %d), want %d", len(seen), tab.len(), tc.before+tc.reserve)
			}
		})
	}
}

// prepChildPlain finds or makes child e's node as lookup, arena.alloc,
// packBoard and shard.set spell it out, and returns its index and the node.
func prepChildPlain(d *dag, sh *shard, e *expChild, leaf, g, drawnBase int32, w *worker) (int32, *node) {
	board, pk := &w.locks[e.mv.Piece][e.lock].board, w.restPk[e.rest]
	ci, slot := d.lookup(sh, e.h, g, board, pk)
	if ci >= 0 {
		return ci, d.nodes.at(ci)
	}
	ci, nn := d.nodes.alloc(&w.nodeCur, &w.spareNodes)
	*nn = node{val: e.val, gen: g, drawn: drawnBase + int32(e.drawn), parent: leaf}
	d.packBoard(&nn.st, board, pk)
	sh.set(slot, e.h, ci)
	return ci, nn
}

// preparePlain is prepare as prepChildPlain and (with link) link spell it
// out, child by child: the reference for prepareList.
func preparePlain(d *dag, t *table, leaf, g, drawnBase int32, lists [][]expChild, orders [][]int32, w *worker, link bool) {
	defer d.nodes.flush(&w.nodeCur)
	w.restPk = w.restPk[:0]
	for i := range w.rests {
		w.restPk = append(w.restPk, packPieces(&w.rests[i]))
	}
	d.kidStore.allocLists(lists, w)
	for p, l := range lists {
		if l == nil {
			continue
		}
		ks := d.kidStore.slice(w.kidAt[p], int32(len(l)))
		clean, best := true, Value{}
		for k, oi := range orders[p][:len(l)] {
			ci, cn := prepChildPlain(d, t.shard(l[oi].h), &l[oi], leaf, g, drawnBase, w)
			ks[k] = child{mv: l[oi].mv, rw: l[oi].rw, n: ci}
			if link {
				d.link(ks, k, leaf, cn, &best, &clean)
			}
		}
		w.listClean[p], w.listBest[p] = clean, best
	}
}

// TestPrepareList checks prepare (prepareList) against preparePlain on
// DAGs given the same calls, with one thread (linking the edges) and as
// with several (not linking, under the table's lock): the same nodes,
// child lists, further parents, table slots, tall rows, and with one
// thread the same list summaries. The
// calls draw children from a pool of states (tall boards among them) so
// that they meet earlier nodes and each other, in known and speculated
// expansions from several leaves, in random orders; between calls some
// nodes get new values or die, as backups do.
func TestPrepareList(t *testing.T) {
	cases := []struct {
		name          string
		boards, calls int
		tall          bool
	}{
		{"few states", 15, 80, false},
		{"many states", 2000, 60, false},
		{"tall boards", 40, 60, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, uint64(tc.boards)))
			boards := make([]Board, tc.boards)
			for i := range boards {
				b := &boards[i]
				for y := range 3 {
					b.Rows[y] = uint16(rng.IntN(1 << 10))
				}
				if tc.tall && i%3 == 0 {
					b.Rows[nodeRows+rng.IntN(4)] = uint16(1 + rng.IntN(1<<10-1))
				}
				b.Combo = uint32(rng.IntN(3))
				b.B2B = rng.IntN(2) == 0
			}
			var rests [3]State
			for i, q := range [][]Piece{{T, I}, {T, O}, {S}} {
				rests[i].Bag = 0x7F
				for _, p := range q {
					rests[i].push(p)
				}
			}
			type side struct {
				d *dag
				w *worker
			}
			var sides [4]side // prepare, preparePlain; shared prepare, preparePlain without link
			for s := range sides {
				d := newDAG(State{Bag: 0x7F}, 0, Value{})
				for i := range 4 {
					d.nodes.add(node{gen: int32(1 + i%2), parent: 0}) // leaves 1–4
				}
				w := &worker{rests: rests[:]}
				for _, p := range []Piece{I, T} {
					w.locks[p] = make([]lockEntry, len(boards))
					for i := range boards {
						w.locks[p][i].board = boards[i]
					}
				}
				sides[s] = side{d, w}
			}
			seenClean, seenDirty := 0, 0
			for call := range tc.calls {
				leaf := int32(1 + rng.IntN(4))
				g := sides[0].d.nodes.at(leaf).gen + 1 // 2 or 3: equal states in two generations
				drawnBase := int32(rng.IntN(5))
				nl := 1
				if rng.IntN(2) == 0 {
					nl = 7
				}
				lists := make([][]expChild, nl)
				orders := make([][]int32, nl)
				for p := range lists {
					if nl == 7 && rng.IntN(4) == 0 {
						continue // no list (a piece the bag cannot give)
					}
					lists[p] = make([]expChild, rng.IntN(40))
					for i := range lists[p] {
						k, r := rng.IntN(len(boards)), rng.IntN(len(rests))
						s := rests[r]
						s.Board = boards[k]
						piece := []Piece{I, T}[rng.IntN(2)]
						lists[p][i] = expChild{
							mv:    Move{Piece: piece, X: int8(i)},
							rw:    Reward{V: int32(rng.IntN(50)), Attack: int32(rng.IntN(4) - 1)},
							val:   Value{V: int32(rng.IntN(200) - 100), Spike: int32(rng.IntN(3))},
							h:     s.hash(),
							lock:  int16(k),
							rest:  uint8(r),
							drawn: int8(rng.IntN(2)),
						}
					}
					orders[p] = make([]int32, len(lists[p]))
					for i := range orders[p] {
						orders[p][i] = int32(i)
					}
					if rng.IntN(2) == 0 {
						rng.Shuffle(len(orders[p]), func(i, j int) { orders[p][i], orders[p][j] = orders[p][j], orders[p][i] })
					} else {
						// best first, as presort orders them
						slices.SortStableFunc(orders[p], func(a, b int32) int {
							va, vb := lists[p][a].val.Plus(lists[p][a].rw), lists[p][b].val.Plus(lists[p][b].rw)
							if vb.Less(va) {
								return -1
							}
							if va.Less(vb) {
								return 1
							}
							return 0
						})
					}
				}
				sides[0].d.prepare(sides[0].d.tab, leaf, g, drawnBase, lists, orders, sides[0].w, false)
				preparePlain(sides[1].d, sides[1].d.tab, leaf, g, drawnBase, lists, orders, sides[1].w, true)
				sides[2].d.prepare(sides[2].d.tab, leaf, g, drawnBase, lists, orders, sides[2].w, true)
				preparePlain(sides[3].d, sides[3].d.tab, leaf, g, drawnBase, lists, orders, sides[3].w, false)
				for p := range lists {
					if lists[p] != nil && len(lists[p]) > 1 {
						if sides[0].w.listClean[p] {
							seenClean++
						} else {
							seenDirty++
						}
					}
				}
				for pair := 0; pair < 4; pair += 2 {
					a, b := sides[pair], sides[pair+1]
					if a.w.kidAt != b.w.kidAt || pair == 0 && (a.w.listClean != b.w.listClean || a.w.listBest != b.w.listBest) {
						t.Fatalf("call %d, pair %d: lists at %v clean %v best %v, want %v %v %v", call, pair, a.w.kidAt, a.w.listClean, a.w.listBest, b.w.kidAt, b.w.listClean, b.w.listBest)
					}
					if a.d.kidStore.n != b.d.kidStore.n || !slices.Equal(a.d.kidStore.slice(0, a.d.kidStore.n), b.d.kidStore.slice(0, b.d.kidStore.n)) {
						t.Fatalf("call %d, pair %d: child stores differ", call, pair)
					}
					if a.d.nodes.len() != b.d.nodes.len() || a.d.nodes.bound() != b.d.nodes.bound() {
						t.Fatalf("call %d, pair %d: %d nodes, want %d", call, pair, a.d.nodes.len(), b.d.nodes.len())
					}
					a.d.nodes.each(func(i int32, n *node) {
						if !b.d.nodes.valid(i) || *n != *b.d.nodes.at(i) {
							t.Fatalf("call %d, pair %d: node %d is %+v, want %+v", call, pair, i, *n, *b.d.nodes.at(i))
						}
					})
					if !slices.Equal(a.d.more, b.d.more) || !slices.Equal(a.d.tall.rows, b.d.tall.rows) {
						t.Fatalf("call %d, pair %d: further parents or tall rows differ", call, pair)
					}
					for s := range a.d.tab.sh {
						if !slices.Equal(a.d.tab.sh[s].slots, b.d.tab.sh[s].slots) || a.d.tab.sh[s].n != b.d.tab.sh[s].n {
							t.Fatalf("call %d, pair %d: table shard %d differs", call, pair, s)
						}
					}
				}
				var idx []int32 // the nodes in use
				sides[0].d.nodes.each(func(i int32, _ *node) { idx = append(idx, i) })
				// backups: new values and deaths for a few nodes
				for range 3 {
					i := idx[rng.IntN(len(idx))]
					v, dead := Value{V: int32(rng.IntN(300) - 150), Spike: int32(rng.IntN(5))}, rng.IntN(4) == 0
					for _, s := range sides {
						n := s.d.nodes.at(i)
						n.val, n.dead = v, dead
					}
				}
			}
			dead := 0
			for _, c := range sides[0].d.kidStore.slice(0, sides[0].d.kidStore.n) {
				if c.dead {
					dead++
				}
			}
			if len(sides[0].d.more) == 0 || sides[0].d.tab.len() < 10 || seenClean == 0 || seenDirty == 0 || dead == 0 {
				t.Fatalf("the calls miss a case: %d further parents, %d nodes, %d clean and %d dirty lists, %d dead edges",
					len(sides[0].d.more), sides[0].d.tab.len(), seenClean, seenDirty, dead)
			}
		})
	}
}

// TestTableHint checks that a search without a node budget finds the
// table already sized for as many nodes as the bot's last search made, so
// that it does not grow its way up from small.
func TestTableHint(t *testing.T) {
	b := New(Options{Seed: 1})
	defer b.Close()
	queue := []Piece{T, I, O, L, J, S, Z}
	if err := b.Reset(mustField(t), queue, NoPiece, 0); err != nil {
		t.Fatal(err)
	}
	const first = 3 * minTableHint // above the default room
	if st := b.Think(context.Background(), Budget{Nodes: first}); st.Nodes < first {
		t.Fatalf("first search: %+v", st)
	}
	if err := b.Reset(mustField(t, "XX________", "X___XXXXXX"), queue, NoPiece, 0); err != nil {
		t.Fatal(err)
	}
	st := b.Think(context.Background(), Budget{Duration: time.Millisecond})
	if st.Nodes >= first/4 {
		t.Skipf("the 1 ms search made %d nodes: too many to tell", st.Nodes)
	}
	for s := range b.d.tab.sh {
		if got := len(b.d.tab.sh[s].slots); got < shardSlots(first) {
			t.Fatalf("shard %d has %d slots after a %d-node search following one of %d, want ≥ %d (room for the last search)", s, got, st.Nodes, first, shardSlots(first))
		}
	}
}

// TestSameState checks the state comparison rebuild's re-hash uses
// against same, on boards with and without high rows, back-to-back,
// combo and different queues (two tall boards with equal rows are
// stored under different numbers).
func TestSameState(t *testing.T) {
	d := newDAG(State{Bag: 0x7F}, 0, Value{})
	base := State{Bag: 0x7F}
	base.push(T)
	base.push(I)
	base.Board.Rows[0] = 0x3FE
	var states []State
	for v := range 6 {
		s := base
		switch v {
		case 1:
			s.Board.B2B = true
		case 2:
			s.Board.Combo = 3
		case 3:
			s.push(O)
		case 4, 5:
			s.Board.Rows[nodeRows+v-4] = 1 // tall, two different boards
		}
		states = append(states, s)
	}
	states = append(states, states[4]) // the same tall board again
	packed := make([]nodeState, len(states))
	for i := range states {
		packed[i] = d.pack(&states[i])
	}
	for i := range states {
		for j := range states {
			want := d.same(&packed[i], &states[j].Board, packPieces(&states[j]))
			if got := d.sameState(&packed[i], &packed[j]); got != want {
				t.Errorf("states %d, %d: sameState %v, same %v", i, j, got, want)
			}
		}
	}
	if !d.sameState(&packed[4], &packed[6]) || packed[4].tall == packed[6].tall {
		t.Fatalf("equal tall boards: tall numbers %d, %d", packed[4].tall, packed[6].tall)
	}
}
