// catchup_test.go checks the in-place catch-up against the renumbering
// rebuild it replaces at most moves.

package bot

import (
	"context"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"testing"
)

// TestCatchUpReference plays random games (1 thread, random node budgets,
// preview lengths and pieces from a 7-bag, some moves settled before their
// piece comes) with two bots: one catching up in place (compacting now and
// then), and a reference that rebuilds its DAG at every catch-up, the
// renumbering copy whose result is the definition of what the search may
// see. After each move the DAGs must be the same node for node in
// breadth-first order (states, values, links, child lists, what the table
// finds), the table must find the first node of each state in that order,
// and the next searches must agree. It also checks that the games went
// through every path: in-place catch-ups, table purges, compactions, and
// states that a piece made equal (shadowed nodes).
func TestCatchUpReference(t *testing.T) {
	ctx := context.Background()
	var inPlace, compactions, shadowed, ahead, behind, purges int
	for game := range 4 {
		rng := rand.New(rand.NewPCG(uint64(game), 99))
		next := bagFeed(uint64(100 + game))
		preview := 1 + rng.IntN(6)
		queue := make([]Piece, preview)
		for i := range queue {
			queue[i] = next()
		}
		a, ref := New(Options{Seed: uint64(game)}), New(Options{Seed: uint64(game)})
		defer runtime.KeepAlive(a)
		defer runtime.KeepAlive(ref)
		for _, b := range []*Bot{a, ref} {
			if err := b.Reset(Board{}, queue, NoPiece, 0); err != nil {
				t.Fatal(err)
			}
		}
		// the reference always compacts, i.e. rebuilds
		catchUpRef := func(f func() error) error {
			ref.d.catch.epoch = maxEpoch
			return f()
		}
		for move := range 20 {
			budget := Budget{Nodes: int64(2000 + rng.IntN(20000))}
			sa, sr := a.Think(ctx, budget), ref.Think(ctx, budget)
			sa.Elapsed, sr.Elapsed = 0, 0
			ma, mr := a.Suggest(0), ref.Suggest(0)
			if sa != sr || !reflect.DeepEqual(ma, mr) {
				t.Fatalf("game %d move %d: search %+v %v, reference %+v %v", game, move, sa, ma, sr, mr)
			}
			if len(ma) == 0 {
				break
			}
			if err := a.Play(ma[0]); err != nil {
				t.Fatal(err)
			}
			if err := ref.Play(mr[0]); err != nil {
				t.Fatal(err)
			}
			if rng.IntN(4) == 0 {
				// a query between the move and its piece
				before := a.d.catch.epoch
				a.mu.Lock()
				a.settle()
				a.mu.Unlock()
				if a.d.catch.epoch == before+1 {
					inPlace++
				}
				ref.mu.Lock()
				ref.d.catch.epoch = maxEpoch
				ref.settle()
				ref.mu.Unlock()
			}
			for s := a.State(); int(s.QLen) < preview; s = a.State() {
				p := next()
				if rng.IntN(3) == 0 {
					// Ties are rare in real games: make a few by giving
					// nodes that take the piece another's state.
					b, h := twin(a.d, ref.d, a.known, p, rng)
					ahead += b
					behind += h
				}
				before := a.d.catch.epoch
				if err := a.AddPiece(p); err != nil {
					t.Fatal(err)
				}
				switch {
				case a.d.catch.epoch == before+1:
					inPlace++
				case a.d.catch.epoch == 0:
					compactions++
				}
				if err := catchUpRef(func() error { return ref.AddPiece(p) }); err != nil {
					t.Fatal(err)
				}
				if err := sameDAG(a.d, ref.d); err != nil {
					t.Fatalf("game %d move %d: %v", game, move, err)
				}
			}
			shadowed += len(a.d.catch.shadow)
			if err := dagInvariants(a.d, true); err != nil {
				t.Fatalf("game %d move %d: %v", game, move, err)
			}
			if err := tableFirst(a.d); err != nil {
				t.Fatalf("game %d move %d: %v", game, move, err)
			}
		}
		purges += a.d.catch.purges
		a.Close()
		ref.Close()
	}
	t.Logf("%d in-place catch-ups (%d purging the table), %d compactions, %d shadowed nodes seen; %d/%d ties with an unchanged node first/second", inPlace, purges, compactions, shadowed, ahead, behind)
	if inPlace == 0 || purges == 0 || compactions == 0 || shadowed == 0 || ahead == 0 || behind == 0 {
		t.Errorf("the games missed a path: %d in-place catch-ups, %d compactions, %d shadowed nodes", inPlace, compactions, shadowed)
	}
}

// twin makes ties for the table, which real games rarely have, in both
// DAGs x and y (the same node for node) before AddPiece gives piece p to
// the nodes whose queue ends at the known piece: a few of those take the
// state of another of their generation (the piece makes both states
// equal), and a few take the state one of those will have and the
// piece already (so that the piece leaves them unchanged) (the piece makes it equal
// to theirs). A node whose state changes here loses its table entry
// (one still unchanged goes to x's shadow list: catchUp puts it back).
func twin(x, y *dag, known int32, p Piece, rng *rand.Rand) (before, behind int) {
	ox, oy := bfsOrder(x), bfsOrder(y)
	type key struct {
		gen   int32
		drawn int32
	}
	groups := map[key][]int{}
	for k, i := range ox {
		n := x.nodes.at(i)
		if n.drawn == known {
			groups[key{relGen(n.gen), n.drawn}] = append(groups[key{relGen(n.gen), n.drawn}], k)
		}
	}
	var gens []int32
	for kk := range groups {
		if kk.drawn == known {
			gens = append(gens, kk.gen)
		}
	}
	slices.Sort(gens)
	for range min(4, len(gens)) {
		g := gens[rng.IntN(len(gens))]
		ks := groups[key{g, known}]
		from := ks[rng.IntN(len(ks))]
		to, after := ks[rng.IntN(len(ks))], false
		if rng.IntN(2) == 0 {
			after = true
		}
		if from == to {
			continue
		}
		if after {
			// to is unchanged: it goes back into the table after from
			// was put there, and must take its place if it comes first
			if to < from {
				before++
			} else {
				behind++
			}
		}
		for _, d := range []struct {
			d     *dag
			order []int32
		}{{x, ox}, {y, oy}} {
			n := d.d.nodes.at(d.order[to])
			s := d.d.state(&n.st)
			d.d.tab.remove(s.hash(), d.order[to])
			if !after {
				n.st = d.d.nodes.at(d.order[from]).st
				continue
			}
			s = d.d.state(&d.d.nodes.at(d.order[from]).st)
			s.push(p)
			n.st = d.d.pack(&s)
			n.drawn = known + 1 // as if it had the piece already
			if d.d == x && !slices.Contains(x.catch.shadow, d.order[to]) {
				x.catch.shadow = append(x.catch.shadow, d.order[to])
			}
		}
	}
	return before, behind
}

// TestCatchUpTwoThreads plays a game searched by two threads (the worker
// goroutines keep filling the node chunks they had before each in-place
// catch-up) and checks the DAG's invariants and the table's ties after
// every move; with -race it checks the catch-up against the threads.
func TestCatchUpTwoThreads(t *testing.T) {
	ctx := context.Background()
	next := bagFeed(5)
	queue := make([]Piece, 5)
	for i := range queue {
		queue[i] = next()
	}
	b := New(Options{Seed: 5, Threads: 2})
	defer b.Close()
	if err := b.Reset(Board{}, queue, NoPiece, 0); err != nil {
		t.Fatal(err)
	}
	inPlace := 0
	for move := range 12 {
		b.Think(ctx, Budget{Nodes: 15000})
		ms := b.Suggest(0)
		if len(ms) == 0 {
			t.Fatalf("move %d: no move", move)
		}
		if err := b.Play(ms[0]); err != nil {
			t.Fatal(err)
		}
		before := b.d.catch.epoch
		if err := b.AddPiece(next()); err != nil {
			t.Fatal(err)
		}
		if b.d.catch.epoch == before+1 {
			inPlace++
		}
		if err := dagInvariants(b.d, true); err != nil {
			t.Fatalf("move %d: %v", move, err)
		}
		if err := tableFirst(b.d); err != nil {
			t.Fatalf("move %d: %v", move, err)
		}
	}
	if inPlace == 0 {
		t.Fatal("no catch-up in place")
	}
}
