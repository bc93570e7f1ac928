// This file holds the Chromium test of the replay viewer (with chromedp):
// load a committed referee replay, go to the turn of the longest chain and
// check the chain count the viewer shows (at the end of the turn and while
// stepping through its chains) against the engine, then a skill turn of the
// second replay. YOMI_SCREENSHOTS=DIR also saves a screenshot for the README.

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

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/protocol"
	"github.com/yomi-ai/yomi/codevs/referee"
	"github.com/yomi-ai/yomi/codevs/webapp"
	"github.com/yomi-ai/yomi/web"
)

// engineTurns replays a replay through codevs.Game (not the viewer's code)
// and returns each turn's two halves.
func engineTurns(t *testing.T, path string) [][2]codevs.Half {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rp, err := referee.ReadReplay(f)
	if err != nil {
		t.Fatal(err)
	}
	g, err := codevs.NewGame(codevs.SimPacks(rp.Packs))
	if err != nil {
		t.Fatal(err)
	}
	var out [][2]codevs.Half
	for _, rec := range rp.Turns {
		var m [2]codevs.Move
		for i := range 2 {
			if m[i], err = protocol.ParseCommand(rec.Moves[i]); err != nil {
				t.Fatal(err)
			}
		}
		h, err := g.Step(m)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, h)
	}
	return out
}

// scrub moves the turn slider as a user does.
func scrub(turn int) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(chromedp.SetValue(chromedp.ID("scrub"), strconv.Itoa(turn)),
		eval(`document.getElementById("scrub").dispatchEvent(new Event("input"))`))
}

func eval(js string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Evaluate[any](js)(ctx, t)
		return err
	})
}

func TestBrowserReplayViewer(t *testing.T) {
	ctx, checkErrors := browsertest.Tab(t, 1000, 1400, 60*time.Second)
	site := &web.Server{Entries: []web.Entry{{Slug: "codevs", Title: "CODE VS", Summary: "test",
		App: &web.App{Handler: webapp.Handler(webapp.Options{LogDirs: []string{"testdata"},
			Players: map[string]string{"dummy A": webapp.DummyCommand(3), "dummy B": webapp.DummyCommand(4)}})}}}}
	srv := httptest.NewServer(site.Handler())
	defer srv.Close()

	halves := engineTurns(t, "testdata/chains/replay.json")
	best, who := 0, 0
	for k, h := range halves {
		for i := range 2 {
			if h[i].Chains > halves[best][who].Chains {
				best, who = k, i
			}
		}
	}
	want := halves[best][who].Chains
	side := fmt.Sprintf("#side%d .chains", who)
	browsertest.Must(t, ctx, chromedp.Steps(
		chromedp.Navigate(srv.URL+"/codevs/?replay=0/chains/replay.json"),
		browsertest.WaitJS(`window.codevs && codevs.view && !codevs.busy`),
		scrub(best),
	))
	shown := browsertest.Must(t, ctx, chromedp.Text(chromedp.CSS(side)))
	if shown != fmt.Sprintf("%d chains", want) {
		t.Errorf("turn %d player %d: viewer shows %q, engine made %d chains", best, who+1, shown, want)
	}
	// Step through the turn from its start: the chain counter goes 1..want.
	browsertest.Must(t, ctx, chromedp.Steps(eval(fmt.Sprintf("codevs.go(%d, 0)", best))))
	var seen []string
	for range 40 {
		c := browsertest.Must(t, ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector(%q).dataset.chains`, side)))
		seen = append(seen, c)
		if browsertest.Must(t, ctx, chromedp.Evaluate[bool](fmt.Sprintf(`codevs.pos.turn !== %d || codevs.pos.step === %d`, best, 0))) && len(seen) > 1 {
			break
		}
		browsertest.Must(t, ctx, chromedp.Click(chromedp.ID("next")))
	}
	t.Logf("turn %d player %d: chain counter while stepping: %v", best, who+1, seen)
	var counts []string
	for i := 1; i <= want; i++ {
		counts = append(counts, strconv.Itoa(i))
	}
	if got := strings.Join(seen, " "); !strings.Contains(got, strings.Join(counts, " ")+" "+strconv.Itoa(want)) {
		t.Errorf("stepping through turn %d: chain counter %q, want 1..%d then %d", best, got, want, want)
	}
	// A skill turn of the dummies' game: the explosion's blocks and chains.
	sk := engineTurns(t, "testdata/skills/replay.json")
	turn := -1
	for k, h := range sk {
		if h[0].Move.Skill && h[0].Exploded > 0 {
			turn = k
			break
		}
	}
	browsertest.Must(t, ctx, chromedp.Steps(
		chromedp.SetValue(chromedp.ID("replays"), "0/skills/replay.json"),
		chromedp.Click(chromedp.ID("open")),
		browsertest.WaitJS(`codevs.view && codevs.view.source === "skills/replay.json" && !codevs.busy`),
		scrub(turn),
	))
	h := sk[turn][0]
	wantText := fmt.Sprintf("skill %d blocks, %d chain", h.Exploded, h.Chains)
	if got := browsertest.Must(t, ctx, chromedp.Text(chromedp.CSS("#side0 .chains"))); !strings.HasPrefix(got, wantText) {
		t.Errorf("skill turn %d: viewer shows %q, want %q…", turn, got, wantText)
	}
	// A live game between two dummies the server knows: it streams to its end.
	browsertest.Must(t, ctx, chromedp.Steps(
		chromedp.SetValue(chromedp.ID("liveseed"), "7"),
		chromedp.Click(chromedp.ID("live")),
		browsertest.WaitJS(`codevs.view && codevs.view.live && codevs.view.result`),
	))
	title := browsertest.Must(t, ctx, chromedp.Text(chromedp.ID("title")))
	n := browsertest.Must(t, ctx, chromedp.Evaluate[int](`codevs.view.turns.length`))
	if !strings.HasPrefix(title, "dummy3 vs dummy4: ") || !strings.Contains(title, fmt.Sprintf("after %d turns", n)) || n == 0 {
		t.Errorf("live game: title %q after %d turns streamed", title, n)
	}
	if dir := os.Getenv("YOMI_SCREENSHOTS"); dir != "" {
		browsertest.Must(t, ctx, chromedp.Steps(
			chromedp.SetValue(chromedp.ID("replays"), "0/skills/replay.json"),
			chromedp.Click(chromedp.ID("open")),
			browsertest.WaitJS(`codevs.view && !codevs.view.live && !codevs.busy`),
		))
		browsertest.Must(t, ctx, eval(fmt.Sprintf(`codevs.go(%d, codevs.view.turns[%d].players[0].frames.findIndex(f => f.stage === "explode") + 1)`, turn, turn)))
		png := browsertest.Must(t, ctx, chromedp.ScreenshotScale(chromedp.ID("viewer"), 0.5))
		if err := os.WriteFile(filepath.Join(dir, "codevs-viewer.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	checkErrors()
}
