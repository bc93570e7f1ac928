// Tests of Step and Bench: the spec's game vectors replayed through the API,
// and every kind of bad request.

package api

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// parseGame reads "R:88-77-67 B:08-17-27 …" (single-digit coordinates).
func parseGame(t *testing.T, s string) (colors []int, moves []Move) {
	t.Helper()
	for _, f := range strings.Fields(s) {
		c, body, ok := strings.Cut(f, ":")
		digits := strings.ReplaceAll(body, "-", "")
		if !ok || len(digits) != 6 || (c != "R" && c != "B") {
			t.Fatalf("bad vector move %q", f)
		}
		var m Move
		for i := range 6 {
			m[i] = int(digits[i] - '0')
		}
		colors = append(colors, map[string]int{"R": Red, "B": Blue}[c])
		moves = append(moves, m)
	}
	return colors, moves
}

func ints(s string) []int {
	var out []int
	for _, f := range strings.Fields(s) {
		n := 0
		for _, r := range f {
			n = n*10 + int(r-'0')
		}
		out = append(out, n)
	}
	return out
}

// The game vectors of the spec (§10), move by move.
var vectors = []struct {
	name      string
	size      int
	game      string
	legal     string
	red, blue string
	result    string
}{
	{"9x9 draw", 9,
		`R:88-77-67 B:08-17-27 R:00-11-12 B:80-71-61 R:12-03-04 B:27-36-46 R:67-56-55 B:61-52-53
		 R:11-20-30 B:27-38-48 R:55-64-74 B:52-41-31 R:77-86-85 B:41-50-60 R:12-23-33 B:36-25-24
		 R:55-44-34 B:25-16-17 R:23-14-04 B:46-57-58 R:74-83-82 B:57-66-65 R:56-47-37 B:65-54-53
		 R:37-28-18 B:54-45-35 R:18-07-06 R:06-15-14`,
		"4 4 6 6 8 8 8 9 13 13 12 10 10 10 8 7 9 5 4 2 2 2 1 1 1 2 1 1",
		"1 1 1 1 2 2 2 2 2 2 2 2 2 2 2 2 2 2 3 3 4 4 4 4 5 5 5 6",
		"1 1 1 1 1 1 1 1 1 2 2 2 2 3 3 3 3 4 4 5 5 5 5 6 6 6 6 6",
		"draw"},
	{"5x5 red wins", 5,
		"R:44-33-23 B:40-31-21 R:23-12-02 B:31-42-43 R:00-11-12 B:43-34-24 R:11-20-30 B:24-13-03 B:13-22-32",
		"4 3 4 1 1 1 1 1 2",
		"1 1 2 2 3 3 3 3 3",
		"1 1 1 1 1 1 1 2 2",
		"red"},
}

func TestStepVectors(t *testing.T) {
	ctx := context.Background()
	for _, v := range vectors {
		t.Run(v.name, func(t *testing.T) {
			colors, moves := parseGame(t, v.game)
			legal, red, blue := ints(v.legal), ints(v.red), ints(v.blue)
			r, err := Step(ctx, Request{Size: v.size})
			if err != nil {
				t.Fatal(err)
			}
			for i, m := range moves {
				if r.Turn != colors[i] {
					t.Fatalf("before move %d: turn %d, want %d", i+1, r.Turn, colors[i])
				}
				if n := len(r.Legal[r.Turn]); n != legal[i] {
					t.Fatalf("before move %d: %d legal moves, want %d", i+1, n, legal[i])
				}
				play := m
				r, err = Step(ctx, Request{Size: v.size, Moves: r.Moves, Play: &play})
				if err != nil {
					t.Fatalf("move %d %v: %v", i+1, m, err)
				}
				if r.Score != [2]int{red[i], blue[i]} {
					t.Fatalf("after move %d: score %v, want [%d %d]", i+1, r.Score, red[i], blue[i])
				}
				if *r.Last != m || len(r.Moves) != i+1 {
					t.Fatalf("after move %d: last %v, %d moves", i+1, r.Last, len(r.Moves))
				}
			}
			if !r.Over || r.Turn != -1 || r.Result != v.result || len(r.Legal[0])+len(r.Legal[1]) != 0 {
				t.Fatalf("end: over %v turn %d result %q legal %d+%d", r.Over, r.Turn, r.Result, len(r.Legal[0]), len(r.Legal[1]))
			}
			// Stones: two per move at most, plus the four corners; roots: two per move.
			if len(r.Roots) != 2*len(moves) {
				t.Errorf("%d roots listed, want %d", len(r.Roots), 2*len(moves))
			}
			// Replaying the whole list at once gives the same position.
			again, err := Step(ctx, Request{Size: v.size, Moves: moves})
			if err != nil || again.Score != r.Score || len(again.Stones) != len(r.Stones) {
				t.Fatalf("one-shot replay: %v %+v", err, again)
			}
		})
	}
}

func TestStepStart(t *testing.T) {
	r, err := Step(context.Background(), Request{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Size != 9 || r.Turn != Red || r.Over || r.Status != "Red's turn" || r.Score != [2]int{1, 1} || r.Last != nil {
		t.Fatalf("start: %+v", r)
	}
	want := [][3]int{{0, 0, Red}, {0, 8, Blue}, {8, 0, Blue}, {8, 8, Red}}
	if len(r.Stones) != 4 {
		t.Fatalf("stones %v", r.Stones)
	}
	for i, s := range want {
		if r.Stones[i] != s {
			t.Fatalf("stones %v, want %v", r.Stones, want)
		}
	}
	if len(r.Legal[Red]) != 4 || len(r.Legal[Blue]) != 4 || len(r.Roots) != 0 {
		t.Fatalf("legal %v roots %v", r.Legal, r.Roots)
	}
}

func TestStepErrors(t *testing.T) {
	ok := Move{0, 0, 1, 1, 2, 1}
	bad := Move{0, 0, 1, 1, 0, 1} // backward orthogonal
	blueFirst := Move{8, 0, 7, 1, 6, 1}
	off := Move{-1, 0, 0, 1, 0, 2}
	cases := []struct {
		name string
		req  Request
		want string
	}{
		{"size too small", Request{Size: 4}, "out of range"},
		{"size too big", Request{Size: 20}, "out of range"},
		{"negative size", Request{Size: -9}, "out of range"},
		{"illegal history", Request{Moves: []Move{bad}}, "move 1"},
		{"wrong colour", Request{Moves: []Move{blueFirst}}, "not a legal move for Red"},
		{"off board", Request{Moves: []Move{off}}, "not a legal move"},
		{"repeated move", Request{Moves: []Move{ok, ok}}, "move 2"},
		{"illegal play", Request{Play: &bad}, "not a legal move"},
		{"play and ai", Request{Play: &ok, AI: "random"}, "not both"},
		{"unknown ai", Request{AI: "deep-blue"}, "unknown AI"},
		{"too many moves", Request{Size: 5, Moves: make([]Move, 26)}, "more than"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Step(context.Background(), c.req)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, %v; want error containing %q", r, err, c.want)
			}
		})
	}
	// Moves after the end.
	colors, moves := parseGame(t, vectors[1].game)
	_ = colors
	for _, req := range []Request{{Size: 5, Moves: moves, AI: "random"}, {Size: 5, Moves: moves, Play: &ok}, {Size: 5, Moves: append(moves[:len(moves):len(moves)], ok)}} {
		if _, err := Step(context.Background(), req); !errors.Is(err, ErrGameOver) {
			t.Errorf("after the end: %v, want ErrGameOver", err)
		}
	}
}

func TestStepAI(t *testing.T) {
	ctx := context.Background()
	for _, name := range AINames() {
		t.Run(name, func(t *testing.T) {
			r, err := Step(ctx, Request{Size: 7})
			if err != nil {
				t.Fatal(err)
			}
			for !r.Over {
				turn := r.Turn
				r, err = Step(ctx, Request{Size: 7, Moves: r.Moves, AI: name, MoveTimeMS: 5, Seed: 1})
				if err != nil {
					t.Fatal(err)
				}
				if r.AI == nil || r.AI.Name != name || r.AI.Color != turn {
					t.Fatalf("AI info %+v, want %s moving for %d", r.AI, name, turn)
				}
			}
			if r.Result == "" {
				t.Fatal("no result")
			}
		})
	}
}

func TestBench(t *testing.T) {
	a, err := Bench(BenchRequest{Size: 9, Playouts: 50, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Bench(BenchRequest{Size: 9, Playouts: 50, Seed: 3})
	if a.Plies != b.Plies || a.Plies < 50*15 || a.Plies > 50*60 {
		t.Fatalf("plies %d and %d for the same seed (9x9 games last 19..41 plies)", a.Plies, b.Plies)
	}
	for _, name := range []string{"uct", "yomi"} {
		req := BenchRequest{Size: 9, Playouts: 300, Seed: 5, AI: name}
		x, err := Bench(req)
		if err != nil {
			t.Fatal(err)
		}
		y, _ := Bench(req)
		if x.Move == nil || y.Move == nil || *x.Move != *y.Move {
			t.Fatalf("%s: moves %v and %v for the same seed and iterations", name, x.Move, y.Move)
		}
	}
	for _, req := range []BenchRequest{{Size: 3}, {Playouts: 1 << 30}, {AI: "nope"}} {
		if _, err := Bench(req); err == nil {
			t.Errorf("Bench(%+v) accepted", req)
		}
	}
}

// FuzzStep feeds arbitrary JSON requests to Step, as the server does: it must
// answer or refuse, never panic, and every answer must replay to itself.
func FuzzStep(f *testing.F) {
	for _, s := range []string{
		`{"size":9,"moves":[]}`,
		`{"size":5,"moves":[[4,4,3,3,2,3]],"play":[4,0,3,1,2,1]}`,
		`{"size":5,"moves":[],"ai":"random"}`,
		`{"size":19,"moves":[[0,0,1,1,2,1],[18,0,17,1,16,1]]}`,
		`{"size":9,"moves":[[0,0,1,1,0,1]]}`,
		`{"size":9,"play":[-128,127,999999999,0,1,1]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var req Request
		if json.Unmarshal(data, &req) != nil {
			return
		}
		if req.AI != "" {
			req.MoveTimeMS = 1
		}
		r, err := Step(context.Background(), req)
		if err != nil {
			return
		}
		again, err := Step(context.Background(), Request{Size: r.Size, Moves: r.Moves})
		if err != nil || again.Score != r.Score || again.Turn != r.Turn {
			t.Fatalf("answer does not replay: %v", err)
		}
	})
}

// TestSession plays AI against AI through one Session and checks that each
// AI, colour and size keeps one player (and so its tree) for the game.
func TestSession(t *testing.T) {
	ctx := context.Background()
	sess := NewSession()
	r, err := sess.Step(ctx, Request{Size: 7})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[sessionKey]any{}
	for !r.Over {
		name := []string{"uct", "yomi"}[r.Turn]
		key := sessionKey{name, r.Turn, 7}
		if r, err = sess.Step(ctx, Request{Size: 7, Moves: r.Moves, AI: name, MoveTimeMS: 5, Seed: 2}); err != nil {
			t.Fatal(err)
		}
		p := sess.players[key]
		if old, ok := seen[key]; ok && old != p {
			t.Fatalf("%v: player replaced during the game", key)
		}
		seen[key] = p
	}
	if len(sess.players) != 2 {
		t.Fatalf("%d players for two AIs", len(sess.players))
	}
	// A new game of another size gets its own players; the old ones stay.
	r, _ = sess.Step(ctx, Request{Size: 5})
	if _, err := sess.Step(ctx, Request{Size: 5, Moves: r.Moves, AI: "uct", MoveTimeMS: 5}); err != nil {
		t.Fatal(err)
	}
	if len(sess.players) != 3 {
		t.Fatalf("%d players after a 5x5 move, want 3", len(sess.players))
	}
}
