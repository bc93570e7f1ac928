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
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/yomi-ai/yomi/internal/browsertest"

	"github.com/yomi-ai/yomi/seigot"
	"github.com/yomi-ai/yomi/seigot/ai"
	"github.com/yomi-ai/yomi/seigot/webapp"
	"github.com/yomi-ai/yomi/web"
)

func TestBrowserSeigotViewer(t *testing.T) {
	ctx, checkErrors := browsertest.Tab(t, 1000, 1400, 60*time.Second)
	site := &web.Server{Entries: []web.Entry{{Slug: "seigot", Title: "seigot", Summary: "test",
		App: &web.App{Handler: webapp.Handler(webapp.Options{})}}}}
	srv := httptest.NewServer(site.Handler())
	defer srv.Close()
	cfg, _ := seigot.LevelConfig(2, 1, false)
	c, _ := webapp.AIConfig("fast", 2)
	want := ai.Play(context.Background(), cfg, ai.New(c)).Stats
	browsertest.Must(t, ctx, chromedp.Steps(
		chromedp.Navigate(srv.URL+"/seigot/?recording=winner-l2s1&ai=fast&play=1"),
		browsertest.WaitJS(`seigot.sides[0] && seigot.sides[0].done && seigot.sides[1] && seigot.sides[1].done`),
	))
	read := func(sel string) string { return browsertest.Must(t, ctx, chromedp.Text(chromedp.CSS(sel))) }
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
	browsertest.Must(t, ctx, chromedp.Steps(chromedp.SetValue(chromedp.ID("scrub"), "60"),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Evaluate[any](`document.getElementById("scrub").dispatchEvent(new Event("input"))`)(ctx, tg)
			return err
		})))
	if p0, p1, saw := read("#side0 .pieces"), read("#side1 .pieces"), read("#side0 .saw"); p0 != "60" || p1 != "60" || !strings.HasPrefix(saw, "now ") {
		t.Errorf("at piece 60: pieces %s and %s, saw %q", p0, p1, saw)
	}
	if dir := os.Getenv("YOMI_SCREENSHOTS"); dir != "" {
		png := browsertest.Must(t, ctx, chromedp.ScreenshotScale(chromedp.CSS("main"), 0.5))
		if err := os.WriteFile(filepath.Join(dir, "seigot-viewer.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	checkErrors()
}
