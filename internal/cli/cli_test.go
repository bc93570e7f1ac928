package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func testApp(got *[]string) *App {
	verb := &Verb{Name: "echo", Summary: "prints its args", Run: func(ctx context.Context, env *Env, args []string) error {
		fs := NewFlags(env, "t a echo", "[--upper] WORDS...", "")
		upper := fs.Bool("upper", false, "upper-case")
		if err := Parse(fs, args); err != nil {
			return err
		}
		*got = fs.Args()
		s := strings.Join(fs.Args(), " ")
		if *upper {
			s = strings.ToUpper(s)
		}
		env.Stdout.Write([]byte(s))
		return nil
	}}
	return &App{Name: "t", Version: "v0", Areas: []*Area{{Name: "a", Summary: "area a", Verbs: []*Verb{verb}}}}
}

func TestMainExitCodes(t *testing.T) {
	cases := []struct {
		args []string
		code int
		out  string
	}{
		{nil, 2, ""},
		{[]string{"help"}, 0, "areas:"},
		{[]string{"version"}, 0, "t v0"},
		{[]string{"nope"}, 2, ""},
		{[]string{"a"}, 2, "verbs:"},
		{[]string{"a", "--help"}, 0, "verbs:"},
		{[]string{"a", "zzz"}, 2, ""},
		{[]string{"a", "echo", "--bogus"}, 2, ""},
		{[]string{"a", "echo", "--help"}, 0, ""},
		{[]string{"a", "echo", "x", "--upper", "y"}, 0, "X Y"},
	}
	for _, c := range cases {
		var got []string
		var out, errb bytes.Buffer
		code := testApp(&got).Main(context.Background(), &Env{Stdout: &out, Stderr: &errb}, c.args)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d (stderr %q)", c.args, code, c.code, errb.String())
		}
		if !strings.Contains(out.String(), c.out) {
			t.Errorf("%v: stdout %q lacks %q", c.args, out.String(), c.out)
		}
		if c.code == 2 && !strings.Contains(errb.String(), "usage") && !strings.Contains(errb.String(), "Run 't help'") {
			t.Errorf("%v: usage error without a usage hint: %q", c.args, errb.String())
		}
	}
}
