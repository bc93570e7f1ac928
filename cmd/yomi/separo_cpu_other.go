//go:build !unix

// This file is the fallback of separo_cpu_unix.go where the process's CPU
// time is not available.
package main

import "time"

// separoCPUTime reports that CPU time is not measured here.
func separoCPUTime() (time.Duration, bool) { return 0, false }
