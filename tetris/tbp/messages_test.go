// messages_test.go checks the TBP codec: the spec's example lines byte for
// byte, round trips of every message type, rejection of malformed input,
// and a fuzz target on decoding.

package tbp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/tetris"
)

func emptyBoardJSON() string {
	row := "[null,null,null,null,null,null,null,null,null,null]"
	return "[" + strings.TrimSuffix(strings.Repeat(row+",", 40), ",") + "]"
}

func TestSpecExampleLines(t *testing.T) {
	hold := "I"
	board := BoardFrom(&tetris.Board{})
	board[0][3] = 'G'
	board[1][0] = 'T'
	tests := []struct {
		msg  Message
		want string
	}{
		{Info{Name: "Yomi", Version: "0.1", Author: "yomi", Features: []string{}}, `{"type":"info","name":"Yomi","version":"0.1","author":"yomi","features":[]}`},
		{Rules{Randomizer: "seven_bag"}, `{"type":"rules","randomizer":"seven_bag"}`},
		{Ready{}, `{"type":"ready"}`},
		{Error{Reason: "unsupported_rules"}, `{"type":"error","reason":"unsupported_rules"}`},
		{Suggest{}, `{"type":"suggest"}`},
		{Stop{}, `{"type":"stop"}`},
		{Quit{}, `{"type":"quit"}`},
		{NewPiece{Piece: "L"}, `{"type":"new_piece","piece":"L"}`},
		{Play{Move: Move{Location{"T", "north", 1, 0}, "none"}}, `{"type":"play","move":{"location":{"type":"T","orientation":"north","x":1,"y":0},"spin":"none"}}`},
		{Suggestion{Moves: []Move{{Location{"T", "north", 1, 0}, "none"}}, MoveInfo: &MoveInfo{Nodes: 12345, NPS: 500000}},
			`{"type":"suggestion","moves":[{"location":{"type":"T","orientation":"north","x":1,"y":0},"spin":"none"}],"move_info":{"nodes":12345,"nps":500000}}`},
		{Suggestion{Moves: []Move{}}, `{"type":"suggestion","moves":[]}`},
		{Start{Queue: []string{"T", "I", "O", "S", "Z"}, Board: BoardFrom(&tetris.Board{}), Randomizer: &Randomizer{Type: "seven_bag", BagState: []string{"L", "J"}}},
			`{"type":"start","hold":null,"queue":["T","I","O","S","Z"],"combo":0,"back_to_back":false,"board":` + emptyBoardJSON() + `,"randomizer":{"type":"seven_bag","bag_state":["L","J"]}}`},
		{Start{Hold: &hold, Queue: []string{"T"}, Combo: 2, BackToBack: true, Board: board},
			`{"type":"start","hold":"I","queue":["T"],"combo":2,"back_to_back":true,"board":` +
				strings.Replace(strings.Replace(emptyBoardJSON(), "[null,null,null,null", `[null,null,null,"G"`, 1), `],[null,null,null,null,null,null,null,null,null,null],[`, `],["T",null,null,null,null,null,null,null,null,null],[`, 1) + `}`},
	}
	for _, tc := range tests {
		got, err := Encode(tc.msg)
		if err != nil {
			t.Fatalf("%T: %v", tc.msg, err)
		}
		if string(got) != tc.want {
			t.Errorf("%T:\n got %s\nwant %s", tc.msg, got, tc.want)
		}
		decode := DecodeFrontend
		switch tc.msg.(type) {
		case Info, Ready, Error, Suggestion:
			decode = DecodeBot
		}
		back, err := decode(got)
		if err != nil {
			t.Fatalf("%T: decode: %v", tc.msg, err)
		}
		if !reflect.DeepEqual(back, tc.msg) {
			t.Errorf("%T: round trip\n got %#v\nwant %#v", tc.msg, back, tc.msg)
		}
	}
}

func TestDecodeLenient(t *testing.T) {
	tests := []struct {
		line string
		want Message
	}{
		{`{"type":"suggest","extra":[1,2,{}]}`, Suggest{}},
		{`{"type":"frobnicate","x":1}`, Unknown{Name: "frobnicate"}},
		{`{"type":"rules"}`, Rules{}},
		{`{"randomizer":"uniform","type":"rules","future":true}`, Rules{Randomizer: "uniform"}},
		{`{"type":"new_piece","piece":"Z"}`, NewPiece{Piece: "Z"}},
	}
	for _, tc := range tests {
		got, err := DecodeFrontend([]byte(tc.line))
		if err != nil {
			t.Errorf("%s: %v", tc.line, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %#v want %#v", tc.line, got, tc.want)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	short := strings.Replace(emptyBoardJSON(), "[null,null,null,null,null,null,null,null,null,null],", "", 1)
	tests := []string{
		``, `not json`, `{"type":`, `[]`, `{}`, `{"type":3}`,
		`{"type":"start","queue":["T"],"board":` + short + `}`,
		`{"type":"start","queue":["T"],"board":[[null]]}`,
		`{"type":"start","queue":["T"],"board":` + strings.Replace(emptyBoardJSON(), "null", `"Q"`, 1) + `}`,
		`{"type":"start","queue":["T"],"board":` + strings.Replace(emptyBoardJSON(), "null", `7`, 1) + `}`,
		`{"type":"play","move":{"location":{"type":"T","orientation":"north","x":"1","y":0},"spin":"none"}}`,
		`{"type":"garbage","rows":[[null,null]]}`,
	}
	for _, line := range tests {
		if m, err := DecodeFrontend([]byte(line)); err == nil {
			t.Errorf("%q: decoded as %#v, want an error", line, m)
		}
	}
}

func TestMovePlacement(t *testing.T) {
	for p := tetris.I; p <= tetris.Z; p++ {
		for r := tetris.North; r <= tetris.West; r++ {
			for _, sp := range []tetris.Spin{tetris.SpinNone, tetris.SpinMini, tetris.SpinFull} {
				pl := tetris.Placement{Piece: p, Rot: r, X: 4, Y: 7, Spin: sp}
				got, err := MoveFrom(pl).Placement()
				if err != nil || got != pl {
					t.Fatalf("%v: got %v, %v", pl, got, err)
				}
			}
		}
	}
	bad := []Move{
		{Location{"X", "north", 4, 4}, "none"},
		{Location{"t", "north", 4, 4}, "none"},
		{Location{"T", "up", 4, 4}, "none"},
		{Location{"T", "north", 4, 4}, "tspin"},
		{Location{"T", "north", 400, 4}, "none"},
		{Location{"T", "north", 4, -99}, "none"},
	}
	for _, m := range bad {
		if _, err := m.Placement(); err == nil {
			t.Errorf("%+v: no error", m)
		}
	}
}

func TestBoardConversion(t *testing.T) {
	b, err := tetris.ParseField("X___XX____\nXXXXXXXXX_")
	if err != nil {
		t.Fatal(err)
	}
	w := BoardFrom(&b)
	raw, _ := json.Marshal(w)
	var back Board
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	eb, err := back.Engine()
	if err != nil || eb != b {
		t.Fatalf("board round trip: %v\n%v\nwant\n%v", err, eb.String(), b.String())
	}
	if w[0][9] != 0 || w[0][0] != 'G' || w[1][4] != 'G' || w[1][1] != 0 {
		t.Fatalf("bottom row first broken: %v %v", w[0], w[1])
	}
}

func FuzzDecodeFrontend(f *testing.F) {
	f.Add([]byte(`{"type":"start","hold":null,"queue":["T","I"],"combo":0,"back_to_back":false,"board":` + emptyBoardJSON() + `,"randomizer":{"type":"seven_bag","bag_state":["L","J"]}}`))
	f.Add([]byte(`{"type":"play","move":{"location":{"type":"T","orientation":"north","x":1,"y":0},"spin":"none"}}`))
	f.Add([]byte(`{"type":"garbage","rows":[["G","G",null,"G","G","G","G","G","G","G"]]}`))
	f.Add([]byte(`{"type":"rules","randomizer":"seven_bag"}`))
	f.Add([]byte(`{"type":"suggestion","moves":[]}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		for _, decode := range []func([]byte) (Message, error){DecodeFrontend, DecodeBot} {
			m, err := decode(line)
			if err != nil {
				continue
			}
			if _, ok := m.(Unknown); ok {
				continue
			}
			enc, err := Encode(m)
			if err != nil {
				continue // e.g. a cell letter accepted nowhere
			}
			m2, err := decode(enc)
			if err != nil {
				t.Fatalf("re-decode of %s: %v", enc, err)
			}
			enc2, _ := Encode(m2)
			if string(enc) != string(enc2) {
				t.Fatalf("not a fixed point:\n%s\n%s", enc, enc2)
			}
			if pl, ok := m.(Play); ok {
				if p, err := pl.Move.Placement(); err == nil {
					if got, _ := MoveFrom(p).Placement(); got != p {
						t.Fatalf("move round trip %v", p)
					}
				}
			}
			if st, ok := m.(Start); ok {
				st.Board.Engine()
				st.Randomizer.BagSet()
			}
		}
	})
}
