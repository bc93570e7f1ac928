package main

import (
	"os"
	"path/filepath"
	"testing"
)

// YOMI_CPUPROFILE: a profile file is written, an unusable path is an error,
// and no variable means no profile.
func TestStartProfile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "cpu.prof")
	stop, err := startProfile(p)
	if err != nil {
		t.Fatal(err)
	}
	stop()
	if st, err := os.Stat(p); err != nil || st.Size() == 0 {
		t.Errorf("profile file: %v %v", st, err)
	}
	if _, err := startProfile(filepath.Join(t.TempDir(), "no", "such", "dir", "cpu.prof")); err == nil {
		t.Error("a path in a missing directory was accepted")
	}
	stop, err = startProfile("")
	if err != nil {
		t.Fatal(err)
	}
	stop()
}
