//go:build linux

// This file measures the calling thread's CPU time on Linux, so speed
// figures on a shared machine can be given per CPU-second as well as per
// wall-clock second.
package bench

import (
	"syscall"
	"time"
)

// ThreadCPU returns the user+system CPU time used so far by the calling OS
// thread, and whether it is measured here. Callers pin the goroutine with
// runtime.LockOSThread around the measured region.
func ThreadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
