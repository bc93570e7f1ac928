//go:build !unix

// This file is the fallback of proccpu_unix.go where the process's CPU time
// is not available.
package bench

import "time"

// ProcessCPU reports that the process's CPU time is not measured here.
func ProcessCPU() (time.Duration, bool) { return 0, false }
