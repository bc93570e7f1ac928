// Tests of the sum file's format and of the source fingerprint.

package wasmsrc

import (
	"strings"
	"testing"
)

func TestSumRoundTrip(t *testing.T) {
	s := Sum{Sources: "abc", Wasm: "def", Go: "go1.26.0"}
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

func TestSources(t *testing.T) {
	a, err := Sources(".")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Sources("../..")
	if err != nil {
		t.Fatal(err)
	}
	if a != b || len(a) != 64 || strings.Trim(a, "0123456789abcdef") != "" {
		t.Fatalf("fingerprints %q and %q from two directories of the module", a, b)
	}
}

func TestFileSHA256(t *testing.T) {
	// SHA-256 of "abc" (FIPS 180-2 example).
	if got := FileSHA256([]byte("abc")); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Fatal(got)
	}
}
