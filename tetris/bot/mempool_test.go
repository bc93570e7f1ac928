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
	nodes, kids, slots, bytes := memPool.nodes, memPool.kids, memPool.slots, memPool.bytes
	memPool.nodes, memPool.kids, memPool.slots, memPool.bytes = nil, nil, [32][][]uint64{}, 0
	memPool.mu.Unlock()
	t.Cleanup(func() {
		memPool.mu.Lock()
		memPool.nodes, memPool.kids, memPool.slots, memPool.bytes = nodes, kids, slots, bytes
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

// TestCloseReuse checks that a search on memory recycled from other
// bots (Close, Reset, Play) finds exactly what it finds on fresh memory.
func TestCloseReuse(t *testing.T) {
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
	}
	search := func(t *testing.T, i int, b *Bot) result {
		pos := positions[i]
		board := mustField(t, pos.rows...)
		if err := b.Reset(board, pos.queue, NoPiece, 0); err != nil {
			t.Fatal(err)
		}
		st := b.Think(context.Background(), Budget{Nodes: 20000})
		st.Elapsed = 0
		if err := dagInvariants(b.d, false); err != nil {
			t.Fatal(err)
		}
		return result{st, b.Plan(), b.Candidates()}
	}
	var first []result
	for i := range positions {
		b := New(Options{Seed: uint64(i + 1)})
		first = append(first, search(t, i, b))
		b.Close()
	}
	// again, in reverse order, on recycled memory; one bot reset between
	// positions, another closed after each
	poisonPool()
	reused := New(Options{Seed: 1})
	for i := len(positions) - 1; i >= 0; i-- {
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
		if err := dagInvariants(reused.d, true); err != nil {
			t.Fatal(err)
		}
	}
	if got := search(t, 0, New(Options{Seed: 1})); !reflect.DeepEqual(got, first[0]) {
		t.Fatalf("position 0 again: %+v, want %+v", got.st, first[0].st)
	}
}
