//go:build unix

// This file holds the Unix pause/resume of a bot's process group.

package tbp

import "syscall"

// errNoProcess is what signalling a vanished process group returns.
var errNoProcess = syscall.ESRCH

// signalGroup stops (SIGSTOP) or continues (SIGCONT) the process group pgid.
func signalGroup(pgid int, stop bool) error {
	sig := syscall.SIGCONT
	if stop {
		sig = syscall.SIGSTOP
	}
	return syscall.Kill(-pgid, sig)
}
