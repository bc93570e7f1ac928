// Package bench is the registry behind `yomi bench`: each game contributes
// deterministic benchmarks that report figures as "name value unit".
//
// A Benchmark runs a fixed workload (fixed seeds, fixed positions) and reports
// both speed figures (which vary by machine) and counts (nodes, states) that
// must not change unless behaviour changes.
package bench

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"
)

// Figure is one measured number.
type Figure struct {
	Name  string  `json:"name"`  // e.g. "hatetris/expand"
	Value float64 `json:"value"` // the number
	Unit  string  `json:"unit"`  // e.g. "ns/well", "nodes", "states/s"
}

// Benchmark is one registered workload.
type Benchmark struct {
	Name    string // prefix-matchable name, e.g. "arena/sprt"
	Summary string
	// Run performs the workload and returns its figures. Figure names should
	// start with the benchmark's Name.
	Run func(ctx context.Context) ([]Figure, error)
}

// Select returns the benchmarks whose name starts with one of the prefixes
// (all of them when prefixes is empty).
func Select(all []Benchmark, prefixes []string) []Benchmark {
	if len(prefixes) == 0 {
		return all
	}
	var out []Benchmark
	for _, b := range all {
		for _, p := range prefixes {
			if strings.HasPrefix(b.Name, p) {
				out = append(out, b)
				break
			}
		}
	}
	return out
}

// Format writes a figure as "name value unit".
func Format(w io.Writer, f Figure) {
	fmt.Fprintf(w, "%s %s %s\n", f.Name, formatValue(f.Value), f.Unit)
}

func formatValue(v float64) string {
	if v == float64(int64(v)) && v < 1e15 && v > -1e15 {
		return fmt.Sprintf("%d", int64(v))
	}
	if v >= 1000 || v <= -1000 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.4g", v)
}

// Rate runs fn repeatedly for at least minDur (and at least once) and
// returns the number of calls and the elapsed time. fn returns how many units
// of work it did (e.g. nodes), summed into work.
func Rate(minDur time.Duration, fn func() int64) (calls int64, work int64, elapsed time.Duration) {
	start := time.Now()
	for {
		work += fn()
		calls++
		if elapsed = time.Since(start); elapsed >= minDur {
			return
		}
	}
}

// RateCPU is Rate on one locked OS thread that also returns the thread's CPU
// time over the calls (cpuOK is false where it cannot be measured).
func RateCPU(minDur time.Duration, fn func() int64) (calls, work int64, elapsed, cpu time.Duration, cpuOK bool) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, ok0 := ThreadCPU()
	calls, work, elapsed = Rate(minDur, fn)
	c1, ok1 := ThreadCPU()
	return calls, work, elapsed, c1 - c0, ok0 && ok1 && c1 > c0
}
