// tetris_bot_test.go runs `yomi tetris think` end to end.
package main

import (
	"encoding/json"
	"testing"
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
