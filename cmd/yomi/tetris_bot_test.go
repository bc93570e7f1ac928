// tetris_bot_test.go runs `yomi tetris think` end to end.
package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/tetris"
)

func TestTetrisThink(t *testing.T) {
	code, out, errs := run(t, "tetris", "think", "--field", "X__XX_X___/X___XXXXXX/XX_XXXXXXX", "--queue", "TOILJ", "--nodes", "20000", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var o thinkOutput
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(o.Moves) == 0 || o.Moves[0] != (thinkMove{"T", "south", 2, 1, "full", false}) {
		t.Fatalf("want the T-spin double first, got %+v", o.Moves[:min(1, len(o.Moves))])
	}
	if o.Nodes < 20000 || o.Depth < 2 {
		t.Fatalf("stats %+v", o)
	}
	for _, bad := range [][]string{
		{"tetris", "think", "--queue", "TQX"},
		{"tetris", "think"},
		{"tetris", "think", "--queue", "T", "--field", "XX"},
		{"tetris", "think", "--queue", "T", "--threads", "0"},
	} {
		code, _, errs := run(t, bad...)
		if code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", bad, code, errs)
		}
	}
}

// TestTetrisThinkPC checks --pc: an empty board with 12 known pieces gets a
// perfect-clear plan whose moves clear the board; with 5 pieces none.
func TestTetrisThinkPC(t *testing.T) {
	code, out, errs := run(t, "tetris", "think", "--queue", "IOTLJSZIOTLJ", "--pc", "--nodes", "1000", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var o thinkOutput
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if o.PC == nil || !o.PC.Active || o.PC.Moves != len(o.Plan) || len(o.Plan) == 0 || o.Plan[0] != o.Moves[0] {
		t.Fatalf("no perfect-clear plan: %s", out)
	}
	var b tetris.Board
	for _, m := range o.Plan {
		p, _ := tetris.ParsePiece(m.Piece)
		r, _ := tetris.ParseRot(m.Orientation)
		pl := tetris.Placement{Piece: p, Rot: r, X: int8(m.X), Y: int8(m.Y)}
		if !b.FitsPlacement(pl) {
			t.Fatalf("plan move %+v does not fit", m)
		}
		b.Place(pl)
	}
	if !b.Empty() {
		t.Fatalf("plan leaves\n%s", b.String())
	}
	code, out, _ = run(t, "tetris", "think", "--queue", "IOTLJ", "--pc", "--nodes", "1000", "--json")
	if err := json.Unmarshal([]byte(out), &o); code != 0 || err != nil || o.PC == nil || o.PC.Active {
		t.Fatalf("5 pieces: exit %d %v %s", code, err, out)
	}
	if code, _, _ := run(t, "tetris", "think", "--queue", "I", "--pc-nodes", "-1"); code != 2 {
		t.Fatalf("--pc-nodes -1: exit %d, want 2", code)
	}
}

// TestTetrisThinkOnePiece: one piece, hold allowed, empty board is an
// ordinary position (the piece is placed); a position where nothing can be
// placed fails with a clear message instead of exiting 0.
func TestTetrisThinkOnePiece(t *testing.T) {
	for _, p := range []string{"T", "I"} {
		code, out, errs := run(t, "tetris", "think", "--queue", p, "--nodes", "5000")
		if code != 0 || !strings.HasPrefix(out, "move "+p+" ") || !strings.Contains(out, "hold=false") {
			t.Errorf("--queue %s: exit %d, %q %q", p, code, out, errs)
		}
	}
	var rows []string
	for i := range 24 {
		rows = append(rows, map[bool]string{true: "X_X_X_X_X_", false: "_X_X_X_X_X"}[i%2 == 1])
	}
	field := strings.Join(rows, "/")
	for _, extra := range [][]string{nil, {"--json"}, {"--hold", "I"}} {
		args := append([]string{"tetris", "think", "--queue", "T", "--field", field, "--nodes", "1000"}, extra...)
		code, _, errs := run(t, args...)
		if code != 1 || !strings.Contains(errs, "no move") {
			t.Errorf("%v: exit %d, stderr %q; want 1 and no move", extra, code, errs)
		}
	}
}
