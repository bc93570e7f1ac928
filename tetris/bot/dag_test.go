// dag_test.go checks the DAG's index-linked stores (child lists, further
// parents) after searches, Play and AddPiece.

package bot

import "fmt"

// dagInvariants checks that every child list is inside the child store,
// every child points to a node of the next generation that names its
// parent (first parent or further ones), every parent link points back to
// a child edge, every node is in its generation's table (which holds
// nothing else), and that after a rebuild the stores hold nothing else.
func dagInvariants(d *dag, rebuilt bool) error {
	lists := 0
	for i := range d.nodes.bound() {
		n := d.nodes.at(i)
		if !d.nodes.valid(i) || !n.expanded() {
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
				if cn.gen != n.gen+1 {
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
		if !d.nodes.valid(i) {
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
	// every node is in its generation's table, found by its own state,
	// and the tables hold nothing else
	perGen := map[int32]int{}
	for i := range d.nodes.bound() {
		if !d.nodes.valid(i) {
			continue
		}
		n := d.nodes.at(i)
		perGen[n.gen]++
		if int(n.gen) >= len(d.gens) {
			return fmt.Errorf("node %d of generation %d has no table", i, n.gen)
		}
		s := d.state(&n.st)
		h := s.hash()
		if ci, _ := d.lookup(d.gens[n.gen].shard(h), h, &s.Board, packPieces(&s)); ci != i {
			return fmt.Errorf("node %d: its table finds %d", i, ci)
		}
	}
	for g, t := range d.gens {
		if t.len() != perGen[int32(g)] {
			return fmt.Errorf("generation %d: %d table entries for %d nodes", g, t.len(), perGen[int32(g)])
		}
	}
	if rebuilt && lists != len(d.lists) {
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
