package bot

import (
	"slices"
	"testing"

	"github.com/yomi-ai/yomi/tetris/movegen"
)

// TestExpandPlacementCache checks that a speculated expansion, which reuses
// one piece's placements and evaluations for every possible next piece,
// makes exactly the children that generating and evaluating every piece
// afresh makes (same moves, values, states, order), in fast and complete
// mode, with one worker for all expansions as in a search.
func TestExpandPlacementCache(t *testing.T) {
	fields := [][]string{
		nil,
		{"XX________", "X___XXXXXX", "XX_XXXXXXX"},
		{"_X___XX___", "XXX_XXXX_X", "XXXX_XXXXX", "X_XXXXXXXX"},
		{"XXXXXXXXX_", "XXXXXXXXX_", "XXXXXXXXX_", "XXXXXXXXX_"},
	}
	states := []struct {
		name  string
		hold  Piece
		queue []Piece
		bag   uint8
	}{
		{"hold T, no queue", T, nil, 0x7F},
		{"hold I, no queue, 3 left", I, nil, 1<<uint(S) | 1<<uint(Z) | 1<<uint(I)},
		{"no hold, current J", NoPiece, []Piece{J}, 0x7F &^ (1 << uint(J))},
		{"no hold, current O, 2 left", NoPiece, []Piece{O}, 1<<uint(O) | 1<<uint(L)},
	}
	for _, complete := range []bool{false, true} {
		b := New(Options{Complete: complete})
		w := &worker{gen: b.wks[0].gen, rng: b.rngs[0]} // one worker for every board, as in a search
		for fi, rows := range fields {
			board, err := ParseField(rows)
			if err != nil {
				t.Fatal(err)
			}
			for _, sc := range states {
				s := State{Board: board, Hold: sc.hold, Bag: sc.bag}
				for _, p := range sc.queue {
					s.Queue[s.QLen] = p
					s.QLen++
				}
				spec, n := b.expand(w, &s)
				if !spec {
					t.Fatalf("field %d, %s: not speculated", fi, sc.name)
				}
				total := 0
				for p := range Piece(7) {
					if s.Bag&(1<<uint(p)) == 0 {
						continue
					}
					ts := s
					ts.push(p)
					ref := &worker{gen: NewGenerator()}
					want := b.knownChildren(ref, &ts, nil, 1)
					want = inOrder(want, presortGeneral(want, nil))
					got := inOrder(w.lists[p], w.order[p])
					total += len(want)
					if !slices.Equal(materialize(w, got), materialize(ref, want)) {
						t.Errorf("complete=%v field %d, %s, next %v: %d children, want %d (or they differ)", complete, fi, sc.name, p, len(got), len(want))
					}
				}
				if n != total || total == 0 {
					t.Errorf("complete=%v field %d, %s: %d children, want %d", complete, fi, sc.name, n, total)
				}
			}
		}
	}
}

// fullChild is an expChild with its state spelt out.
type fullChild struct {
	mv    Move
	rw    Reward
	val   Value
	h     uint64
	drawn int8
	st    State
}

// materialize spells out the states of children of w's last expansion
// and checks their hashes.
func materialize(w *worker, l []expChild) []fullChild {
	out := make([]fullChild, len(l))
	for i := range l {
		e := &l[i]
		out[i] = fullChild{e.mv, e.rw, e.val, e.h, e.drawn, w.childState(e)}
		if st := out[i].st; st.hash() != e.h {
			out[i].h = ^e.h // a wrong hash makes the comparison fail
		}
	}
	return out
}

// TestPlaceFields checks the children place writes field by field against
// their sources, for the current piece and the held one: the move is the
// generated placement (the one its lock entry names) with the hold use
// set and one more input when held, the state is the lock's board with
// the queue popped and the hold piece the place call's, and the draw
// count is the expansion's.
func TestPlaceFields(t *testing.T) {
	fields := [][]string{
		nil,
		{"XX________", "X___XXXXXX", "XX_XXXXXXX"},
		{"_X___XX___", "XXX_XXXX_X", "XXXX_XXXXX", "X_XXXXXXXX"},
	}
	states := []struct {
		hold  Piece
		queue []Piece
	}{
		{T, []Piece{I, O}},          // held T: pop 1, hold I
		{NoPiece, []Piece{S, L, Z}}, // hold empty: held L pops 2, hold S
		{J, []Piece{J, T}},          // hold = current: no held children
	}
	b := New(Options{})
	w := &worker{gen: b.wks[0].gen, rng: b.rngs[0]}
	heldSeen := 0
	for fi, rows := range fields {
		board, err := ParseField(rows)
		if err != nil {
			t.Fatal(err)
		}
		for si, sc := range states {
			s := State{Board: board, Hold: sc.hold, Bag: 0x7F}
			for _, p := range sc.queue {
				s.Queue[s.QLen] = p
				s.QLen++
			}
			if spec, _ := b.expand(w, &s); spec {
				t.Fatalf("field %d state %d: speculated", fi, si)
			}
			cur := s.Queue[0]
			for k := range w.lists[0] {
				e := &w.lists[0][k]
				held := k >= w.split
				want := w.moves[e.mv.Piece][e.lock]
				want.Hold = held
				pop, hold := 1, s.Hold
				if held {
					want.Time++
					heldSeen++
					hold = cur
					if s.Hold == NoPiece {
						pop = 2
					}
				} else if e.mv.Piece != cur {
					t.Fatalf("field %d state %d child %d: piece %v before the split, want %v", fi, si, k, e.mv.Piece, cur)
				}
				if e.mv != want || e.drawn != 0 {
					t.Fatalf("field %d state %d child %d: move %+v drawn %d, want %+v drawn 0", fi, si, k, e.mv, e.drawn, want)
				}
				st := w.childState(e)
				wantSt := s
				wantSt.pop(pop)
				wantSt.Hold = hold
				wantSt.Board = w.locks[e.mv.Piece][e.lock].board
				if st != wantSt || st.hash() != e.h {
					t.Fatalf("field %d state %d child %d: state or hash differs", fi, si, k)
				}
			}
		}
	}
	if heldSeen == 0 {
		t.Fatal("no held children")
	}
}

// TestConvertMoves compares the bot's Placements and FastPlacements with
// the shared generator's moves converted one literal at a time, appended
// after moves already in dst, on boards low and tall, with and without
// holes, for every piece.
func TestConvertMoves(t *testing.T) {
	fields := [][]string{
		nil,
		{"_X___XX___", "XXX_XXXX_X", "XXXX_XXXXX", "X_XXXXXXXX"},
		{"XX___XXXXX", "X____XXXXX", "XX_XXXXXXX"},
	}
	tall := make([]string, 17)
	for i := range tall {
		tall[i] = "XXXX_XXXXX"
	}
	fields = append(fields, tall)
	g := NewGenerator()
	ref := NewGenerator()
	checked := 0
	for fi, rows := range fields {
		board, err := ParseField(rows)
		if err != nil {
			t.Fatal(err)
		}
		for p := range Piece(7) {
			for _, fast := range []bool{false, true} {
				prefix := []Move{{Piece: Z, X: 3, Y: 9, Time: 7}}
				var got []Move
				var src []movegen.Move
				if fast {
					got = g.FastPlacements(slices.Clone(prefix), &board, p)
					src = ref.g.FastGenerate(nil, &board.Board, p)
				} else {
					got = g.Placements(slices.Clone(prefix), &board, p)
					src = ref.g.Generate(nil, &board.Board, p)
				}
				want := prefix
				for _, m := range src {
					want = append(want, Move{Piece: m.Piece, Rot: m.Rot, X: m.X, Y: m.Y, Spin: m.Spin, Time: int16(min(m.Time, 1<<15-1))})
				}
				if !slices.Equal(got, want) || len(want) < 2 {
					t.Fatalf("field %d piece %v fast=%v: %d moves differ from the %d converted", fi, p, fast, len(got), len(want))
				}
				checked += len(src)
			}
		}
	}
	if checked < 500 {
		t.Fatalf("only %d moves", checked)
	}
}
