package train

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/yomi-ai/yomi/hatetris"
)

// logWells returns n distinct wells for depth d.
func logWells(d, n int) []hatetris.Well {
	ws := make([]hatetris.Well, n)
	for i := range ws {
		ws[i][hatetris.Height-1] = uint16(d<<4 | i)
	}
	return ws
}

func TestSampleLog(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, samplesLogFile)
	l, got, err := openSampleLog(p, 0)
	if err != nil || len(got) != 0 {
		t.Fatal(got, err)
	}
	var all []hatetris.Well
	for d := 1; d <= 4; d++ {
		ws := logWells(d, d) // depth d holds d wells
		if err := l.add(d, ws); err != nil {
			t.Fatal(err)
		}
		all = append(all, ws...)
	}
	if err := l.add(6, nil); err == nil {
		t.Error("a skipped depth was accepted")
	}
	l.close()
	full, _ := os.ReadFile(p)
	upto := func(d int) []hatetris.Well { return all[:d*(d+1)/2] }

	for _, tc := range []struct {
		name  string
		bytes []byte // file contents before the open
		upto  int
		want  []hatetris.Well
		err   error
	}{
		{"all depths", full, 4, all, nil},
		{"checkpoint behind the log", full, 2, upto(2), nil},
		{"afresh", full, 0, nil, nil},
		{"torn last record", full[:len(full)-3], 3, upto(3), nil},
		{"torn record the checkpoint needs", full[:len(full)-3], 4, nil, errLogBehind},
		{"damaged byte", append(append([]byte{}, full[:20]...), append([]byte{full[20] ^ 1}, full[21:]...)...), 1, nil, errLogBehind},
		{"no log", nil, 2, nil, errLogBehind},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(p)
			if tc.bytes != nil {
				if err := os.WriteFile(p, tc.bytes, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			l, got, err := openSampleLog(p, tc.upto)
			if !errors.Is(err, tc.err) {
				t.Fatalf("err %v, want %v", err, tc.err)
			}
			if err != nil {
				return
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("%d wells, want %d", len(got), len(tc.want))
			}
			// The log goes on after the kept depths.
			if err := l.add(tc.upto+1, logWells(9, 2)); err != nil {
				t.Fatal(err)
			}
			l.close()
			_, again, err := openSampleLog(p, tc.upto+1)
			if err != nil || !slices.Equal(again, append(slices.Clone(tc.want), logWells(9, 2)...)) {
				t.Fatalf("reopened: %d wells, %v", len(again), err)
			}
		})
	}
}

// TestSearchRestartsWithoutLog: a Search checkpoint whose sample log is gone
// is dropped and the game played afresh, with the same samples.
func TestSearchRestartsWithoutLog(t *testing.T) {
	cfg := tinyConfig()
	cfg.Gens = 0
	want := t.TempDir()
	if _, err := (&Runner{Dir: want, Config: cfg, Workers: 1}).Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	r := &Runner{Dir: dir, Config: cfg, Workers: 1, Progress: func(g int, ph string, done, _ int, _ string) {
		if ph == "search" && done == 6 {
			cancel()
		}
	}}
	if _, err := r.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(r.genDir(0), samplesLogFile)); err != nil {
		t.Fatal(err)
	}
	first := -1
	r = &Runner{Dir: dir, Config: cfg, Workers: 1, Progress: func(g int, ph string, done, _ int, _ string) {
		if ph == "search" && first < 0 {
			first = done
		}
	}}
	if _, err := r.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	if first != 1 {
		t.Errorf("searched from depth %d, want 1 (afresh)", first)
	}
	a, _ := os.ReadFile(filepath.Join(want, "gen-000", "samples.bin"))
	b, _ := os.ReadFile(filepath.Join(dir, "gen-000", "samples.bin"))
	if len(a) == 0 || !slices.Equal(a, b) {
		t.Errorf("samples differ (%d and %d bytes)", len(a), len(b))
	}
}
