// validate_test.go runs command lines that used to be accepted silently or
// to fail only after the work was done (issue 25): each must be refused
// up front with a clear message and exit 2.
package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// usageCase is one command line that must exit 2 with want in stderr.
type usageCase struct {
	args []string
	want string
}

func checkUsage(t *testing.T, cases []usageCase) {
	t.Helper()
	for _, c := range cases {
		code, out, errOut := run(t, c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) || out != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want exit 2 and %q", c.args, code, errOut, out, c.want)
		}
	}
}

// TestOutputPathsChecked: output paths that cannot be written are refused
// before any game is played.
func TestOutputPathsChecked(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	under := filepath.Join(file, "logs")
	p1, p2 := shAI("left", 0), shAI("right", 4)
	checkUsage(t, []usageCase{
		{[]string{"codevs", "referee", "--p1", p1, "--p2", p2, "--seed", "1", "--quiet", "--log-dir", under}, "--log-dir"},
		{[]string{"codevs", "match", "--p1", p1, "--p2", p2, "--games", "1", "--quiet", "--log-dir", under}, "--log-dir"},
		{[]string{"hatetris", "search", "--beam", "2", "--out", filepath.Join(under, "best.txt")}, "--out"},
	})
}

// TestServeAddrUsage: an --addr that is not HOST:PORT is a usage error
// (exit 2), found before anything listens.
func TestServeAddrUsage(t *testing.T) {
	checkUsage(t, []usageCase{
		{[]string{"serve", "--addr", "garbage"}, "--addr \"garbage\": want HOST:PORT"},
		{[]string{"serve", "--addr", "127.0.0.1:abc"}, "bad port"},
		{[]string{"serve", "--addr", "127.0.0.1:99999"}, "bad port"},
	})
}
