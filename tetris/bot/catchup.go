// catchup.go holds the per-move catch-up of the DAG that leaves its nodes
// where they are: Play and AddPiece keep the nodes reachable from the new
// root in place (no renumbering, no copy, no new table) and only mark the
// others dead; the renumbering rebuild (dag.rebuild) runs only now and
// then, to compact the memory the dead nodes hold.
//
// How the dead stay out of the search: a node's gen holds, above its
// generation (relative to the root), the epoch of the catch-up that last
// kept it. Every catch-up starts a new epoch and writes it into the nodes
// it keeps, and lookup compares gen whole, so the table's entries of dead
// nodes (left in place) never match again. Nothing else reaches a dead
// node: the kept nodes' children are kept, and their parent links are
// cut to the kept parents.
//
// What the search sees is the same DAG a rebuild would give (checked node
// for node by TestCatchUpReference): the same nodes and edges, the same
// values, and the same table answers, where states that AddPiece made
// equal resolve to the first node in the rebuild's breadth-first order
// (each kept node's rank in that order is its stamp until the next search).

package bot

// genBits is the number of low bits of node.gen that hold the generation
// relative to the root; the bits above hold the epoch.
const genBits = 24

// genMask selects the relative generation of node.gen.
const genMask = 1<<genBits - 1

// maxEpoch is the last epoch before a compaction (the epoch must fit in
// gen's upper bits and the backup stamps must not wrap).
const maxEpoch = 1<<(31-genBits) - 1

// compactWaste is how many dead nodes per live one the arena may hold
// before a catch-up compacts it (a rebuild): more saves rebuilds, less
// saves memory and keeps the live nodes closer together for the search
// (1, 3 and 6 gave the same catch-up plus search time per move in
// BenchmarkGameCatchUp at 150k and 450k nodes, within the noise).
const compactWaste = 2

// catchState is what the in-place catch-up keeps between moves.
type catchState struct {
	epoch  int32   // the current epoch (gen's upper bits of live nodes)
	dead   int     // dead nodes still in the arena
	shadow []int32 // live nodes not in the table (another node of their state and generation is)
	// buffers kept for their storage
	keep, chg []uint64 // bit sets by node index: kept, given the piece
	coll      []int32  // speculated nodes the piece made known
	chgList   []int32  // nodes given the piece, in rank order
	hashes    []uint64 // their new state hashes
	shadow2   []int32
	purges    int // tables purged (for tests)
}

// live reports whether node i (below the arena's bound) is in the DAG.
func (d *dag) live(i int32) bool {
	return d.nodes.valid(i) && d.nodes.at(i).gen>>genBits == d.catch.epoch
}

// size returns the number of live nodes (only when no thread appends).
func (d *dag) size() int { return d.nodes.len() - d.catch.dead }

// relGen returns generation g relative to the root (without the epoch).
func relGen(g int32) int32 { return g & genMask }

// catchUp makes newRoot the root, keeping only the nodes reachable from
// it, and with np (AddPiece) gives the piece to the kept nodes whose queue
// ends where the known one does (a speculated one keeps only that piece's
// child list), recomputing the values that change. It works in place
// unless the arena holds too many dead nodes or the epochs run out: then
// it compacts by a rebuild (with o; o.then runs only there, and with np
// set the in-place path recomputes the values itself).
func (d *dag) catchUp(newRoot int32, np *newPiece, o rebuildOptions) {
	c := &d.catch
	if c.epoch >= maxEpoch || c.dead > compactWaste*d.size() {
		d.rebuild(newRoot, np, o)
		return
	}
	allocated := d.nodes.len()
	c.epoch++
	ep := c.epoch << genBits
	base := relGen(d.nodes.at(newRoot).gen)
	words := int(d.nodes.bound()+63) / 64
	c.keep = resetBits(c.keep, words)
	if np != nil {
		c.chg = resetBits(c.chg, words)
	}
	keep := c.keep
	coll, chgList := c.coll[:0], c.chgList[:0]
	order := append(d.order[:0], newRoot)
	keep[newRoot/64] |= 1 << (newRoot % 64)
	// The breadth-first walk of rebuild, in place: the same order (so
	// each node's rank is its number in a rebuild), each node given the
	// piece before its lists are followed, its generation renumbered into
	// the new epoch and its parents cut to the kept ones (one generation
	// up: all found before the walk takes this generation's first node).
	for k := 0; k < len(order); k++ {
		i := order[k]
		n := d.nodes.at(i)
		if np != nil && n.drawn == np.known {
			n.drawn++
			if n.spec {
				n.lists += int32(np.p)
				n.nlists = 1
				n.spec = false
				coll = append(coll, i)
			}
			chgList = append(chgList, i)
			c.chg[i/64] |= 1 << (i % 64)
		}
		n.gen = ep | (relGen(n.gen) - base)
		n.stamp = uint32(k) // the rank, until the next search
		first := int32(-1)
		if n.parent >= 0 && keep[n.parent/64]&(1<<(n.parent%64)) != 0 {
			first = n.parent
		}
		var head, tail int32
		for j := n.moreHead; j != 0; {
			l := &d.more[j-1]
			next := l.next
			if keep[l.p/64]&(1<<(l.p%64)) != 0 {
				if first < 0 {
					first = l.p
				} else {
					l.next = 0
					if tail == 0 {
						head = j
					} else {
						d.more[tail-1].next = j
					}
					tail = j
				}
			}
			j = next
		}
		n.parent, n.moreHead, n.moreTail = first, head, tail
		for p := range int(n.nlists) {
			kl := d.lists[n.lists+int32(p)]
			if kl.n <= 0 {
				continue
			}
			for _, ch := range d.kidStore.slice(kl.start, kl.n) {
				if keep[ch.n/64]&(1<<(ch.n%64)) == 0 {
					keep[ch.n/64] |= 1 << (ch.n % 64)
					order = append(order, ch.n)
				}
			}
		}
	}
	d.order = order
	d.root = newRoot
	kept := len(order)
	c.dead = allocated - kept
	// Backup's stamps from here on exceed every rank.
	d.stamp = max(d.stamp, uint32(kept))
	// A table that the next search would grow (Think's reserve, which
	// moves every entry) sheds its dead entries here instead.
	if len(d.tab.sh[0].slots) < shardSlots(d.tab.len()+min(o.room, maxReserve)) {
		d.tab = d.tab.purge(keep, kept+min(o.room, maxReserve))
		c.purges++
	}
	// The table: the old entries of the nodes given the piece go (their
	// states change), then those nodes go in under their new states, and
	// so do the kept nodes that were left out for another node of their
	// state (shadow), each entry going to the node of smaller rank.
	shadow := c.shadow2[:0]
	if np != nil {
		hs := c.hashes[:0]
		for _, i := range chgList {
			oh, nh := d.pushRehash(d.nodes.at(i), np)
			hs = append(hs, oh, nh)
		}
		// Each block's first probe slots are touched before its
		// removals and its insertions: the loads are independent, so
		// their cache misses overlap.
		for b := 0; b < len(chgList); b += rehashBlock {
			e := min(b+rehashBlock, len(chgList))
			d.touch(hs[2*b:2*e], 0)
			for j := b; j < e; j++ {
				d.tab.remove(hs[2*j], chgList[j])
			}
		}
		for b := 0; b < len(chgList); b += rehashBlock {
			e := min(b+rehashBlock, len(chgList))
			d.touch(hs[2*b:2*e], 1)
			for j := b; j < e; j++ {
				shadow = d.place(chgList[j], hs[2*j+1], shadow)
			}
		}
		c.hashes = hs
	}
	for _, i := range c.shadow {
		if keep[i/64]&(1<<(i%64)) == 0 || (np != nil && c.chg[i/64]&(1<<(i%64)) != 0) {
			continue // dropped, or placed above
		}
		s := d.state(&d.nodes.at(i).st)
		shadow = d.place(i, s.hash(), shadow)
	}
	c.shadow, c.shadow2 = shadow, c.shadow[:0]
	c.coll, c.chgList = coll, chgList
	if np != nil {
		d.recomputeFrom(coll)
	}
}

// purge returns a table sized for n entries holding t's entries of the
// nodes in the bit set keep (the others are dead), in the same shards;
// t's slots go back to the pool.
func (t *table) purge(keep []uint64, n int) *table {
	nt := newTableFor(n)
	for s := range t.sh {
		sh := &nt.sh[s]
		mask := len(sh.slots) - 1
		for _, slot := range t.sh[s].slots {
			if slot == 0 {
				continue
			}
			if i := int32(uint32(slot)) - 1; keep[i/64]&(1<<(i%64)) == 0 {
				continue
			}
			j := int(slot>>32) & mask
			for sh.slots[j] != 0 {
				j = (j + 1) & mask
			}
			sh.slots[j] = slot
			sh.n++
			if 2*sh.n > len(sh.slots) {
				sh.grow()
				mask = len(sh.slots) - 1
			}
		}
		putSlots(t.sh[s].slots)
	}
	return nt
}

// resetBits returns a zeroed bit set of n words, reusing b's storage.
func resetBits(b []uint64, n int) []uint64 {
	if cap(b) < n {
		return make([]uint64, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// pushRehash pushes the piece on node n's queue (as push) and returns the
// old and the new state's hashes (the board, and its hash, stay).
func (d *dag) pushRehash(n *node, np *newPiece) (old, h uint64) {
	s := d.state(&n.st)
	bh := boardHash(&s.Board)
	old = s.restHash().with(bh)
	s.push(np.p)
	n.st.pk = packPieces(&s) | n.st.pk&b2bBit
	return old, s.restHash().with(bh)
}

// touch loads the first probe slot of every other hash of hs from the
// k-th (0 or 1), so that their cache misses overlap.
func (d *dag) touch(hs []uint64, k int) {
	var sum uint64
	for j := k; j < len(hs); j += 2 {
		sh := d.tab.shard(hs[j])
		sum += sh.slots[int(tag(hs[j]))&(len(sh.slots)-1)]
	}
	d.touched += sum
}

// remove deletes node v's entry under hash h, if it has one, closing the
// gap as if the entry had never been put (backward shift: every probe
// sequence stays unbroken, no tombstone).
func (t *table) remove(h uint64, v int32) {
	sh := t.shard(h)
	mask := len(sh.slots) - 1
	k := tag(h)
	i := int(k) & mask
	for {
		s := sh.slots[i]
		if s == 0 {
			return // v had no entry (it was shadowed)
		}
		if s>>32 == k && int32(uint32(s))-1 == v {
			break
		}
		i = (i + 1) & mask
	}
	j := i
	for {
		j = (j + 1) & mask
		s := sh.slots[j]
		if s == 0 {
			break
		}
		// the entry at j may move to the hole at i unless its first
		// probe lies cyclically in (i, j]
		home := int(s>>32) & mask
		if (j-home)&mask >= (j-i)&mask {
			sh.slots[i] = s
			i = j
		}
	}
	sh.slots[i] = 0
	sh.n--
}

// place puts live node v, whose state hash is h, in the table, unless a
// live node of its generation and state with a smaller rank (stamp) is
// there; a larger-ranked one gives up its entry. The node left out is
// appended to shadow, which place returns.
func (d *dag) place(v int32, h uint64, shadow []int32) []int32 {
	n := d.nodes.at(v)
	sh := d.tab.shard(h)
	k := tag(h)
	mask := len(sh.slots) - 1
	i := int(k) & mask
	for {
		s := sh.slots[i]
		if s == 0 {
			sh.set(i, h, v)
			return shadow
		}
		if s>>32 == k {
			ci := int32(uint32(s)) - 1
			if c := d.nodes.at(ci); ci != v && c.gen == n.gen && d.sameState(&c.st, &n.st) {
				if c.stamp > n.stamp {
					sh.slots[i] = k<<32 | uint64(uint32(v+1))
					return append(shadow, ci)
				}
				return append(shadow, v)
			}
		}
		i = (i + 1) & mask
	}
}

// recomputeFrom recomputes the values the piece changed: those of the
// speculated nodes it made known (coll, in rank order, so by generation)
// and, generation by generation upwards, of the parents of every node
// whose value or death changed. It leaves every value as recomputeAll
// would (the other nodes' values and edges were up to date already).
func (d *dag) recomputeFrom(coll []int32) {
	j := len(coll)
	d.next = d.next[:0]
	for j > 0 || len(d.next) > 0 {
		d.work, d.next = d.next, d.work[:0]
		var g int32
		if len(d.work) > 0 {
			g = d.nodes.at(d.work[0]).gen
		} else {
			d.stamp++ // a stamp no node has
			g = d.nodes.at(coll[j-1]).gen
		}
		s := d.stamp // the work's nodes have it
		for ; j > 0 && d.nodes.at(coll[j-1]).gen == g; j-- {
			if n := d.nodes.at(coll[j-1]); n.stamp != s {
				n.stamp = s
				d.work = append(d.work, coll[j-1])
			}
		}
		d.stamp++
		for _, i := range d.work {
			if !d.update(i) {
				continue
			}
			d.refreshParents(i)
		}
	}
}
