package api

import (
	"os"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/hatetris/replay"
)

// TestSessions plays, undoes, redoes and branches a game, checking every
// state against a game played directly.
func TestSessions(t *testing.T) {
	s := NewSessions()
	st, err := s.Do(Request{Op: "new", WithReplay: true})
	if err != nil || st.Pos != 0 || st.Piece != "S" || st.Replay != "" || st.AI != "hatetris" {
		t.Fatalf("new: %+v %v", st, err)
	}
	moves := "LLUDDDDDDDDDDDDDDDDDDDRRD"
	for i, m := range moves {
		if st, err = s.Do(Request{Op: "move", Move: string(m), WithReplay: true}); err != nil {
			t.Fatal(err)
		}
		ms, _ := hatetris.ParseMoves(moves[:i+1])
		same(t, st, ms, hatetris.Hatetris)
		if want, _ := replay.Encode(ms, replay.Base2048); st.Replay != want {
			t.Fatalf("move %d: replay %q, want %q", i, st.Replay, want)
		}
	}
	// Undo twice, redo once, then a different move drops the redo tail.
	s.Do(Request{Op: "undo"})
	s.Do(Request{Op: "undo"})
	st, _ = s.Do(Request{Op: "redo"})
	ms, _ := hatetris.ParseMoves(moves[:len(moves)-1])
	same(t, st, ms, hatetris.Hatetris)
	st, _ = s.Do(Request{Op: "move", Move: "L"})
	ms, _ = hatetris.ParseMoves(moves[:len(moves)-1] + "L")
	same(t, st, ms, hatetris.Hatetris)
	if st.Total != len(ms) {
		t.Fatalf("after branching the timeline has %d moves, want %d", st.Total, len(ms))
	}
	// Another timeline does not disturb this one.
	if _, err := s.Do(Request{Op: "load", TL: "view", Replay: "DDDD", AI: "mild"}); err != nil {
		t.Fatal(err)
	}
	st, _ = s.Do(Request{Op: "state"})
	same(t, st, ms, hatetris.Hatetris)
}

func same(t *testing.T, st State, ms []hatetris.Move, ai hatetris.AIKind) {
	t.Helper()
	g := hatetris.NewGame(ai)
	g.Play(ms)
	if st.Well != g.Well || st.Cells != g.PieceRows() || st.Score != g.Score || st.Over != g.Over || st.Spawns != g.Pieces || st.Pos != len(ms) {
		t.Fatalf("after %s: state %+v, game score %d over %v pieces %d\n%s", hatetris.MovesString(ms), st, g.Score, g.Over, g.Pieces, g.Drawing())
	}
	if !g.Over && st.Piece != g.Piece.String() {
		t.Fatalf("piece %q, game %v", st.Piece, g.Piece)
	}
}

// TestLoadRecord: a record loads, ends at its score in game over, and every
// seek lands on the game's state after that many moves.
func TestLoadRecord(t *testing.T) {
	b, err := os.ReadFile("../../records/107-nn-beam10000-quiescence.txt")
	if err != nil {
		t.Fatal(err)
	}
	s := NewSessions()
	st, err := s.Do(Request{Op: "load", TL: "view", Replay: string(b)})
	if err != nil || st.Pos != 0 || st.Encoding != "base2048" {
		t.Fatalf("load: %+v %v", st, err)
	}
	ms, _, _ := replay.Decode(string(b))
	ms = ms[:hatetris.NewGame(hatetris.Hatetris).Play(ms)] // the pad after game over is not played
	for _, at := range []int{1, 500, st.Total / 2, st.Total, st.Total + 100, -5} {
		st, err := s.Do(Request{Op: "seek", TL: "view", At: at})
		if err != nil {
			t.Fatal(err)
		}
		k := max(0, min(at, len(ms)))
		same(t, st, ms[:k], hatetris.Hatetris)
	}
	st, _ = s.Do(Request{Op: "seek", TL: "view", At: 1 << 30})
	if st.Score != 107 || !st.Over {
		t.Fatalf("end of the record: %+v", st)
	}
	// Moves after game over are not part of the timeline.
	st, _ = s.Do(Request{Op: "load", TL: "view", Replay: mustEncode(t, append(ms, hatetris.Left, hatetris.Left))})
	if st.Total != len(ms) {
		t.Fatalf("a replay with moves after game over has %d moves, want %d", st.Total, len(ms))
	}
}

func TestBadRequests(t *testing.T) {
	s := NewSessions()
	for _, c := range []struct {
		req  Request
		want string
	}{
		{Request{Op: "move", Move: "L"}, "no game"},
		{Request{Op: "new", AI: "kind"}, "unknown AI"},
		{Request{Op: "load", Replay: ""}, "empty replay"},
		{Request{Op: "load", Replay: "!?!"}, "replay"},
		{Request{Op: "load", Replay: strings.Repeat("D", MaxReplayBytes+1)}, "bytes"},
		{Request{Op: "new", TL: strings.Repeat("x", 33)}, "longer than 32"},
		{Request{Op: "fly"}, ""},
	} {
		if _, err := s.Do(c.req); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error with %q", c.req.Op, err, c.want)
		}
	}
	s.Do(Request{Op: "new"})
	for _, m := range []string{"", "X", "LL"} {
		if _, err := s.Do(Request{Op: "move", Move: m}); err == nil {
			t.Errorf("move %q accepted", m)
		}
	}
	if _, err := s.Do(Request{Op: "fly"}); err == nil || !strings.Contains(err.Error(), "unknown op") {
		t.Errorf("unknown op: %v", err)
	}
	for i := 0; i < maxTimelines; i++ {
		s.Do(Request{Op: "new", TL: string(rune('a' + i))})
	}
	if _, err := s.Do(Request{Op: "new", TL: "one-too-many"}); err == nil {
		t.Error("more timelines than the bound accepted")
	}
	// A replay with more moves than MaxMoves is refused (hex: 2 moves a digit).
	if _, err := s.Do(Request{Op: "load", TL: "a", Replay: strings.Repeat("A", MaxMoves/2+1)}); err == nil || !strings.Contains(err.Error(), "moves") {
		t.Errorf("too many moves: %v", err)
	}
}

func mustEncode(t *testing.T, ms []hatetris.Move) string {
	t.Helper()
	s, err := replay.Encode(ms, replay.Base2048)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSeekPiece walks a record piece by piece: forward lands on each spawn's
// first state (the spawn count goes up by one), backward retraces them.
func TestSeekPiece(t *testing.T) {
	b, err := os.ReadFile("../../records/33-heuristic-beam10000.txt")
	if err != nil {
		t.Fatal(err)
	}
	s := NewSessions()
	st, err := s.Do(Request{Op: "load", TL: "v", Replay: string(b)})
	if err != nil {
		t.Fatal(err)
	}
	var starts []int
	for !st.Over {
		starts = append(starts, st.Pos)
		next, _ := s.Do(Request{Op: "next", TL: "v"})
		if !next.Over && (next.Spawns != st.Spawns+1 || next.Pos <= st.Pos) {
			t.Fatalf("next from move %d (piece %d): move %d piece %d", st.Pos, st.Spawns, next.Pos, next.Spawns)
		}
		st = next
	}
	if st.Pos != st.Total || st.Score != 33 {
		t.Fatalf("the last next: %+v", st)
	}
	for k := len(starts) - 1; k >= 0; k-- {
		st, _ = s.Do(Request{Op: "prev", TL: "v"})
		if st.Pos != starts[k] || st.Spawns != k+1 {
			t.Fatalf("prev %d: move %d piece %d, want move %d piece %d", k, st.Pos, st.Spawns, starts[k], k+1)
		}
	}
	if st, _ = s.Do(Request{Op: "prev", TL: "v"}); st.Pos != 0 {
		t.Fatalf("prev at the start: %+v", st)
	}
}
