// signal_test.go sends SIGINT or SIGTERM to every long verb mid-run (this test binary
// re-run as yomi, through main's signal handling) and checks that it stops
// promptly and leaves its --results file whole. `tetris pc` is tested on
// its own (tetris_pc_test.go).
package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/arena"
)

func TestSignalStopsLongVerbs(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a dozen processes")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tbpBot := selfCmd(t, "tetris tbp --threads 1")
	dummy := selfCmd(t, "codevs dummy")
	hanging := selfCmd(t, "codevs dummy --hang-turn 1")
	const results = "RESULTS" // replaced by a results file
	cases := []struct {
		name  string
		args  []string
		stdin bool // a bot verb waiting on an open stdin
	}{
		{"tetris versus builtin", []string{"tetris", "versus", "--p1", "builtin", "--p2", "builtin", "--games", "100", "--think-ms", "5", "--max-pieces", "20", "--threads", "1", "--quiet", "--results", results}, false},
		{"tetris versus tbp", []string{"tetris", "versus", "--p1", "builtin", "--p2", tbpBot, "--games", "100", "--think-ms", "5", "--max-pieces", "20", "--threads", "1", "--quiet", "--results", results}, false},
		{"tetris solo builtin", []string{"tetris", "solo", "--games", "100", "--think-ms", "5", "--max-pieces", "20", "--threads", "1", "--quiet", "--results", results}, false},
		{"tetris solo tbp", []string{"tetris", "solo", "--p1", tbpBot, "--games", "100", "--think-ms", "5", "--max-pieces", "20", "--quiet", "--results", results}, false},
		{"tetris tbp-speed", []string{"tetris", "tbp-speed", "--bot", tbpBot, "--nodes", "100000000"}, false},
		{"tetris tbp", []string{"tetris", "tbp"}, true},
		{"codevs match", []string{"codevs", "match", "--p1", dummy, "--p2", dummy, "--games", "100", "--quiet", "--results", results}, false},
		{"codevs match hanging", []string{"codevs", "match", "--p1", dummy, "--p2", hanging, "--games", "100", "--quiet", "--results", results}, false},
		{"codevs referee hanging", []string{"codevs", "referee", "--p1", dummy, "--p2", hanging, "--quiet"}, false},
		{"codevs ai", []string{"codevs", "ai"}, true},
		{"codevs dummy", []string{"codevs", "dummy"}, true},
		{"separo match", []string{"separo", "match", "--red", "yomi", "--blue", "uct", "--games", "100", "--movetime", "20ms", "--size", "5", "--quiet", "--results", results}, false},
		{"separo game", []string{"separo", "game", "--movetime", "10s"}, false},
		{"seigot play", []string{"seigot", "play", "--level", "1", "--seed", "1", "--seeds", "100"}, false},
		{"seigot controller", []string{"seigot", "controller"}, true},
		{"hatetris search", []string{"hatetris", "search", "--beam", "20000", "--workers", "1"}, false},
		{"hatetris train", []string{"hatetris", "train", "--dir", "DIR", "--gens", "50", "--beam", "300", "--distill-width", "200", "--workers", "1"}, false},
		{"bench", []string{"bench"}, false},
		{"serve", []string{"serve", "--addr", "127.0.0.1:0"}, false},
	}
	// All at once: each needs a second of warm-up, and the bound below is
	// generous enough for a loaded machine.
	var wg sync.WaitGroup
	for i, c := range cases {
		sig := []os.Signal{syscall.SIGINT, syscall.SIGTERM}[i%2] // main treats both alike
		wg.Add(1)
		go func() {
			defer wg.Done()
			dir := t.TempDir()
			res := ""
			args := make([]string, len(c.args))
			for i, a := range c.args {
				switch a {
				case results:
					res = filepath.Join(dir, "results.jsonl")
					a = res
				case "DIR":
					a = filepath.Join(dir, "run")
				}
				args[i] = a
			}
			cmd := exec.Command(exe, args...)
			cmd.Env = append(os.Environ(), "YOMI_TEST_AS_MAIN=1")
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if c.stdin {
				// An open pipe nobody writes to: the verb waits on it.
				r, w, err := os.Pipe()
				if err != nil {
					t.Error(err)
					return
				}
				cmd.Stdin = r
				defer w.Close()
				defer r.Close()
			}
			if err := cmd.Start(); err != nil {
				t.Errorf("%s: %v", c.name, err)
				return
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			select {
			case err := <-exited:
				t.Errorf("%s: ended before the signal (%v): the test needs a longer run\n%s", c.name, err, errb.String())
				return
			case <-time.After(1500 * time.Millisecond):
			}
			start := time.Now()
			cmd.Process.Signal(sig)
			select {
			case <-exited:
				t.Logf("%-24s stopped %v after %v", c.name, time.Since(start).Round(time.Millisecond), sig)
			case <-time.After(5 * time.Second):
				cmd.Process.Kill()
				<-exited
				t.Errorf("%s: still running 5 s after %v\nstderr: %s", c.name, sig, tail(errb.String()))
				return
			}
			if res != "" {
				data, err := os.ReadFile(res)
				if err != nil && !os.IsNotExist(err) {
					t.Errorf("%s: %v", c.name, err)
				}
				if len(data) > 0 && data[len(data)-1] != '\n' {
					t.Errorf("%s: results file ends mid-line", c.name)
				}
				games, err := arena.ReadResults(res)
				if err != nil && !os.IsNotExist(err) {
					t.Errorf("%s: results file: %v", c.name, err)
				}
				t.Logf("%-24s %d games in its results file", c.name, len(games))
			}
		}()
	}
	wg.Wait()
}

// tail is the end of s, for messages.
func tail(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 600 {
		s = "…" + s[len(s)-600:]
	}
	return s
}
