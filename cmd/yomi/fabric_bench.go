// `yomi bench fabric/...`: what a job costs on the fabric, and how the work
// spreads over worker processes.

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/yomi-ai/yomi/fabric"
	"github.com/yomi-ai/yomi/internal/bench"
)

// spinKind is a CPU-bound job of a fixed amount of work, for benchmarks and
// tests of the fabric itself.
const spinKind = "fabric.spin"

// spinJob runs payload {"iters": N} xorshift steps and returns the state.
func spinJob(ctx context.Context, job fabric.Job) (json.RawMessage, error) {
	var in struct{ Iters int64 }
	if err := json.Unmarshal(job.Payload, &in); err != nil {
		return nil, err
	}
	x := uint64(len(job.ID)) + 0x9e3779b97f4a7c15
	for i := int64(0); i < in.Iters; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		if i&(1<<20-1) == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	return json.Marshal(map[string]uint64{"x": x})
}

// fabricJobs are the fabric's own job kinds (every worker has them).
func fabricJobs() map[string]fabric.Handler {
	return map[string]fabric.Handler{spinKind: spinJob}
}

func fabricBenchmarks() []bench.Benchmark {
	return []bench.Benchmark{
		{Name: "fabric/overhead", Summary: "per-job cost of the embedded fabric: 2 000 empty jobs queued, run by one in-process worker and collected", Run: benchFabricOverhead},
		{Name: "fabric/workers", Summary: "48 CPU-bound jobs (≈ 40 ms each) on 1 and on 2 `yomi worker` processes over loopback; the speed-up", Run: benchFabricWorkers},
	}
}

// runSpin queues n spin jobs on c and waits for their results.
func runSpin(ctx context.Context, c *fabric.Client, run string, n int, iters int64) error {
	payload := json.RawMessage(fmt.Sprintf(`{"iters":%d}`, iters))
	jobs := make([]fabric.Job, n)
	for i := range jobs {
		jobs[i] = fabric.Job{Kind: spinKind, Run: run, ID: fmt.Sprintf("j%d", i), Version: version(), Payload: payload}
	}
	_, from, err := c.Stored(ctx, run)
	if err != nil {
		return err
	}
	done := make(chan struct{})
	seen := map[string]bool{}
	var failed error
	stop, err := c.Watch(ctx, run, from, func(r fabric.Result) {
		if seen[r.ID] {
			return
		}
		seen[r.ID] = true
		if r.Error != "" && failed == nil {
			failed = errors.New(r.Error)
		}
		if len(seen) == n {
			close(done)
		}
	})
	if err != nil {
		return err
	}
	defer stop()
	if err := c.Submit(ctx, jobs); err != nil {
		return err
	}
	select {
	case <-done:
		return failed
	case <-ctx.Done():
		return ctx.Err()
	}
}

func benchFabricOverhead(ctx context.Context) ([]bench.Figure, error) {
	c, err := fabric.Connect(ctx, fabric.Options{})
	if err != nil {
		return nil, err
	}
	defer c.Close()
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	w := &fabric.Worker{Client: c, Handlers: fabricJobs(), Version: version(), Name: "bench"}
	go w.Run(wctx)
	// A warm-up run creates the consumer and fills the caches.
	if err := runSpin(ctx, c, "bench-warm", 50, 0); err != nil {
		return nil, err
	}
	const n = 2000
	t0 := time.Now()
	if err := runSpin(ctx, c, "bench-overhead", n, 0); err != nil {
		return nil, err
	}
	el := time.Since(t0)
	return []bench.Figure{
		{Name: "fabric/overhead", Value: float64(el.Microseconds()) / n, Unit: "us/job"},
		{Name: "fabric/overhead/jobs", Value: n, Unit: "jobs"},
	}, nil
}

func benchFabricWorkers(ctx context.Context) ([]bench.Figure, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "yomi-bench-fabric-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	srv, err := fabric.StartServer(fabric.ServeOptions{Listen: "127.0.0.1:0", Store: dir, Name: "bench"})
	if err != nil {
		return nil, err
	}
	defer srv.Shutdown()
	c, err := fabric.Connect(ctx, fabric.Options{URL: srv.ClientURL()})
	if err != nil {
		return nil, err
	}
	defer c.Close()
	// Calibrate ≈ 40 ms of work per job on this machine.
	iters := int64(1 << 22)
	for {
		t0 := time.Now()
		if _, err := spinJob(ctx, fabric.Job{Payload: json.RawMessage(fmt.Sprintf(`{"iters":%d}`, iters))}); err != nil {
			return nil, err
		}
		if time.Since(t0) > 40*time.Millisecond || iters > 1<<34 {
			break
		}
		iters *= 2
	}
	const n = 48
	var figs []bench.Figure
	var secs [3]float64
	for _, k := range []int{1, 2} {
		var procs []*exec.Cmd
		for i := range k {
			cmd := exec.CommandContext(ctx, self, "worker", "--nats", srv.ClientURL(), "--concurrency", "1", "--name", fmt.Sprintf("bench-%d-%d", k, i))
			cmd.Env = append(os.Environ(), "YOMI_TEST_AS_MAIN=1")
			stderr, _ := cmd.StderrPipe()
			if err := cmd.Start(); err != nil {
				return nil, err
			}
			// The worker says it is ready on stderr.
			ready := make(chan struct{})
			go func() {
				sc := bufio.NewScanner(stderr)
				once := false
				for sc.Scan() {
					if !once && strings.HasPrefix(sc.Text(), "yomi worker") {
						once = true
						close(ready)
					}
				}
				if !once {
					close(ready)
				}
			}()
			<-ready
			procs = append(procs, cmd)
		}
		t0 := time.Now()
		err := runSpin(ctx, c, fmt.Sprintf("bench-workers-%d-%d", k, time.Now().UnixNano()), n, iters)
		secs[k] = time.Since(t0).Seconds()
		for _, p := range procs {
			p.Process.Signal(os.Interrupt)
			p.Wait()
		}
		if err != nil {
			return nil, err
		}
		figs = append(figs, bench.Figure{Name: fmt.Sprintf("fabric/workers/%dproc", k), Value: n / secs[k], Unit: "jobs/s"})
	}
	figs = append(figs, bench.Figure{Name: "fabric/workers/speedup", Value: secs[1] / secs[2], Unit: "x"})
	return figs, nil
}
