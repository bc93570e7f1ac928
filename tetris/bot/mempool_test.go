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
