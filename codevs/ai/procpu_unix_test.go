//go:build unix

package ai

import (
	"syscall"
	"time"
)

// processCPU is the process's CPU time so far (user and system), for the
// guard benchmarks' per-decision CPU on a loaded machine.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
