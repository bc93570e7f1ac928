package bot

import (
	"context"
	"reflect"
	"testing"
	"unsafe"
)

// poisonPool fills the pooled node and child chunks with 0xA5 bytes, so
// that a field a new node or edge fails to write shows.
func poisonPool() {
	memPool.mu.Lock()
	defer memPool.mu.Unlock()
	for _, c := range memPool.nodes {
		b := unsafe.Slice((*byte)(unsafe.Pointer(c)), unsafe.Sizeof(*c))
		for i := range b {
			b[i] = 0xA5
		}
	}
	for _, c := range memPool.kids {
		b := unsafe.Slice((*byte)(unsafe.Pointer(c)), unsafe.Sizeof(*c))
		for i := range b {
			b[i] = 0xA5
		}
	}
	for _, class := range memPool.slots {
		for _, s := range class {
			for i := range s {
				s[i] = 0xA5A5A5A5A5A5A5A5
			}
		}
	}
}

// emptyPool empties the pool for a test and restores it afterwards.
func emptyPool(t *testing.T) {
	memPool.mu.Lock()
	nodes, kids, slots, bytes, workers := memPool.nodes, memPool.kids, memPool.slots, memPool.bytes, memPool.workers
	memPool.nodes, memPool.kids, memPool.slots, memPool.bytes, memPool.workers = nil, nil, [32][][]uint64{}, 0, nil
	memPool.mu.Unlock()
	t.Cleanup(func() {
		memPool.mu.Lock()
		memPool.nodes, memPool.kids, memPool.slots, memPool.bytes, memPool.workers = nodes, kids, slots, bytes, workers
		memPool.mu.Unlock()
	})
}

// poolBytes adds up what the pool's lists hold (which memPool.bytes must equal).
func poolBytes() int {
	memPool.mu.Lock()
	defer memPool.mu.Unlock()
	n := len(memPool.nodes)*nodeChunkBytes + len(memPool.kids)*kidChunkBytes
	for _, class := range memPool.slots {
		for _, s := range class {
			n += 8 * len(s)
		}
	}
	return n
}

// TestGetSlotsSplit checks that a slot array longer than asked for is
// split: the caller gets a zeroed array of the length asked for, the spare
// halves stay in the pool, no two arrays share memory, and the pool's
// byte count stays right.
func TestGetSlotsSplit(t *testing.T) {
	emptyPool(t)
	putSlots(make([]uint64, 1<<10))
	poisonPool()
	seen := map[*uint64]bool{}
	fresh := memPool.fresh
	for k, c := range []struct{ n, left int }{
		{64, 960}, {64, 896}, {128, 768}, {256, 512}, {64, 448},
		{512, 448}, // 256 + 128 + 64 left in the pool: a fresh array
	} {
		n := c.n
		s := getSlots(n)
		if len(s) != n || cap(s) != n {
			t.Fatalf("getSlots(%d): len %d cap %d", n, len(s), cap(s))
		}
		for i, v := range s {
			if v != 0 {
				t.Fatalf("getSlots(%d)[%d] = %#x, want 0", n, i, v)
			}
			if seen[&s[i]] {
				t.Fatalf("getSlots(%d) handed out a word twice", n)
			}
			seen[&s[i]] = true
		}
		if want := 8 * c.left; memPool.bytes != want || poolBytes() != want {
			t.Fatalf("request %d (%d slots): pool bytes %d, lists %d, want %d", k, n, memPool.bytes, poolBytes(), want)
		}
	}
	if memPool.fresh != fresh+1 {
		t.Fatalf("%d fresh arrays, want 1 (the last request)", memPool.fresh-fresh)
	}
}

// TestReserve checks that Reserve fills the pool with node chunks, child
// chunks and slot arrays in a search's proportions, that a second call
// adds nothing, and that a search after it needs no fresh memory.
func TestReserve(t *testing.T) {
	emptyPool(t)
	const n = 24 << 20
	added := Reserve(n)
	if added < n || added > n+nodeChunkBytes+kidChunkBytes+8<<reserveSlotClass {
		t.Fatalf("Reserve(%d) added %d", n, added)
	}
	if memPool.bytes != added || poolBytes() != added {
		t.Fatalf("pool bytes %d, lists %d, want %d", memPool.bytes, poolBytes(), added)
	}
	if got := len(memPool.nodes) * nodeChunkBytes; got < n*58/100 {
		t.Fatalf("node chunks %d bytes, want ≥ %d", got, n*58/100)
	}
	if got := len(memPool.kids) * kidChunkBytes; got < n*22/100 {
		t.Fatalf("child chunks %d bytes, want ≥ %d", got, n*22/100)
	}
	if got := len(memPool.slots[reserveSlotClass]) * 8 << reserveSlotClass; got < n*20/100 {
		t.Fatalf("slot arrays %d bytes, want ≥ %d", got, n*20/100)
	}
	if again := Reserve(n); again != 0 {
		t.Fatalf("Reserve again added %d", again)
	}
	fresh := memPool.fresh
	for threads := 1; threads <= 2; threads++ {
		b := New(Options{Threads: threads, Seed: 1, Reserve: -1})
		if err := b.Reset(mustField(t), []Piece{T, I, O, L, J, S, Z}, NoPiece, 0); err != nil {
			t.Fatal(err)
		}
		if st := b.Think(context.Background(), Budget{Nodes: 60000}); st.Nodes < 60000 {
			t.Fatalf("%d threads: %+v", threads, st)
		}
		b.Close()
	}
	if memPool.fresh != fresh {
		t.Fatalf("searches after Reserve(%d) made %d fresh chunks or slot arrays", n, memPool.fresh-fresh)
	}
	if got := poolBytes(); got != memPool.bytes {
		t.Fatalf("pool bytes %d, lists %d", memPool.bytes, got)
	}
}

// TestCloseReuse checks that a search on memory and workers recycled from
// other bots (Close, Reset, Play) finds exactly what it finds on fresh
// memory with fresh workers.
func TestCloseReuse(t *testing.T) {
	emptyPool(t)
	type result struct {
		st    Stats
		plan  []Move
		cands []Candidate
	}
	positions := []struct {
		rows  []string
		queue []Piece
	}{
		{nil, []Piece{T, I, O, L, J, S, Z}},
		{[]string{"XX________", "X___XXXXXX", "XX_XXXXXXX"}, []Piece{T, O, I, L, J}},
		{[]string{"_X___XX___", "XXX_XXXX_X", "XXXX_XXXXX", "X_XXXXXXXX"}, []Piece{S, Z, J, L, T}},
		{[]string{"XXXX__XXXX", "XXX__XXXXX"}, []Piece{Z, S, T, I, O, L, J}}, // for the workers only
	}
	search := func(t *testing.T, i int, b *Bot) result {
		pos := positions[i]
		board := mustField(t, pos.rows...)
		if err := b.Reset(board, pos.queue, NoPiece, 0); err != nil {
			t.Fatal(err)
		}
		nodes := int64(20000)
		if i == 3 {
			nodes = 2000 // the workers' caches are stamped by their first expansions
		}
		st := b.Think(context.Background(), Budget{Nodes: nodes})
		st.Elapsed = 0
		if err := dagInvariants(b.d, false); err != nil {
			t.Fatal(err)
		}
		return result{st, b.Plan(), b.Candidates()}
	}
	var first []result
	for i := range positions[:3] {
		b := New(Options{Seed: uint64(i + 1), Reserve: -1})
		first = append(first, search(t, i, b))
		b.Close()
		emptyPool(t) // the next bot's memory and workers fresh too
	}
	if len(memPool.workers) != 0 {
		t.Fatal("pool not empty")
	}
	// the workers of three closed bots, for the bots below; they searched
	// another position, so that caches left from it would change the
	// results
	var bots []*Bot
	for i := range 3 {
		b := New(Options{Seed: uint64(i + 1)})
		search(t, 3, b)
		bots = append(bots, b)
	}
	for _, b := range bots {
		b.Close()
	}
	if len(memPool.workers) != 3 {
		t.Fatalf("%d workers pooled, want 3", len(memPool.workers))
	}
	// again, in reverse order, on recycled memory; one bot reset between
	// positions, another closed after each
	poisonPool()
	reused := New(Options{Seed: 1})
	for i := 2; i >= 0; i-- {
		b := New(Options{Seed: uint64(i + 1)})
		if got := search(t, i, b); !reflect.DeepEqual(got, first[i]) {
			t.Fatalf("position %d on recycled memory: %+v, want %+v", i, got.st, first[i].st)
		}
		b.Close()
		b.Close() // twice: nothing more
		poisonPool()
		if st := b.Think(context.Background(), Budget{Nodes: 100}); st.Nodes != 0 {
			t.Fatalf("a closed bot searched: %+v", st)
		}
		search(t, i, reused) // Reset gives the last search's memory back
		if err := reused.Play(reused.Plan()[0]); err != nil {
			t.Fatal(err)
		}
		reused.settle()
		if err := dagInvariants(reused.d, true); err != nil {
			t.Fatal(err)
		}
	}
	if got := search(t, 0, New(Options{Seed: 1})); !reflect.DeepEqual(got, first[0]) {
		t.Fatalf("position 0 again: %+v, want %+v", got.st, first[0].st)
	}
}

// TestWorkerRecycle checks that a worker taken from a closed bot expands a
// board exactly as a fresh worker does, though its last expansions (the
// same queue on another board) left evaluations, sorts and placements in
// its caches.
func TestWorkerRecycle(t *testing.T) {
	emptyPool(t)
	queue := []Piece{T, I, O, L, J, S, Z}
	boardA := mustField(t, "XXXX__XXXX", "XXX__XXXXX")
	boardB := mustField(t, "XX________", "X___XXXXXX", "XX_XXXXXXX")
	expandAll := func(b *Bot, board Board) [][]fullChild {
		w := b.wks[0]
		s := State{Board: board, Bag: 0x7F}
		for _, p := range queue {
			s.push(p)
		}
		var out [][]fullChild
		for range 3 { // the root and two of its children's states, as a search goes on
			b.expand(w, &s)
			for p := range w.lists {
				out = append(out, materialize(w, inOrder(w.lists[p], w.order[p])))
			}
			s = w.childState(&w.lists[0][w.order[0][0]])
		}
		return out
	}
	fresh := New(Options{Reserve: -1})
	want := expandAll(fresh, boardB)
	old := New(Options{Reserve: -1})
	expandAll(old, boardA)
	w := old.wks[0]
	old.Close()
	b := New(Options{Reserve: -1})
	if b.wks[0] != w {
		t.Fatal("the new bot did not get the closed bot's worker")
	}
	if got := expandAll(b, boardB); !reflect.DeepEqual(got, want) {
		t.Fatal("a recycled worker expanded differently from a fresh one")
	}
}
