package api

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/yomi-ai/yomi/tetris"
	"github.com/yomi-ai/yomi/tetris/bot"
	"github.com/yomi-ai/yomi/tetris/movegen"
)

// TestHumanLocksAreReachable plays random inputs as a person would (moves,
// turns, 180s, soft drops, holds) over whole games and checks that every
// lock is one the move generator finds with the spin the page computed
// (Lock refuses it otherwise), and that the colours follow the board.
func TestHumanLocksAreReachable(t *testing.T) {
	actions := []string{"left", "right", "cw", "ccw", "180", "down", "sonic", "hold", "left", "right", "cw", "ccw"}
	spins := 0
	for seed := range uint64(12) {
		g, err := NewGame(Config{Seed: seed, Sides: 2, Allow180: seed%2 == 0})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 1))
		for n := 0; n < 150 && !g.Over(); n++ {
			for range rng.IntN(12) {
				if _, err := g.Input(0, actions[rng.IntN(len(actions))]); err != nil {
					t.Fatal(err)
				}
			}
			turn, err := g.Lock(0)
			if err != nil {
				t.Fatalf("seed %d piece %d: %v", seed, n, err)
			}
			if turn.Move.Spin != "none" {
				spins++
			}
			if n%10 == 0 {
				g.Sides[0].P.ReceiveGarbage(2) // some garbage to spin against
			}
		}
		v, _ := g.View(0)
		for y, row := range v.Cells {
			for x := range tetris.Width {
				if (row[x] != '.') != g.Sides[0].P.Board.Occupied(x, y) {
					t.Fatalf("seed %d: colours and board differ at (%d,%d)", seed, x, y)
				}
			}
		}
	}
	t.Logf("%d spins among the locks", spins)
}

// TestHumanMove checks a few inputs on an empty board against the
// engine's placements, and hold's rules.
func TestHumanMove(t *testing.T) {
	g, _ := NewGame(Config{Seed: 3, Sides: 1})
	p := g.Sides[0].P
	first, next := p.Current, p.Queue[0]
	if moved, _ := g.Input(0, "hold"); !moved {
		t.Fatal("hold refused")
	}
	if moved, _ := g.Input(0, "hold"); moved {
		t.Fatal("second hold for one piece allowed")
	}
	if p.Hold != first || p.Current != next {
		t.Fatalf("hold %v current %v, want %v %v", p.Hold, p.Current, first, next)
	}
	if moved, _ := g.Input(0, "180"); moved {
		t.Fatal("180 without Allow180")
	}
	for range 10 {
		g.Input(0, "left")
	}
	turn, err := g.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	pl, _ := turn.Move.Placement()
	for _, c := range pl.Cells() {
		if c.Y > 1 {
			t.Fatalf("hard drop left %v in the air", pl)
		}
	}
	minX := 10
	for _, c := range pl.Cells() {
		minX = min(minX, int(c.X))
	}
	if minX != 0 {
		t.Fatalf("ten lefts left the piece at column %d", minX)
	}
	if v, _ := g.View(0); v.HoldUsed || v.Hold != first.String() {
		t.Fatalf("after the lock: hold %q used %v", v.Hold, v.HoldUsed)
	}
}

// TestPlayRefusesIllegalMoves: a bot's move must be its piece, fit, rest
// on the stack and be reachable with its spin.
func TestPlayRefusesIllegalMoves(t *testing.T) {
	g, _ := NewGame(Config{Seed: 5, Sides: 2})
	cur := g.Sides[1].P.Current.String()
	other := "I"
	if cur == "I" {
		other = "O"
	}
	if g.Sides[1].P.Queue[0].String() == other || g.Sides[1].P.Hold.String() == other {
		t.Skip("seed gives the other piece through the hold")
	}
	bad := []Move{
		{Location{cur, "north", 4, 10}, "none"},    // floating
		{Location{cur, "north", 4, -1}, "none"},    // below the floor
		{Location{other, "north", 4, 0}, "none"},   // not its piece
		{Location{cur, "sideways", 4, 0}, "none"},  // no such orientation
		{Location{cur, "north", 40, 0}, "none"},    // off the board
		{Location{"T", "south", 4, 1}, "full"},     // a spin from nowhere (or not its piece)
		{Location{cur, "north", 4, 0}, "sideways"}, // no such spin
	}
	for _, m := range bad {
		if _, err := g.Play(1, m); err == nil {
			t.Errorf("%+v accepted", m)
		}
	}
	if g.Sides[1].P.Stats.Pieces != 0 {
		t.Fatal("a refused move changed the game")
	}
}

// TestBotSession plays a bot through TBP messages against the engine: its
// suggestions are legal, play/new_piece keep it in step, garbage restarts.
func TestBotSession(t *testing.T) {
	ctx := context.Background()
	g, _ := NewGame(Config{Seed: 8, Sides: 2})
	s := NewBotSession(bot.Options{Threads: 1, Seed: 1, Reserve: -1})
	defer s.Close()
	if _, err := s.Handle(ctx, Message{Type: "suggest"}); err == nil {
		t.Fatal("suggest before start accepted")
	}
	out, err := s.Handle(ctx, Message{Type: "rules", Randomizer: "seven_bag"})
	if err != nil || len(out) != 1 || out[0].Type != "ready" {
		t.Fatalf("rules: %v %v", out, err)
	}
	start, _ := g.Start(1)
	b, _ := json.Marshal(start) // through JSON, as the page sends it
	m, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Handle(ctx, m); err != nil {
		t.Fatal(err)
	}
	for n := range 30 {
		s.Think(ctx, bot.Budget{Nodes: 2000})
		out, err := s.Handle(ctx, Message{Type: "suggest"})
		if err != nil || len(out) != 1 || len(out[0].Moves) == 0 {
			t.Fatalf("move %d: suggest %v %v", n, out, err)
		}
		mv := out[0].Moves[0]
		turn, err := g.Play(1, mv)
		if err != nil {
			t.Fatalf("move %d: the bot's %+v refused: %v", n, mv, err)
		}
		if turn.Death != "" {
			break
		}
		if n == 10 {
			g.Sides[1].P.ReceiveGarbage(3)
		}
		if turn.GarbageRows > 0 {
			st, _ := g.Start(1)
			if _, err := s.Handle(ctx, *st); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if _, err := s.Handle(ctx, Message{Type: "play", Move: &mv}); err != nil {
			t.Fatal(err)
		}
		for _, p := range turn.Fresh {
			if _, err := s.Handle(ctx, Message{Type: "new_piece", Piece: p}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if g.Sides[1].P.Stats.GarbageLines == 0 {
		t.Error("no garbage reached the board")
	}
	for _, bad := range []Message{{Type: "new_piece", Piece: "Q"}, {Type: "play"}, {Type: "start", Queue: []string{"T"}}} {
		if _, err := s.Handle(ctx, bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	if out, err := s.Handle(ctx, Message{Type: "frobnicate"}); err != nil || len(out) != 0 {
		t.Errorf("an unknown message type: %v %v (TBP: ignore)", out, err)
	}
}

// TestMessageJSON: the attributes TBP requires are written even when zero.
func TestMessageJSON(t *testing.T) {
	for _, c := range []struct {
		m    Message
		want string
	}{
		{Message{Type: "suggestion"}, `{"moves":[],"type":"suggestion"}`},
		{Message{Type: "start", Queue: []string{"T"}}, `{"back_to_back":false,"combo":0,"hold":null,"queue":["T"],"type":"start"}`},
		{Message{Type: "ready"}, `{"type":"ready"}`},
		{NewBotSession(bot.Options{}).Info(), `{"author":"yomi","features":[],"name":"Yomi","type":"info","version":"0.1"}`},
	} {
		b, err := json.Marshal(c.m)
		if err != nil || string(b) != c.want {
			t.Errorf("%+v: %s %v, want %s", c.m, b, err, c.want)
		}
	}
}

// TestPlanCells: a plan's moves after a line clear are drawn in the rows
// they will fill now.
func TestPlanCells(t *testing.T) {
	g, _ := NewGame(Config{Seed: 1, Sides: 1})
	b, _ := tetris.ParseField("XXXXXX____")
	g.Sides[0].P.Board = b
	plan := []Move{
		{Location{"I", "north", 7, 0}, "none"}, // clears row 0
		{Location{"O", "north", 0, 0}, "none"}, // then lands on the floor: now rows 1, 2 (row 0 clears first)
	}
	cells, err := g.PlanCells(0, plan)
	if err != nil || len(cells) != 2 {
		t.Fatal(cells, err)
	}
	for _, c := range cells[1] {
		if c[1] < 1 || c[1] > 2 {
			t.Fatalf("the O after the clear drawn at %v", cells[1])
		}
	}
}

// TestPC answers the form and refuses bad input.
func TestPC(t *testing.T) {
	r, err := PC(context.Background(), PCRequest{Field: "XXXXXX____\nXXXXXX____\nXXXXXX____\nXXXXXX____", Pattern: "*p4"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Total == 0 || r.Success == 0 || r.Success > r.Total || len(r.Fields) == 0 || r.Height != 4 {
		t.Fatalf("%+v", r)
	}
	for _, bad := range []PCRequest{
		{Pattern: "*p7", Height: 9},
		{Pattern: "Q"},
		{Pattern: ""},
		{Field: "XXX", Pattern: "*p7"},
		{Field: "XXXXXXXXX_", Pattern: "*p7"}, // 1 empty cell: not a multiple of 4
		{Pattern: "*p7,*p7"},                  // too many sequences (25 M)
	} {
		if _, err := PC(context.Background(), bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// TestPathsAsKeys types the move generator's path of every placement
// (T-spins included) as a person's inputs on boards from real games and
// checks that the lock is that placement with that spin.
func TestPathsAsKeys(t *testing.T) {
	fields := []string{
		"XX________/X_________/XX_XXXXXXX/X___XXXXXX/XX_XXXXXXX",
		"_________X/XXXXXX__XX/XXXXXXX_XX/XXXXXX___X/XXXXXXX_XX",
		"XXX_______/XX________/XX___XXXXX/XXX_XXXXXX",
	}
	spins := 0
	for _, allow180 := range []bool{false, true} {
		for _, f := range fields {
			board, err := tetris.ParseField(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range []tetris.Piece{tetris.T, tetris.S, tetris.I, tetris.L} {
				g, _ := NewGame(Config{Seed: 1, Sides: 1, Allow180: allow180})
				gen := movegen.New(movegen.Options{Allow180: allow180, StepDrop: true})
				moves := gen.Generate(nil, &board, p)
				for _, m := range moves {
					side := g.Sides[0]
					side.P.Board, side.P.Current, side.P.Death = board, p, tetris.Alive
					side.colors = [tetris.Height][tetris.Width]byte{}
					side.spawn()
					for _, in := range gen.Path(m, nil) {
						name := in.String()
						if name == "drop" {
							name = "sonic"
						}
						if moved, err := g.Input(0, name); err != nil || !moved {
							t.Fatalf("%v: input %s of the path refused (%v)", m.Placement, name, err)
						}
					}
					turn, err := g.Lock(0)
					if err != nil {
						t.Fatalf("%v: %v", m.Placement, err)
					}
					got, _ := turn.Move.Placement()
					y0, mask := got.CellMask()
					wy0, wmask := m.Placement.CellMask()
					if y0 != wy0 || mask != wmask || got.Spin != m.Spin {
						t.Fatalf("typed %v, locked %v", m.Placement, got)
					}
					if got.Spin != tetris.SpinNone {
						spins++
					}
					g.Sides[0].P.Stats = tetris.Stats{}
				}
			}
		}
	}
	if spins == 0 {
		t.Fatal("no T-spin among the placements: the fields do not test spins")
	}
	t.Logf("%d spins typed", spins)
}
