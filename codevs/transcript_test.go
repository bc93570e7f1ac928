// Byte-exact check of the turn loop and the protocol writer against a real
// official-client transcript (testdata/client_transcript.txt).
package codevs

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/yomi-ai/yomi/codevs/protocol"
)

// TestClientTranscript replays the transcript: the moves of both players are
// recovered turn by turn (the drop whose resulting field matches the next
// block), the game is stepped with them, and every turn block the Game
// produces must equal the client's bytes, given the client's time values.
func TestClientTranscript(t *testing.T) {
	data, err := os.ReadFile("testdata/client_transcript.txt")
	if err != nil {
		t.Fatal(err)
	}
	rd := protocol.NewReader(bytes.NewReader(data))
	pp, err := rd.ReadStart()
	if err != nil {
		t.Fatal(err)
	}
	var turns []protocol.Turn
	for {
		tb, err := rd.ReadTurn()
		if err != nil {
			break
		}
		turns = append(turns, tb)
	}
	if len(turns) != 16 {
		t.Fatalf("read %d turn blocks, want 16", len(turns))
	}
	g, err := NewGame(SimPacks(pp))
	if err != nil {
		t.Fatal(err)
	}
	out := protocol.AppendStart(nil, pp)
	for k, tb := range turns {
		in := g.Input(0, [2]int64{tb.Me.TimeMs, tb.Opp.TimeMs})
		out = protocol.AppendTurn(out, &in)
		if in != tb {
			t.Fatalf("turn %d: game state differs from the client's block\n got %+v\nwant %+v", k, in, tb)
		}
		if k+1 == len(turns) {
			break
		}
		next := turns[k+1]
		var m [2]Move
		for i, want := range []protocol.Field{next.Me.Field, next.Opp.Field} {
			found := false
			for x := 0; x <= 8 && !found; x++ {
				for r := 0; r <= 3 && !found; r++ {
					p := g.P[i]
					if _, err := p.Act(g.Packs[g.Turn], Drop(x, r)); err != nil {
						t.Fatal(err)
					}
					if p.Field() == want {
						m[i], found = Drop(x, r), true
					}
				}
			}
			if !found {
				t.Fatalf("turn %d: no drop of player %d gives the next field", k, i+1)
			}
		}
		if _, err := g.Step(m); err != nil {
			t.Fatal(err)
		}
	}
	// The file ends with four blank lines after the last block (an artefact
	// of the log); everything before them must match byte for byte.
	want := bytes.TrimRight(data, "\n")
	got := bytes.TrimRight(out, "\n")
	if !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		t.Fatalf("bytes differ at offset %d (got %d bytes, want %d): %s", i, len(got), len(want), fmt.Sprintf("%q vs %q", snip(got, i), snip(want, i)))
	}
	if !bytes.HasSuffix(data, append(append([]byte{}, want...), "\n\n\n\n\n"...)) {
		t.Errorf("transcript tail changed")
	}
}

func snip(b []byte, i int) []byte {
	j := min(i+20, len(b))
	return b[i:j]
}
