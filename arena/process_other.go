//go:build !unix

// This file holds the fallback for systems without process groups: only the
// bot's own process is killed.

package arena

import "os/exec"

func ownGroup(cmd *exec.Cmd) {}

func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
