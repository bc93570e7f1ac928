// This file tests `yomi tetris pc` in-process: text, --json and usage errors.

package main

import (
	"strings"
	"testing"
)

func TestTetrisPC(t *testing.T) {
	field := "X____X____ XX__XX____ XX__XX____ XXXXXX____"
	code, out, _ := run(t, "tetris", "pc", "percent", "--field", field, "--pieces", "T,I,O,*p4")
	if code != 0 || out != "success: 742/840 (88.33 %)\n" {
		t.Fatalf("percent: %d %q", code, out)
	}
	code, out, _ = run(t, "tetris", "pc", "percent", "--field", field, "--pieces", "T,I,O,*p4", "--no-hold", "--json")
	if code != 0 || strings.TrimSpace(out) != `{"success":29,"total":210}` {
		t.Fatalf("percent json: %d %q", code, out)
	}
	w := "XXXXXX____ XXXXXX____ XXXXXX____ XXXXXX____"
	code, out, _ = run(t, "tetris", "pc", "path", "--field", w, "--pieces", "*p7", "--json")
	if code != 0 || strings.TrimSpace(out) != `{"minimal":69,"unique":135}` {
		t.Fatalf("path json: %d %q", code, out)
	}
	for _, bad := range [][]string{
		{"tetris", "pc"}, {"tetris", "pc", "nope"},
		{"tetris", "pc", "percent", "--field", "XX", "--pieces", "*"},
		{"tetris", "pc", "percent", "--pieces", "[TT]"},
		{"tetris", "pc", "percent", "--field", field},
	} {
		if code, _, _ := run(t, bad...); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
}
