// eval_test.go checks the evaluator's features on hand-made boards and the
// weights file format.

package bot

import (
	"os"
	"testing"
)

func TestFeatures(t *testing.T) {
	tests := []struct {
		name         string
		rows         []string
		trans        int32
		cav, ovh     int32
		cov, covSq   int32
		bump, bumpSq int32
		well         int
	}{
		{"empty", nil, 80, 0, 0, 0, 0, 1, 1, 9},
		// one closed hole at (1,0) under a full-width row: a cavity, covered by 1
		{"cavity", []string{"XXXXXXXXX_", "X_XXXXXXX_"}, 82, 1, 0, 0, 0, 1, 1, 9},
		// holes at (2,1) and (2,0) under an overhang: (2,1) is open to the
		// low columns 3 and 4 (an overhang), (2,0) is not (a cavity)
		{"overhang", []string{"XXX_______", "XX________", "XX________"}, 80, 1, 1, 2, 4, 0, 0, 9},
		// column 0 of height 4 with a hole at y=0: covered by min(6, 4-0-1)=3
		{"covered", []string{"X_________", "X_________", "X_________", "__________"}, 0, 1, 0, 3, 9, 0, 0, 9},
		// column 0 of height 9, holes at y=5 (open to the right: overhang) and
		// y=0 (cavity); covered min(6,3)=3 and min(6,8)=6
		{"covered2", []string{"X_________", "X_________", "X_________", "__________", "X_________", "X_________", "X_________", "X_________", "__________"}, 0, 1, 1, 9, 45, 0, 0, 9},
	}
	for _, tc := range tests {
		b := mustField(t, tc.rows...)
		var h [10]int
		b.Heights(&h)
		well := 0
		for x := 1; x < 10; x++ {
			if h[x] <= h[well] {
				well = x
			}
		}
		if well != tc.well {
			t.Errorf("%s: well %d want %d", tc.name, well, tc.well)
		}
		if tc.trans != 0 {
			if got := rowTransitions(&b, len(b.Rows)); got != tc.trans {
				t.Errorf("%s: row transitions %d want %d", tc.name, got, tc.trans)
			}
			if got := rowTransitions(&b, b.MaxHeight()); got != tc.trans {
				t.Errorf("%s: row transitions from the stack height %d want %d", tc.name, got, tc.trans)
			}
		}
		cav, ovh, cov, sq := holeFeatures(&b, b.MaxHeight())
		if cav != tc.cav || ovh != tc.ovh {
			t.Errorf("%s: cavities/overhangs %d/%d want %d/%d", tc.name, cav, ovh, tc.cav, tc.ovh)
		}
		if cov != tc.cov || sq != tc.covSq {
			t.Errorf("%s: covered %d/%d want %d/%d", tc.name, cov, sq, tc.cov, tc.covSq)
		}
		if tc.name != "covered" && tc.name != "covered2" && tc.name != "overhang" {
			bp, bs := bumpiness(&h, well)
			if bp != tc.bump || bs != tc.bumpSq {
				t.Errorf("%s: bumpiness %d/%d want %d/%d", tc.name, bp, bs, tc.bump, tc.bumpSq)
			}
		}
	}
}

func TestBumpinessHandCounted(t *testing.T) {
	// heights 2 0 1 0 0 0 0 0 0 0: well = 9; |2-0|+|0-1|+|1-0| = 4, minus the
	// initial −1 gives 3; squares 4+1+1−1 = 5.
	h := [10]int{2, 0, 1}
	b, s := bumpiness(&h, 9)
	if b != 3 || s != 5 {
		t.Fatalf("bumpiness %d/%d want 3/5", b, s)
	}
}

func TestEmptyBoardValue(t *testing.T) {
	// empty board: bumpiness |−1| → −24−7; row transitions 2 per row × 40 → −400.
	e := Evaluator{W: DefaultWeights()}
	var b Board
	in := EvalInput{Move: Move{Piece: O}, NextBag: 0x7F, Hold: NoPiece}
	v, r := e.Evaluate(&b, &in)
	if v.V != -431 {
		t.Fatalf("empty board value %d want -431", v.V)
	}
	if r.Attack != -1 || r.V != 0 {
		t.Fatalf("reward %+v want {0 -1}", r)
	}
}

func TestTSlotCutout(t *testing.T) {
	// a sky T-slot (TSD) on the left: the cut-out fills it and clears 2 lines.
	b := mustField(t,
		"XX________",
		"X___XXXXXX",
		"XX_XXXXXXX")
	var h [10]int
	b.Heights(&h)
	r, x, y, ok := findTSlot(&b, &h)
	if !ok {
		t.Fatal("no T-slot found")
	}
	c := b
	res := lockMove(&c, T, r, x, y, SpinFull)
	if res.Lines != 2 {
		t.Fatalf("cut-out T %v (%d,%d) cleared %d lines, want 2", r, x, y, res.Lines)
	}
	e := Evaluator{W: DefaultWeights()}
	in := EvalInput{Move: Move{Piece: O}, NextBag: 0x7F, Hold: NoPiece}
	with, _ := e.Evaluate(&b, &in)
	in.NextBag = 0x7F &^ (1 << T) // no T coming: one cut-out less (|bag| 6 > 3)
	without, _ := e.Evaluate(&b, &in)
	if with.V <= without.V {
		t.Fatalf("T in bag should value the slot: %d vs %d", with.V, without.V)
	}
}

func TestRewards(t *testing.T) {
	e := Evaluator{W: DefaultWeights()}
	w := e.W
	tests := []struct {
		res  LockResult
		mv   Move
		want int32
	}{
		{LockResult{Kind: KindClear4, Lines: 4, Combo: 1, Attack: 4}, Move{Piece: I, Time: 2}, w.Clear4 + w.MoveTime*(2+40)},
		{LockResult{Kind: KindTspin2, Lines: 2, Combo: 1, Attack: 4}, Move{Piece: T, Time: 5}, w.TSpin2 + w.MoveTime*(5+40)},
		{LockResult{Kind: KindNone}, Move{Piece: T, Time: 3}, w.WastedT + w.MoveTime*3},
		{LockResult{Kind: KindClear1, Lines: 1, Combo: 4, Attack: 1}, Move{Piece: L}, w.Clear1 + w.ComboGarbage*1 + w.MoveTime*40},
		{LockResult{Kind: KindClear2, Lines: 2, Combo: 1, PerfectClear: true, Attack: 10}, Move{Piece: O}, w.PerfectClear + w.MoveTime*40},
		{LockResult{Kind: KindTspin1, Lines: 1, Combo: 1, B2BBonus: true, Attack: 3}, Move{Piece: T}, w.TSpin1 + w.B2BClear + w.MoveTime*40},
	}
	var b Board
	for i, tc := range tests {
		in := EvalInput{Lock: tc.res, Move: tc.mv, NextBag: 0x7F, Hold: NoPiece}
		_, r := e.Evaluate(&b, &in)
		if r.V != tc.want {
			t.Errorf("case %d: reward %d want %d", i, r.V, tc.want)
		}
		wantAttack := int32(tc.res.Attack)
		if tc.res.Lines == 0 {
			wantAttack = -1
		}
		if r.Attack != wantAttack {
			t.Errorf("case %d: attack %d", i, r.Attack)
		}
	}
}

func TestWeightsFile(t *testing.T) {
	data, err := os.ReadFile("testdata/default_weights.json")
	if err != nil {
		t.Fatal(err)
	}
	w, err := ParseWeights(data)
	if err != nil {
		t.Fatal(err)
	}
	if w != DefaultWeights() {
		t.Fatalf("testdata/default_weights.json differs from DefaultWeights")
	}
	w2, err := ParseWeights(DefaultWeights().JSON())
	if err != nil || w2 != DefaultWeights() {
		t.Fatalf("round trip: %v", err)
	}
	if _, err := ParseWeights([]byte(`{"heigth": 3}`)); err == nil {
		t.Fatal("unknown field accepted")
	}
	if w, err := ParseWeights([]byte(`{"height": -1}`)); err != nil || w.Height != -1 || w.Clear4 != 390 {
		t.Fatalf("partial file: %+v %v", w, err)
	}
}
