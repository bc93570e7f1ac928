// session_test.go runs scripted TBP conversations against Serve (in
// process and as a child process driven by Client): the spec's example
// exchange, a mid-game start after garbage, bad lines, hold inference,
// moves checked against the move generator, and a crashed or hung bot.

package tbp

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/tetris"
	"github.com/yomi-ai/yomi/tetris/bot"
	"github.com/yomi-ai/yomi/tetris/movegen"
)

// TestMain lets the test binary serve TBP itself when run as a child.
func TestMain(m *testing.M) {
	if os.Getenv("YOMI_TBP_CHILD") == "1" {
		err := Serve(context.Background(), os.Stdin, os.Stdout, Config{Bot: bot.Options{Seed: 1}, MaxNodes: 20000, Log: os.Stderr})
		if err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// conv is an in-process conversation with Serve.
type conv struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
	log  *strings.Builder
}

func newConv(t *testing.T) *conv {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &conv{t: t, in: inW, out: bufio.NewReader(outR), done: make(chan error, 1), log: &strings.Builder{}}
	go func() {
		c.done <- Serve(context.Background(), inR, outW, Config{Bot: bot.Options{Seed: 3}, MaxNodes: 5000, Log: c.log})
		outW.Close()
	}()
	return c
}

func (c *conv) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("send %s: %v", line, err)
	}
}

func (c *conv) recv() Message {
	c.t.Helper()
	type res struct {
		s   string
		err error
	}
	ch := make(chan res, 1)
	go func() { s, err := c.out.ReadString('\n'); ch <- res{s, err} }()
	select {
	case r := <-ch:
		if r.err != nil {
			c.t.Fatalf("recv: %v", r.err)
		}
		m, err := DecodeBot([]byte(r.s))
		if err != nil {
			c.t.Fatalf("recv %q: %v", r.s, err)
		}
		return m
	case <-time.After(20 * time.Second):
		c.t.Fatal("recv: timeout")
	}
	return nil
}

func startLine(t *testing.T, p *tetris.Player) string {
	t.Helper()
	var hold *string
	if p.Hold != tetris.NoPiece {
		h := p.Hold.String()
		hold = &h
	}
	b, err := Encode(Start{Hold: hold, Queue: PieceNames(p.Pieces()), Combo: int(p.Combo), BackToBack: p.B2B,
		Board: BoardFrom(&p.Board), Randomizer: SevenBag(p.Bag.Left)})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestConversation plays whole games through the protocol: every
// suggestion must be reachable (checked by the move generator), play and
// new_piece keep the bot in step, garbage arrives as a mid-game start,
// and junk lines in between change nothing.
func TestConversation(t *testing.T) {
	c := newConv(t)
	info, ok := c.recv().(Info)
	if !ok || info.Name != "Yomi" || info.Features == nil {
		t.Fatalf("first message %#v", info)
	}
	c.send(`{"type":"rules","randomizer":"seven_bag"}`)
	if m := c.recv(); m.Type() != "ready" {
		t.Fatalf("rules answered with %#v", m)
	}
	g := movegen.New(movegen.Options{})
	rules := tetris.DefaultRules()
	p := tetris.NewPlayer(rules, 11, 12)
	c.send(startLine(t, p))
	junk := []string{`not json`, `{"type":"suggest"`, `{"type":"dance"}`, `{"type":"new_piece","piece":"Q"}`, `{"type":"play","move":{}}`, `{}`}
	moves, holds, withNodes := 60, 0, 0
	if testing.Short() {
		moves = 25
	}
	for i := range moves {
		c.send(junk[i%len(junk)])
		c.send(`{"type":"suggest"}`)
		s, ok := c.recv().(Suggestion)
		if !ok || len(s.Moves) == 0 {
			t.Fatalf("move %d: suggestion %#v", i, s)
		}
		// nodes count the search since the last play; a suggest sent right
		// after play may find none yet (the kept subtree answers it)
		if s.MoveInfo == nil {
			t.Fatalf("move %d: no move_info", i)
		}
		if s.MoveInfo.Nodes > 0 {
			withNodes++
		}
		pl, err := s.Moves[0].Placement()
		if err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
		if _, err := p.Choice(pl.Piece); err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
		if _, ok := g.Find(&p.Board, pl); !ok {
			t.Fatalf("move %d: %v is not reachable on\n%v", i, pl, p.Board.String())
		}
		before := len(p.Queue)
		_ = before
		holdWasEmpty := p.Hold == tetris.NoPiece
		turn, err := p.Play(pl)
		if err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
		if p.Death != tetris.Alive {
			t.Fatalf("move %d: died (%v)", i, p.Death)
		}
		c.send(`{"type":"play","move":` + string(mustJSON(t, s.Moves[0])) + `}`)
		fresh := 1
		if turn.Hold {
			holds++
			if holdWasEmpty {
				fresh = 2
			}
		}
		for _, np := range p.Queue[len(p.Queue)-fresh:] {
			c.send(`{"type":"new_piece","piece":"` + np.String() + `"}`)
		}
		if i%9 == 4 { // garbage arrives: a mid-game start with the new board
			p.ReceiveGarbage(2)
		}
		if len(turn.Garbage) > 0 {
			c.send(startLine(t, p))
		}
	}
	if withNodes < moves/2 {
		t.Errorf("only %d of %d suggestions reported nodes", withNodes, moves)
	}
	if p.Stats.GarbageLines == 0 {
		t.Errorf("no garbage reached the board; the mid-game start was not exercised")
	}
	c.send(`{"type":"stop"}`)
	c.send(`{"type":"suggest"}`) // ignored after stop
	c.send(`{"type":"quit"}`)
	if err := <-c.done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	for _, want := range []string{"bad message", "unknown message type \"dance\"", "suggest ignored"} {
		if !strings.Contains(c.log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, c.log.String())
		}
	}
	t.Logf("%d moves, %d holds, %d garbage lines", moves, holds, p.Stats.GarbageLines)
}

func mustJSON(t *testing.T, m Move) []byte {
	b, err := Encode(Play{Move: m})
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	return []byte(s[strings.Index(s, `"move":`)+7 : len(s)-1])
}

// TestPlayNotSuggested plays a move the bot did not choose (and an
// equivalent location of an S piece): the bot must rebuild and go on.
func TestPlayNotSuggested(t *testing.T) {
	c := newConv(t)
	c.recv()
	c.send(`{"type":"start","hold":null,"queue":["S","T","I","O","Z","L"],"combo":0,"back_to_back":false,"board":` + emptyBoardJSON() + `}`)
	// S north at x=1,y=0 fills (0,0),(1,0),(1,1),(2,1); S south at (1,1) covers the same cells
	c.send(`{"type":"play","move":{"location":{"type":"S","orientation":"south","x":1,"y":1},"spin":"none"}}`)
	c.send(`{"type":"play","move":{"location":{"type":"I","orientation":"north","x":7,"y":0},"spin":"none"}}`) // hold T, play I
	c.send(`{"type":"suggest"}`)
	s := c.recv().(Suggestion)
	pl, err := s.Moves[0].Placement()
	if err != nil {
		t.Fatal(err)
	}
	if pl.Piece != tetris.O && pl.Piece != tetris.T {
		t.Fatalf("after S and I (T held) the bot placed %v, want O or the held T", pl.Piece)
	}
	var b tetris.Board
	b.Place(tetris.Placement{Piece: tetris.S, Rot: tetris.North, X: 1, Y: 0})
	b.Place(tetris.Placement{Piece: tetris.I, Rot: tetris.North, X: 7, Y: 0})
	if _, ok := movegen.New(movegen.Options{}).Find(&b, pl); !ok {
		t.Fatalf("suggested %v is not reachable on\n%v", pl, b.String())
	}
	c.send(`{"type":"quit"}`)
	if err := <-c.done; err != nil {
		t.Fatal(err)
	}
}

// TestLongLineSkipped sends a line over MaxLine: it is skipped, the
// session goes on.
func TestLongLineSkipped(t *testing.T) {
	c := newConv(t)
	c.recv()
	go func() {
		io.WriteString(c.in, `{"type":"rules","x":"`+strings.Repeat("a", MaxLine+10)+"\"}\n")
		c.send(`{"type":"rules"}`)
	}()
	if m := c.recv(); m.Type() != "ready" {
		t.Fatalf("got %#v", m)
	}
	c.in.Close()
	if err := <-c.done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.log.String(), "longer than") {
		t.Errorf("log: %s", c.log.String())
	}
}

// TestClientChild drives the test binary as a TBP child process.
func TestClientChild(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	ctx := context.Background()
	c, err := Launch(ctx, "YOMI_TBP_CHILD=1 exec "+exe, 10*time.Second, arena.ProcessOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Info.Name != "Yomi" {
		t.Fatalf("info %#v", c.Info)
	}
	if err := c.Rules(Rules{Randomizer: "seven_bag"}); err != nil {
		t.Fatal(err)
	}
	p := tetris.NewPlayer(tetris.DefaultRules(), 5, 6)
	var st Start
	if err := jsonDecode(startLine(t, p), &st); err != nil {
		t.Fatal(err)
	}
	if err := c.Send(st); err != nil {
		t.Fatal(err)
	}
	if err := c.Pause(); err != nil {
		t.Fatal(err)
	}
	if err := c.Resume(); err != nil {
		t.Fatal(err)
	}
	s, err := c.Suggest()
	if err != nil || len(s.Moves) == 0 {
		t.Fatalf("suggest: %v %#v", err, s)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
}

func jsonDecode(line string, st *Start) error {
	m, err := DecodeFrontend([]byte(line))
	if err != nil {
		return err
	}
	*st = m.(Start)
	return nil
}

// TestClientBadBots: a bot that crashes, hangs, or talks nonsense gives an
// error within the timeout, never a hang or panic.
func TestClientBadBots(t *testing.T) {
	info := `echo '{"type":"info","name":"x","version":"1","author":"a","features":[]}'; `
	tests := []struct {
		name, cmd string
		atLaunch  bool
		wantErr   error
	}{
		{"silent", "sleep 5", true, arena.ErrTimeout},
		{"dies", "exit 3", true, arena.ErrExited},
		{"hangs", info + "sleep 5", false, arena.ErrTimeout},
		{"crashes", info + "read x; exit 4", false, arena.ErrExited},
		{"garbage", info + `while read x; do echo 'nonsense'; echo '{"type":"suggestion","moves":[{"location":7}]}'; done`, false, arena.ErrTimeout},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Launch(context.Background(), tc.cmd, 500*time.Millisecond, arena.ProcessOptions{})
			if tc.atLaunch {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("launch: %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if _, err := c.Suggest(); !errors.Is(err, tc.wantErr) {
				t.Fatalf("suggest: %v, want %v", err, tc.wantErr)
			}
		})
	}
}
