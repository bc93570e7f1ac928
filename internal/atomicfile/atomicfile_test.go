package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplaces(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	for _, want := range []string{"first", "second"} {
		if err := Write(path, []byte(want)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			t.Fatalf("read %q, %v; want %q", got, err, want)
		}
		if _, err := os.Stat(path + ".tmp"); !os.IsNotExist(err) {
			t.Fatalf("temporary file left behind: %v", err)
		}
	}
	if err := Write(filepath.Join(t.TempDir(), "no", "dir"), nil); err == nil {
		t.Fatal("write into a missing directory succeeded")
	}
}
