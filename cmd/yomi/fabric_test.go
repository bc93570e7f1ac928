package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/fabric"
)

// startYomi runs this test binary as `yomi args…` in the background.
func startYomi(t *testing.T, args ...string) (*exec.Cmd, *bufio.Scanner, *strings.Builder) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, args...)
	cmd.Env = append(os.Environ(), "YOMI_TEST_AS_MAIN=1")
	var stderr strings.Builder
	cmd.Stderr = &lockedWriter{b: &stderr}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd, bufio.NewScanner(out), &stderr
}

type lockedWriter struct{ b *strings.Builder }

func (w *lockedWriter) Write(p []byte) (int, error) { return w.b.Write(p) }

// startNode starts `yomi fabric serve` on a free loopback port.
func startNode(t *testing.T) (string, *exec.Cmd) {
	t.Helper()
	cmd, out, _ := startYomi(t, "fabric", "serve", "--listen", "127.0.0.1:0", "--store", t.TempDir())
	if !out.Scan() {
		t.Fatal("fabric serve printed nothing")
	}
	line := out.Text()
	i := strings.Index(line, "nats://")
	if i < 0 {
		t.Fatalf("fabric serve: %q", line)
	}
	return line[i:], cmd
}

// A match queued on a standalone node and played by two worker processes,
// one of them killed mid-match, records every game once, with the results
// of the plain local run.
func TestFabricWorkersMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("runs worker processes")
	}
	url, node := startNode(t)
	var workers []*exec.Cmd
	for _, name := range []string{"doomed", "survivor"} {
		w, _, _ := startYomi(t, "worker", "--nats", url, "--concurrency", "1", "--name", name, "--ack-wait", "1s")
		workers = append(workers, w)
	}
	dir := t.TempDir()
	common := []string{"separo", "match", "--games", "6", "--iterations", "3000", "--movetime", "0", "--size", "7", "--seed", "11", "--quiet"}
	remote := filepath.Join(dir, "remote.jsonl")
	killed := make(chan time.Duration, 1)
	go func() {
		t0 := time.Now()
		for time.Since(t0) < 60*time.Second {
			time.Sleep(20 * time.Millisecond)
			if g, _ := arena.ReadResults(remote); len(g) >= 3 {
				workers[0].Process.Signal(syscall.SIGKILL)
				killed <- time.Since(t0)
				return
			}
		}
		killed <- -1
	}()
	code, _, errs := run(t, append(common, "--nats", url, "--concurrency", "0", "--results", remote)...)
	if code != 0 {
		t.Fatalf("match on the fabric: exit %d: %s", code, errs)
	}
	if d := <-killed; d < 0 {
		t.Fatal("the doomed worker was never killed")
	}
	local := filepath.Join(dir, "local.jsonl")
	if code, _, errs := run(t, append(common, "--results", local)...); code != 0 {
		t.Fatalf("local match: exit %d: %s", code, errs)
	}
	got, want := fileRecords(t, remote), fileRecords(t, local)
	if len(got) != 12 || len(want) != 12 {
		t.Fatalf("%d games on the fabric, %d locally, want 12", len(got), len(want))
	}
	for k, w := range want {
		if g := got[k]; g.Result != w.Result || string(g.Info) != string(w.Info) {
			t.Fatalf("seed %d game %d: fabric %s %s, local %s %s", k[0], k[1], g.Result, g.Info, w.Result, w.Info)
		}
	}

	// The node lists the match's run with its 12 results and nothing queued.
	code, out, errs := run(t, "fabric", "status", "--nats", url, "--json")
	var runs []fabric.RunStatus
	if code != 0 || json.Unmarshal([]byte(out), &runs) != nil || len(runs) != 1 || runs[0].Results != 12 || runs[0].Queued != 0 || runs[0].Kind != "separo.match" {
		t.Fatalf("fabric status: exit %d, %s %s", code, out, errs)
	}

	// Ctrl-C stops a worker and the node quickly.
	for _, p := range []*exec.Cmd{workers[1], node} {
		t0 := time.Now()
		p.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- p.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%v after SIGINT: %v", p.Args[1:3], err)
			}
			t.Logf("%v stopped %v after SIGINT", p.Args[1:3], time.Since(t0))
		case <-time.After(5 * time.Second):
			t.Errorf("%v still running 5 s after SIGINT", p.Args[1:3])
		}
	}
}

func fileRecords(t *testing.T, path string) map[[2]uint64]arena.GameRecord {
	t.Helper()
	games, err := arena.ReadResults(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[[2]uint64]arena.GameRecord{}
	for _, g := range games {
		k := [2]uint64{g.Seed, uint64(g.Game)}
		if _, dup := out[k]; dup {
			t.Fatalf("%s: seed %d game %d recorded twice", path, g.Seed, g.Game)
		}
		out[k] = g
	}
	return out
}

func TestFabricBadInput(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"worker"}, 2, "needs --nats"},
		{[]string{"worker", "--nats", "nats://127.0.0.1:1", "--concurrency", "0"}, 2, "at least 1"},
		{[]string{"worker", "--nats", "nats://127.0.0.1:1"}, 1, "cannot connect to NATS at nats://127.0.0.1:1"},
		{[]string{"separo", "match", "--iterations", "10", "--nats", "nats://u:pw@127.0.0.1:1"}, 1, "cannot connect to NATS at nats://***@127.0.0.1:1"},
		{[]string{"separo", "match", "--iterations", "10", "--concurrency", "0"}, 2, "without --nats"},
		{[]string{"separo", "match", "--iterations", "10", "--nats-creds", "x.creds"}, 2, "--nats-creds needs --nats"},
		{[]string{"separo", "match", "--iterations", "10", "--run", "a b"}, 2, "--run"},
		{[]string{"fabric", "serve"}, 2, "--store"},
		{[]string{"fabric", "serve", "--store", t.TempDir(), "--listen", "nonsense"}, 1, "--listen"},
		{[]string{"fabric", "status"}, 2, "needs --nats"},
	}
	for _, c := range cases {
		t0 := time.Now()
		code, _, errs := run(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d (want %d), stderr %q lacks %q", c.args, code, c.code, errs, c.want)
		}
		if d := time.Since(t0); d > 15*time.Second {
			t.Errorf("%v took %v", c.args, d)
		}
	}
}
