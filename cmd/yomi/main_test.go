package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/internal/cli"
)

func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := newApp().Main(context.Background(), &cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, args)
	return code, out.String(), errb.String()
}

func TestTopLevel(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"help"}, 0, "separo"},
		{[]string{"version"}, 0, "yomi "},
		{[]string{"nosuch"}, 2, ""},
		{[]string{"arena", "--help"}, 0, "sprt"},
		{[]string{"arena", "sprt", "--bogus"}, 2, ""},
		{[]string{"arena", "sprt", "--wdl", "1,2"}, 2, ""},
		{[]string{"arena", "sprt", "--wdl", "1,2,3", "--ptnml", "1,2,3,4,5"}, 2, ""},
		{[]string{"arena", "sprt", "--alpha", "0.7", "--beta", "0.5", "--wdl", "1,2,3"}, 2, ""},
		{[]string{"bench", "nosuch-prefix"}, 2, ""},
		{[]string{"serve", "extra"}, 2, ""},
	}
	for _, c := range cases {
		code, out, _ := run(t, c.args...)
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("%v: exit %d (want %d), stdout %q lacks %q", c.args, code, c.code, out, c.want)
		}
	}
	for _, g := range games() {
		if code, _, _ := run(t, g.area.Name, "--help"); code != 0 {
			t.Errorf("%s --help: exit %d", g.area.Name, code)
		}
	}
}

func TestArenaSPRTVector(t *testing.T) {
	code, out, errs := run(t, "arena", "sprt", "--elo0", "0", "--elo1", "2", "--wdl", "136,96,111")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"Elo: 40.70 +/- 30.43, nElo: 49.77 +/- 36.77", "LOS: 99.60 %", "DrawRatio: 32.36 %", "Games: 343, Wins: 136, Losses: 96, Draws: 111"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !regexp.MustCompile(`LLR: -?\d+\.\d\d \(-?\d+\.\d%\) \(-2\.94, 2\.94\) \[0\.00, 2\.00\]`).MatchString(out) {
		t.Errorf("no LLR line:\n%s", out)
	}
	code, out, _ = run(t, "arena", "sprt", "--model", "normalized", "--elo0", "0", "--elo1", "10", "--wdl", "4250,0,0", "--json")
	var v struct{ SPRT struct{ LLR float64 } }
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || v.SPRT.LLR < 119.4 || v.SPRT.LLR > 121.8 {
		t.Fatalf("json LLR: %d %s", code, out)
	}
}

func TestBenchJSON(t *testing.T) {
	code, out, errs := run(t, "bench", "--json", "arena")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var f struct {
		Name  string
		Value float64
		Unit  string
	}
	if err := json.Unmarshal([]byte(strings.Split(out, "\n")[0]), &f); err != nil || f.Name != "arena/sprt" || f.Value <= 0 {
		t.Fatalf("%q %v", out, err)
	}
}

func TestArenaReport(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	lines := `{"a":"x","b":"y","seed":1,"game":0,"result":"win","ms":1}
{"a":"x","b":"y","seed":1,"game":1,"result":"draw","ms":1}
`
	os.WriteFile(path, []byte(lines), 0o644)
	code, out, errs := run(t, "arena", "report", path)
	if code != 0 || !strings.Contains(out, "Ptnml(0-2): [0, 0, 0, 1, 0]") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	os.WriteFile(path, []byte("garbage\n"), 0o644)
	if code, _, errs := run(t, "arena", "report", path); code != 1 || !strings.Contains(errs, "r.jsonl:1") {
		t.Fatalf("bad file: exit %d %q", code, errs)
	}
}

// TestServe runs the README's first command in-process and reads the landing page.
func TestServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- newApp().Main(ctx, &cli.Env{Stdout: io.Discard, Stderr: pw}, []string{"serve", "--addr", "127.0.0.1:0"})
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	url := regexp.MustCompile(`http://\S+/`).FindString(line)
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, g := range games() {
		if !strings.Contains(string(body), g.entry.Title) {
			t.Errorf("landing page lacks %q", g.entry.Title)
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("serve exited %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
}

func TestSeigotSequence(t *testing.T) {
	code, out, errs := run(t, "seigot", "sequence", "--seed", "12345", "--level", "2", "--n", "10", "--json")
	if code != 0 || strings.TrimSpace(out) != `{"pieces":[3,6,6,2,5,2,7,7,6,3],"garbage":[]}` {
		t.Fatalf("exit %d: %q %s", code, out, errs)
	}
	code, out, _ = run(t, "seigot", "sequence", "--seed", "1", "--level", "3", "--n", "3")
	if code != 0 || strings.Count(out, "\n") != 3+10 {
		t.Fatalf("level 3: exit %d %q", code, out)
	}
	if code, _, _ := run(t, "seigot", "sequence", "--seed", "1", "--level", "9", "--n", "3"); code != 2 {
		t.Fatalf("bad level: exit %d", code)
	}
}
