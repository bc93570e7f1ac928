// bot_test.go tests the search: determinism, obvious tetrises and T-spins,
// AddPiece/Play bookkeeping and the final-move rule.

package bot

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"testing"
	"time"
)

func mustField(t *testing.T, rows ...string) Board {
	t.Helper()
	b, err := ParseField(rows)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestThinkEmpty(t *testing.T) {
	b := New(Options{Seed: 1})
	if err := b.Reset(Board{}, []Piece{T, I, O, L, J}, NoPiece, 0); err != nil {
		t.Fatal(err)
	}
	st := b.Think(context.Background(), Budget{Nodes: 20000})
	t.Logf("%+v nps=%.0f", st, st.NodesPerSecond())
	if st.Nodes < 20000 || st.Depth < 3 {
		t.Fatalf("too little search: %+v", st)
	}
	if len(b.Suggest(0)) == 0 {
		t.Fatal("no suggestion")
	}
	t.Logf("plan %v", b.Plan())
}

func firstMoveLock(t *testing.T, b *Bot, incoming int) (Move, LockResult) {
	t.Helper()
	ms := b.Suggest(incoming)
	if len(ms) == 0 {
		t.Fatal("no suggestion")
	}
	s := b.State()
	res := lockMove(&s.Board, ms[0].Piece, ms[0].Rot, int(ms[0].X), int(ms[0].Y), ms[0].Spin)
	return ms[0], res
}

func TestFindsTetris(t *testing.T) {
	board := mustField(t,
		"XXXXXXXXX_",
		"XXXXXXXXX_",
		"XXXXXXXXX_",
		"XXXXXXXXX_")
	b := New(Options{Seed: 3})
	if err := b.Reset(board, []Piece{I, O, S, Z, L}, NoPiece, 0); err != nil {
		t.Fatal(err)
	}
	b.Think(context.Background(), Budget{Nodes: 30000})
	mv, res := firstMoveLock(t, b, 0)
	if res.Kind != KindClear4 {
		t.Fatalf("first move %+v: %+v, want a tetris", mv, res)
	}
}

func TestFindsTSpinDouble(t *testing.T) {
	// spec §25.2's field: the T-spin double is the only good T placement.
	board := mustField(t,
		"X__XX_X___",
		"X___XXXXXX",
		"XX_XXXXXXX")
	b := New(Options{Seed: 4})
	if err := b.Reset(board, []Piece{T, O, I, L, J}, NoPiece, 0); err != nil {
		t.Fatal(err)
	}
	b.Think(context.Background(), Budget{Nodes: 30000})
	mv, res := firstMoveLock(t, b, 0)
	if res.Kind != KindTspin2 {
		t.Fatalf("first move %+v: %+v, want a T-spin double", mv, res)
	}
}

func TestDeterministicOneThread(t *testing.T) {
	run := func() (Stats, []Move) {
		b := New(Options{Seed: 42})
		if err := b.Reset(Board{}, []Piece{S, Z, T, I, O, L}, NoPiece, 0); err != nil {
			t.Fatal(err)
		}
		st := b.Think(context.Background(), Budget{Nodes: 15000})
		return st, b.Plan()
	}
	s1, p1 := run()
	s2, p2 := run()
	if s1.Nodes != s2.Nodes || s1.Expansions != s2.Expansions || s1.Unique != s2.Unique || s1.Depth != s2.Depth {
		t.Fatalf("stats differ: %+v vs %+v", s1, s2)
	}
	if len(p1) != len(p2) {
		t.Fatalf("plans differ: %v vs %v", p1, p2)
	}
	for i := range p1 {
		if p1[i] != p2[i] {
			t.Fatalf("plans differ: %v vs %v", p1, p2)
		}
	}
	// a different seed explores differently
	b := New(Options{Seed: 43})
	b.Reset(Board{}, []Piece{S, Z, T, I, O, L}, NoPiece, 0)
	s3 := b.Think(context.Background(), Budget{Nodes: 15000})
	if s3.Unique == s1.Unique && s3.Expansions == s1.Expansions {
		t.Logf("note: seeds 42 and 43 gave identical counts")
	}
}

func TestTwoThreads(t *testing.T) {
	b := New(Options{Seed: 5, Threads: 2})
	if err := b.Reset(Board{}, []Piece{T, I, O, L, J}, NoPiece, 0); err != nil {
		t.Fatal(err)
	}
	st := b.Think(context.Background(), Budget{Nodes: 20000})
	if st.Nodes < 20000 || len(b.Suggest(0)) == 0 {
		t.Fatalf("two threads: %+v", st)
	}
	if err := dagInvariants(b.d, false); err != nil {
		t.Fatalf("two threads: %v", err)
	}
	// b is not used above after b.d is read: without this the collector
	// may run b's cleanup, which releases the DAG, during dagInvariants
	runtime.KeepAlive(b)
}

func TestPlayAndAddPiece(t *testing.T) {
	b := New(Options{Seed: 6})
	queue := []Piece{T, I, O, L, J}
	if err := b.Reset(Board{}, queue, NoPiece, 0); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for step := range 12 {
		b.Think(ctx, Budget{Nodes: 3000})
		ms := b.Suggest(0)
		if len(ms) == 0 {
			t.Fatalf("step %d: no move", step)
		}
		before := b.State()
		if err := dagInvariants(b.d, false); err != nil {
			t.Fatalf("step %d, after the search: %v", step, err)
		}
		if err := b.Play(ms[0]); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		b.settle() // the rebuild Play leaves to AddPiece, here to check it
		if err := dagInvariants(b.d, true); err != nil {
			t.Fatalf("step %d, after Play: %v", step, err)
		}
		after := b.State()
		want := before
		p := want.Queue[0]
		n := 1
		if ms[0].Hold {
			if want.Hold == NoPiece {
				n = 2
			}
			want.Hold = p
		}
		want.pop(n)
		lockMove(&want.Board, ms[0].Piece, ms[0].Rot, int(ms[0].X), int(ms[0].Y), ms[0].Spin)
		if after != want {
			t.Fatalf("step %d: state after Play differs\n got %+v\nwant %+v", step, after, want)
		}
		// reveal pieces cyclically from the bag order S Z T I O L J …
		for after.QLen < 5 {
			var next Piece
			for q := range Piece(7) {
				if after.Bag&(1<<uint(q)) != 0 {
					next = q
					break
				}
			}
			if err := b.AddPiece(next); err != nil {
				t.Fatal(err)
			}
			if err := dagInvariants(b.d, true); err != nil {
				t.Fatalf("step %d, after AddPiece: %v", step, err)
			}
			after = b.State()
		}
	}
	if fin := b.State(); fin.Board.MaxHeight() > 8 {
		t.Fatalf("stack too high after 12 pieces: %d", fin.Board.MaxHeight())
	}
	if err := b.Play(Move{Piece: Z, X: 0, Y: 30}); err == nil {
		t.Fatal("illegal Play accepted")
	}
}

func TestFinalMoveRuleGarbage(t *testing.T) {
	// a tall middle: with 8 lines incoming the rule must avoid raising columns 3–5.
	rows := []string{}
	for range 10 {
		rows = append(rows, "XXX_XXXXXX")
	}
	board := mustField(t, rows...)
	b := New(Options{Seed: 8})
	if err := b.Reset(board, []Piece{O, I, T, L, J}, NoPiece, 0); err != nil {
		t.Fatal(err)
	}
	b.Think(context.Background(), Budget{Nodes: 5000})
	mv, _ := firstMoveLock(t, b, 8)
	s := b.State()
	c := s.Board
	lockMove(&c, mv.Piece, mv.Rot, int(mv.X), int(mv.Y), mv.Spin)
	var h [10]int
	c.Heights(&h)
	if 8+h[3] > 20 || 8+h[4] > 20 || 8+h[5] > 20 {
		t.Fatalf("move %+v leaves heights %v with 8 incoming", mv, h)
	}
}

func TestThinkStops(t *testing.T) {
	b := New(Options{Seed: 9, Threads: 2})
	if err := b.Reset(Board{}, []Piece{T, I, O, L, J}, NoPiece, 0); err != nil {
		t.Fatal(err)
	}
	st := b.Think(context.Background(), Budget{Duration: 50 * time.Millisecond})
	if st.Elapsed > 2*time.Second || st.Nodes == 0 {
		t.Fatalf("duration budget: %+v", st)
	}
	// no node budget: the table grew while two threads searched
	if err := dagInvariants(b.d, false); err != nil {
		t.Fatalf("duration budget: %v", err)
	}
	// Play and AddPiece refuse to rebuild the DAG under a running Think
	tctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	start := b.Stats().Nodes
	go func() {
		b.Think(tctx, Budget{})
		close(done)
	}()
	for b.Stats().Nodes < start+1000 {
		time.Sleep(time.Millisecond)
	}
	if err := b.Play(b.Suggest(0)[0]); err == nil {
		t.Fatal("Play during Think accepted")
	}
	if err := b.AddPiece(S); err == nil {
		t.Fatal("AddPiece during Think accepted")
	}
	stop()
	<-done
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	before := b.Stats().Nodes
	st = b.Think(ctx, Budget{})
	if st.Nodes != before {
		t.Fatalf("cancelled context still searched: %d → %d", before, st.Nodes)
	}
	if err := b.Reset(Board{}, []Piece{Piece(9)}, NoPiece, 0); err == nil {
		t.Fatal("bad piece accepted")
	}
	if err := b.AddPiece(Piece(-3)); err == nil {
		t.Fatal("bad piece accepted by AddPiece")
	}
}

// TestOnePieceQueue: with one known piece and an empty hold the root waits
// for the next piece (holding would play it), yet placing the current
// piece needs nothing more: the bot must suggest such a placement, never a
// hold, and play it.
func TestOnePieceQueue(t *testing.T) {
	for _, p := range []Piece{T, I, O} {
		b := New(Options{Seed: 1})
		if err := b.Reset(Board{}, []Piece{p}, NoPiece, 0); err != nil {
			t.Fatal(err)
		}
		b.Think(context.Background(), Budget{Nodes: 20000})
		ms := b.Suggest(0)
		if len(ms) == 0 {
			t.Fatalf("%v: no suggestion", p)
		}
		for _, m := range ms {
			if m.Hold || m.Piece != p {
				t.Fatalf("%v: suggested %+v", p, m)
			}
		}
		if ms2 := b.Suggest(30); len(ms2) != len(ms) {
			t.Fatalf("%v: %d moves with incoming garbage, %d without", p, len(ms2), len(ms))
		}
		cs := b.Candidates()
		for i := 1; i < len(cs); i++ {
			if cs[i-1].Value.Less(cs[i].Value) {
				t.Fatalf("%v: candidates not best first at %d", p, i)
			}
		}
		if pl := b.Plan(); len(pl) != 1 || !sameMove(pl[0], ms[0]) {
			t.Fatalf("%v: plan %v, suggestion %v", p, pl, ms[0])
		}
		s := b.State()
		lockMove(&s.Board, ms[0].Piece, ms[0].Rot, int(ms[0].X), int(ms[0].Y), ms[0].Spin)
		if err := b.Play(ms[0]); err != nil {
			t.Fatalf("%v: play: %v", p, err)
		}
		if got := b.State(); got.QLen != 0 || got.Hold != NoPiece || got.Board.Rows != s.Board.Rows {
			t.Fatalf("%v: state after play %+v", p, got)
		}
		if err := b.AddPiece(L); err != nil {
			t.Fatal(err)
		}
		b.Think(context.Background(), Budget{Nodes: 5000})
		if ms := b.Suggest(0); len(ms) == 0 || ms[0].Piece != L || ms[0].Hold {
			t.Fatalf("%v then L: %v", p, ms)
		}
	}
}

// TestOnePieceQueueNext: the next piece arriving resolves the speculated
// root and brings the hold moves back.
func TestOnePieceQueueNext(t *testing.T) {
	b := New(Options{Seed: 1})
	if err := b.Reset(Board{}, []Piece{T}, NoPiece, 0); err != nil {
		t.Fatal(err)
	}
	b.Think(context.Background(), Budget{Nodes: 5000})
	if err := b.AddPiece(I); err != nil {
		t.Fatal(err)
	}
	b.Think(context.Background(), Budget{Nodes: 5000})
	held := false
	for _, c := range b.Candidates() {
		held = held || c.Move.Hold
	}
	if !held {
		t.Fatal("no hold move once the next piece is known")
	}
}

// TestPlayRebuildsAtAddPiece checks that a move and its new piece cost one
// DAG rebuild (Play leaves it to AddPiece), and that the DAG and the
// searches after it are the same as with Play's own rebuild first (a twin
// settled between Play and AddPiece), node for node, in a 2-thread-sized
// game of 10 moves with 1 thread (deterministic); the bot under test
// rebuilds with a second goroutine, as at two threads.
func TestPlayRebuildsAtAddPiece(t *testing.T) {
	ctx := context.Background()
	a, tw := New(Options{Seed: 3}), New(Options{Seed: 3})
	a.parallel = true
	defer runtime.KeepAlive(a)
	defer runtime.KeepAlive(tw)
	queue := []Piece{T, I, O, L, J, S}
	for _, b := range []*Bot{a, tw} {
		if err := b.Reset(Board{}, queue, NoPiece, 0); err != nil {
			t.Fatal(err)
		}
	}
	for step := range 10 {
		sa, st := a.Think(ctx, Budget{Nodes: 20000}), tw.Think(ctx, Budget{Nodes: 20000})
		sa.Elapsed, st.Elapsed = 0, 0
		ma, mt := a.Suggest(0), tw.Suggest(0)
		if sa != st || !reflect.DeepEqual(ma, mt) {
			t.Fatalf("step %d: search %+v %v, twin %+v %v", step, sa, ma[0], st, mt[0])
		}
		before := a.rebuilds
		if err := a.Play(ma[0]); err != nil {
			t.Fatal(err)
		}
		if err := tw.Play(mt[0]); err != nil {
			t.Fatal(err)
		}
		tw.settle()
		for s := a.State(); s.QLen < 6; s = a.State() {
			var next Piece
			for q := range Piece(7) {
				if s.Bag&(1<<uint(q)) != 0 {
					next = q
					break
				}
			}
			if err := a.AddPiece(next); err != nil {
				t.Fatal(err)
			}
			if err := tw.AddPiece(next); err != nil {
				t.Fatal(err)
			}
			if a.rebuilds != before+1 {
				t.Fatalf("step %d: %d rebuilds for a move and a piece, want 1", step, a.rebuilds-before)
			}
			before = a.rebuilds
		}
		if err := dagInvariants(a.d, true); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		if err := sameDAG(a.d, tw.d); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		if err := tableFirst(a.d); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
	}
}

// bfsOrder returns the DAG's live nodes in the order of rebuild's
// breadth-first walk from the root (the numbers a rebuild gives them).
func bfsOrder(d *dag) []int32 {
	seen := map[int32]bool{d.root: true}
	order := []int32{d.root}
	for k := 0; k < len(order); k++ {
		n := d.nodes.at(order[k])
		for p := range int(n.nlists) {
			for _, c := range d.kids(n, p) {
				if !seen[c.n] {
					seen[c.n] = true
					order = append(order, c.n)
				}
			}
		}
	}
	return order
}

// sameDAG reports the first difference between two DAGs, each seen in
// its breadth-first order from the root (so wherever their nodes are
// stored): the nodes (states, values, generations relative to the root,
// links), their child lists, and what the table finds for each node.
func sameDAG(x, y *dag) error {
	ox, oy := bfsOrder(x), bfsOrder(y)
	if len(ox) != len(oy) || x.size() != len(ox) || y.size() != len(oy) {
		return fmt.Errorf("%d/%d nodes reachable, %d/%d live", len(ox), len(oy), x.size(), y.size())
	}
	rx, ry := map[int32]int32{-1: -1}, map[int32]int32{-1: -1}
	for k := range ox {
		rx[ox[k]], ry[oy[k]] = int32(k), int32(k)
	}
	parents := func(d *dag, r map[int32]int32, n *node) []int32 {
		ps := []int32{r[n.parent]}
		for k := n.moreHead; k != 0; k = d.more[k-1].next {
			ps = append(ps, r[d.more[k-1].p])
		}
		return ps
	}
	for k := range ox {
		a, b := *x.nodes.at(ox[k]), *y.nodes.at(oy[k])
		sa, sb := x.state(&a.st), y.state(&b.st)
		if sa != sb || a.val != b.val || a.drawn != b.drawn || relGen(a.gen) != relGen(b.gen) || a.dead != b.dead ||
			a.nlists != b.nlists || a.spec != b.spec || a.marked != b.marked {
			return fmt.Errorf("node %d: %+v %+v, twin %+v %+v", k, sa, a, sb, b)
		}
		if pa, pb := parents(x, rx, &a), parents(y, ry, &b); !slices.Equal(pa, pb) {
			return fmt.Errorf("node %d: parents %v, twin %v", k, pa, pb)
		}
		for p := range int(a.nlists) {
			la, lb := x.lists[a.lists+int32(p)], y.lists[b.lists+int32(p)]
			if la.n != lb.n || la.best != lb.best || la.clean != lb.clean {
				return fmt.Errorf("node %d list %d: %+v, twin %+v", k, p, la, lb)
			}
			ka, kb := x.kids(&a, p), y.kids(&b, p)
			for j := range ka {
				ca, cb := ka[j], kb[j]
				ca.n, cb.n = rx[ca.n], ry[cb.n]
				if ca != cb {
					return fmt.Errorf("node %d list %d child %d: %+v, twin %+v", k, p, j, ca, cb)
				}
			}
		}
		h := sa.hash()
		ca, _ := x.lookup(x.tab.shard(h), h, a.gen, &sa.Board, packPieces(&sa))
		cb, _ := y.lookup(y.tab.shard(h), h, b.gen, &sb.Board, packPieces(&sb))
		if rx[ca] != ry[cb] {
			return fmt.Errorf("node %d: the table finds %d, the twin's %d", k, rx[ca], ry[cb])
		}
	}
	return nil
}

// tableFirst checks that the table finds, for every live node, the first
// node of its state and generation in the last catch-up's walk (a
// rebuild's numbering; what putting every node again in that numbering
// would leave). Call it right after a catch-up.
func tableFirst(d *dag) error {
	order := d.order // catchUp's walk, in place
	if d.catch.epoch == 0 {
		// a rebuild: its walk gave the numbers
		order = make([]int32, len(d.order))
		for k := range order {
			order[k] = int32(k)
		}
	}
	if len(order) != d.size() {
		return fmt.Errorf("the walk took %d nodes of %d", len(order), d.size())
	}
	first := map[State]map[int32]int32{}
	for _, i := range order {
		n := d.nodes.at(i)
		s := d.state(&n.st)
		if first[s] == nil {
			first[s] = map[int32]int32{}
		}
		want, ok := first[s][n.gen]
		if !ok {
			want = i
			first[s][n.gen] = i
		}
		h := s.hash()
		if ci, _ := d.lookup(d.tab.shard(h), h, n.gen, &s.Board, packPieces(&s)); ci != want {
			return fmt.Errorf("node %d: the table finds %d, want %d", i, ci, want)
		}
	}
	return nil
}
