// This file holds the Chromium test of the arena page (with chromedp): open
// a committed CODE VS match file and compare the Elo, LOS and SPRT the page
// shows with `yomi arena report`'s text, then upload a score-game file.
// YOMI_SCREENSHOTS=DIR also saves screenshots for the README.

package webapp_test

import (
	"bytes"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/yomi-ai/yomi/internal/browsertest"

	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/arena/webapp"
	"github.com/yomi-ai/yomi/web"
)

// reportText is what `yomi arena report [--sprt 0,5] FILE` prints (the
// command's code path: ReadResults, SummarizeRecords, Write).
func reportText(t *testing.T, path string, s *arena.SPRT) string {
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

func TestBrowserArenaPage(t *testing.T) {
	ctx, checkErrors := browsertest.Tab(t, 1000, 1400, 60*time.Second)
	const dir = "../../codevs/matches"
	site := &web.Server{Entries: []web.Entry{{Slug: "arena", Title: "Arena", Summary: "test",
		App: &web.App{Handler: webapp.Handler(webapp.Options{Dirs: []string{dir}})}}}}
	srv := httptest.NewServer(site.Handler())
	defer srv.Close()
	sp := arena.DefaultSPRT()
	sp.Elo1 = 5
	want := reportText(t, filepath.Join(dir, "ysai-180s.jsonl"), &sp)
	m := regexp.MustCompile(`Elo: (\S+) \+/- (\S+), nElo: (\S+) \+/- (\S+)\nLOS: (\S+) %`).FindStringSubmatch(want)
	llr := regexp.MustCompile(`LLR: (\S+) `).FindStringSubmatch(want)
	if m == nil || llr == nil {
		t.Fatalf("unexpected report:\n%s", want)
	}
	browsertest.Must(t, ctx, chromedp.Steps(
		chromedp.Navigate(srv.URL+"/arena/?file=0/ysai-180s.jsonl"),
		browsertest.WaitJS(`window.arena && window.arena.report && !window.arena.busy`),
	))
	row := browsertest.Must(t, ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#estimates tbody tr:first-child > *")].map(c => c.textContent)`))
	if len(row) != 7 || row[0] != "pentanomial" || row[3] != m[1]+" ± "+m[2] || row[4] != m[3]+" ± "+m[4] || row[5] != m[5]+" %" {
		t.Errorf("headline row %q; yomi arena report says Elo %s ± %s, nElo %s ± %s, LOS %s %%", row, m[1], m[2], m[3], m[4], m[5])
	}
	if got := browsertest.Must(t, ctx, chromedp.Text(chromedp.ID("text"))); strings.TrimSpace(got) != strings.TrimSpace(want) {
		t.Errorf("report block\n got %q\nwant %q", got, want)
	}
	sprt := browsertest.Must(t, ctx, chromedp.Text(chromedp.ID("sprt")))
	points := browsertest.Must(t, ctx, chromedp.Evaluate[int](`document.getElementById("llrpath").getAttribute("d").split(/[ML]/).length - 1`))
	if !strings.HasPrefix(sprt, "LLR "+llr[1]+" ") || points != 200 {
		t.Errorf("SPRT line %q (want LLR %s), LLR plot of %d points (want 200)", sprt, llr[1], points)
	}
	shots := os.Getenv("YOMI_SCREENSHOTS")
	if shots != "" {
		png := browsertest.Must(t, ctx, chromedp.ScreenshotScale(chromedp.CSS("#result"), 0.5))
		if err := os.WriteFile(filepath.Join(shots, "arena-page.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Upload a score-game file: per-player statistics and two histograms.
	abs, err := filepath.Abs("testdata/scores.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	browsertest.Must(t, ctx, chromedp.Steps(
		chromedp.SetUploadFiles(chromedp.ID("upload"), []string{abs}),
		browsertest.WaitJS(`arena.report && arena.report.name === "scores.jsonl" && !arena.busy`),
	))
	means := browsertest.Must(t, ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#samples tbody tr")].map(r => r.children[0].textContent + " " + r.children[2].textContent)`))
	bars := browsertest.Must(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("#hist rect").length`))
	scoreWant := reportText(t, "testdata/scores.jsonl", &sp)
	if got := browsertest.Must(t, ctx, chromedp.Text(chromedp.ID("text"))); strings.TrimSpace(got) != strings.TrimSpace(scoreWant) {
		t.Errorf("score report block\n got %q\nwant %q", got, scoreWant)
	}
	if len(means) != 3 || !strings.HasPrefix(means[0], "beam ") || bars < 4 {
		t.Errorf("score tables %q, %d histogram bars", means, bars)
	}
	if shots != "" {
		png := browsertest.Must(t, ctx, chromedp.ScreenshotScale(chromedp.CSS("#scorebox"), 0.5))
		if err := os.WriteFile(filepath.Join(shots, "arena-scores.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	checkErrors()
}
