// This file holds the Chromium test of the arena page (with chromedp): open
// a committed CODE VS match file and compare the Elo, LOS and SPRT the page
// shows with `yomi arena report`'s text, then upload a score-game file.
// YOMI_SCREENSHOTS=DIR also saves screenshots for the README.

package webapp_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/arena/webapp"
	"github.com/yomi-ai/yomi/web"
)

// chromium starts a headless Chromium for t (skipped without one unless
// YOMI_REQUIRE_CHROMIUM=1) and returns its context and a check of the
// page's uncaught exceptions and console errors.
func chromium(t *testing.T) (context.Context, func()) {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("YOMI_REQUIRE_CHROMIUM") == "1" {
			t.Fatal("chromium not found and YOMI_REQUIRE_CHROMIUM=1")
		}
		t.Skip("chromium not installed")
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1000, 1400))
	ctx, cancelC := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelC(); cancelA() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	var mu sync.Mutex
	var errs []string
	err = chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			errs = append(errs, "exception: "+msg)
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				var parts []string
				for _, a := range ev.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				errs = append(errs, "console.error: "+strings.Join(parts, " "))
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancelT := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancelT)
	return ctx, func() {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		for _, e := range errs {
			t.Errorf("page error: %s", e)
		}
	}
}

// waitJS polls a JavaScript condition until it holds (20 s at most).
func waitJS(cond string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Poll[bool]("!!("+cond+")", chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second))(ctx, t)
		if err != nil {
			return chromedp.Void{}, fmt.Errorf("waiting for %s: %w", cond, err)
		}
		return chromedp.Void{}, nil
	}
}

func must[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

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
	ctx, checkErrors := chromium(t)
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
	must(t, ctx, chromedp.Steps(
		chromedp.Navigate(srv.URL+"/arena/?file=0/ysai-180s.jsonl"),
		waitJS(`window.arena && window.arena.report && !window.arena.busy`),
	))
	row := must(t, ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#estimates tbody tr:first-child > *")].map(c => c.textContent)`))
	if len(row) != 7 || row[0] != "pentanomial" || row[3] != m[1]+" ± "+m[2] || row[4] != m[3]+" ± "+m[4] || row[5] != m[5]+" %" {
		t.Errorf("headline row %q; yomi arena report says Elo %s ± %s, nElo %s ± %s, LOS %s %%", row, m[1], m[2], m[3], m[4], m[5])
	}
	if got := must(t, ctx, chromedp.Text(chromedp.ID("text"))); strings.TrimSpace(got) != strings.TrimSpace(want) {
		t.Errorf("report block\n got %q\nwant %q", got, want)
	}
	sprt := must(t, ctx, chromedp.Text(chromedp.ID("sprt")))
	points := must(t, ctx, chromedp.Evaluate[int](`document.getElementById("llrpath").getAttribute("d").split(/[ML]/).length - 1`))
	if !strings.HasPrefix(sprt, "LLR "+llr[1]+" ") || points != 200 {
		t.Errorf("SPRT line %q (want LLR %s), LLR plot of %d points (want 200)", sprt, llr[1], points)
	}
	shots := os.Getenv("YOMI_SCREENSHOTS")
	if shots != "" {
		png := must(t, ctx, chromedp.ScreenshotScale(chromedp.CSS("#result"), 0.5))
		if err := os.WriteFile(filepath.Join(shots, "arena-page.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Upload a score-game file: per-player statistics and two histograms.
	abs, err := filepath.Abs("testdata/scores.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	must(t, ctx, chromedp.Steps(
		chromedp.SetUploadFiles(chromedp.ID("upload"), []string{abs}),
		waitJS(`arena.report && arena.report.name === "scores.jsonl" && !arena.busy`),
	))
	means := must(t, ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#samples tbody tr")].map(r => r.children[0].textContent + " " + r.children[2].textContent)`))
	bars := must(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("#hist rect").length`))
	scoreWant := reportText(t, "testdata/scores.jsonl", &sp)
	if got := must(t, ctx, chromedp.Text(chromedp.ID("text"))); strings.TrimSpace(got) != strings.TrimSpace(scoreWant) {
		t.Errorf("score report block\n got %q\nwant %q", got, scoreWant)
	}
	if len(means) != 3 || !strings.HasPrefix(means[0], "beam ") || bars < 4 {
		t.Errorf("score tables %q, %d histogram bars", means, bars)
	}
	if shots != "" {
		png := must(t, ctx, chromedp.ScreenshotScale(chromedp.CSS("#scorebox"), 0.5))
		if err := os.WriteFile(filepath.Join(shots, "arena-scores.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	checkErrors()
}
