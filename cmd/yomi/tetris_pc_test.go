// This file tests `yomi tetris pc` in-process: text, --json and usage errors.

package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/internal/cli"
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

// TestTetrisPCInterrupted runs issue 25's hours-long searches and cancels
// them as Ctrl-C would: each verb must stop within 2 s, say it was
// interrupted, print no result and exit 1; a search that ran over a second
// has drawn its progress bar.
func TestTetrisPCInterrupted(t *testing.T) {
	empty := "__________/__________/__________/__________"
	for _, c := range []struct {
		args  []string
		after time.Duration
	}{
		{[]string{"tetris", "pc", "path", "--field", empty, "--pieces", "I,O,L,J,S,Z,T,*p4", "--clear", "4"}, 1500 * time.Millisecond},
		{[]string{"tetris", "pc", "percent", "--field", empty, "--pieces", "I,[SZ]p2,[SZ]p2,[SZ]p2,[SZ]p2,[SZ]p2"}, 300 * time.Millisecond},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		var out, errb bytes.Buffer
		done := make(chan int, 1)
		go func() {
			done <- newApp().Main(ctx, &cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, c.args)
		}()
		time.Sleep(c.after)
		cancel()
		select {
		case code := <-done:
			if code == 0 || !strings.Contains(errb.String(), "interrupted") || out.Len() != 0 {
				t.Errorf("%v: exit %d, stdout %q, stderr %q", c.args[2], code, out.String(), errb.String())
			}
			if c.after > time.Second && !strings.Contains(errb.String(), "pc path") {
				t.Errorf("%v: no progress bar after %v: %q", c.args[2], c.after, errb.String())
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("%v: still running 2 s after the cancel", c.args[2])
		}
	}
}
