// Tests of the .sum format, of the source fingerprint (pinned, since the
// committed .sum files depend on it) and of Generate and Check together.

package wasmbuild

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hello is a tiny js/wasm program (testdata is ignored by ./... but can be
// named).
const hello = "github.com/yomi-ai/yomi/internal/wasmbuild/testdata/hello"

func TestSumRoundTrip(t *testing.T) {
	s := Sum{Sources: "abc", Wasm: "def", Go: "go1.26.0"}
	if got, want := s.Format(), "sources abc\nwasm def\ngo go1.26.0\n"; got != want {
		t.Fatalf("Format = %q, want %q", got, want)
	}
	got, err := ParseSum(s.Format())
	if err != nil || got != s {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	for _, bad := range []string{"", "sources abc", "wasm def", "sources\nwasm def", "garbage"} {
		if _, err := ParseSum(bad); err == nil {
			t.Errorf("ParseSum(%q) accepted", bad)
		}
	}
}

func TestFileSHA256(t *testing.T) {
	// SHA-256 of "abc" (FIPS 180-2 example).
	if got := FileSHA256([]byte("abc")); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Fatal(got)
	}
}

// TestSources pins the fingerprint's definition on a one-file package: a
// change to it would make every committed .sum file stale.
func TestSources(t *testing.T) {
	b, err := os.ReadFile("testdata/hello/main.go")
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s/main.go %d\n%s", hello, len(b), b)
	want := hex.EncodeToString(h.Sum(nil))
	for _, dir := range []string{".", "../..", "testdata"} {
		got, err := Sources(dir, hello)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("Sources(%q) = %s, want %s", dir, got, want)
		}
	}
	if _, err := Sources(".", hello+"/missing"); err == nil {
		t.Error("Sources of a missing package: no error")
	}
}

// TestGenerateCheck builds hello into a temporary static directory, checks
// that Check accepts the result, then spoils it in each way Check must see.
func TestGenerateCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a js/wasm binary")
	}
	dir := t.TempDir()
	sum, err := Generate(dir, "hello.wasm", hello)
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(dir, "hello.wasm.sum"))
	if err != nil || string(text) != sum.Format() {
		t.Fatalf("hello.wasm.sum = %q, %v; Generate returned %+v", text, err, sum)
	}
	if want, _ := goEnv("GOVERSION"); sum.Go != want {
		t.Errorf("sum records toolchain %q, want %q", sum.Go, want)
	}
	if err := Check(os.DirFS(dir), "hello.wasm", hello); err != nil {
		t.Fatalf("fresh build: %v", err)
	}
	spoil := func(name string, b []byte) func(string) {
		return func(d string) {
			if b == nil {
				os.Remove(filepath.Join(d, name))
				return
			}
			os.WriteFile(filepath.Join(d, name), b, 0o644)
		}
	}
	other := sum
	other.Sources = strings.Repeat("0", 64)
	for _, c := range []struct {
		name, want string
		spoil      func(dir string)
	}{
		{"binary changed", "has SHA-256", spoil("hello.wasm", []byte("not wasm"))},
		{"other sources", "is stale (sources", spoil("hello.wasm.sum", []byte(other.Format()))},
		{"bad sum file", "incomplete sum file", spoil("hello.wasm.sum", []byte("go go1\n"))},
		{"no sum file", "hello.wasm.sum", spoil("hello.wasm.sum", nil)},
		{"no binary", "hello.wasm", spoil("hello.wasm", nil)},
		{"no glue", ExecJS, spoil(ExecJS, nil)},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := t.TempDir()
			for _, f := range []string{"hello.wasm", "hello.wasm.sum", ExecJS} {
				b, err := os.ReadFile(filepath.Join(dir, f))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(d, f), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			c.spoil(d)
			err := Check(os.DirFS(d), "hello.wasm", hello)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Check = %v, want an error with %q", err, c.want)
			}
		})
	}
}
