// batch_test.go checks that Serve handles the lines that arrive together
// (a frontend's play, new_piece and garbage after a move) before it starts
// searching, so that no search is started only to be cut off by the next
// line, and that the garbage message's rows (GarbageRows) keep the bot in
// step with the engine.

package tbp

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/tetris"
	"github.com/yomi-ai/yomi/tetris/movegen"
)

func TestServeThinksOncePerBatch(t *testing.T) {
	p := tetris.NewPlayer(tetris.DefaultRules(), 21, 22)
	pl := movegen.New(movegen.Options{}).Generate(nil, &p.Board, p.Current)[0].Placement
	if _, err := p.Play(pl); err != nil {
		t.Fatal(err)
	}
	play, err := Encode(Play{Move: MoveFrom(pl)})
	if err != nil {
		t.Fatal(err)
	}
	start := tetris.NewPlayer(tetris.DefaultRules(), 21, 22)
	in := strings.Join([]string{
		`{"type":"rules","randomizer":"seven_bag"}`,
		startLine(t, start),
		string(play),
		`{"type":"new_piece","piece":"` + p.Queue[len(p.Queue)-1].String() + `"}`,
	}, "\n") + "\n"
	starts := 0
	thinkHook = func() { starts++ }
	defer func() { thinkHook = nil }()
	var out, log bytes.Buffer
	if err := Serve(context.Background(), strings.NewReader(in), &out, Config{MaxNodes: 200, Log: &log}); err != nil {
		t.Fatal(err)
	}
	if starts != 1 {
		t.Fatalf("%d searches started for one batch of start, play and new_piece, want 1", starts)
	}
	if log.Len() > 0 {
		t.Fatalf("log: %s", log.String())
	}
}

func TestGarbageRowsOrder(t *testing.T) {
	p := tetris.NewPlayer(tetris.DefaultRules(), 3, 4)
	p.Board.Set(0, 0) // a block that must move up
	var st Start
	if err := jsonDecode(startLine(t, p), &st); err != nil {
		t.Fatal(err)
	}
	s := &session{rules: tetris.DefaultRules()}
	if err := s.start(st); err != nil {
		t.Fatal(err)
	}
	defer s.closeBot()
	holes := []int8{3, 7, 7} // in the order the engine inserts them (bottom-most last)
	for _, h := range holes {
		p.Board.AddGarbage(int(h))
	}
	if err := s.garbage(GarbageRows(holes)); err != nil {
		t.Fatal(err)
	}
	if got := s.b.State().Board.Board; got != p.Board {
		t.Fatalf("server board after the garbage message:\n%v\nengine:\n%v", got.String(), p.Board.String())
	}
}
