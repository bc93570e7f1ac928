//go:build !unix

// This file holds the fallback for systems without process-group signals: a
// bot is never paused there, so it may think off-turn.

package tbp

import "errors"

// errNoProcess is never returned on these systems.
var errNoProcess = errors.New("no such process")

// signalGroup does nothing.
func signalGroup(pgid int, stop bool) error { return nil }
