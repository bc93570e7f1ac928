// codevs_ai_test.go runs `yomi codevs ai` on a protocol transcript and
// checks its flag errors.
package main

import (
	"bytes"
	"context"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/ai"
	"github.com/yomi-ai/yomi/codevs/protocol"
	"github.com/yomi-ai/yomi/internal/cli"
)

func TestCodevsAIVerb(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"codevs", "ai", "--help"}, 0, "bucketed"},
		{[]string{"codevs", "ai", "--threads", "0"}, 2, "threads"},
		{[]string{"codevs", "ai", "--own-depth", "9"}, 2, "depth"},
		{[]string{"codevs", "ai", "--opening-share", "1.5"}, 2, "share"},
		{[]string{"codevs", "ai", "--opening-horizon", "-1"}, 2, "horizon must not be negative"},
		{[]string{"codevs", "ai", "--replan-max", "0s"}, 2, "replan-max must be positive"},
		{[]string{"codevs", "ai", "--early-fire", "-1"}, 2, "--early-fire must be 0..40"},
		{[]string{"codevs", "ai", "--early-depth", "17"}, 2, "--early-depth 0..16"},
		{[]string{"codevs", "ai", "--potential", "both"}, 2, "--potential must be add, erase, max or sum"},
		{[]string{"codevs", "ai", "--enemy-potential", "both"}, 2, "--enemy-potential must be add, erase, max or sum"},
		{[]string{"codevs", "ai", "--stance", "late"}, 2, "--stance must be default or kera"},
		{[]string{"codevs", "ai", "--stance", "kera", "--late-build", "wide"}, 2, "--late-build must be beam or plan"},
		{[]string{"codevs", "ai", "--late-height", "17"}, 2, "--late-height must be 0..16"},
		{[]string{"codevs", "ai", "--late-rows", "-1"}, 2, "--late-rows 0..8"},
		{[]string{"codevs", "ai", "--builder", "wide"}, 2, "--builder must be beam or chokudai"},
		{[]string{"codevs", "ai", "--replan-share", "1"}, 2, "--replan-share must be in [0, 1)"},
		{[]string{"codevs", "ai", "--enemy-builder", "wide"}, 2, "--enemy-builder must be beam or chokudai"},
		{[]string{"codevs", "ai", "--chok-depth", "21"}, 2, "--chok-depth and --chok-late-depth must be 0..20"},
		{[]string{"codevs", "ai", "--chok-late-depth", "-1"}, 2, "--chok-late-depth must be 0..20"},
		{[]string{"codevs", "ai", "--nodes", "-1"}, 2, "--nodes not negative"},
		{[]string{"codevs", "ai", "--chok-open-x", "10"}, 2, "--chok-open-x must be 0..9"},
		{[]string{"codevs", "ai", "--node-rate", "-1"}, 2, "--node-rate must be 0..1e9"},
		{[]string{"codevs", "ai", "--node-rate", "1000", "--nodes", "300"}, 2, "goes without --width and --nodes"},
		{[]string{"codevs", "ai", "--node-rate", "1000", "--width", "40"}, 2, "goes without --width and --nodes"},
		{[]string{"codevs", "ai", "extra"}, 2, "unexpected"},
	} {
		code, out, errs := run(t, c.args...)
		if code != c.code || !strings.Contains(out+errs, c.want) {
			t.Errorf("%v: exit %d, want %d with %q: %s%s", c.args, code, c.code, c.want, out, errs)
		}
	}
	packs, _ := codevs.PacksForSeed(4, codevs.ProfileClient)
	g, _ := codevs.NewGame(packs)
	in := protocol.AppendStart(nil, codevs.ProtocolPacks(packs))
	tb := g.Input(0, [2]int64{180000, 180000})
	in = protocol.AppendTurn(in, &tb)
	for _, extra := range [][]string{{"--width", "40"}, {"--width", "40", "--builder", "chokudai", "--nodes", "300"},
		{"--width", "40", "--builder", "chokudai", "--enemy-builder", "chokudai"}, {"--node-rate", "300", "--threads", "1"}} {
		var out, errb bytes.Buffer
		args := append([]string{"codevs", "ai", "--name", "tester", "--own-depth", "2"}, extra...)
		code := newApp().Main(context.Background(), &cli.Env{Stdin: bytes.NewReader(in), Stdout: &out, Stderr: &errb}, args)
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if code != 0 || len(lines) != 2 || lines[0] != "tester" {
			t.Fatalf("%v: exit %d, output %q, stderr %s", extra, code, out.String(), errb.String())
		}
		if _, err := protocol.ParseCommand(lines[1]); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCodevsAIDefaults: with no flags the verb plays ai.ContestConfig, and the
// flag recipes its --help gives for the earlier defaults (the 60 s setting,
// the AI of the ysai matches) give ai.ContestConfig60 and ai.DefaultConfig
// back, so the help text stays true.
func TestCodevsAIDefaults(t *testing.T) {
	env := &cli.Env{Stdout: io.Discard, Stderr: io.Discard}
	got, err := codevsAIConfig(env, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := ai.ContestConfig(); !reflect.DeepEqual(got, want) {
		t.Errorf("no flags: %+v, want ai.ContestConfig() %+v", got, want)
	}
	var help bytes.Buffer
	newApp().Main(context.Background(), &cli.Env{Stdout: &help, Stderr: &help}, []string{"codevs", "ai", "--help"})
	for _, tc := range []struct {
		head  string
		lines int
		want  ai.Config
	}{
		{"The default before the 180 s matches against tanzaku (tuned at 60 s):\n", 1, ai.ContestConfig60()},
		{"The AI before the tanzaku work (the ysai matches):\n", 3, ai.DefaultConfig()},
	} {
		_, after, ok := strings.Cut(help.String(), tc.head)
		if !ok {
			t.Fatalf("--help lost %q:\n%s", tc.head, help.String())
		}
		lines := strings.SplitN(after, "\n", tc.lines+1)
		old := strings.Fields(strings.Join(lines[:tc.lines], " "))
		got, err = codevsAIConfig(env, old)
		if err != nil {
			t.Fatalf("%v: %v", old, err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v: %+v, want %+v", old, got, tc.want)
		}
	}
}
