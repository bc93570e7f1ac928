//go:build unix

// This file measures the process's CPU time for the separo benchmarks, so
// rates on a shared machine can be given per CPU-second as well as per
// wall-clock second.
package main

import (
	"syscall"
	"time"
)

// separoCPUTime returns the user+system CPU time used by the process so far.
func separoCPUTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
