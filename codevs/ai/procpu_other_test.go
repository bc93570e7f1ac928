//go:build !unix

package ai

import "time"

// processCPU is 0: no process CPU time here.
func processCPU() time.Duration { return 0 }
