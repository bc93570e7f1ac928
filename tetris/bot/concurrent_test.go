// concurrent_test.go checks the DAG's structures that search threads use
// without Bot.mu — the DAG's table under its lock, the node arena
// and the child store — against a plain map, with several goroutines
// preparing expansions at once (run it with -race).

package bot

import (
	"context"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/yomi-ai/yomi/tetris"
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
		{"one thread, table lock", 1, 60, 50, 40, true},
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
			tab := d.tab
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
							l[i] = expChild{mv: Move{Piece: I, X: int8(i)}, rw: Reward{V: int32(3*i + 1), Attack: int32(i % 3)}, h: s.hash(), lock: int16(k / 2), rest: uint8(k % 2)}
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
						if got := d.state(&d.nodes.at(ci).st); got != stateOf(k) {
							t.Fatalf("child %d points to node %d with the wrong state", i, ci)
						}
						if j := len(c.picks) - 1 - i; c.kids[i].mv.X != int8(j) || c.kids[i].rw != (Reward{V: int32(3*j + 1), Attack: int32(j % 3)}) {
							t.Fatalf("child %d holds move %+v and reward %+v: not in the given order", i, c.kids[i].mv, c.kids[i].rw)
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
			if tab.len() != 1+len(ref) {
				t.Fatalf("table holds %d entries, want %d", tab.len(), 1+len(ref))
			}
			for k := range n {
				s := stateOf(k)
				ci, _ := d.lookup(tab.shard(s.hash()), s.hash(), 1, &s.Board, packPieces(&s))
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
// it was made from and compares equal exactly to it, for random queues,
// holds, bags, combos, back-to-back and boards, tall ones too.
func TestPackState(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	d := newDAG(State{Bag: 0x7F}, 0, Value{})
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
		for y := range rng.IntN(tetris.Height) {
			s.Board.Rows[y] = uint16(rng.IntN(1 << 10))
		}
		s.Board.Combo = uint32(rng.IntN(5))
		s.Board.B2B = rng.IntN(2) == 0
		ns := d.pack(&s)
		if got := d.state(&ns); got != s {
			t.Fatalf("packed %+v, unpacked %+v", s, got)
		}
		if !d.same(&ns, &s.Board, packPieces(&s)) {
			t.Fatalf("%+v differs from itself packed", s)
		}
		u := s
		switch rng.IntN(4) {
		case 0:
			u.Bag ^= 1 << uint(rng.IntN(7))
		case 1:
			u.Board.B2B = !u.Board.B2B
		case 2:
			u.Board.Combo++
		case 3:
			y := rng.IntN(tetris.Height)
			u.Board.Rows[y] ^= 1 << uint(rng.IntN(10))
		}
		if u.Bag != 0 && d.same(&ns, &u.Board, packPieces(&u)) {
			t.Fatalf("%+v and %+v pack alike", s, u)
		}
	}
}

// TestTallRoot searches from a board with cells above the rows a node
// keeps in itself (its high rows go to the DAG's tall store), with one and
// two threads, through Play and AddPiece: the root state comes back whole,
// every node's state round-trips (tall ones keep cells above row 23 until
// line clears in the shaft bring them down), and the DAG stays consistent.
func TestTallRoot(t *testing.T) {
	var rows []string
	for i := range 28 {
		if i < 18 {
			rows = append(rows, "XXX____XXX")
		} else {
			rows = append(rows, "XXX_XXXXXX")
		}
	}
	board := mustField(t, rows...)
	for _, threads := range []int{1, 2} {
		b := New(Options{Seed: 11, Threads: threads})
		defer runtime.KeepAlive(b) // its cleanup would release d (read below)
		if err := b.Reset(board, []Piece{T, I, O, L, J}, NoPiece, 0); err != nil {
			t.Fatal(err)
		}
		if got := b.State(); got.Board != board {
			t.Fatalf("%d threads: the root board did not come back whole", threads)
		}
		for step := range 2 {
			b.Think(context.Background(), Budget{Nodes: 8000})
			d := b.d
			if err := dagInvariants(d, step > 0); err != nil {
				t.Fatalf("%d threads, step %d: %v", threads, step, err)
			}
			if len(d.tall.rows) == 0 {
				t.Fatalf("%d threads: no node used the tall store", threads)
			}
			tall := 0
			d.nodes.each(func(i int32, n *node) {
				s := d.state(&n.st)
				if !d.same(&n.st, &s.Board, packPieces(&s)) || tallBoard(&s.Board) != (n.st.tall != 0) {
					t.Fatalf("%d threads: node %d does not round-trip", threads, i)
				}
				if n.st.tall != 0 {
					tall++
				}
			})
			if step == 0 && tall < 2 {
				t.Fatalf("%d threads: only %d of %d nodes tall", threads, tall, d.nodes.len())
			}
			mv := b.Suggest(0)[0]
			if err := b.Play(mv); err != nil {
				t.Fatal(err)
			}
			if err := b.AddPiece(S); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestPrepareStaleList checks that prepare skips a missing child list (a
// piece the bag cannot give) whose w.kidAt entry is stale: workers
// outlive DAGs, so it may name a child chunk this DAG does not have.
func TestPrepareStaleList(t *testing.T) {
	for _, shared := range []bool{false, true} {
		d := newDAG(State{Bag: 0x7F}, 0, Value{})
		s := State{Bag: 0x7F}
		w := &worker{rests: []State{s}}
		w.locks[I] = []lockEntry{{}}
		w.kidAt[1] = 1 << 25 // a chunk the store does not have
		w.refill()
		lists := [][]expChild{{{mv: Move{Piece: I, X: 3}, h: s.hash()}}, nil}
		d.prepare(d.tab, 0, 1, 0, lists, [][]int32{{0}, nil}, w, shared)
		c := d.kidStore.slice(w.kidAt[0], 1)[0]
		if n := d.nodes.at(c.n); c.mv.X != 3 || n.gen != 1 || d.state(&n.st) != s {
			t.Fatalf("shared %v: edge %+v to node %+v", shared, c, *n)
		}
	}
}
