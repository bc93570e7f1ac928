// Tests and fuzz targets of both protocol directions.
package protocol

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestParseCommand(t *testing.T) {
	good := []struct {
		in   string
		want Command
	}{
		{"0 0", Command{X: 0, R: 0}},
		{"8 3", Command{X: 8, R: 3}},
		{"  2   1  ", Command{X: 2, R: 1}},
		{"2\t1\r", Command{X: 2, R: 1}},
		{"02 01", Command{X: 2, R: 1}},
		{"+4 +0", Command{X: 4, R: 0}},
		{"S", Command{Skill: true}},
		{" S \r", Command{Skill: true}},
	}
	for _, c := range good {
		got, err := ParseCommand(c.in)
		if err != nil || got != c.want {
			t.Errorf("%q: %+v %v, want %+v", c.in, got, err, c.want)
		}
	}
	bad := []struct{ in, want string }{
		{"", "empty"},
		{"   \r", "empty"},
		{"9 0", "x = 9 out of range"},
		{"-1 0", "x = -1 out of range"},
		{"0 4", "r = 4 out of range"},
		{"a 100", "bad x"}, // the PDF's example of illegal output
		{"1", "want \"x r\""},
		{"1 2 3", "want \"x r\""},
		{"s", "want \"x r\""},
		{"S S", "bad x"},
		{"SKILL", "want \"x r\""},
		{"1.0 2", "bad x"},
		{"1 0x2", "bad r"},
		{"99999999999 0", "out of range"},
	}
	for _, c := range bad {
		_, err := ParseCommand(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err %v, want ~%q", c.in, err, c.want)
		}
	}
	if _, err := ParseCommand(""); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty line: %v", err)
	}
	for _, c := range []Command{{X: 3, R: 2}, {Skill: true}} {
		if got, _ := ParseCommand(c.String()); got != c {
			t.Errorf("%v does not round-trip", c)
		}
	}
}

func TestValidName(t *testing.T) {
	for _, n := range []string{"ysai", "togatog_ai_3.9", "Ma2AI v1", "名前"} {
		if err := ValidName(n); err != nil {
			t.Errorf("%q: %v", n, err)
		}
	}
	for _, n := range []string{"", "  ", "a/b", `a\b`, "a:b", "a*", "a?", `"a"`, "<a>", "a|b", "a\x01"} {
		if err := ValidName(n); err == nil {
			t.Errorf("%q accepted", n)
		}
	}
}

// sampleTurn is a turn with every kind of value.
func sampleTurn() Turn {
	t := Turn{Turn: 37}
	t.Me = Player{TimeMs: 161907, Ojama: 23, Gauge: 80, Score: 1234}
	t.Opp = Player{TimeMs: 5, Ojama: 0, Gauge: 100, Score: 0}
	t.Me.Field[15] = [Cols]int8{11, 11, 11, 11, 11, 11, 11, 11, 11, 11}
	t.Me.Field[14] = [Cols]int8{1, 2, 3, 4, 5, 6, 7, 8, 9, 0}
	t.Opp.Field[15][9] = 7
	return t
}

func TestAppendTurnLayout(t *testing.T) {
	tb := sampleTurn()
	got := string(AppendTurn(nil, &tb))
	lines := strings.Split(got, "\n")
	if len(lines) != 44 || lines[43] != "" {
		t.Fatalf("%d lines (want 43 + final newline)", len(lines)-1)
	}
	want := map[int]string{
		0: "37", 1: "161907", 2: "23", 3: "80", 4: "1234",
		5:  "0 0 0 0 0 0 0 0 0 0",
		19: "1 2 3 4 5 6 7 8 9 0",
		20: "11 11 11 11 11 11 11 11 11 11",
		21: "END", 22: "5", 23: "0", 24: "100", 25: "0",
		41: "0 0 0 0 0 0 0 0 0 7", 42: "END",
	}
	for i, w := range want {
		if lines[i] != w {
			t.Errorf("line %d: %q, want %q", i+1, lines[i], w)
		}
	}
	packs := []Pack{{Top: [2]int8{2, 4}, Bottom: [2]int8{1, 0}}, {Top: [2]int8{0, 9}, Bottom: [2]int8{5, 5}}}
	if s := string(AppendStart(nil, packs)); s != "2 4\n1 0\nEND\n0 9\n5 5\nEND\n" {
		t.Errorf("start block %q", s)
	}
}

func TestReadTurnRoundTrip(t *testing.T) {
	tb := sampleTurn()
	var buf bytes.Buffer
	buf.Write(AppendTurn(nil, &tb))
	buf.Write(AppendTurn(nil, &tb))
	r := NewReader(&buf)
	for i := range 2 {
		got, err := r.ReadTurn()
		if err != nil || got != tb {
			t.Fatalf("block %d: %v\n got %+v\nwant %+v", i, err, got, tb)
		}
	}
	if _, err := r.ReadTurn(); err != io.EOF {
		t.Fatalf("after the last block: %v, want io.EOF", err)
	}
}

func TestReadTurnErrors(t *testing.T) {
	tb := sampleTurn()
	good := string(AppendTurn(nil, &tb))
	lines := strings.Split(good, "\n")
	edit := func(line int, s string) string {
		l := append([]string(nil), lines...)
		l[line-1] = s
		return strings.Join(l, "\n")
	}
	for _, c := range []struct{ name, in, want string }{
		{"turn 500", edit(1, "500"), "line 1: turn number"},
		{"turn word", edit(1, "x"), "line 1: turn number"},
		{"negative time", edit(2, "-1"), "line 2: turn 37 own time: -1 out of range"},
		{"gauge 101", edit(4, "101"), "line 4: turn 37 own skill gauge"},
		{"cell 10", edit(21, "10 11 11 11 11 11 11 11 11 11"), "line 21: turn 37 own field row 16: cell value 10"},
		{"cell 12", edit(6, "0 0 0 12 0 0 0 0 0 0"), "line 6: turn 37 own field row 1: 12 out of range"},
		{"short row", edit(6, "0 0 0"), `want an integer, got "END"`},
		{"no END", edit(22, "DNE"), "line 22: turn 37 own field: want END"},
		{"opp", edit(25, "x"), "line 25: turn 37 opponent skill gauge"},
		{"truncated", good[:100], "unexpected end of input"},
		{"long token", "1" + strings.Repeat("0", 100), "longer than 64 bytes"},
	} {
		_, err := NewReader(strings.NewReader(c.in)).ReadTurn()
		var se *SyntaxError
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &se) {
			t.Errorf("%s: err %v, want SyntaxError ~%q", c.name, err, c.want)
		}
	}
	if _, err := NewReader(strings.NewReader(" \r\n\t\n")).ReadTurn(); err != io.EOF {
		t.Errorf("whitespace only: %v, want io.EOF", err)
	}
	if _, err := NewReader(strings.NewReader("")).ReadStart(); err != io.EOF {
		t.Errorf("empty start: %v, want io.EOF", err)
	}
}

func TestWhitespaceTolerance(t *testing.T) {
	tb := sampleTurn()
	good := string(AppendTurn(nil, &tb))
	for _, messy := range []string{
		strings.ReplaceAll(good, "\n", "\r\n"),
		strings.ReplaceAll(good, " ", "\t  "),
		strings.ReplaceAll(good, "\n", " "),
		"\n\n" + strings.ReplaceAll(good, "\n", "\n\n") + "   ",
	} {
		got, err := NewReader(strings.NewReader(messy)).ReadTurn()
		if err != nil || got != tb {
			t.Errorf("%q…: %v", messy[:20], err)
		}
	}
}

// FuzzParseCommand: no panic; an accepted line is in range and its
// canonical form parses to the same command.
func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"0 0", "8 3", "S", " 2  1\r", "a 100", "", "9 9", "-0 +3", "1 2 3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCommand(s)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if !c.Skill && (c.X < 0 || c.X > MaxX || c.R < 0 || c.R > MaxR) {
			t.Fatalf("%q accepted as %+v", s, c)
		}
		if c2, err := ParseCommand(c.String()); err != nil || c2 != c {
			t.Fatalf("%q → %+v does not round-trip", s, c)
		}
	})
}

// FuzzReadTurn: no panic on any input; a block that parses is written back
// byte-exact in canonical form and parses to the same value.
func FuzzReadTurn(f *testing.F) {
	tb := sampleTurn()
	good := AppendTurn(nil, &tb)
	f.Add(good)
	f.Add(good[:200])
	f.Add([]byte("0\n180000\n0\n0\n0\n"))
	f.Add(bytes.ReplaceAll(good, []byte("\n"), []byte("\r\n")))
	f.Fuzz(func(t *testing.T, in []byte) {
		r := NewReader(bytes.NewReader(in))
		got, err := r.ReadTurn()
		if err != nil {
			return
		}
		out := AppendTurn(nil, &got)
		again, err := NewReader(bytes.NewReader(out)).ReadTurn()
		if err != nil || again != got {
			t.Fatalf("canonical form does not round-trip: %v", err)
		}
		if !bytes.Equal(AppendTurn(nil, &again), out) {
			t.Fatal("writer not deterministic")
		}
	})
}

// FuzzReadStart: no panic; accepted packs are written back and re-read
// identically.
func FuzzReadStart(f *testing.F) {
	packs := make([]Pack, Turns)
	for i := range packs {
		packs[i] = Pack{Top: [2]int8{int8(i % 10), int8((i + 3) % 10)}, Bottom: [2]int8{int8((i + 5) % 10), 0}}
	}
	good := AppendStart(nil, packs)
	f.Add(good)
	f.Add(good[:100])
	f.Add(bytes.ReplaceAll(good, []byte("END"), []byte("END END")))
	f.Fuzz(func(t *testing.T, in []byte) {
		got, err := NewReader(bytes.NewReader(in)).ReadStart()
		if err != nil {
			return
		}
		again, err := NewReader(bytes.NewReader(AppendStart(nil, got))).ReadStart()
		if err != nil || len(again) != len(got) {
			t.Fatalf("round trip: %v", err)
		}
		for i := range got {
			if got[i] != again[i] {
				t.Fatalf("pack %d differs", i)
			}
		}
	})
}

func BenchmarkReadTurn(b *testing.B) {
	tb := sampleTurn()
	data := AppendTurn(nil, &tb)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := NewReader(bytes.NewReader(data)).ReadTurn(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendTurn(b *testing.B) {
	tb := sampleTurn()
	buf := make([]byte, 0, 4096)
	for b.Loop() {
		buf = AppendTurn(buf[:0], &tb)
	}
}
