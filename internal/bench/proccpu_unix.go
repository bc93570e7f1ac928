//go:build unix

// This file measures the whole process's CPU time, so figures on a shared
// machine can be given per CPU-second as well as per wall-clock second.
package bench

import (
	"syscall"
	"time"
)

// ProcessCPU returns the user+system CPU time the process has used so far
// (all threads), and whether it is measured here.
func ProcessCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
