//go:build !unix

package bot

import "time"

// processCPU returns 0: no process CPU time here.
func processCPU() time.Duration { return 0 }
