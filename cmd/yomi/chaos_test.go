// chaos_test.go runs the verbs that take external bot commands against the
// arena's chaos bots (arena/arenatest): a flooding bot loses its games with
// the reason and the command finishes; a command the shell cannot run
// makes the verb fail with the shell's message before any game is counted.
package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/arena/arenatest"
)

// selfCmd is a /bin/sh command line running this test binary as yomi.
func selfCmd(t *testing.T, args string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return "YOMI_TEST_AS_MAIN=1 exec '" + exe + "' " + args
}

// runWithin is run, failing the test if the verb has not returned after d.
func runWithin(t *testing.T, d time.Duration, args ...string) (int, string, string) {
	t.Helper()
	type result struct {
		code     int
		out, err string
	}
	ch := make(chan result, 1)
	go func() {
		code, out, errs := run(t, args...)
		ch <- result{code, out, errs}
	}()
	select {
	case r := <-ch:
		return r.code, r.out, r.err
	case <-time.After(d):
		t.Fatalf("%v still running after %v", args, d)
		return 0, "", ""
	}
}

// floodedOrIllegal is how a CODE VS player that prints "flood" lines as
// fast as it can loses: usually killed for flooding (10 000 lines wait
// unread before the referee's first read), but when the process starts
// slowly the referee reads a "flood" line as the name and the next as the
// turn-0 answer first, and the answer is illegal. Both are right (CI saw
// the second once, 2026-11-28).
const floodedOrIllegal = "killed for flooding | gave illegal output on turn 0"

// containsAny reports whether s contains one of the " | "-separated alts.
func containsAny(s, alts string) bool {
	for a := range strings.SplitSeq(alts, " | ") {
		if strings.Contains(s, a) {
			return true
		}
	}
	return false
}

func TestChaosBotVerbs(t *testing.T) {
	dummy := selfCmd(t, "codevs dummy")
	tbpBot := selfCmd(t, "tetris tbp --max-nodes 500")
	missing := arenatest.Missing.Cmd
	cases := []struct {
		name string
		args []string
		code int
		// out (stdout) and errs (stderr) must contain these; games is the
		// number of result lines, each of whose reason contains reason.
		// out and reason may list alternatives separated by " | ".
		out, errs string
		games     int
		reason    string
	}{
		{"referee unread lines", []string{"codevs", "referee", "--p1", arenatest.Unread.Cmd, "--p2", dummy, "--seed", "1"}, 0, "player 2 wins after 0 turns: player 1", "", 0, ""},
		{"referee flood", []string{"codevs", "referee", "--p1", arenatest.FloodLines.Cmd, "--p2", dummy, "--seed", "1"}, 0, floodedOrIllegal, "", 0, ""},
		{"referee stderr flood", []string{"codevs", "referee", "--p1", dummy, "--p2", arenatest.StderrFlood.Cmd, "--seed", "1"}, 0, "player 1 wins after 0 turns: player 2 before its name: process killed for flooding: more than 16 MiB written to stderr", "", 0, ""},
		{"referee missing", []string{"codevs", "referee", "--p1", missing, "--p2", dummy}, 1, "", "--p1: cannot run the command", 0, ""},
		{"match flood", []string{"codevs", "match", "--p1", dummy, "--p2", arenatest.FloodLines.Cmd, "--games", "1", "--seed", "1"}, 0, "Wins: 2, Losses: 0", "", 2, floodedOrIllegal},
		{"match unread lines", []string{"codevs", "match", "--p1", dummy, "--p2", arenatest.Unread.Cmd, "--games", "1", "--seed", "1"}, 0, "Wins: 2, Losses: 0", "", 2, "player"},
		{"match missing", []string{"codevs", "match", "--p1", dummy, "--p2", missing, "--games", "1"}, 1, "", "--p2: cannot run the command", 0, ""},
		{"versus flood", []string{"tetris", "versus", "--p1", "builtin", "--p2", "yes {}", "--games", "1", "--think-ms", "5", "--max-pieces", "10"}, 0, "Wins: 2, Losses: 0", "", 2, "killed for flooding"},
		{"versus endless line", []string{"tetris", "versus", "--p1", "builtin", "--p2", arenatest.EndlessLine.Cmd, "--games", "1", "--think-ms", "5", "--max-pieces", "10"}, 0, "Wins: 2, Losses: 0", "", 2, "killed for flooding"},
		{"versus missing", []string{"tetris", "versus", "--p1", "builtin", "--p2", missing, "--games", "1", "--think-ms", "5"}, 1, "", "--p2: cannot run the command", 0, ""},
		{"versus not executable", []string{"tetris", "versus", "--p1", arenatest.NotExecutable.Cmd, "--p2", "builtin", "--games", "1", "--think-ms", "5"}, 1, "", "--p1: cannot run the command", 0, ""},
		{"solo missing", []string{"tetris", "solo", "--p1", missing, "--games", "2", "--max-pieces", "20"}, 1, "", "--p1: cannot run the command", 0, ""},
		{"solo second missing", []string{"tetris", "solo", "--p1", tbpBot, "--p2", missing, "--games", "2", "--max-pieces", "20"}, 1, "", "--p2: cannot run the command", 0, ""},
		{"tbp-speed missing", []string{"tetris", "tbp-speed", "--bot", missing}, 1, "", "cannot run the command", 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res := filepath.Join(t.TempDir(), "results.jsonl")
			args := append(c.args, "--quiet")
			if c.args[1] == "tbp-speed" {
				args = c.args
			} else if c.args[1] != "referee" {
				args = append(args, "--results", res)
			}
			code, out, errs := runWithin(t, 60*time.Second, args...)
			if code != c.code || !containsAny(out, c.out) || !strings.Contains(errs, c.errs) {
				t.Fatalf("exit %d (want %d)\nstdout: %s\nstderr: %s\nwant %q / %q", code, c.code, out, errs, c.out, c.errs)
			}
			games, err := arena.ReadResults(res)
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			if len(games) != c.games {
				t.Fatalf("%d games recorded, want %d", len(games), c.games)
			}
			for _, g := range games {
				if !containsAny(g.Reason, c.reason) {
					t.Errorf("reason %q lacks %q", g.Reason, c.reason)
				}
			}
		})
	}
}
