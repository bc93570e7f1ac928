package bench

import (
	"bytes"
	"runtime"
	"testing"
	"time"
)

func TestSelectAndFormat(t *testing.T) {
	all := []Benchmark{{Name: "arena/sprt"}, {Name: "hatetris/expand"}, {Name: "hatetris/beam"}}
	if got := Select(all, []string{"hatetris"}); len(got) != 2 {
		t.Fatalf("Select hatetris: %d", len(got))
	}
	if got := Select(all, nil); len(got) != 3 {
		t.Fatalf("Select all: %d", len(got))
	}
	var b bytes.Buffer
	Format(&b, Figure{"x/y", 12, "nodes"})
	Format(&b, Figure{"x/z", 1.23456, "ns/op"})
	if b.String() != "x/y 12 nodes\nx/z 1.235 ns/op\n" {
		t.Fatalf("Format: %q", b.String())
	}
	calls, work, el := Rate(time.Millisecond, func() int64 { return 2 })
	if calls < 1 || work != 2*calls || el < time.Millisecond {
		t.Fatalf("Rate: %d %d %v", calls, work, el)
	}
}

func TestRateCPU(t *testing.T) {
	x := 1
	calls, work, el, cpu, ok := RateCPU(20*time.Millisecond, func() int64 {
		for i := 0; i < 100000; i++ {
			x = x*3 + i
		}
		return 1
	})
	if calls < 1 || work != calls || el < 20*time.Millisecond {
		t.Fatalf("RateCPU: %d %d %v", calls, work, el)
	}
	if runtime.GOOS == "linux" && !ok {
		t.Fatal("RateCPU: no thread CPU time on linux")
	}
	// One thread cannot use more CPU than wall time (plus clock granularity).
	if ok && (cpu <= 0 || cpu > el+5*time.Millisecond) {
		t.Fatalf("RateCPU: cpu %v for %v wall", cpu, el)
	}
	_ = x
}
