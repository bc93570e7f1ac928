// This file tests the Python bridge (seigot/bridge/block_controller.py)
// against our engine through the real protocol: Go engine -> GameStatus ->
// Python driver -> bridge -> `yomi seigot controller` (this test binary) ->
// nextMove -> Go engine.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/seigot"
	"github.com/yomi-ai/yomi/seigot/ai"
)

// TestMain lets the test binary act as the yomi binary (main, signal
// handling included) for child processes.
func TestMain(m *testing.M) {
	if os.Getenv("YOMI_TEST_AS_MAIN") == "1" {
		main()
	}
	os.Exit(m.Run())
}

func startDriver(t *testing.T, bin, args string) (io.WriteCloser, *bufio.Scanner, *exec.Cmd) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed; .ci/run installs it")
	}
	cmd := exec.Command(py, "../../seigot/bridge/drive.py")
	cmd.Env = append(os.Environ(), "YOMI_TEST_AS_MAIN=1", "YOMI_BIN="+bin, "YOMI_ARGS="+args)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cmd.Wait() })
	return in, bufio.NewScanner(out), cmd
}

func TestSeigotBridge(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	in, out, _ := startDriver(t, self, "--ai fast")
	cfg, _ := seigot.LevelConfig(2, 11, false)
	cfg.BlockNumMax = 50
	g := seigot.NewGame(cfg)
	for !g.Done {
		g.BeginTick()
		b, _ := json.Marshal(g.Status(0))
		if _, err := in.Write(append(b, '\n')); err != nil {
			t.Fatal(err)
		}
		if !out.Scan() {
			t.Fatal("driver ended")
		}
		var s seigot.Strategy
		if err := json.Unmarshal(out.Bytes(), &s); err != nil || strings.Contains(out.Text(), "error") {
			t.Fatalf("reply %s: %v", out.Text(), err)
		}
		m, err := seigot.MoveOf(s)
		if err != nil {
			t.Fatal(err)
		}
		g.ApplyMove(m)
	}
	pl, _ := seigotPlayer("fast", 2)
	if want := ai.Play(context.Background(), cfg, pl); g.Stats != want.Stats {
		t.Fatalf("through the bridge %+v, in process %+v", g.Stats, want.Stats)
	}
}

func TestSeigotBridgeErrors(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A missing binary fails at import with a message that says what to do.
	_, out, _ := startDriver(t, "/nonexistent/yomi", "")
	if !out.Scan() || !strings.Contains(out.Text(), "yomi binary not found") {
		t.Fatalf("missing binary: %q", out.Text())
	}
	// A controller that exits (here: a usage error) is reported with its code.
	in, out, _ := startDriver(t, self, "--level 9")
	cfg, _ := seigot.LevelConfig(2, 1, false)
	g := seigot.NewGame(cfg)
	g.BeginTick()
	b, _ := json.Marshal(g.Status(0))
	in.Write(append(b, '\n'))
	if !out.Scan() || !strings.Contains(out.Text(), "exited with code 2") {
		t.Fatalf("dead controller: %q", out.Text())
	}
}
