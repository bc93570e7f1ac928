// Tests of `yomi serve`'s Host flags and of the checks on SEPARO's API: a
// page of another site can neither reach the server under its own name nor
// post to the API.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/internal/cli"
)

// startServe runs `yomi serve --addr 127.0.0.1:0 args...` in-process and
// returns its URL; the server stops at the end of the test.
func startServe(t *testing.T, args ...string) *url.URL {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- newApp().Main(ctx, &cli.Env{Stdout: io.Discard, Stderr: pw}, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...))
		pw.Close()
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("serve exited %d", code)
			}
		case <-time.After(10 * time.Second):
			t.Error("serve did not stop")
		}
	})
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	u, err := url.Parse(regexp.MustCompile(`http://\S+/`).FindString(line))
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// send makes one request to u+path with Host host ("" for u's), the given
// headers, and a POST body unless body is "".
func send(t *testing.T, u *url.URL, host, path, body string, hdr ...string) int {
	t.Helper()
	method := "GET"
	if body != "" {
		method = "POST"
	}
	req, err := http.NewRequest(method, u.String()+strings.TrimPrefix(path, "/"), strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

const stepBody = `{"size":9,"moves":[],"play":[0,0,1,1,2,1]}`

func TestServeHostFlags(t *testing.T) {
	plain := startServe(t)
	allowed := startServe(t, "--allow-host", "yomi.lan,other.lan:1", "--allow-host", "box.lan")
	anyHost := startServe(t, "--any-host")
	with := func(u *url.URL, name string) string { return name + ":" + u.Port() }
	for _, c := range []struct {
		name string
		u    *url.URL
		host string
		want int
	}{
		{"own address", plain, "", 200},
		{"localhost", plain, with(plain, "localhost"), 200},
		{"rebound name", plain, with(plain, "evil.example"), 421},
		{"allowed name", allowed, with(allowed, "yomi.lan"), 200},
		{"second --allow-host", allowed, with(allowed, "box.lan"), 200},
		{"allowed name, other port", allowed, with(allowed, "other.lan"), 421},
		{"name not allowed", allowed, with(allowed, "evil.example"), 421},
		{"own address with --allow-host", allowed, "", 200},
		{"any host", anyHost, with(anyHost, "evil.example"), 200},
	} {
		if got := send(t, c.u, c.host, "/separo/", ""); got != c.want {
			t.Errorf("%s: GET %d, want %d", c.name, got, c.want)
		}
	}
	// --any-host still refuses cross-site POSTs.
	if got := send(t, anyHost, with(anyHost, "evil.example"), "/separo/api/step", stepBody,
		"Content-Type", "application/json", "Sec-Fetch-Site", "cross-site"); got != 403 {
		t.Errorf("--any-host, cross-site POST: %d, want 403", got)
	}
	for _, bad := range []string{"http://yomi.lan", "yomi.lan:0", ""} {
		if code, _, errs := run(t, "serve", "--allow-host", bad); code != 2 || !strings.Contains(errs, "allow-host") {
			t.Errorf("--allow-host %q: exit %d, %q", bad, code, errs)
		}
	}
}

// TestSeparoAPIRefusesOtherSites posts to the AI the ways a page of another
// site could, and as SEPARO's page does.
func TestSeparoAPIRefusesOtherSites(t *testing.T) {
	u := startServe(t)
	origin := "http://" + u.Host
	for _, c := range []struct {
		name string
		host string
		hdr  []string
		want int
	}{
		{"the page's own fetch", "", []string{"Content-Type", "application/json", "Sec-Fetch-Site", "same-origin", "Origin", origin}, 200},
		{"a script without browser headers", "", []string{"Content-Type", "application/json"}, 200},
		{"text/plain from another site", "", []string{"Content-Type", "text/plain", "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"}, 403},
		{"text/plain without browser headers", "", []string{"Content-Type", "text/plain"}, 415},
		{"form from the page's origin", "", []string{"Content-Type", "application/x-www-form-urlencoded", "Sec-Fetch-Site", "same-origin", "Origin", origin}, 415},
		{"old browser on another site", "", []string{"Content-Type", "application/json", "Origin", "https://evil.example"}, 403},
		{"DNS rebinding", "evil.example:" + u.Port(), []string{"Content-Type", "application/json", "Sec-Fetch-Site", "same-origin", "Origin", "http://evil.example:" + u.Port()}, 421},
	} {
		if got := send(t, u, c.host, "/separo/api/step", stepBody, c.hdr...); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

// TestServeExport checks that --export writes the site, with the scripts
// that let SEPARO run from file://, and says how to open or serve it.
func TestServeExport(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := run(t, "serve", "--export", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "Open "+filepath.Join(dir, "index.html")+" in a browser") || !strings.Contains(out, "python3 -m http.server 8000 --directory "+dir) {
		t.Errorf("export output %q does not say how to serve the site", out)
	}
	for _, f := range []string{"separo.wasm", "separo-wasm.js", "worker-src.js"} {
		if _, err := os.Stat(filepath.Join(dir, "separo", f)); err != nil {
			t.Error(err)
		}
	}
}

// TestArenaPageMatchesReport checks that the arena page's report of a
// committed match file is what `yomi arena report` prints, and that
// --results-dir offers that file.
func TestArenaPageMatchesReport(t *testing.T) {
	const file = "../../codevs/matches/skill-selfplay-60s-v4.jsonl"
	code, out, errs := run(t, "arena", "report", "--sprt", "0,5", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	u := startServe(t, "--results-dir", "../../codevs/matches")
	req, _ := http.NewRequest("POST", u.String()+"arena/api/report", strings.NewReader(`{"file":"0/skill-selfplay-60s-v4.jsonl","sprt":[0,5]}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var rep struct{ Text string }
	if err := json.NewDecoder(resp.Body).Decode(&rep); err != nil || resp.StatusCode != 200 {
		t.Fatalf("status %d, %v", resp.StatusCode, err)
	}
	if rep.Text != out {
		t.Errorf("page's report\n%s\nyomi arena report\n%s", rep.Text, out)
	}
	if code, _, errs := run(t, "serve", "--results-dir", "no/such/dir"); code != 2 || !strings.Contains(errs, "no/such/dir is not a directory") {
		t.Errorf("bad --results-dir: exit %d, %q", code, errs)
	}
}

// TestServeCodevsLogs checks that --codevs-logs offers a match's replays on
// the CODE VS viewer and that a bad directory is a usage error.
func TestServeCodevsLogs(t *testing.T) {
	u := startServe(t, "--codevs-logs", "../../codevs/webapp/testdata")
	resp, err := http.Get(u.String() + "codevs/api/replays")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list []struct{ ID string }
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil || len(list) != 3 || list[0].ID != "0/chains/replay.json" {
		t.Fatalf("replays %+v, %v", list, err)
	}
	if code, _, errs := run(t, "serve", "--codevs-logs", "no/such/dir"); code != 2 || !strings.Contains(errs, "no/such/dir is not a directory") {
		t.Errorf("bad --codevs-logs: exit %d, %q", code, errs)
	}
}

// TestSeigotPageMatchesPlay checks that the game the seigot page streams
// ends with the score, lines and drop bonus of `yomi seigot play`.
func TestSeigotPageMatchesPlay(t *testing.T) {
	code, out, errs := run(t, "seigot", "play", "--level", "2", "--seed", "3", "--ai", "fast", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var want seigotGameResult
	if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &want); err != nil {
		t.Fatal(err)
	}
	u := startServe(t)
	req, _ := http.NewRequest("POST", u.String()+"seigot/api/play", strings.NewReader(`{"level":2,"seed":3,"ai":"fast"}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	lines := strings.Split(strings.TrimSpace(string(body)), "\n")
	var end struct {
		Done  bool
		Stats struct {
			Score, Lines, Drop_score, Block_index int
			Line_stat                             [4]int
		}
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &end); err != nil || !end.Done {
		t.Fatalf("end line %q: %v", lines[len(lines)-1], err)
	}
	if s := end.Stats; s.Score != want.Score || s.Lines != want.Lines || s.Drop_score != want.DropScore || s.Line_stat != want.LineStat || s.Block_index != want.Pieces {
		t.Errorf("page's game %+v, yomi seigot play %+v", s, want)
	}
}

// TestServeCodevsAIFlag checks --codevs-ai: the live player list has the
// built-in AIs and the given one, and a bad value is a usage error.
func TestServeCodevsAIFlag(t *testing.T) {
	u := startServe(t, "--codevs-ai", "mine=echo mine")
	resp, err := http.Get(u.String() + "codevs/api/players")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var names []string
	if err := json.NewDecoder(resp.Body).Decode(&names); err != nil || strings.Join(names, ",") != "dummy,mine,yomi,yomi-light" {
		t.Errorf("players %v, %v", names, err)
	}
	if code, _, errs := run(t, "serve", "--codevs-ai", "nocommand"); code != 2 || !strings.Contains(errs, `want NAME=CMD, got "nocommand"`) {
		t.Errorf("bad --codevs-ai: exit %d, %q", code, errs)
	}
}
