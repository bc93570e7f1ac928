// This file tests `yomi tetris placements` in-process: counts, the spec's
// TSD vector in --json, hold, @FILE fields and usage errors.

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTetrisPlacements(t *testing.T) {
	// empty-board counts (spec §25.3)
	for p, n := range map[string]string{"I": "17", "O": "9", "T": "34", "S": "17"} {
		code, out, errs := run(t, "tetris", "placements", "--piece", p)
		if code != 0 || !strings.HasSuffix(out, "\n"+n+" placements\n") {
			t.Errorf("%s: exit %d, tail %q %s", p, code, out[max(0, len(out)-40):], errs)
		}
	}
	// the sfinder SpinChecker TSD (spec §25.2), field given via @FILE
	dir := t.TempDir()
	fp := filepath.Join(dir, "field.txt")
	if err := os.WriteFile(fp, []byte("X__XX_X___\nX___XXXXXX\nXX_XXXXXXX\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "tetris", "placements", "--field", "@"+fp, "--piece", "T", "--json")
	if code != 0 {
		t.Fatalf("json: exit %d %s", code, errs)
	}
	var list []struct {
		Orientation string   `json:"orientation"`
		X           int      `json:"x"`
		Y           int      `json:"y"`
		Spin        string   `json:"spin"`
		Lines       int      `json:"lines"`
		Path        []string `json:"path"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range list {
		if m.Orientation == "south" && m.X == 2 && m.Y == 1 {
			found = true
			if m.Spin != "full" || m.Lines != 2 || len(m.Path) == 0 || m.Path[len(m.Path)-1] != "cw" && m.Path[len(m.Path)-1] != "ccw" {
				t.Errorf("TSD entry %+v", m)
			}
		}
	}
	if !found {
		t.Errorf("TSD placement missing from %d placements", len(list))
	}
	// --hold adds the hold piece's placements
	code, out, _ = run(t, "tetris", "placements", "--field", "__________", "--piece", "T", "--hold", "I")
	if code != 0 || !strings.HasSuffix(out, "\n51 placements\n") || !strings.Contains(out, "spin=none hold") {
		t.Errorf("hold: exit %d tail %q", code, out[max(0, len(out)-60):])
	}
	for _, bad := range [][]string{
		{"tetris", "placements"},
		{"tetris", "placements", "--piece", "Q"},
		{"tetris", "placements", "--piece", "T", "--hold", "x"},
		{"tetris", "placements", "--piece", "T", "--field", "XX"},
		{"tetris", "placements", "--piece", "T", "--field", "XXXXXXXXXA"},
		{"tetris", "placements", "--piece", "T", "extra"},
	} {
		if code, _, _ := run(t, bad...); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
}
