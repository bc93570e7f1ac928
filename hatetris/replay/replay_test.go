package replay

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/hatetris"
)

type vector struct {
	AI            string `json:"ai"`
	Name          string `json:"name"`
	ExpectedScore int    `json:"expectedScore"`
	Encoding      string `json:"encoding"`
	Replay        string `json:"replay"`
}

func loadVectors(t testing.TB, file string) []vector {
	t.Helper()
	b, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	return vs
}

// TestVectors decodes every upstream vector with auto-detection, replays it
// against its AI to the expected score, and re-encodes it byte for byte.
func TestVectors(t *testing.T) {
	vs := loadVectors(t, "replays.json")
	extra := loadVectors(t, "replays_extra.json")
	if !testing.Short() {
		vs = append(vs, extra...)
	}
	if len(vs) < 50 {
		t.Fatalf("only %d vectors", len(vs))
	}
	for _, v := range vs {
		t.Run(v.Name+"/"+v.Encoding, func(t *testing.T) {
			moves, enc, err := Decode(v.Replay)
			if err != nil {
				t.Fatal(err)
			}
			if string(enc) != v.Encoding {
				t.Errorf("detected %s, want %s", enc, v.Encoding)
			}
			kind, err := hatetris.ParseAI(v.AI)
			if err != nil {
				t.Fatal(err)
			}
			g := hatetris.NewGame(kind)
			g.Play(moves)
			if g.Score != v.ExpectedScore {
				t.Errorf("score %d, want %d (pieces %d, over %v)", g.Score, v.ExpectedScore, g.Pieces, g.Over)
			}
			again, err := Encode(moves, enc)
			if err != nil {
				t.Fatal(err)
			}
			if again != v.Replay {
				t.Errorf("re-encoding differs:\n got %q\nwant %q", again, v.Replay)
			}
			// Every other encoding gives the same game.
			for _, e := range []Encoding{Raw, Hex, Base65536, Base2048} {
				s, _ := Encode(moves, e)
				m2, err := DecodeAs(s, e)
				if err != nil {
					t.Fatalf("%s: %v", e, err)
				}
				g2 := hatetris.NewGame(kind)
				g2.Play(m2)
				if g2.Score != g.Score {
					t.Errorf("%s: score %d, want %d", e, g2.Score, g.Score)
				}
			}
		})
	}
}

// TestDerived checks the research numbers of spec §5: move and spawn counts,
// the loop rule's one change in the loop-basis game, and cross-AI scores.
func TestDerived(t *testing.T) {
	byName := map[string]vector{}
	for _, v := range loadVectors(t, "replays.json") {
		if v.Encoding == "base2048" || v.Encoding == "raw" {
			byName[v.Name] = v
		}
	}
	nmoves := 0
	play := func(name string, kind hatetris.AIKind) *hatetris.Game {
		v, ok := byName[name]
		if !ok {
			t.Fatalf("no vector %q", name)
		}
		ms, _, err := Decode(v.Replay)
		if err != nil {
			t.Fatal(err)
		}
		nmoves = len(ms)
		g := hatetris.NewGame(kind)
		g.Play(ms)
		return g
	}
	g := play("knewjade (5)", hatetris.Hatetris)
	// 10 523 decoded moves; the game ends on move 10 522 (the last is the pad).
	if nmoves != 10523 || g.Moves != 10522 || g.Pieces != 752 || !g.Over {
		t.Errorf("knewjade (5): decoded %d, played %d, pieces %d, over %v; want 10523 10522 752 true", nmoves, g.Moves, g.Pieces, g.Over)
	}
	// The loop rule changes exactly one piece of the loop-basis game: #281.
	hg, mg := play("knewjade loop basis", hatetris.Hatetris), play("knewjade loop basis", hatetris.Mild)
	diff := 0
	for i := 0; i < min(len(hg.Spawned), len(mg.Spawned)); i++ {
		if hg.Spawned[i] != mg.Spawned[i] {
			if diff == 0 && (i != 281 || hg.Spawned[i] != hatetris.Z || mg.Spawned[i] != hatetris.S) {
				t.Errorf("first difference at spawn %d: %v vs %v, want 281 Z vs S", i, hg.Spawned[i], mg.Spawned[i])
			}
			diff++
			break
		}
	}
	if diff == 0 || hg.Score != 107 {
		t.Errorf("loop basis: differences %d, score %d", diff, hg.Score)
	}
	for _, c := range []struct {
		name string
		kind hatetris.AIKind
		want int
	}{
		{"knewjade loop basis", hatetris.Mild, 106},
		{"knewjade loop", hatetris.Hatetris, 107},
		{"Tim loop", hatetris.Hatetris, 84},
		{"David & Felipe loop", hatetris.Hatetris, 20},
		{"David & Felipe loop 2", hatetris.Hatetris, 19},
		{"David & Felipe loop 3", hatetris.Hatetris, 17},
	} {
		if g := play(c.name, c.kind); g.Score != c.want {
			t.Errorf("%s under %v: %d, want %d", c.name, c.kind, g.Score, c.want)
		}
	}
}

// cut65536 is a Base65536 replay of three characters (four bytes each).
const cut65536 = "𤆻𤆻𤆻"

func TestDecodeErrors(t *testing.T) {
	good, _ := Encode([]hatetris.Move{hatetris.Down, hatetris.Left, hatetris.Up}, Base2048)
	tail := string(rep2048().tail[0])
	for _, c := range []struct {
		in, enc, want string
	}{
		{"", "", "empty replay"},
		{"LRXD", "raw", "character 3: bad character 'X'"},
		{"AB G", "hex", "character 4: bad character 'G'"},
		{good + "\u00e9", "base2048", "not in the Base2048 repertoire"},
		{tail + good, "base2048", "character 1: tail character is not the last one"},
		{string(rep2048().main[0]), "base2048", "padding mismatch"},
		// Detection: a Base65536 replay cut inside its last character (the
		// bytes of a copy-paste gone wrong) is named as Base65536, not as a
		// Base2048 replay with a bad first character; text in neither
		// repertoire names both.
		{cut65536[:len(cut65536)-1], "", "replay (base65536): character 3: not UTF-8"},
		{cut65536[:4] + "é" + cut65536[4:], "", "replay (base65536): character 2: bad character"},
		{"éé", "", "replay: character 1: neither Base65536 (bad character"},
	} {
		var err error
		if c.enc == "" {
			_, _, err = Decode(c.in)
		} else {
			_, err = DecodeAs(c.in, Encoding(c.enc))
		}
		var re *Error
		if err == nil || !errors.As(err, &re) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q as %s: error %v, want one containing %q", c.in, c.enc, err, c.want)
		}
	}
}

// FuzzRoundTrip: any move list survives every byte encoding up to the pad
// nybble, and hex up to a pad D.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("LLRRDDDDDUUU"))
	f.Add([]byte{0, 1, 2, 3, 2, 2, 2, 2, 2})
	f.Fuzz(func(t *testing.T, raw []byte) {
		ms := make([]hatetris.Move, len(raw))
		for i, c := range raw {
			ms[i] = hatetris.Move(c & 3)
		}
		for _, e := range []Encoding{Raw, Hex, Base65536, Base2048} {
			s, err := Encode(ms, e)
			if err != nil {
				t.Fatal(err)
			}
			got, err := DecodeAs(s, e)
			if err != nil {
				t.Fatalf("%s %q: %v", e, s, err)
			}
			if len(got) < len(ms) || hatetris.MovesString(got[:len(ms)]) != hatetris.MovesString(ms) {
				t.Fatalf("%s: round trip %q → %q", e, hatetris.MovesString(ms), hatetris.MovesString(got))
			}
			if extra := len(got) - len(ms); extra > 1 {
				t.Fatalf("%s: %d extra moves", e, extra)
			}
		}
	})
}

// FuzzDecode: arbitrary text never panics, what fails gets an *Error, and
// what decodes re-encodes to a string that decodes to the same moves (plus
// at most one pad move).
func FuzzDecode(f *testing.F) {
	for _, v := range []string{"LRDU", "AAAA A2", "𤆻𤆻𤆻", "ϥ"} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ms, enc, err := Decode(s)
		if err != nil {
			var re *Error
			if !errors.As(err, &re) {
				t.Fatalf("%q: untyped error %v", s, err)
			}
			return
		}
		again, err := Encode(ms, enc)
		if err != nil {
			t.Fatal(err)
		}
		// Re-encoding may add one pad move (an odd nybble or move count).
		ms2, err := DecodeAs(again, enc)
		if err != nil || len(ms2) < len(ms) || len(ms2) > len(ms)+1 ||
			hatetris.MovesString(ms2[:len(ms)]) != hatetris.MovesString(ms) {
			t.Fatalf("%q: %v", s, err)
		}
	})
}
