package arena

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/arena/arenatest"
)

// within fails the test if f has not returned after d (the goroutine is
// left behind: the point is to report a hang, not to wait for it).
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s still running after %v", what, d)
	}
}

// TestChaosProcess runs every chaos bot as a Process: a read sees what the
// bot is, and Close returns promptly whatever it prints.
func TestChaosProcess(t *testing.T) {
	for _, c := range arenatest.All {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			p, err := StartProcess(context.Background(), c.Cmd, ProcessOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer within(t, 5*time.Second, "Close", func() { p.Close() })
			p.WriteLine("hello") // may fail: the bot need not read
			var line string
			within(t, 10*time.Second, "ReadLine", func() { line, err = p.ReadLine(time.Second) })
			switch c.Fails {
			case "flood":
				// Lines read before the flood may come first.
				for err == nil {
					line, err = p.ReadLine(time.Second)
				}
				if !errors.Is(err, ErrFlood) || !errors.Is(err, ErrExited) || !strings.Contains(err.Error(), "flooding") {
					t.Fatalf("want a flood, got %v", err)
				}
			case "cannot-run":
				if !errors.Is(err, ErrCannotRun) || !errors.Is(err, ErrExited) || !strings.Contains(err.Error(), "cannot run") {
					t.Fatalf("want cannot-run, got %v", err)
				}
			case "exit":
				for err == nil { // Unread's lines
					line, err = p.ReadLine(time.Second)
				}
				if !errors.Is(err, ErrExited) || errors.Is(err, ErrFlood) || errors.Is(err, ErrCannotRun) {
					t.Fatalf("want an exit, got %v", err)
				}
			case "silent":
				if !errors.Is(err, ErrTimeout) {
					t.Fatalf("want a timeout, got %q, %v", line, err)
				}
			case "garbage":
				if err != nil || !strings.HasPrefix(line, "garbage") {
					t.Fatalf("want garbage, got %q, %v", line, err)
				}
			default:
				t.Fatalf("unknown kind %q", c.Fails)
			}
		})
	}
}

// TestUnreadOutputClose is issue 25's hang: more lines than the old
// 64-line channel held, never read, then Close.
func TestUnreadOutputClose(t *testing.T) {
	p, err := StartProcess(context.Background(), "seq 500; sleep 3600", ProcessOptions{})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	within(t, 5*time.Second, "Close", func() { p.Close() })
	if !p.Exited() {
		t.Fatal("not exited after Close")
	}
}

// TestFloodBounds: the unread queue is bounded in lines and bytes, stderr
// in bytes, and a flooding process is killed, named as such.
func TestFloodBounds(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		opt  ProcessOptions
		want string
	}{
		{"seq 50; sleep 3600", ProcessOptions{MaxUnread: 10}, "more than 10 output lines"},
		{"yes 0123456789; sleep 3600", ProcessOptions{MaxUnreadBytes: 1000}, "1000 bytes waiting unread"},
		{"yes 0123456789 >&2", ProcessOptions{MaxStderr: 4096}, "more than 4 KiB written to stderr"},
		{"yes 0123456789 | tr -d '\\n'", ProcessOptions{MaxLine: 1024}, "too long (over 1 KiB)"},
	} {
		p, err := StartProcess(context.Background(), c.cmd, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		within(t, 5*time.Second, "flood detection", func() {
			for !p.Exited() {
				time.Sleep(10 * time.Millisecond)
			}
		})
		_, err = p.ReadLine(time.Second)
		if !errors.Is(err, ErrFlood) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.cmd, err, c.want)
		}
		if err := p.Write([]byte("x\n")); !errors.Is(err, ErrFlood) {
			t.Errorf("%s: write after the flood: %v", c.cmd, err)
		}
		p.Close()
	}
}

// TestProcessContextCancel: cancelling the context ends a silent process
// and unblocks its reader.
func TestProcessContextCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p, err := StartProcess(ctx, arenatest.Silent.Cmd, ProcessOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	time.AfterFunc(100*time.Millisecond, cancel)
	within(t, 5*time.Second, "ReadLine after cancel", func() { _, err = p.ReadLine(0) })
	if !errors.Is(err, ErrExited) {
		t.Fatalf("%v", err)
	}
}

func TestCheckCommand(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		cmd string
		ok  bool
	}{
		{arenatest.Missing.Cmd, false},
		{arenatest.NotExecutable.Cmd, false},
		{arenatest.Silent.Cmd, true},
		{arenatest.Crash.Cmd, true}, // it runs; that it crashes is a lost game
		{arenatest.FloodLines.Cmd, true},
		{"cat", true},
	} {
		start := time.Now()
		err := CheckCommand(ctx, c.cmd, ProcessOptions{}, 300*time.Millisecond)
		if (err == nil) != c.ok || (err != nil && (!errors.Is(err, ErrCannotRun) || !strings.Contains(err.Error(), c.cmd))) {
			t.Errorf("%s: %v", c.cmd, err)
		}
		if el := time.Since(start); el > 5*time.Second {
			t.Errorf("%s: check took %v", c.cmd, el)
		}
	}
}

// chaosPlayer plays the toy game as an external command, skipping lines
// that are not numbers for half a second (as protocol clients skip what
// they do not understand): a faulty one loses with the reason, a
// cannot-run one aborts the match.
func chaosPlayer(cmd string) toyPlayerFunc {
	return func(ctx context.Context, seed uint64, side int) (int, string) {
		p, err := StartProcess(ctx, cmd, ProcessOptions{MaxUnread: 100})
		if err != nil {
			return -1, err.Error()
		}
		defer p.Close()
		if err := p.WriteLine("seed"); err != nil {
			return -1, err.Error()
		}
		deadline := time.Now().Add(500 * time.Millisecond)
		var skipped []string
		for {
			line, err := p.ReadLine(max(time.Until(deadline), time.Millisecond))
			if err != nil {
				return -1, fmt.Sprintf("%v (skipped %d lines)", err, len(skipped))
			}
			skipped = append(skipped, line)
		}
	}
}

// TestChaosRunner: in a match, each chaos bot loses every game with a
// reason and the match goes on; one the shell cannot run stops the match
// with an error before any game is counted.
func TestChaosRunner(t *testing.T) {
	for _, c := range arenatest.All {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			res := filepath.Join(t.TempDir(), "r.jsonl")
			var rep *PairReport
			var err error
			within(t, 30*time.Second, "RunPairs", func() {
				rep, err = RunPairs(context.Background(), Config{NameA: "a", NameB: c.Name, Seed: 1, Pairs: 2, Results: res, Concurrency: 2},
					toyGame(builtin(0), chaosPlayer(c.Cmd)))
			})
			games, rerr := ReadResults(res)
			if rerr != nil {
				t.Fatal(rerr)
			}
			if c.Fails == "cannot-run" {
				if !errors.Is(err, ErrCannotRun) || len(games) != 0 {
					t.Fatalf("err %v, %d games counted", err, len(games))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if rep.Summary.WDL.W != 4 || len(games) != 4 {
				t.Fatalf("%+v, %d games", rep.Summary.WDL, len(games))
			}
			for _, g := range games {
				if !strings.HasPrefix(g.Reason, "B: ") {
					t.Errorf("reason %q", g.Reason)
				}
				if c.Fails == "flood" && !strings.Contains(g.Reason, "flooding") {
					t.Errorf("flood reason %q", g.Reason)
				}
			}
		})
	}
}

// TestCannotRunMidMatch: a command that stops being runnable in the middle
// of a match (status 127 on seed 3) is a harness error: the match stops
// with it, the games already played stay in a valid results file.
func TestCannotRunMidMatch(t *testing.T) {
	res := filepath.Join(t.TempDir(), "r.jsonl")
	bot := func(ctx context.Context, seed uint64, side int) (int, string) {
		c := "read -r l; echo 5"
		if seed == 3 {
			c = "read -r l; exit 127"
		}
		return externalNumber(ctx, c)
	}
	_, err := RunPairs(context.Background(), Config{NameA: "a", NameB: "b", Seed: 1, Pairs: 5, Results: res}, toyGame(builtin(0), bot))
	if !errors.Is(err, ErrCannotRun) || !strings.Contains(err.Error(), "seed 3 game 0") {
		t.Fatalf("err %v", err)
	}
	games, rerr := ReadResults(res)
	if rerr != nil || len(games) != 4 {
		t.Fatalf("%d games, %v", len(games), rerr)
	}
	for _, g := range games {
		if g.Seed >= 3 {
			t.Errorf("game of seed %d counted", g.Seed)
		}
	}
}

// externalNumber asks cmd for a number.
func externalNumber(ctx context.Context, cmd string) (int, string) {
	p, err := StartProcess(ctx, cmd, ProcessOptions{})
	if err != nil {
		return -1, err.Error()
	}
	defer p.Close()
	if err := p.WriteLine("seed"); err != nil {
		return -1, err.Error()
	}
	line, err := p.ReadLine(5 * time.Second)
	if err != nil {
		return -1, err.Error()
	}
	if line != "5" {
		return -1, "nonsense " + line
	}
	return 5, ""
}
