// This file holds the Chromium test of the seigot viewer (with chromedp):
// watch our fast AI play level 2 seed 1 to its end next to the winner's
// recorded game, and compare the scores shown with ai.Play (what
// `yomi seigot play --ai fast` runs; cmd/yomi checks that equality) and with
// the real game's. YOMI_SCREENSHOTS=DIR also saves a screenshot.

package webapp_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/yomi-ai/yomi/seigot"
	"github.com/yomi-ai/yomi/seigot/ai"
	"github.com/yomi-ai/yomi/seigot/webapp"
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

func TestBrowserSeigotViewer(t *testing.T) {
	ctx, checkErrors := chromium(t)
	site := &web.Server{Entries: []web.Entry{{Slug: "seigot", Title: "seigot", Summary: "test",
		App: &web.App{Handler: webapp.Handler(webapp.Options{})}}}}
	srv := httptest.NewServer(site.Handler())
	defer srv.Close()
	cfg, _ := seigot.LevelConfig(2, 1, false)
	c, _ := webapp.AIConfig("fast", 2)
	want := ai.Play(context.Background(), cfg, ai.New(c)).Stats
	must(t, ctx, chromedp.Steps(
		chromedp.Navigate(srv.URL+"/seigot/?recording=winner-l2s1&ai=fast&play=1"),
		waitJS(`seigot.sides[0] && seigot.sides[0].done && seigot.sides[1] && seigot.sides[1].done`),
	))
	read := func(sel string) string { return must(t, ctx, chromedp.Text(chromedp.CSS(sel))) }
	if got := read("#side0 .score"); got != strconv.Itoa(want.Score) {
		t.Errorf("our AI's game ends at %s on the page, ai.Play scores %d", got, want.Score)
	}
	if got, w := read("#side0 .linestat"), fmt.Sprintf("%d / %d / %d / %d", want.LineStat[0], want.LineStat[1], want.LineStat[2], want.LineStat[3]); got != w {
		t.Errorf("lines 1/2/3/4 %q, want %q", got, w)
	}
	if got := read("#side0 .drop"); got != strconv.Itoa(want.DropScore) {
		t.Errorf("drop bonus %s, want %d", got, want.DropScore)
	}
	if got := read("#side1 .score"); got != "25519" {
		t.Errorf("the recorded game ends at %s, the real game scored 25519", got)
	}
	if d := read("#diff"); !strings.Contains(d, fmt.Sprintf("(%+d)", want.Score-25519)) {
		t.Errorf("difference line %q, want %+d", d, want.Score-25519)
	}
	// Scrub to piece 60: both sides show that piece, and what our AI saw.
	must(t, ctx, chromedp.Steps(chromedp.SetValue(chromedp.ID("scrub"), "60"),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Evaluate[any](`document.getElementById("scrub").dispatchEvent(new Event("input"))`)(ctx, tg)
			return err
		})))
	if p0, p1, saw := read("#side0 .pieces"), read("#side1 .pieces"), read("#side0 .saw"); p0 != "60" || p1 != "60" || !strings.HasPrefix(saw, "now ") {
		t.Errorf("at piece 60: pieces %s and %s, saw %q", p0, p1, saw)
	}
	if dir := os.Getenv("YOMI_SCREENSHOTS"); dir != "" {
		png := must(t, ctx, chromedp.ScreenshotScale(chromedp.CSS("main"), 0.5))
		if err := os.WriteFile(filepath.Join(dir, "seigot-viewer.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	checkErrors()
}
