// concurrent_test.go checks the DAG's structures that search threads use
// without Bot.mu — a generation's table under its own lock, the node arena
// and the child store — against a plain map, with several goroutines
// preparing expansions at once (run it with -race).

package bot

import (
	"math/rand/v2"
	"sync"
	"testing"
)

// prepCall is one prepare call of TestPrepareConcurrent: the pool states
// its children were drawn from and the child list it wrote.
type prepCall struct {
	picks []int
	kids  []child
}

func TestPrepareConcurrent(t *testing.T) {
	cases := []struct {
		name                   string
		threads, calls, length int
		boards                 int  // distinct boards; each with two rests
		shared                 bool // prepare as with several search threads
	}{
		{"one thread", 1, 60, 50, 500, false},
		{"one thread, shard locks", 1, 60, 50, 40, true},
		{"two threads, few states", 2, 150, 40, 20, true},
		{"four threads, many states", 4, 150, 60, 3000, true}, // > 1 node chunk, > 1 child chunk
		{"eight threads, long lists", 8, 40, 200, 1500, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// the pool: boards with random rows 0–2, combos and b2b;
			// rests with two different queues
			rng := rand.New(rand.NewPCG(7, uint64(tc.boards)))
			boards := make([]Board, tc.boards)
			seen := map[Board]bool{}
			for i := range boards {
				for {
					var b Board
					for y := range 3 {
						b.Rows[y] = uint16(rng.IntN(1 << 10))
					}
					b.Combo = uint32(rng.IntN(3))
					b.B2B = rng.IntN(2) == 0
					if !seen[b] {
						seen[b] = true
						boards[i] = b
						break
					}
				}
			}
			var rests [2]State
			rests[0].push(T)
			rests[0].push(I)
			rests[1].push(T)
			rests[1].push(O)
			n := 2 * tc.boards
			stateOf := func(k int) State {
				s := rests[k%2]
				s.Board = boards[k/2]
				return s
			}

			d := newDAG(State{Bag: 0x7F}, 0, Value{})
			tab := d.genTable(1)
			calls := make([][]prepCall, tc.threads)
			var wg sync.WaitGroup
			for th := range tc.threads {
				wg.Add(1)
				go func() {
					defer wg.Done()
					w := &worker{}
					w.rests = rests[:]
					w.locks[I] = make([]lockEntry, tc.boards)
					for i := range boards {
						w.locks[I][i].board = boards[i]
					}
					r := rand.New(rand.NewPCG(uint64(th), 99))
					order := make([]int32, tc.length)
					for i := range order {
						order[i] = int32(tc.length - 1 - i) // children taken back to front
					}
					for range tc.calls {
						w.refill()
						l := make([]expChild, tc.length)
						picks := make([]int, tc.length)
						for i := range l {
							k := r.IntN(n)
							s := stateOf(k)
							l[i] = expChild{mv: Move{Piece: I, X: int8(i)}, h: s.hash(), lock: int16(k / 2), rest: uint8(k % 2)}
							l[i].val = Value{V: int32(len(calls[th])*1000 + tc.length - 1 - i)} // call, rank
							picks[tc.length-1-i] = k
						}
						d.prepare(tab, 0, 1, 0, [][]expChild{l}, [][]int32{order}, w, tc.shared)
						kids := append([]child(nil), d.kidStore.slice(w.kidAt[0], int32(tc.length))...)
						calls[th] = append(calls[th], prepCall{picks, kids})
					}
				}()
			}
			wg.Wait()

			// the reference: one node per distinct state, made (with one
			// thread) by the first child with that state in prepare's order
			ref := map[int]int32{}
			for _, cs := range calls {
				for ci, c := range cs {
					for i, k := range c.picks {
						if _, ok := ref[k]; !ok && tc.threads == 1 {
							if v := d.nodes.at(c.kids[i].n).val.V; v != int32(ci*1000+i) {
								t.Fatalf("state %d's node has value %d: not made by its first child (call %d, rank %d)", k, v, ci, i)
							}
						}
						ci := c.kids[i].n
						if got := d.nodes.at(ci).st.state(); got != stateOf(k) {
							t.Fatalf("child %d points to node %d with the wrong state", i, ci)
						}
						if c.kids[i].mv.X != int8(len(c.picks)-1-i) {
							t.Fatalf("child %d holds move %+v: not in the given order", i, c.kids[i].mv)
						}
						if old, ok := ref[k]; ok && old != ci {
							t.Fatalf("state %d has two nodes, %d and %d", k, old, ci)
						}
						ref[k] = ci
					}
				}
			}
			if d.nodes.len() != 1+len(ref) {
				t.Fatalf("%d nodes for %d distinct states and the root", d.nodes.len(), len(ref))
			}
			if tab.len() != len(ref) {
				t.Fatalf("table holds %d entries, want %d", tab.len(), len(ref))
			}
			for k := range n {
				s := stateOf(k)
				ci, _ := d.lookup(tab.shard(s.hash()), s.hash(), &s.Board, packPieces(&s))
				if want, ok := ref[k]; ok != (ci >= 0) || ok && ci != want {
					t.Fatalf("state %d: lookup %d, map %d (%v)", k, ci, want, ok)
				}
			}
			d.nodes.each(func(i int32, nd *node) {
				if i > 0 && (nd.gen != 1 || nd.parent != 0) {
					t.Fatalf("node %d: gen %d parent %d", i, nd.gen, nd.parent)
				}
			})
		})
	}
}

// TestPackState checks that a node's packed state gives back the State
// it was made from, for random queues, holds and bags.
func TestPackState(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		var s State
		s.Bag = 0x7F
		for range rng.IntN(maxQueue + 1) {
			s.push(Piece(rng.IntN(7)))
		}
		if rng.IntN(3) > 0 {
			s.pop(rng.IntN(int(s.QLen) + 1))
		}
		s.Hold = Piece(rng.IntN(8) - 1) // NoPiece too
		s.Board.Rows[0] = uint16(rng.IntN(1 << 10))
		s.Board.Combo = uint32(rng.IntN(5))
		ns := packState(&s)
		if got := ns.state(); got != s {
			t.Fatalf("packed %+v, unpacked %+v", s, got)
		}
		u := s
		u.Bag ^= 1 << uint(rng.IntN(7))
		if u.Bag != 0 && packPieces(&u) == ns.pk {
			t.Fatalf("bags %#x and %#x pack alike", s.Bag, u.Bag)
		}
	}
}
