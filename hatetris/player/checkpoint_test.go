package player

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/hatetris/replay"
)

// encodeReplay is the Base2048 replay of a result, failing the test if it cannot be encoded.
func encodeReplay(t *testing.T, res *Result) string {
	t.Helper()
	s, err := replay.Encode(res.Moves, replay.Base2048)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sameGame fails unless got is the game want is, byte for byte, with the
// same counts.
func sameGame(t *testing.T, what string, got, want *Result) {
	t.Helper()
	if g, w := encodeReplay(t, got), encodeReplay(t, want); g != w {
		t.Fatalf("%s: replay differs from the uninterrupted run's\n got %s\nwant %s", what, g, w)
	}
	if got.Score != want.Score || got.Pieces != want.Pieces || got.Depth != want.Depth || got.Wells != want.Wells ||
		got.Stopped != want.Stopped || got.GameOver != want.GameOver || got.BestValue != want.BestValue || got.Final != want.Final {
		t.Fatalf("%s: score %d pieces %d depth %d wells %d stopped %v over %v best %v; want %d %d %d %d %v %v %v", what,
			got.Score, got.Pieces, got.Depth, got.Wells, got.Stopped, got.GameOver, got.BestValue,
			want.Score, want.Pieces, want.Depth, want.Wells, want.Stopped, want.GameOver, want.BestValue)
	}
}

// resumeCases are the searches the resume tests stop and resume: a full
// game (the beam dies, so the finishing piece is added from the resumed
// state), a capped one with quiescence, and the Mild AI.
var resumeCases = []struct {
	name string
	opt  Options
	// stops are the depths at which the search is stopped, in order.
	stops []int
}{
	{"heuristic width 200, 40 pieces", Options{Width: 200, MaxDepth: 40}, []int{1, 13, 39}},
	{"heuristic width 30, to game over", Options{Width: 30}, []int{7, 30}},
	{"quiescence width 40, 30 pieces", Options{Width: 40, Quiescence: true, MaxDepth: 30}, []int{10}},
	{"mild width 20, 30 pieces", Options{Width: 20, AI: hatetris.Mild, MaxDepth: 30}, []int{15}},
}

// TestCheckpointResume: a search stopped (as Ctrl-C does: the context is
// cancelled, here from Progress at chosen depths) and rerun with the same
// checkpoint resumes there and ends with the uninterrupted run's game, byte
// for byte, whatever the number of workers; writing checkpoints changes no
// game either.
func TestCheckpointResume(t *testing.T) {
	for _, c := range resumeCases {
		t.Run(c.name, func(t *testing.T) {
			opt := c.opt
			opt.Workers = 2
			want, err := Search(context.Background(), opt)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			opt.Checkpoint = filepath.Join(dir, "beam.ckpt")
			got, err := Search(context.Background(), opt)
			if err != nil {
				t.Fatal(err)
			}
			sameGame(t, "with a checkpoint", got, want)

			opt.Checkpoint = filepath.Join(dir, "stopped.ckpt")
			resumedAt := 0
			for k, stop := range c.stops {
				ctx, cancel := context.WithCancel(context.Background())
				o := opt
				o.Workers = 1 + k%2
				o.Progress = func(s Stats) {
					if s.Depth == stop {
						cancel()
					}
				}
				o.Resumed = func(s Stats) { resumedAt = s.Depth }
				res, err := Search(ctx, o)
				cancel()
				if err != nil {
					t.Fatal(err)
				}
				if !res.Stopped || res.Depth != stop {
					t.Fatalf("stop %d: stopped %v at depth %d", stop, res.Stopped, res.Depth)
				}
				if k > 0 && resumedAt != c.stops[k-1] {
					t.Fatalf("stop %d: resumed at depth %d, want %d", stop, resumedAt, c.stops[k-1])
				}
			}
			resumedAt = -1
			opt.Resumed = func(s Stats) { resumedAt = s.Depth }
			got, err = Search(context.Background(), opt)
			if err != nil {
				t.Fatal(err)
			}
			if resumedAt != c.stops[len(c.stops)-1] {
				t.Fatalf("the last run resumed at depth %d, want %d", resumedAt, c.stops[len(c.stops)-1])
			}
			sameGame(t, "stopped and resumed", got, want)
			// A finished search's checkpoint replays the same game again.
			got, err = Search(context.Background(), opt)
			if err != nil {
				t.Fatal(err)
			}
			sameGame(t, "rerun after the end", got, want)
		})
	}
}

// TestCheckpointSettings: a checkpoint is refused by a search with another
// width, quiescence, AI, evaluator or start well, or a maximum depth below
// the checkpoint's, with an error naming the difference; the file is kept.
func TestCheckpointSettings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "beam.ckpt")
	base := Options{Width: 20, MaxDepth: 12, Workers: 1, Checkpoint: path, EvalID: "heuristic"}
	if _, err := Search(context.Background(), base); err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	start, _ := hatetris.ParseWell("#########.")
	for _, c := range []struct {
		name string
		edit func(*Options)
		want string
	}{
		{"width", func(o *Options) { o.Width = 21 }, "beam width 20 (this search: 21)"},
		{"quiescence", func(o *Options) { o.Quiescence = true }, "quiescence false (this search: true)"},
		{"ai", func(o *Options) { o.AI = hatetris.Mild }, "AI hatetris (this search: mild)"},
		{"eval", func(o *Options) { o.EvalID = "nn:sha256:00" }, `evaluator "heuristic" (this search: "nn:sha256:00")`},
		{"start", func(o *Options) { o.Start = start }, "another start well"},
		{"two at once", func(o *Options) { o.Width = 5; o.EvalID = "x" }, "beam width 20 (this search: 5); evaluator"},
		{"max depth", func(o *Options) { o.MaxDepth = 11 }, "at depth 12, past the maximum depth 11"},
	} {
		o := base
		c.edit(&o)
		_, err := Search(context.Background(), o)
		if !errors.Is(err, ErrCheckpointSettings) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
		}
		if b, _ := os.ReadFile(path); string(b) != string(orig) {
			t.Fatalf("%s: the checkpoint changed", c.name)
		}
	}
	// The same settings with more depth resume.
	o := base
	o.MaxDepth = 13
	if _, err := Search(context.Background(), o); err != nil {
		t.Fatalf("same settings: %v", err)
	}
}

// TestCheckpointCorrupt: a truncated, damaged or foreign file gives a clear
// error (never a panic, nor a silent fresh start), and so does one whose
// checksum is right but whose contents are not a search: every single-byte
// change, checksum recomputed, either decodes to a valid state or is refused.
func TestCheckpointCorrupt(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "beam.ckpt")
	opt := Options{Width: 6, MaxDepth: 12, Workers: 1, Checkpoint: path}
	if _, err := Search(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	flip := func(i int) []byte {
		b := []byte(string(good))
		b[i] ^= 0x5a
		return b
	}
	other := []byte(string(good))
	other[7] = '2'
	for _, c := range []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "corrupt or truncated: not a search checkpoint"},
		{"magic only", good[:8], "not a search checkpoint"},
		{"half", good[:len(good)/2], "checksum mismatch"},
		{"last byte missing", good[:len(good)-1], "checksum mismatch"},
		{"a byte changed", flip(len(good) / 2), "checksum mismatch"},
		{"text", []byte("hello, this is not a checkpoint\n"), "not a search checkpoint"},
		{"another version", other, "another format version"},
	} {
		if err := os.WriteFile(path, c.b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Search(context.Background(), opt)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
		}
		if b, _ := os.ReadFile(path); string(b) != string(c.b) {
			t.Errorf("%s: the file was overwritten", c.name)
		}
	}
	refused := 0
	for i := 0; i < len(good)-4; i++ {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			b := []byte(string(good))
			b[i] ^= x
			binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], castagnoli))
			s := &search{opt: opt, saved: -1}
			s.bloom = newBloom(opt.Width)
			s.layers = [][]entry{{{parent: -1}}}
			if err := s.decode(b); err != nil {
				refused++
				continue
			}
			// Accepted: the state must be usable (a search continues from it).
			for d := 1; d < len(s.layers); d++ {
				for k := range s.layers[d] {
					if p := s.layers[d][k].parent; p < 0 || int(p) >= len(s.layers[d-1]) {
						t.Fatalf("byte %d ^ %#x: accepted a parent %d out of range", i, x, p)
					}
				}
			}
		}
	}
	if refused == 0 {
		t.Fatal("no single-byte change was refused")
	}
	t.Logf("%d bytes; %d of %d single-byte changes refused", len(good), refused, 3*(len(good)-4))
}

// TestCheckpointChild is the search that TestCheckpointKill runs in a child
// process and kills; it does nothing otherwise.
func TestCheckpointChild(t *testing.T) {
	path := os.Getenv("YOMI_CHECKPOINT_CHILD")
	if path == "" {
		t.Skip("run by TestCheckpointKill")
	}
	opt := killOptions
	opt.Checkpoint = path
	// Slow the depths down so the kill lands mid-search.
	opt.Progress = func(Stats) { time.Sleep(15 * time.Millisecond) }
	if _, err := Search(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
}

var killOptions = Options{Width: 200, MaxDepth: 40, Workers: 2}

// TestCheckpointKill: a search in a child process, SIGKILLed at moments
// spread over its run (mid-depth, between depths, while saving) and rerun
// until it finishes, ends with the uninterrupted run's game byte for byte.
func TestCheckpointKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	want, err := Search(context.Background(), killOptions)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "beam.ckpt")
	kills := 0
	for run := 0; run < 12; run++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCheckpointChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "YOMI_CHECKPOINT_CHILD="+path)
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		// Kill after a delay that differs from run to run; the last runs
		// are left to finish.
		delay := time.Duration(60+37*run) * time.Millisecond
		if run >= 6 {
			delay = time.Minute
		}
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("run %d: %v\n%s", run, err, out.String())
			}
			res, err := Search(context.Background(), Options{Width: killOptions.Width, MaxDepth: killOptions.MaxDepth, Workers: 1, Checkpoint: path})
			if err != nil {
				t.Fatal(err)
			}
			sameGame(t, "killed "+strconv.Itoa(kills)+" times and resumed", res, want)
			if kills == 0 {
				t.Fatal("the child finished before any kill")
			}
			t.Logf("%d kills, finished at run %d", kills, run)
			return
		case <-time.After(delay):
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			<-done
			kills++
		}
	}
	t.Fatal("the child never finished")
}

// TestCheckpointEvery: with CheckpointEvery longer than the search, the
// checkpoint is written only when the search stops, and resumes from there.
func TestCheckpointEvery(t *testing.T) {
	opt := Options{Width: 30, MaxDepth: 20, Workers: 1}
	want, err := Search(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.Checkpoint = filepath.Join(t.TempDir(), "beam.ckpt")
	opt.CheckpointEvery = time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	o := opt
	o.Progress = func(s Stats) {
		if _, err := os.Stat(opt.Checkpoint); err == nil {
			t.Errorf("a checkpoint was written at depth %d, an hour early", s.Depth)
		}
		if s.Depth == 9 {
			cancel()
		}
	}
	if _, err := Search(ctx, o); err != nil {
		t.Fatal(err)
	}
	cancel()
	resumed := -1
	opt.Resumed = func(s Stats) { resumed = s.Depth }
	got, err := Search(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if resumed != 9 {
		t.Fatalf("resumed at depth %d, want 9", resumed)
	}
	sameGame(t, "saved only at the stop", got, want)
}

// BenchmarkCheckpoint reports the cost of writing (encode) and reading
// (decode: every well rebuilt and checked) a checkpoint per kept well.
func BenchmarkCheckpoint(b *testing.B) {
	path := filepath.Join(b.TempDir(), "beam.ckpt")
	opt := Options{Width: 2000, MaxDepth: 30, Checkpoint: path}
	kept := 0
	opt.Progress = func(s Stats) { kept = s.Kept }
	if _, err := Search(context.Background(), opt); err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	fresh := func() *search {
		s := &search{opt: opt, saved: -1, start: time.Now()}
		s.bloom = newBloom(opt.Width)
		s.layers = [][]entry{{{parent: -1}}}
		return s
	}
	b.Run("encode", func(b *testing.B) {
		s := fresh()
		if err := s.decode(data); err != nil {
			b.Fatal(err)
		}
		var buf []byte
		for b.Loop() {
			buf = s.encode(buf[:0])
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(kept), "ns/well")
		b.ReportMetric(float64(len(buf))/float64(kept), "bytes/well")
	})
	b.Run("decode", func(b *testing.B) {
		for b.Loop() {
			if err := fresh().decode(data); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(kept), "ns/well")
	})
}

// countingEval cancels a context at its at-th evaluation (over all workers)
// and then records in cancelled how many evaluations had been made: the
// other worker keeps evaluating until the cancel, which a descheduled
// canceller can delay by a whole depth on a loaded machine.
type countingEval struct {
	Evaluator
	n         *atomic.Int64
	at        int64
	cancel    func()
	cancelled *atomic.Int64
}

func (e countingEval) Eval(w *hatetris.Well, score int) float64 {
	if e.n.Add(1) == e.at {
		e.cancel()
		e.cancelled.Store(e.n.Load())
	}
	return e.Evaluator.Eval(w, score)
}

// TestStopMidDepth: a search stopped in the middle of a depth (Ctrl-C on a
// wide beam) drops that depth at once: it ends, and its checkpoint holds,
// the last whole depth, and the resumed search plays the uninterrupted game.
func TestStopMidDepth(t *testing.T) {
	opt := Options{Width: 100, MaxDepth: 25, Workers: 2}
	// The evaluations made by the end of each depth (the same in every run).
	var n atomic.Int64
	var atDepth []int64
	o := opt
	o.NewEval = func() Evaluator { return countingEval{DefaultHeuristic(), &n, -1, nil, nil} }
	o.Progress = func(s Stats) { atDepth = append(atDepth, n.Load()) }
	want, err := Search(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	const stop = 10 // cancelled a few wells into depth 11's expansion
	opt.Checkpoint = filepath.Join(t.TempDir(), "beam.ckpt")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n.Store(0)
	var cancelled atomic.Int64
	o = opt
	o.NewEval = func() Evaluator {
		return countingEval{DefaultHeuristic(), &n, atDepth[stop-1] + 50, cancel, &cancelled}
	}
	res, err := Search(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Stopped || res.Depth != stop {
		t.Fatalf("stopped %v at depth %d, want %d", res.Stopped, res.Depth, stop)
	}
	if extra, depth := n.Load()-cancelled.Load(), atDepth[stop]-atDepth[stop-1]; extra > depth/2 {
		t.Errorf("%d evaluations of the stopped depth's %d were made after the cancel", extra, depth)
	}
	resumed := -1
	opt.Resumed = func(s Stats) { resumed = s.Depth }
	got, err := Search(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if resumed != stop {
		t.Fatalf("resumed at depth %d, want %d", resumed, stop)
	}
	sameGame(t, "stopped mid-depth and resumed", got, want)
}
