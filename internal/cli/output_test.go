package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCheckWritable: a new path is writable and left absent, an existing
// file is writable and left unchanged, a path under a file or a directory
// is not.
func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	fresh := filepath.Join(dir, "new.txt")
	if err := CheckWritable(fresh); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Fatalf("%s left behind (%v)", fresh, err)
	}
	old := filepath.Join(dir, "old.txt")
	os.WriteFile(old, []byte("keep"), 0o644)
	if err := CheckWritable(old); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(old); string(b) != "keep" {
		t.Fatalf("existing file changed to %q", b)
	}
	for _, bad := range []string{filepath.Join(old, "x"), filepath.Join(dir, "no", "x"), dir} {
		if err := CheckWritable(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
