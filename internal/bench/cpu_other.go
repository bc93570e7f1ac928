//go:build !linux

// This file is the fallback of cpu_linux.go where per-thread CPU time is not
// available.
package bench

import "time"

// ThreadCPU reports that per-thread CPU time is not measured here.
func ThreadCPU() (time.Duration, bool) { return 0, false }
