// engine_test.go checks the engine against the spec's vectors: kick tables
// (§4.2, §5), the sfinder SpinChecker TSD (§25.2), spin rules (§9),
// canonical forms (§2), the attack table with combo, back-to-back and
// perfect clear (§10–§13), the 7-bag (§7), garbage cancelling (§14) and
// death rules (§15).

package tetris

import (
	"fmt"
	"strings"
	"testing"
)

func kickString(ks []Cell) string {
	var parts []string
	for _, k := range ks {
		parts = append(parts, fmt.Sprintf("(%d,%d)", k.X, k.Y))
	}
	return strings.Join(parts, " ")
}

func TestKickTables(t *testing.T) {
	tests := []struct {
		p    Piece
		a, b Rot
		want string
	}{
		// spec §4.2
		{T, North, East, "(0,0) (-1,0) (-1,1) (0,-2) (-1,-2)"},
		{T, East, North, "(0,0) (1,0) (1,-1) (0,2) (1,2)"},
		{T, East, South, "(0,0) (1,0) (1,-1) (0,2) (1,2)"},
		{T, South, East, "(0,0) (-1,0) (-1,1) (0,-2) (-1,-2)"},
		{T, South, West, "(0,0) (1,0) (1,1) (0,-2) (1,-2)"},
		{T, West, South, "(0,0) (-1,0) (-1,-1) (0,2) (-1,2)"},
		{T, West, North, "(0,0) (-1,0) (-1,-1) (0,2) (-1,2)"},
		{T, North, West, "(0,0) (1,0) (1,1) (0,-2) (1,-2)"},
		{S, North, East, "(0,0) (-1,0) (-1,1) (0,-2) (-1,-2)"},
		{Z, West, North, "(0,0) (-1,0) (-1,-1) (0,2) (-1,2)"},
		{L, South, West, "(0,0) (1,0) (1,1) (0,-2) (1,-2)"},
		{J, East, South, "(0,0) (1,0) (1,-1) (0,2) (1,2)"},
		{I, North, East, "(1,0) (-1,0) (2,0) (-1,-1) (2,2)"},
		{I, East, North, "(-1,0) (1,0) (-2,0) (1,1) (-2,-2)"},
		{I, East, South, "(0,-1) (-1,-1) (2,-1) (-1,1) (2,-2)"},
		{I, South, East, "(0,1) (1,1) (-2,1) (1,-1) (-2,2)"},
		{I, South, West, "(-1,0) (1,0) (-2,0) (1,1) (-2,-2)"},
		{I, West, South, "(1,0) (-1,0) (2,0) (-1,-1) (2,2)"},
		{I, West, North, "(0,1) (1,1) (-2,1) (1,-1) (-2,2)"},
		{I, North, West, "(0,-1) (-1,-1) (2,-1) (-1,1) (2,-2)"},
		{O, North, East, "(0,1)"},
		{O, East, North, "(0,-1)"},
		{O, East, South, "(1,0)"},
		{O, South, East, "(-1,0)"},
		{O, South, West, "(0,-1)"},
		{O, West, South, "(0,1)"},
		{O, West, North, "(-1,0)"},
		{O, North, West, "(1,0)"},
		// spec §5 (jstris 180)
		{T, North, South, "(0,0) (0,1)"},
		{T, East, West, "(0,0) (1,0)"},
		{T, South, North, "(0,0) (0,-1)"},
		{T, West, East, "(0,0) (-1,0)"},
		{I, North, South, "(1,-1) (1,0)"},
		{I, East, West, "(-1,-1) (0,-1)"},
		{I, South, North, "(-1,1) (-1,0)"},
		{I, West, East, "(1,1) (0,1)"},
		{O, North, South, "(1,1)"},
		{O, East, West, "(1,-1)"},
		{O, South, North, "(-1,-1)"},
		{O, West, East, "(-1,1)"},
	}
	for _, tc := range tests {
		if got := kickString(Kicks(tc.p, tc.a, tc.b)); got != tc.want {
			t.Errorf("%v %v->%v: got %s want %s", tc.p, tc.a, tc.b, got, tc.want)
		}
	}
}

// The I and O "kicks" without obstacles must keep the same cells as a pure
// rotation about the true centre; O cells never move.
func TestOKickKeepsCells(t *testing.T) {
	var b Board
	for r := North; r <= West; r++ {
		for _, to := range []Rot{r.Cw(), r.Ccw(), r.Flip()} {
			nx, ny, k, ok := b.Rotate(O, r, 4, 10, to)
			if !ok || k != 0 {
				t.Fatalf("O %v->%v failed", r, to)
			}
			a := Placement{Piece: O, Rot: r, X: 4, Y: 10}
			c := Placement{Piece: O, Rot: to, X: int8(nx), Y: int8(ny)}
			if a.Cells() != c.Cells() && !sameCells(a, c) {
				t.Errorf("O %v->%v moved cells: %v -> %v", r, to, a.Cells(), c.Cells())
			}
		}
	}
}

func sameCells(a, b Placement) bool {
	ya, ma := a.CellMask()
	yb, mb := b.CellMask()
	return ya == yb && ma == mb
}

func TestPieceCellsAndSpawn(t *testing.T) {
	var b Board
	x, y, ok := b.Spawn(T, Row19Or20)
	if !ok || x != 4 || y != 19 {
		t.Fatalf("T spawn (%d,%d,%v)", x, y, ok)
	}
	got := Placement{Piece: T, X: 4, Y: 19}.Cells()
	want := [4]Cell{{3, 19}, {4, 19}, {5, 19}, {4, 20}}
	if got != want {
		t.Errorf("T spawn cells %v want %v", got, want)
	}
	if c := (Placement{Piece: I, X: 4, Y: 19}).Cells(); c != [4]Cell{{3, 19}, {4, 19}, {5, 19}, {6, 19}} {
		t.Errorf("I spawn cells %v", c)
	}
	// TBP example: T north at (1,0) fills (0,0),(1,0),(2,0),(1,1).
	if c := (Placement{Piece: T, X: 1, Y: 0}).Cells(); c != [4]Cell{{0, 0}, {1, 0}, {2, 0}, {1, 1}} {
		t.Errorf("T (1,0) cells %v", c)
	}
	// East is one clockwise turn: T east has its nub on the right.
	if c := (Placement{Piece: T, Rot: East, X: 4, Y: 10}).Cells(); c != [4]Cell{{4, 11}, {4, 10}, {4, 9}, {5, 10}} {
		t.Errorf("T east cells %v", c)
	}
	b.Rows[19] = 1 << 4
	if _, y, ok := b.Spawn(T, Row19Or20); !ok || y != 20 {
		t.Errorf("spawn over a block: y=%d ok=%v, want 20", y, ok)
	}
	b.Rows[20] = 1 << 4
	if _, _, ok := b.Spawn(T, Row19Or20); ok {
		t.Errorf("spawn into blocks at y=19,20 should block out")
	}
	var e Board
	if _, y, ok := e.Spawn(T, Row21AndFall); !ok || y != 20 {
		t.Errorf("Row21AndFall on empty: y=%d ok=%v", y, ok)
	}
}

func TestCanonical(t *testing.T) {
	for p := I; p <= Z; p++ {
		for r := North; r <= West; r++ {
			pl := Placement{Piece: p, Rot: r, X: 4, Y: 10}
			c := pl.Canonical()
			if !sameCells(pl, c) {
				t.Errorf("%v: canonical %v covers other cells", pl, c)
			}
			switch p {
			case O:
				if c.Rot != North {
					t.Errorf("%v canonical %v", pl, c)
				}
			case I, S, Z:
				if c.Rot != North && c.Rot != West {
					t.Errorf("%v canonical %v", pl, c)
				}
			default:
				if c != pl {
					t.Errorf("%v canonical %v", pl, c)
				}
			}
		}
	}
}

func mustField(t *testing.T, s string) Board {
	t.Helper()
	b, err := ParseField(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Spec §25.2: sfinder SpinChecker case 1.
func TestSpinCheckerTSD(t *testing.T) {
	b := mustField(t, "X__XX_X___/X___XXXXXX/XX_XXXXXXX")
	// T east at (1,2) rests there; a clockwise turn wins with test 2 (+1,−1).
	if !b.Fits(T, East, 1, 2) || !b.Grounded(Placement{Piece: T, Rot: East, X: 1, Y: 2}) {
		t.Fatal("T east (1,2) should fit and rest")
	}
	nx, ny, k, ok := b.Rotate(T, East, 1, 2, South)
	if !ok || nx != 2 || ny != 1 || k != 2 {
		t.Fatalf("rotate: (%d,%d) test %d ok %v, want (2,1) test 2", nx, ny, k, ok)
	}
	if sp := b.TSpin(South, nx, ny, k, FifthKickAlways); sp != SpinFull {
		t.Fatalf("spin %v want full", sp)
	}
	s := State{Board: b}
	res := s.Lock(Placement{Piece: T, Rot: South, X: 2, Y: 1, Spin: SpinFull}, &CC1Attack)
	if res.Kind != KindTspin2 || res.Lines != 2 || res.Attack != 4 || !s.B2B {
		t.Fatalf("lock %+v, want TSD attack 4", res)
	}
	if got := s.Board.String(); got != "X__XX_X___" {
		t.Errorf("board after TSD %q", got)
	}
}

func TestTSpinRules(t *testing.T) {
	tests := []struct {
		field string
		r     Rot
		x, y  int
		kick  int
		rule  SpinRule
		want  Spin
	}{
		// three corners, both nub-side corners filled → full
		{"X_X/___/X__", North, 1, 1, 0, FifthKickAlways, SpinFull},
		// three corners, one nub-side corner → mini
		{"X__/___/X_X", North, 1, 1, 0, FifthKickAlways, SpinMini},
		// same, won by the 5th test → full under CC
		{"X__/___/X_X", North, 1, 1, 4, FifthKickAlways, SpinFull},
		// sfinder: 5th test ending North stays mini …
		{"X__/___/X_X", North, 1, 1, 4, FifthKickTST, SpinMini},
		// … but ending East/West upgrades
		{"X__/___/X_X", East, 1, 1, 3, FifthKickTST, SpinMini},
		{"X__/___/X_X", East, 1, 1, 4, FifthKickTST, SpinFull},
		// two corners → none
		{"X__/___/__X", South, 1, 1, 4, FifthKickAlways, SpinNone},
	}
	for i, tc := range tests {
		rows := strings.Split(tc.field, "/")
		for j := range rows {
			rows[j] += strings.Repeat("_", 7)
		}
		// put the window at y=10..12 so floor does not count
		full := strings.Join(rows, "/") + strings.Repeat("/__________", 10)
		b := mustField(t, full)
		if got := b.TSpin(tc.r, tc.x, tc.y+10, tc.kick, tc.rule); got != tc.want {
			t.Errorf("case %d: %v want %v", i, got, tc.want)
		}
	}
	// walls and floor count as corners: T south at (0+1, 0+1)? use floor.
	var b Board
	if got := b.TSpin(North, 0, 0, 0, FifthKickAlways); got != SpinMini {
		// (−1,1) wall, (−1,−1) wall, (1,−1) floor: 3 corners, nub side NW filled, NE empty
		t.Errorf("wall/floor corners: %v want mini", got)
	}
	// ceiling counts: T north at (4,39) has NW, NE above row 39.
	if got := b.TSpin(North, 4, 38, 0, FifthKickAlways); got != SpinNone {
		t.Errorf("below ceiling: %v", got)
	}
}

func TestAttackSequence(t *testing.T) {
	// Scripted locks on a board built so each clears the wanted lines.
	type step struct {
		prep   string // rows to set before the lock (top to bottom), replacing the board
		pl     Placement
		kind   Kind
		attack int
		b2b    bool
		combo  uint32
		pc     bool
	}
	row9 := "XXXXXXXXX_"
	steps := []step{
		// tetris with I vertical at column 9 (I west origin: cells (0,-1..2)), not a PC (extra row)
		{"X_________/" + row9 + "/" + row9 + "/" + row9 + "/" + row9, Placement{Piece: I, Rot: West, X: 9, Y: 1}, KindClear4, 4, false, 1, false},
		// another tetris: b2b +1, combo 1 → +0
		{"X_________/" + row9 + "/" + row9 + "/" + row9 + "/" + row9, Placement{Piece: I, Rot: West, X: 9, Y: 1}, KindClear4, 5, true, 2, false},
		// a single breaks b2b; combo 2 → +1
		{"X_________/" + row9, Placement{Piece: I, Rot: West, X: 9, Y: 1}, KindClear1, 1, false, 3, false},
		// no clear resets combo
		{"X_________", Placement{Piece: O, X: 4, Y: 1}, KindNone, 0, false, 0, false},
		// perfect clear: a double with O → attack 10
		{"XXXXXXXX__/XXXXXXXX__", Placement{Piece: O, X: 8, Y: 0}, KindClear2, 10, false, 1, true},
	}
	var s State
	for i, st := range steps {
		s.Board = mustField(t, st.prep)
		res := s.Lock(st.pl, &CC1Attack)
		if res.Kind != st.kind || res.Attack != st.attack || res.B2BBonus != st.b2b || res.Combo != st.combo || res.PerfectClear != st.pc {
			t.Errorf("step %d: got %+v", i, res)
		}
	}
	// combo table caps at 11 or more: 5.
	s = State{Combo: 20}
	s.Board = mustField(t, "X_________/"+row9)
	if res := s.Lock(Placement{Piece: I, Rot: West, X: 9, Y: 1}, &CC1Attack); res.Attack != 5 {
		t.Errorf("combo 20 single attack %d want 5", res.Attack)
	}
	// 0-line T-spin keeps b2b and does not clear.
	s = State{B2B: true}
	s.Board = mustField(t, "X_________")
	res := s.Lock(Placement{Piece: T, Rot: North, X: 4, Y: 0, Spin: SpinFull}, &CC1Attack)
	if res.Kind != KindTspin || res.Attack != 0 || !s.B2B {
		t.Errorf("0-line spin %+v b2b %v", res, s.B2B)
	}
	// mini single with b2b: hard, gets +1
	s = State{B2B: true}
	s.Board = mustField(t, "XXX_XXXXXX")
	res = s.Lock(Placement{Piece: T, Rot: North, X: 3, Y: 0, Spin: SpinMini}, &CC1Attack)
	if res.Kind != KindMini1 || res.Attack != 1 || !res.B2BBonus {
		t.Errorf("mini single %+v", res)
	}
	if KindOf(3, SpinMini) != KindTspin3 {
		t.Errorf("(3, mini) should map to tspin triple")
	}
}

func TestLockOut(t *testing.T) {
	var s State
	res := s.Lock(Placement{Piece: O, X: 4, Y: 20}, &CC1Attack)
	if !res.LockedOut {
		t.Errorf("O at y=20 should lock out")
	}
	s = State{}
	res = s.Lock(Placement{Piece: I, Rot: West, X: 4, Y: 20}, &CC1Attack) // cells y=19..22
	if res.LockedOut {
		t.Errorf("I reaching y=19 should not lock out")
	}
}

func TestBag(t *testing.T) {
	b := NewBag(7, 0)
	for bag := range 50 {
		var seen PieceSet
		for i := range 7 {
			p := b.Next()
			if seen.Has(p) {
				t.Fatalf("bag %d: %v twice", bag, p)
			}
			seen = seen.With(p)
			if want := AllPieces &^ seen; i < 6 && b.Left != want {
				t.Fatalf("bag %d: Left %v want %v", bag, b.Left, want)
			}
		}
		if b.Left != AllPieces {
			t.Fatalf("bag not refilled: %v", b.Left)
		}
	}
	// deterministic from the seed
	a, c := NewBag(1, 2), NewBag(1, 2)
	for range 100 {
		if a.Next() != c.Next() {
			t.Fatal("same seed, different sequence")
		}
	}
}

func TestGarbageCancelAndSend(t *testing.T) {
	r := DefaultRules()
	p := NewPlayer(r, 1, 1)
	p.ReceiveGarbage(3)
	p.Attacking = 5
	var turn Turn
	p.deal(&turn)
	if turn.Cancelled != 3 || turn.Sent != 2 || p.Incoming != 0 || p.Attacking != 0 || len(turn.Garbage) != 0 {
		t.Errorf("cancel: %+v incoming %d attacking %d", turn, p.Incoming, p.Attacking)
	}
	p.ReceiveGarbage(14)
	p.Attacking = 2
	turn = Turn{}
	p.deal(&turn)
	if turn.Cancelled != 2 || turn.Sent != 0 || len(turn.Garbage) != 10 || p.Incoming != 2 {
		t.Errorf("insert: %+v incoming %d", turn, p.Incoming)
	}
	for y := range 10 {
		hole := turn.Garbage[9-y]
		if p.Board.Rows[y] != FullRow&^(1<<uint(hole)) {
			t.Fatalf("garbage row %d = %010b, hole %d", y, p.Board.Rows[y], hole)
		}
	}
	// messiness 0: all holes equal
	r.Messiness = 0
	q := NewPlayer(r, 1, 9)
	q.ReceiveGarbage(8)
	turn = Turn{}
	q.deal(&turn)
	for _, h := range turn.Garbage {
		if h != turn.Garbage[0] {
			t.Fatalf("messiness 0 but holes %v", turn.Garbage)
		}
	}
}

func TestTopOutByGarbage(t *testing.T) {
	p := NewPlayer(DefaultRules(), 3, 3)
	p.Board.Rows[39] = 1
	p.ReceiveGarbage(1)
	var turn Turn
	p.deal(&turn)
	if p.Death != TopOut {
		t.Errorf("death %v want top out", p.Death)
	}
}

func TestPlayerPlay(t *testing.T) {
	p := NewPlayer(DefaultRules(), 42, 42)
	if len(p.Queue) != 5 || !p.Current.Valid() {
		t.Fatalf("queue %v current %v", p.Queue, p.Current)
	}
	// Placing a piece that is neither current nor reachable via hold fails.
	var other Piece
	for other = I; other == p.Current || other == p.Queue[0]; other++ {
	}
	if _, err := p.Play(Placement{Piece: other, X: 4, Y: 0}); err == nil {
		t.Errorf("wrong piece accepted")
	}
	// Floating and overlapping placements fail without changing the state.
	before := p.Clone()
	if _, err := p.Play(Placement{Piece: p.Current, X: 4, Y: 5}); err == nil {
		t.Errorf("floating placement accepted")
	}
	if _, err := p.Play(Placement{Piece: p.Current, X: 4, Y: -1}); err == nil {
		t.Errorf("placement below the floor accepted")
	}
	if p.Current != before.Current || p.Board != before.Board {
		t.Fatal("failed play changed state")
	}
	// Hold with empty hold: place the next piece.
	cur, next, after := p.Current, p.Queue[0], p.Queue[1]
	pl := Placement{Piece: next, X: 4}
	pl.Y = int8(p.Board.DropY(next, North, 4, 19))
	turn, err := p.Play(pl)
	if err != nil {
		t.Fatal(err)
	}
	if !turn.Hold || p.Hold != cur || p.Current != after || len(p.Queue) != 5 {
		t.Errorf("after hold: hold %v current %v queue %v", p.Hold, p.Current, p.Queue)
	}
	// The same pieces come out as from a bare bag with the same seed.
	b := NewBag(42, 0x7e7)
	var seq []Piece
	for range 8 {
		seq = append(seq, b.Next())
	}
	if want := append([]Piece{p.Current}, p.Queue...); fmt.Sprint(want) != fmt.Sprint(seq[2:8]) {
		t.Errorf("queue %v, bag sequence %v", want, seq)
	}
	// Game over refuses further plays.
	p.Death = BlockOut
	if _, err := p.Play(pl); err == nil {
		t.Errorf("play after death accepted")
	}
}

// A solo game with a trivial policy (drop each piece at the spawn column)
// ends by block out, never panics, and keeps the piece count consistent.
func TestPlayerDiesStacking(t *testing.T) {
	p := NewPlayer(DefaultRules(), 5, 5)
	for i := 0; i < 200 && p.Death == Alive; i++ {
		x, y, _ := p.Board.Spawn(p.Current, p.Rules.Spawn)
		pl := Placement{Piece: p.Current, X: int8(x), Y: int8(p.Board.DropY(p.Current, North, x, y))}
		if _, err := p.Play(pl); err != nil {
			t.Fatal(err)
		}
	}
	if p.Death != BlockOut && p.Death != LockOut {
		t.Errorf("death %v after %d pieces", p.Death, p.Stats.Pieces)
	}
}

func TestParseField(t *testing.T) {
	b, err := ParseField("X________X\n__________/XXXXXXXXX_")
	if err != nil {
		t.Fatal(err)
	}
	if b.Rows[0] != 0x1FF || b.Rows[1] != 0 || b.Rows[2] != 0x201 {
		t.Errorf("rows %x %x %x", b.Rows[0], b.Rows[1], b.Rows[2])
	}
	for _, bad := range []string{"X", "XXXXXXXXXY", strings.Repeat("__________/", 41)} {
		if _, err := ParseField(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func FuzzParseField(f *testing.F) {
	f.Add("X__XX_X___/X___XXXXXX/XX_XXXXXXX")
	f.Add("__________")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseField(s)
		if err != nil {
			return
		}
		b2, err := ParseField(b.String())
		if err != nil || b2 != b {
			t.Fatalf("round trip %q -> %q", s, b.String())
		}
	})
}

// TBP (text/0000-mvp.md) defines the O and I centers per orientation by
// which mino they are: check that our origins are exactly those minos.
func TestTBPCenters(t *testing.T) {
	tests := []struct {
		p    Piece
		r    Rot
		want string // which mino the origin (0,0) is
	}{
		{O, North, "bottom-left"}, {O, East, "top-left"}, {O, South, "top-right"}, {O, West, "bottom-right"},
		{I, North, "middle-left"}, {I, East, "middle-top"}, {I, South, "middle-right"}, {I, West, "middle-bottom"},
	}
	for _, tc := range tests {
		cs := PieceCells(tc.p, tc.r)
		minX, maxX, minY, maxY := int8(9), int8(-9), int8(9), int8(-9)
		has := false
		for _, c := range cs {
			minX, maxX = min(minX, c.X), max(maxX, c.X)
			minY, maxY = min(minY, c.Y), max(maxY, c.Y)
			if c == (Cell{}) {
				has = true
			}
		}
		if !has {
			t.Errorf("%v %v: origin is not a mino", tc.p, tc.r)
			continue
		}
		var got string
		switch {
		case tc.p == O:
			v := map[bool]string{true: "bottom", false: "top"}[minY == 0]
			h := map[bool]string{true: "left", false: "right"}[minX == 0]
			got = v + "-" + h
		case maxY == minY: // horizontal I: left-middle is x=−1 from the right end… origin's rank from the left
			got = map[int8]string{-1: "middle-left", -2: "middle-right"}[minX]
		default:
			got = map[int8]string{-2: "middle-top", -1: "middle-bottom"}[minY]
		}
		if got != tc.want {
			t.Errorf("%v %v: origin is the %s mino, TBP says %s", tc.p, tc.r, got, tc.want)
		}
	}
}

// Play runs CC1's garbage order: a clearing placement cancels incoming
// lines and sends the rest; a non-clearing one lets garbage in.
func TestPlayGarbageFlow(t *testing.T) {
	r := DefaultRules()
	r.Messiness = 0
	p := NewPlayer(r, 8, 8)
	// Make the current piece an I and prepare a tetris well at column 9.
	p.Current = I
	for y := range 4 {
		p.Board.Rows[y] = FullRow &^ (1 << 9)
	}
	p.Board.Rows[4] = 1 // keeps the tetris from being a perfect clear
	p.ReceiveGarbage(3)
	turn, err := p.Play(Placement{Piece: I, Rot: West, X: 9, Y: 1})
	if err != nil {
		t.Fatal(err)
	}
	if turn.Lock.Kind != KindClear4 || turn.Cancelled != 3 || turn.Sent != 1 || len(turn.Garbage) != 0 || p.Incoming != 0 {
		t.Fatalf("tetris vs 3 incoming: %+v incoming %d", turn, p.Incoming)
	}
	if p.Board.String() != "X_________" {
		t.Fatalf("board after the tetris %q", p.Board.String())
	}
	// Now a non-clearing placement with 2 incoming: 2 garbage rows come in.
	p.ReceiveGarbage(2)
	pc := p.Current
	x, y, _ := p.Board.Spawn(pc, r.Spawn)
	turn, err = p.Play(Placement{Piece: pc, X: int8(x), Y: int8(p.Board.DropY(pc, North, x, y))})
	if err != nil {
		t.Fatal(err)
	}
	if len(turn.Garbage) != 2 || turn.Sent != 0 || p.Incoming != 0 || p.Stats.GarbageLines != 2 {
		t.Fatalf("non-clearing with 2 incoming: %+v", turn)
	}
	if p.Board.Rows[0] != FullRow&^(1<<uint(turn.Garbage[1])) || turn.Garbage[0] != turn.Garbage[1] {
		t.Fatalf("garbage rows %010b %010b holes %v", p.Board.Rows[0], p.Board.Rows[1], turn.Garbage)
	}
	// With garbage blocking, a clear does not let garbage in.
	r.GarbageBlocking = true
	q := NewPlayer(r, 8, 8)
	q.Current = I
	q.Board.Rows[0] = FullRow &^ (1 << 9)
	q.Board.Rows[1] = 1
	q.ReceiveGarbage(5)
	turn, err = q.Play(Placement{Piece: I, Rot: West, X: 9, Y: 1}) // single, attack 0
	if err != nil {
		t.Fatal(err)
	}
	if turn.Lock.Lines != 1 || len(turn.Garbage) != 0 || q.Incoming != 5 {
		t.Fatalf("blocking: %+v incoming %d", turn, q.Incoming)
	}
}

func TestHoldSwapBlockOut(t *testing.T) {
	p := NewPlayer(DefaultRules(), 4, 4)
	p.Hold = O
	p.Current = T
	// Fill the spawn rows except where a T fits at (4,19): an O cannot spawn.
	p.Board.Rows[19] = FullRow &^ (0b111 << 3)
	p.Board.Rows[20] = FullRow &^ (1 << 4)
	// place the O (hold swap) somewhere: the swap itself blocks out first
	turn, err := p.Play(Placement{Piece: O, X: 0, Y: 0})
	if err != nil {
		t.Fatal(err)
	}
	if turn.Death != BlockOut || p.Death != BlockOut || !turn.Hold {
		t.Fatalf("hold swap into a blocked spawn: %+v", turn)
	}
}
