// This file tests GameStatus encoding/decoding and fuzzes the decoder the
// controller uses on untrusted input.
package seigot

import (
	"encoding/json"
	"testing"
)

func TestStatusRoundTrip(t *testing.T) {
	cfg, _ := LevelConfig(3, 9, true)
	g := NewGame(cfg)
	g.Tick(Move{Hold: true})
	g.BeginTick()
	b, err := json.Marshal(g.Status(1.5))
	if err != nil {
		t.Fatal(err)
	}
	var st GameStatus
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	p, err := st.Position()
	if err != nil {
		t.Fatal(err)
	}
	want := g.Position()
	if p != want {
		t.Fatalf("decoded %+v\nwant %+v", p, want)
	}
	if st.JudgeInfo.BlockIndex != 2 || st.DebugInfo.LineScoreTable["all_block_clear"] != 4000 || st.BlockInfo.HoldShape.Index == nil {
		t.Fatalf("status fields: %+v", st.JudgeInfo)
	}
	for _, bad := range []string{
		`{"field_info":{"backboard":[]}}`,
		`{"field_info":{"backboard":[` + repeat("9,", 219) + `9]}}`,
		`{"field_info":{"backboard":[` + repeat("0,", 219) + `0]},"block_info":{"currentShape":{"index":12}}}`,
		`{"field_info":{"backboard":[` + repeat("0,", 219) + `0]},"block_info":{"currentShape":{"index":null}}}`,
	} {
		var s GameStatus
		if err := json.Unmarshal([]byte(bad), &s); err != nil {
			continue
		}
		if _, err := s.Position(); err == nil {
			t.Errorf("accepted %.60s", bad)
		}
	}
}

func repeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}

func TestMoveOf(t *testing.T) {
	cases := []struct {
		s  Strategy
		ok bool
	}{
		{Strategy{Direction: 1, X: 4, YOperation: 1, YMoveBlockNum: 1, UseHoldFunction: "n"}, true},
		{Strategy{YOperation: 0, YMoveBlockNum: 3, UseHoldFunction: "y"}, true},
		{Strategy{YOperation: 2, YMoveBlockNum: 1, UseHoldFunction: "n"}, false},
		{Strategy{YOperation: 0, YMoveBlockNum: 0, UseHoldFunction: "n"}, false},
		{Strategy{YOperation: 1, YMoveBlockNum: 1, UseHoldFunction: "maybe"}, false},
	}
	for _, c := range cases {
		m, err := MoveOf(c.s)
		if (err == nil) != c.ok {
			t.Errorf("%+v: err %v", c.s, err)
		}
		if err == nil && StrategyOf(m) != c.s && c.s.YOperation == 1 {
			t.Errorf("round trip %+v -> %+v", c.s, StrategyOf(m))
		}
	}
}

func FuzzStatusPosition(f *testing.F) {
	cfg, _ := LevelConfig(2, 1, false)
	g := NewGame(cfg)
	g.BeginTick()
	b, _ := json.Marshal(g.Status(0))
	f.Add(b)
	f.Add([]byte(`{"field_info":{"backboard":[1,2]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var st GameStatus
		if json.Unmarshal(data, &st) != nil {
			return
		}
		p, err := st.Position()
		if err != nil {
			return
		}
		if p.Cur < 1 || p.Cur > 7 || p.Dir < 0 || p.Dir > 3 {
			t.Fatalf("accepted bad position %+v", p)
		}
		for _, c := range p.Board {
			if c > 7 {
				t.Fatal("cell out of range")
			}
		}
	})
}
