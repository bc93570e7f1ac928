package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/hatetris/train"
)

// hatetrisVector returns a replay from the package's copy of the upstream vectors.
func hatetrisVector(t *testing.T, name, enc string) string {
	t.Helper()
	b, err := os.ReadFile("../../hatetris/replay/testdata/replays.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []struct{ Name, Encoding, Replay string }
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if v.Name == name && v.Encoding == enc {
			return v.Replay
		}
	}
	t.Fatalf("no vector %s/%s", name, enc)
	return ""
}

func TestHatetrisReplayConvertShow(t *testing.T) {
	r := hatetrisVector(t, "knewjade (4)", "base65536")
	code, out, errOut := run(t, "hatetris", "replay", "--json", r)
	if code != 0 || strings.TrimSpace(out) != `{"score":66,"pieces":192,"moves":2523,"gameOver":true}` {
		t.Fatalf("replay --json: code %d out %q err %q", code, out, errOut)
	}
	// Converting to every encoding and back gives the same game.
	for _, enc := range []string{"raw", "hex", "base65536", "base2048"} {
		code, conv, errOut := run(t, "hatetris", "convert", "--to", enc, r)
		if code != 0 {
			t.Fatalf("convert %s: %d %s", enc, code, errOut)
		}
		code, out, _ := run(t, "hatetris", "replay", "--json", strings.TrimSpace(conv))
		if code != 0 || !strings.Contains(out, `"score":66`) {
			t.Errorf("%s: %q", enc, out)
		}
	}
	// A file argument and the text form.
	f := filepath.Join(t.TempDir(), "r.txt")
	os.WriteFile(f, []byte(r+"\n"), 0o644)
	code, out, _ = run(t, "hatetris", "replay", "--ai", "mild", "@"+f)
	if code != 0 || !strings.Contains(out, "score: 66") || !strings.Contains(out, "ai: mild") {
		t.Errorf("replay @file: %d %q", code, out)
	}
	code, out, _ = run(t, "hatetris", "show", "--move", "30", r)
	if code != 0 || !strings.Contains(out, "@") || !strings.Contains(out, "----------") {
		t.Errorf("show: %d %q", code, out)
	}
	// Bad input: a clear error and a non-zero exit.
	code, _, errOut = run(t, "hatetris", "replay", "AB G")
	if code == 0 || !strings.Contains(errOut, "character") {
		t.Errorf("bad replay: code %d err %q", code, errOut)
	}
	code, _, errOut = run(t, "hatetris", "convert", "--to", "base64", r)
	if code != 2 || !strings.Contains(errOut, "unknown encoding") {
		t.Errorf("bad encoding: code %d err %q", code, errOut)
	}
}

func TestHatetrisSearch(t *testing.T) {
	out := filepath.Join(t.TempDir(), "best.txt")
	code, stdout, errOut := run(t, "hatetris", "search", "--beam", "30", "--json", "--out", out)
	if code != 0 {
		t.Fatalf("search: %d %s", code, errOut)
	}
	var res struct {
		Score    int
		GameOver bool
		Replay   string
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err, stdout)
	}
	b, _ := os.ReadFile(out)
	if strings.TrimSpace(string(b)) != res.Replay || res.Score < 1 {
		t.Fatalf("search result %+v, file %q", res, b)
	}
	code, stdout, _ = run(t, "hatetris", "replay", "--json", "@"+out)
	var rep struct {
		Score    int
		GameOver bool
	}
	json.Unmarshal([]byte(stdout), &rep)
	if code != 0 || rep.Score != res.Score || rep.GameOver != res.GameOver {
		t.Errorf("the written replay scores %d, search said %d", rep.Score, res.Score)
	}
}

// TestHatetrisTrainAndSearchNN: a tiny training run through the CLI writes
// its table, nets and plot; a resumed run reprints the same table; the
// last net drives `search --eval nn:FILE`; bad flags are usage errors.
func TestHatetrisTrainAndSearchNN(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	args := []string{"hatetris", "train", "--dir", dir, "--gens", "1", "--beam", "8", "--samples", "2",
		"--refine-width", "3", "--refine-depth", "2", "--max-depth", "15", "--hidden", "8", "--epochs", "3", "--json"}
	code, out, errOut := run(t, args...)
	if code != 0 {
		t.Fatalf("train: %d %s", code, errOut)
	}
	var table []struct {
		Gen, Score, Samples int
		Replay              string
	}
	if err := json.Unmarshal([]byte(out), &table); err != nil || len(table) != 2 || table[0].Samples == 0 {
		t.Fatalf("train --json: %v %q", err, out)
	}
	for _, f := range []string{"config.json", "summary.txt", "progress.png", "gen-001/net.yomi", "gen-000/targets.bin.gz", "summary.csv", ".gitignore"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	// Resuming a finished run recomputes nothing and prints the same table.
	code, out2, _ := run(t, "hatetris", "train", "--dir", dir, "--json")
	if code != 0 || out2 != out {
		t.Errorf("resume: %d\n%s\nvs\n%s", code, out2, out)
	}
	code, out, errOut = run(t, "hatetris", "search", "--beam", "8", "--max-depth", "15", "--quiescence", "--eval", "nn:"+filepath.Join(dir, "gen-001", "net.yomi"), "--json")
	if code != 0 {
		t.Fatalf("search --eval nn: %d %s", code, errOut)
	}
	var res struct{ Score int }
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Score != table[1].Score {
		t.Errorf("search with the gen-1 net: %v %q, train says %d", err, out, table[1].Score)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"hatetris", "search", "--eval", "magic"}, 2, "heuristic or nn:FILE"},
		{[]string{"hatetris", "search", "--eval", "nn:" + dir + "/nope.yomi"}, 1, "no such file"},
		{[]string{"hatetris", "search", "--eval", "nn:" + dir + "/config.json"}, 1, "magic"},
		{[]string{"hatetris", "train"}, 2, "--dir"},
		{[]string{"hatetris", "train", "--dir", dir, "--beam", "0"}, 2, "beam"},
		{[]string{"hatetris", "train", "--dir", dir, "--beam", "9"}, 1, "same settings"},
	} {
		code, _, errOut := run(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: code %d err %q, want %d %q", c.args, code, errOut, c.code, c.want)
		}
	}
}

// TestHatetrisTrainDNF: a tiny run with --features dnf writes D&F nets
// that search --eval nn:FILE plays (the run's own game); a resume with
// other features, an unknown set and dnf with the solved start are refused.
func TestHatetrisTrainDNF(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	code, out, errOut := run(t, "hatetris", "train", "--dir", dir, "--features", "dnf", "--start", "random", "--gens", "1", "--beam", "8", "--samples", "2",
		"--refine-width", "3", "--refine-depth", "2", "--max-depth", "15", "--hidden", "4", "--epochs", "2", "--json")
	if code != 0 {
		t.Fatalf("train --features dnf: %d %s", code, errOut)
	}
	var table []struct{ Score int }
	if err := json.Unmarshal([]byte(out), &table); err != nil || len(table) != 2 {
		t.Fatalf("train --json: %v %q", err, out)
	}
	if _, f, err := train.LoadNet(filepath.Join(dir, "gen-001", "net.yomi")); err != nil || f != train.DNF {
		t.Fatalf("gen-1 net: %q %v", f, err)
	}
	code, out, errOut = run(t, "hatetris", "search", "--beam", "8", "--max-depth", "15", "--quiescence", "--eval", "nn:"+filepath.Join(dir, "gen-001", "net.yomi"), "--json")
	var res struct{ Score int }
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.Score != table[1].Score {
		t.Errorf("search with the D&F gen-1 net: %d %q %s, train says %d", code, out, errOut, table[1].Score)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"hatetris", "train", "--dir", dir, "--features", "knewjade"}, 1, "same settings"},
		{[]string{"hatetris", "train", "--dir", t.TempDir(), "--features", "bogus"}, 2, "unknown feature set"},
		{[]string{"hatetris", "train", "--dir", t.TempDir(), "--features", "dnf", "--start", "solved"}, 2, "knewjade"},
	} {
		code, _, errOut := run(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: code %d err %q, want %d %q", c.args, code, errOut, c.code, c.want)
		}
	}
}

// TestHatetrisSearchOut: an --out that cannot be written is refused before
// the search (exit 2), and if writing fails at the end anyway the replay
// is still printed.
func TestHatetrisSearchOut(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	args := []string{"hatetris", "search", "--beam", "2", "--max-depth", "3"}
	for _, bad := range []string{filepath.Join(file, "best.txt"), filepath.Join(dir, "no", "best.txt"), dir} {
		code, out, errOut := run(t, append(args, "--out", bad)...)
		if code != 2 || out != "" || !strings.Contains(errOut, "--out") {
			t.Errorf("--out %s: exit %d, stdout %q, stderr %q", bad, code, out, errOut)
		}
	}
	good := filepath.Join(dir, "best.txt")
	code, out, errOut := run(t, append(args, "--out", good)...)
	b, _ := os.ReadFile(good)
	if code != 0 || len(b) < 2 || !strings.Contains(out, "replay: "+strings.TrimSpace(string(b))+"\n") {
		t.Fatalf("--out: exit %d, file %q, stdout %q, stderr %q", code, b, out, errOut)
	}
	os.Remove(good)
	// the check passed but the write fails at the end: the replay is printed
	writeFile = func(string, []byte, os.FileMode) error { return errors.New("disk full") }
	defer func() { writeFile = os.WriteFile }()
	for _, extra := range [][]string{nil, {"--json"}} {
		code, out, errOut = run(t, append(append(args, "--out", good), extra...)...)
		if code != 1 || !strings.Contains(out, strings.TrimSpace(string(b))) || !strings.Contains(errOut, "disk full") {
			t.Errorf("%v failing write: exit %d, stdout %q, stderr %q", extra, code, out, errOut)
		}
	}
	if _, err := os.Stat(good); err == nil {
		t.Errorf("the check left %s behind", good)
	}
}

// A trainer killed (SIGKILL) mid-Refine and resumed with --resume keeps
// the Refine checkpoints it had finished (not recomputed) and ends with the
// nets and targets of an uninterrupted run.
func TestHatetrisTrainSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two small training runs")
	}
	tiny := []string{"--gens", "2", "--beam", "40", "--samples", "20", "--refine-width", "8", "--refine-depth", "4",
		"--max-depth", "30", "--hidden", "8", "--epochs", "4", "--batch", "8", "--distill-width", "6", "--distill-samples", "2", "--workers", "1"}
	full := filepath.Join(t.TempDir(), "full")
	if code, _, errOut := run(t, append([]string{"hatetris", "train", "--dir", full}, tiny...)...); code != 0 {
		t.Fatalf("uninterrupted run: %d %s", code, errOut)
	}
	dir := filepath.Join(t.TempDir(), "killed")
	cmd, _, _ := startYomi(t, append([]string{"hatetris", "train", "--dir", dir}, tiny...)...)
	mark := filepath.Join(dir, "gen-000", "refine-0002.bin")
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(mark); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no Refine checkpoint within 60 s")
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	// What was finished at the kill, with its modification time.
	done := map[string]time.Time{}
	files, _ := filepath.Glob(filepath.Join(dir, "gen-*", "*"))
	for _, f := range files {
		if strings.HasSuffix(f, ".tmp") {
			continue
		}
		if st, err := os.Stat(f); err == nil {
			done[f] = st.ModTime()
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "gen-002", "search.json")); err == nil {
		t.Skip("the run finished before the kill")
	}
	if code, _, errOut := run(t, "hatetris", "train", "--resume", dir); code != 0 {
		t.Fatalf("resume: %d %s", code, errOut)
	}
	for f, mt := range done {
		if st, err := os.Stat(f); err != nil || !st.ModTime().Equal(mt) {
			t.Errorf("%s was redone after the kill", f)
		}
	}
	// The same nets, and the same targets (none lost, none refined twice).
	for g := 0; g <= 2; g++ {
		files := []string{"net.yomi"}
		if g < 2 {
			files = append(files, "targets.bin.gz")
		}
		for _, f := range files {
			name := filepath.Join(fmt.Sprintf("gen-%03d", g), f)
			a, _ := os.ReadFile(filepath.Join(full, name))
			b, err := os.ReadFile(filepath.Join(dir, name))
			if f == "targets.bin.gz" {
				a, b = targetRecords(t, a), targetRecords(t, b)
			}
			if err != nil || !bytes.Equal(a, b) {
				t.Errorf("%s differs from the uninterrupted run's (%v)", name, err)
			}
		}
	}
	// Bad resumes are usage errors.
	if code, _, errOut := run(t, "hatetris", "train", "--resume", t.TempDir()); code != 2 || !strings.Contains(errOut, "no config.json") {
		t.Errorf("resume of an empty dir: %d %s", code, errOut)
	}
	if code, _, _ := run(t, "hatetris", "train", "--resume", dir, "--dir", dir); code != 2 {
		t.Errorf("--resume with --dir: %d", code)
	}
}

// targetRecords is a gzipped targets file without its last 12 bytes: the
// Refine's wall time and the checksum, which differ between runs; the
// samples, their targets and the count of dead beams stay.
func targetRecords(t *testing.T, gz []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil || len(b) < 12 {
		t.Fatalf("targets: %d bytes, %v", len(b), err)
	}
	return b[:len(b)-12]
}

// Refine on a standalone fabric node, run by worker processes: the first
// is killed (SIGKILL) mid-Refine and a second takes over (its batches are
// redelivered after the ack wait). The nets and targets equal those of the
// default run (embedded fabric), and each batch's result is stored once.
func TestHatetrisTrainRefineWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs training with worker processes")
	}
	tiny := []string{"--gens", "1", "--beam", "40", "--samples", "20", "--refine-width", "8", "--refine-depth", "4",
		"--max-depth", "30", "--hidden", "8", "--epochs", "4", "--batch", "8", "--distill-width", "6", "--distill-samples", "2", "--workers", "1"}
	full := filepath.Join(t.TempDir(), "full")
	if code, _, errOut := run(t, append([]string{"hatetris", "train", "--dir", full}, tiny...)...); code != 0 {
		t.Fatalf("embedded run: %d %s", code, errOut)
	}
	url, _ := startNode(t)
	a, _, _ := startYomi(t, "worker", "--nats", url, "--concurrency", "1", "--ack-wait", "1s")
	dir := filepath.Join(t.TempDir(), "remote")
	trainer, _, trainErr := startYomi(t, append([]string{"hatetris", "train", "--dir", dir, "--nats", url, "--concurrency", "0"}, tiny...)...)
	mark := filepath.Join(dir, "gen-000", "refine-0001.bin")
	deadline := time.Now().Add(90 * time.Second)
	for {
		if _, err := os.Stat(mark); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no Refine result within 90 s: %s", trainErr)
		}
		time.Sleep(5 * time.Millisecond)
	}
	a.Process.Signal(syscall.SIGKILL)
	a.Wait()
	startYomi(t, "worker", "--nats", url, "--concurrency", "1", "--ack-wait", "1s")
	done := make(chan error, 1)
	go func() { done <- trainer.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("trainer: %v\n%s", err, trainErr)
		}
	case <-time.After(120 * time.Second):
		t.Fatalf("trainer did not finish: %s", trainErr)
	}
	for g := 0; g <= 1; g++ {
		files := []string{"net.yomi", "search.json"}
		if g == 0 {
			files = append(files, "targets.bin.gz")
		}
		for _, f := range files {
			name := filepath.Join(fmt.Sprintf("gen-%03d", g), f)
			a, _ := os.ReadFile(filepath.Join(full, name))
			b, err := os.ReadFile(filepath.Join(dir, name))
			if f == "targets.bin.gz" {
				a, b = targetRecords(t, a), targetRecords(t, b)
			}
			if f == "search.json" {
				// Only the game, not the time.
				var x, y struct{ Replay string }
				json.Unmarshal(a, &x)
				json.Unmarshal(b, &y)
				a, b = []byte(x.Replay), []byte(y.Replay)
			}
			if err != nil || !bytes.Equal(a, b) {
				t.Errorf("%s differs from the embedded run's (%v)", name, err)
			}
		}
	}
	code, out, errOut := run(t, "fabric", "status", "--nats", url, "--json")
	if code != 0 {
		t.Fatalf("status: %s", errOut)
	}
	var runs []struct {
		Kind    string
		Results int
	}
	json.Unmarshal([]byte(out), &runs)
	chunks, _ := filepath.Glob(filepath.Join(dir, "gen-000", "refine-*.bin"))
	if len(runs) != 1 || runs[0].Kind != "hatetris.refine" || runs[0].Results != len(chunks) {
		t.Errorf("runs %+v, want one hatetris.refine run with %d results", runs, len(chunks))
	}
}

// TestHatetrisSearchCheckpoint: a search stopped at --max-depth 8 and rerun
// with the same --checkpoint to depth 20 says it resumes and prints the
// uninterrupted run's game; a checkpoint of another width is a usage
// error, a damaged one an error naming the file, and neither is replaced.
func TestHatetrisSearchCheckpoint(t *testing.T) {
	dir := t.TempDir()
	ckpt := filepath.Join(dir, "beam.ckpt")
	search := func(extra ...string) (int, map[string]any, string) {
		t.Helper()
		code, out, errOut := run(t, append([]string{"hatetris", "search", "--beam", "30", "--workers", "2", "--json"}, extra...)...)
		var res map[string]any
		if code == 0 {
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatal(err, out)
			}
		}
		return code, res, errOut
	}
	_, want, _ := search("--max-depth", "20")
	if code, _, errOut := search("--max-depth", "8", "--checkpoint", ckpt); code != 0 || strings.Contains(errOut, "resuming") {
		t.Fatalf("first part: exit %d, %s", code, errOut)
	}
	code, got, errOut := search("--max-depth", "20", "--checkpoint", ckpt, "--workers", "1")
	if code != 0 || !strings.Contains(errOut, "resuming from "+ckpt+": depth 8,") {
		t.Fatalf("resume: exit %d, stderr %q", code, errOut)
	}
	for _, k := range []string{"replay", "score", "pieces", "wells", "stopped"} {
		if got[k] != want[k] {
			t.Errorf("resumed %s %v, uninterrupted %v", k, got[k], want[k])
		}
	}
	good, _ := os.ReadFile(ckpt)
	for _, c := range []struct {
		name string
		file []byte
		args []string
		code int
		want string
	}{
		{"other width", good, []string{"--beam", "31"}, 2, "beam width 30 (this search: 31)"},
		{"other ai", good, []string{"--ai", "mild"}, 2, "AI hatetris (this search: mild)"},
		{"a net", good, []string{"--eval", "nn:../../hatetris/nets/h24-run4-gen19.yomi"}, 2, `evaluator "heuristic {Lines:36.4 `},
		{"a net's hash", good, []string{"--eval", "nn:../../hatetris/nets/h24-run4-gen19.yomi"}, 2, `(this search: "nn:sha256:`},
		{"depth past --max-depth", good, []string{"--max-depth", "10"}, 2, "past the maximum depth 10"},
		{"truncated", good[:len(good)-3], nil, 1, "corrupt or truncated"},
		{"empty", nil, nil, 1, "corrupt or truncated"},
	} {
		os.WriteFile(ckpt, c.file, 0o644)
		code, _, errOut := search(append([]string{"--checkpoint", ckpt}, c.args...)...)
		if code != c.code || !strings.Contains(errOut, c.want) || !strings.Contains(errOut, ckpt) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", c.name, code, errOut, c.code, c.want)
		}
		if b, _ := os.ReadFile(ckpt); string(b) != string(c.file) {
			t.Errorf("%s: the checkpoint was replaced", c.name)
		}
	}
	for _, args := range [][]string{{"--checkpoint", dir}, {"--checkpoint-every", "1m"}, {"--checkpoint", ckpt, "--checkpoint-every", "-1s"}} {
		if code, _, errOut := search(args...); code != 2 || !strings.Contains(errOut, "--checkpoint") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// TestHatetrisSearchCheckpointSIGINT: Ctrl-C (SIGINT to this test binary
// run as yomi) leaves a checkpoint that resumes to the uninterrupted game.
func TestHatetrisSearchCheckpointSIGINT(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ckpt := filepath.Join(t.TempDir(), "beam.ckpt")
	args := []string{"hatetris", "search", "--beam", "3000", "--workers", "1", "--json", "--max-depth", "8"}
	cmd := exec.Command(exe, append(args, "--checkpoint", ckpt)...)
	cmd.Env = append(os.Environ(), "YOMI_TEST_AS_MAIN=1")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(ckpt); err == nil {
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("ended before the first checkpoint: %v\n%s", err, tail(errb.String()))
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no checkpoint within 60 s")
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-exited:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		<-exited
		t.Fatalf("still running 60 s after SIGINT\n%s", tail(errb.String()))
	}
	if !strings.Contains(errb.String(), "stopped early") {
		t.Fatalf("SIGINT did not stop the search early (it must stop before depth 8):\n%s", tail(errb.String()))
	}
	_, want, _ := run(t, args...)
	code, got, errOut := run(t, append(args, "--checkpoint", ckpt)...)
	if code != 0 || !strings.Contains(errOut, "resuming from") {
		t.Fatalf("resume: exit %d\n%s", code, tail(errOut))
	}
	var w, g struct {
		Replay string
		Wells  int64
	}
	json.Unmarshal([]byte(want), &w)
	json.Unmarshal([]byte(got), &g)
	if w.Replay == "" || w != g {
		t.Errorf("resumed after SIGINT: %+v, uninterrupted %+v", g, w)
	}
	t.Log(strings.TrimSpace(errOut[:strings.Index(errOut, "\n")]))
}

func TestHatetrisSolve(t *testing.T) {
	code, out, errOut := run(t, "hatetris", "solve", "--height", "4", "--json")
	if code != 0 {
		t.Fatalf("solve: code %d err %q", code, errOut)
	}
	var res struct{ Best, Wells, Fired int }
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Best != 1 || res.Wells != 26809 || res.Fired != 0 {
		t.Fatalf("solve --height 4: %q (%v)", out, err)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"hatetris", "solve", "--height", "8"}, "want 1..7"},
		{[]string{"hatetris", "solve", "--ai", "easy"}, "unknown AI"},
		{[]string{"hatetris", "solve", "--limit", "-1"}, "--limit"},
		{[]string{"hatetris", "train", "--dir", t.TempDir(), "--solved-height", "5"}, "need --start solved"},
		{[]string{"hatetris", "train", "--dir", t.TempDir(), "--start", "solved", "--solved-height", "3"}, "solved height 3"},
		{[]string{"hatetris", "train", "--dir", t.TempDir(), "--start", "solved", "--solved-frac", "0"}, "--solved-frac"},
	} {
		code, _, errOut := run(t, c.args...)
		if code != 2 || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: code %d err %q, want 2 and %q", c.args, code, errOut, c.msg)
		}
	}
	// A limit that the solve reaches is an error, not a usage error.
	if code, _, errOut := run(t, "hatetris", "solve", "--height", "4", "--limit", "10"); code != 1 || !strings.Contains(errOut, "limit") {
		t.Errorf("--limit 10: code %d err %q", code, errOut)
	}
}
