package train

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/yomi-ai/yomi/fabric"
)

// Refine as fabric jobs (an embedded fabric, workers in this process)
// gives the in-process run's checkpoints, targets and nets, also when its
// coordinator is stopped mid-Refine and started again.
func TestRefineOnFabric(t *testing.T) {
	if testing.Short() {
		t.Skip("runs small training cycles")
	}
	cfg := tinyConfig()
	local := t.TempDir()
	if _, err := (&Runner{Dir: local, Config: cfg, Workers: 2, chunk: 8}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := runFiles(t, local)
	c, err := fabric.Connect(context.Background(), fabric.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	dir := t.TempDir()
	rm := &Remote{Client: c, Version: "test", Local: 2}
	ctx, cancel := context.WithCancel(context.Background())
	_, err = (&Runner{Dir: dir, Config: cfg, Workers: 1, chunk: 8, Remote: rm, Progress: func(g int, ph string, done, _ int, _ string) {
		if g == 1 && ph == "refine" && done >= 16 {
			cancel()
		}
	}}).Run(ctx)
	cancel()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("stop mid-refine: %v", err)
	}
	if _, err := (&Runner{Dir: dir, Config: cfg, Workers: 1, chunk: 8, Remote: rm}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := runFiles(t, dir)
	if len(got) != len(want) {
		t.Errorf("%d files, in-process run has %d", len(got), len(want))
	}
	for name, b := range want {
		if !bytes.Equal(got[name], b) {
			t.Errorf("%s differs from the in-process run's", name)
		}
	}
}
