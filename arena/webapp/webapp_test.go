// Tests of the arena page's API: reports of a committed match file and of a
// score-game upload equal what the arena package prints, the LLR series
// ends at the report's LLR, and bad requests are refused clearly.

package webapp

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/arena"
)

const matches = "../../codevs/matches"

func post(t *testing.T, h http.Handler, body string) (int, []byte) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/report", strings.NewReader(body)))
	return rec.Code, rec.Body.Bytes()
}

// cliText is what `yomi arena report` prints (cmd/yomi's runReport).
func cliText(t *testing.T, path string, s *arena.SPRT) string {
	t.Helper()
	games, err := arena.ReadResults(path)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := arena.SummarizeRecords(games, s)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	rep.(interface{ Write(io.Writer) }).Write(&b)
	return b.String()
}

func TestReportOfKnownFile(t *testing.T) {
	h := Handler(Options{Dirs: []string{matches}})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/files", nil))
	var files []File
	if err := json.Unmarshal(rec.Body.Bytes(), &files); err != nil || len(files) < 5 {
		t.Fatalf("files: %v %s", err, rec.Body)
	}
	code, body := post(t, h, `{"file":"0/ysai-180s.jsonl","sprt":[0,5]}`)
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	var r Report
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatal(err)
	}
	sp := arena.DefaultSPRT()
	sp.Elo1 = 5
	if want := cliText(t, matches+"/ysai-180s.jsonl", &sp); r.Text != want {
		t.Errorf("text\n got %q\nwant %q", r.Text, want)
	}
	if r.Kind != "pair" || r.Games != 200 || len(r.Estimates) != 2 || r.Estimates[0].Elo != "186.25" || r.Estimates[0].EloErr != "62.58" {
		t.Errorf("kind %q, %d games, estimates %+v", r.Kind, r.Games, r.Estimates)
	}
	if n := len(r.LLR); n != 200 || r.LLR[n-1].Games != 200 || r.LLR[n-1].LLR != r.SPRT.LLR {
		t.Errorf("LLR series of %d points, last %+v, report LLR %v", n, r.LLR[len(r.LLR)-1], r.SPRT.LLR)
	}
}

func TestReportOfScoreUpload(t *testing.T) {
	text, err := os.ReadFile("testdata/scores.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	req, _ := json.Marshal(ReportRequest{Name: "scores.jsonl", Text: string(text)})
	code, body := post(t, Handler(Options{}), string(req))
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	var r Report
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatal(err)
	}
	if want := cliText(t, "testdata/scores.jsonl", nil); r.Text != want {
		t.Errorf("text\n got %q\nwant %q", r.Text, want)
	}
	if r.Kind != "score" || len(r.Samples) != 3 || len(r.Histograms) != 2 || r.LLR != nil {
		t.Fatalf("kind %q, %d samples, %d histograms, LLR %v", r.Kind, len(r.Samples), len(r.Histograms), r.LLR)
	}
	for _, h := range r.Histograms {
		n := 0
		for _, c := range h.Counts {
			n += c
		}
		if n != 24 {
			t.Errorf("%s: histogram holds %d scores, want 24", h.Name, n)
		}
	}
}

func TestReportErrors(t *testing.T) {
	h := Handler(Options{Dirs: []string{matches}})
	for _, tc := range []struct {
		body string
		code int
		want string
	}{
		{`{"file":"0/../../go.mod"}`, 404, "no results file"},
		{`{"file":"0/ysai-180s.jsonl","text":"x"}`, 400, "either file or text"},
		{`{}`, 400, "no results file given"},
		{`{"name":"x.jsonl","text":"{\"a\":1}\n"}`, 400, "x.jsonl:1: not a game record"},
		{`{"file":"0/ysai-180s.jsonl","sprt":[5,0]}`, 400, "SPRT"},
		{`{"fiel":"x"}`, 400, "unknown field"},
	} {
		code, body := post(t, h, tc.body)
		if code != tc.code || !strings.Contains(string(body), tc.want) {
			t.Errorf("%s: %d %s, want %d and %q", tc.body, code, body, tc.code, tc.want)
		}
	}
}
