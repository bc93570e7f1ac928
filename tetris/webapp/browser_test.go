// The page in headless Chromium (chromedp): a person's moves typed on the
// keyboard land where the engine says, the bot answers (on the server, and
// in the TBP Web Worker of the exported site), keys saved in the browser
// apply, and the perfect-clear form answers what api.PC answers. It skips
// without Chromium unless YOMI_REQUIRE_CHROMIUM=1 (CI sets it).

package webapp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/yomi-ai/yomi/tetris/webapp/api"
	"github.com/yomi-ai/yomi/web"
)

func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("YOMI_REQUIRE_CHROMIUM") == "1" {
		t.Fatal("Chromium not found and YOMI_REQUIRE_CHROMIUM=1")
	}
	t.Skip("Chromium not installed")
	return ""
}

// browser starts a headless Chromium with a fresh profile for the test.
func browser(t *testing.T) (context.Context, *pageErrors) {
	path := chromium(t)
	dir, err := os.MkdirTemp("", "yomi-tetris-chromium")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Chromium's helpers may write for a moment after it stops.
		for range 50 {
			if os.RemoveAll(dir) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.UserDataDir(dir), chromedp.WindowSize(1200, 800),
		chromedp.Flag("headless", true), chromedp.Flag("no-sandbox", true), chromedp.Flag("disable-gpu", true),
		chromedp.Flag("no-first-run", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(func() { bcancel(); acancel(); cancel() })
	errs := &pageErrors{}
	if err := chromedp.Do(bctx); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Listen(bctx, errs.event); err != nil {
		t.Fatal(err)
	}
	return bctx, errs
}

// pageErrors collects uncaught exceptions and console errors.
type pageErrors struct {
	mu   sync.Mutex
	list []string
}

func (e *pageErrors) event(ev any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
		e.list = append(e.list, "exception: "+msg)
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
			var parts []string
			for _, a := range ev.Args {
				parts = append(parts, string(a.Value))
			}
			e.list = append(e.list, "console: "+strings.Join(parts, " "))
		}
	}
}

func (e *pageErrors) check(t *testing.T) {
	t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, s := range e.list {
		t.Error(s)
	}
	e.list = nil
}

// pageState is window.tetrisPage.state().
type pageState struct {
	Mode   string `json:"mode"`
	Seed   uint64 `json:"seed"`
	Over   bool   `json:"over"`
	Status string `json:"status"`
	Sides  []struct {
		Kind string    `json:"kind"`
		Name string    `json:"name"`
		View *api.View `json:"view"`
		Turn *api.Turn `json:"turn"`
	} `json:"sides"`
}

func state(ctx context.Context) (pageState, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[pageState](`window.tetrisPage.state()`))
}

func load(ctx context.Context, url string) error {
	return chromedp.Do(ctx, chromedp.Navigate(url),
		chromedp.Poll[chromedp.Void](`window.tetrisPage && window.tetrisPage.ready`, chromedp.WithPollingTimeout(20*time.Second)))
}

// handling stores the page's handling settings (JSON; "" clears them) in
// the site's local storage, read by the next load.
func handling(ctx context.Context, site, settings string) error {
	if err := load(ctx, site+"/tetris/?mode=solo"); err != nil { // the origin whose storage it is
		return err
	}
	js := `localStorage.clear()`
	if settings != "" {
		js = fmt.Sprintf(`localStorage.setItem("yomi.tetris.handling", JSON.stringify(%s))`, settings)
	}
	_, err := chromedp.Run(ctx, chromedp.Evaluate[any](js))
	return err
}

// person types keys on the page and the same inputs on an engine game
// with the page's seed, and checks each lock against the engine's.
type person struct {
	t     *testing.T
	ctx   context.Context
	g     *api.Game
	locks int
}

func newPerson(t *testing.T, ctx context.Context, seed uint64, allow180 bool) *person {
	g, err := api.NewGame(api.Config{Seed: seed, Sides: 2, Allow180: allow180})
	if err != nil {
		t.Fatal(err)
	}
	return &person{t: t, ctx: ctx, g: g}
}

// move types keys (ending with the hard drop), waits for the lock and
// checks that the page placed the engine's move and shows its board.
func (p *person) move(keys string, inputs ...string) {
	t := p.t
	t.Helper()
	for _, in := range inputs {
		if _, err := p.g.Input(0, in); err != nil {
			t.Fatal(err)
		}
	}
	wantTurn, err := p.g.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	wantView, _ := p.g.View(0)
	p.locks++
	if err := chromedp.Do(p.ctx, chromedp.KeyEvent(keys)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(p.ctx, chromedp.Poll[chromedp.Void](fmt.Sprintf(`window.tetrisPage.state().sides[0].view.stats.pieces >= %d`, p.locks),
		chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		st, _ := state(p.ctx)
		t.Fatalf("no lock after typing %q: %v (status %q, %+v)", keys, err, st.Status, st.Sides)
	}
	st, err := state(p.ctx)
	if err != nil {
		t.Fatal(err)
	}
	s := st.Sides[0]
	if s.Turn == nil || s.Turn.Move != wantTurn.Move {
		t.Fatalf("the page placed %+v, the engine %+v", s.Turn, wantTurn.Move)
	}
	if !reflect.DeepEqual(s.View.Cells, wantView.Cells) || s.View.Hold != wantView.Hold {
		t.Fatalf("the page's board (hold %q)\n%s\nthe engine's (hold %q)\n%s", s.View.Hold, strings.Join(s.View.Cells, "\n"),
			wantView.Hold, strings.Join(wantView.Cells, "\n"))
	}
}

// botAnswers waits until side i has placed n pieces.
func botAnswers(t *testing.T, ctx context.Context, i, n int) {
	t.Helper()
	err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](fmt.Sprintf(`window.tetrisPage.state().sides[%d].view.stats.pieces >= %d`, i, n),
		chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		st, _ := state(ctx)
		t.Fatalf("side %d did not place %d pieces: %v (status %q)", i, n, err, st.Status)
	}
}

func TestBrowser(t *testing.T) {
	ctx, errs := browser(t)
	site := &web.Server{Entries: []web.Entry{{Slug: "tetris", Title: "Guideline Tetris",
		App: &web.App{Handler: Handler(Options{}), Static: Static()}}}}
	ts := httptest.NewServer(site.Handler())
	defer ts.Close()

	t.Run("server", func(t *testing.T) {
		// A DAS of a minute: on a loaded machine a key can stay down past
		// the default 133 ms between chromedp's keydown and keyup, and the
		// auto-shift then moves the piece one cell more than the engine.
		slow := `{"keys": {}, "das": 60000, "arr": 10, "sdf": 20, "allow180": false}`
		if err := handling(ctx, ts.URL, slow); err != nil {
			t.Fatal(err)
		}
		defer handling(ctx, ts.URL, "")
		if err := load(ctx, ts.URL+"/tetris/?mode=versus&seed=7&pps1=1.5"); err != nil {
			t.Fatal(err)
		}
		p := newPerson(t, ctx, 7, false)
		p.move(kb.ArrowLeft+kb.ArrowLeft+kb.ArrowUp+" ", "left", "left", "cw")
		p.move("c"+kb.ArrowRight+kb.ArrowRight+kb.ArrowRight+kb.ArrowDown+" ", "hold", "right", "right", "right", "down")
		p.move("zz"+kb.ArrowRight+" ", "ccw", "ccw", "right")
		botAnswers(t, ctx, 1, 2)
		errs.check(t)
	})

	t.Run("external bot", func(t *testing.T) {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		ext := &web.Server{Entries: []web.Entry{{Slug: "tetris", Title: "Guideline Tetris",
			App: &web.App{Handler: Handler(Options{ExternalBot: "YOMI_TETRIS_WEB_TBP_CHILD=1 exec " + exe}), Static: Static()}}}}
		es := httptest.NewServer(ext.Handler())
		defer es.Close()
		if err := load(ctx, es.URL+"/tetris/?mode=watch&bot1=external&seed=3&pps0=4&pps1=4"); err != nil {
			t.Fatal(err)
		}
		botAnswers(t, ctx, 1, 2)
		botAnswers(t, ctx, 0, 2)
		name, err := chromedp.Run(ctx, chromedp.Evaluate[string](`window.tetrisPage.state().sides[1].name`))
		if err != nil || !strings.HasPrefix(name, "TBP bot") {
			t.Fatalf("side B is %q (%v)", name, err)
		}
		errs.check(t)
	})

	t.Run("keys saved", func(t *testing.T) {
		// DAS 1.5 s: long enough that typed keys never auto-shift on a
		// loaded machine, short enough for the held-key check below.
		set := `{"keys": {"left": "KeyJ", "hard": "KeyK"}, "das": 1500, "arr": 10, "sdf": 20, "allow180": true}`
		if err := handling(ctx, ts.URL, set); err != nil {
			t.Fatal(err)
		}
		if err := load(ctx, ts.URL+"/tetris/?mode=versus&seed=9&pps1=1"); err != nil {
			t.Fatal(err)
		}
		p := newPerson(t, ctx, 9, true)
		p.move("jjjk", "left", "left", "left")
		p.move("ajk", "180", "left")
		// Holding J past the DAS (1.5 s) with ARR 10 ms slides the next
		// piece to the wall.
		hold := `document.dispatchEvent(new KeyboardEvent("keydown", {code: "KeyJ"}))`
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](hold)); err != nil {
			t.Fatal(err)
		}
		atWall := `Math.min(...window.tetrisPage.state().sides[0].view.falling.map((c) => c[0])) === 0`
		err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](atWall, chromedp.WithPollingTimeout(5*time.Second)))
		release := `document.dispatchEvent(new KeyboardEvent("keyup", {code: "KeyJ"})); window.tetrisPage.state().sides[0].view.falling`
		falling, _ := chromedp.Run(ctx, chromedp.Evaluate[[][2]int](release))
		if err != nil {
			t.Fatalf("after holding the left key the piece is at %v: %v", falling, err)
		}
		if err := handling(ctx, ts.URL, ""); err != nil {
			t.Fatal(err)
		}
		errs.check(t)
	})

	t.Run("pc finder", func(t *testing.T) {
		pcForm(t, ctx)
		errs.check(t)
	})

	t.Run("exported", func(t *testing.T) {
		dir := t.TempDir()
		if err := site.Export(dir); err != nil {
			t.Fatal(err)
		}
		static := httptest.NewServer(http.FileServer(http.Dir(dir)))
		defer static.Close()
		if err := load(ctx, static.URL+"/tetris/?mode=versus&seed=11&pps1=4"); err != nil {
			t.Fatal(err)
		}
		mode, err := chromedp.Run(ctx, chromedp.Evaluate[string](`window.TETRIS_BOT`))
		if err != nil || mode != "worker" {
			t.Fatalf("bot mode %q (%v), want worker", mode, err)
		}
		newPerson(t, ctx, 11, false).move(kb.ArrowRight+kb.ArrowRight+"z ", "right", "right", "ccw")
		botAnswers(t, ctx, 1, 2)
		// The Worker as another TBP frontend would use it.
		tbp := fmt.Sprintf(`new Promise((resolve) => {
			const w = new Worker("tbp-worker.js"), got = [];
			w.onmessage = (e) => {
				got.push(e.data);
				if (e.data.type === "ready") { w.postMessage(%s); setTimeout(() => w.postMessage({type: "suggest"}), 200); }
				if (e.data.type === "suggestion") { w.terminate(); resolve(got); }
			};
			w.postMessage({type: "rules", randomizer: "seven_bag"});
		})`, startJSON(t))
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]api.Message](tbp, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 3 || got[0].Type != "info" || got[1].Type != "ready" || got[2].Type != "suggestion" || len(got[2].Moves) == 0 {
			t.Fatalf("the TBP worker said %+v", got)
		}
		g, _ := api.NewGame(api.Config{Seed: 4, Sides: 2})
		if _, err := g.Play(1, got[2].Moves[0]); err != nil {
			t.Fatalf("the worker's move %+v: %v", got[2].Moves[0], err)
		}
		pcForm(t, ctx) // in the page's WebAssembly here
		errs.check(t)
	})

	if out := os.Getenv("YOMI_TETRIS_SCREENSHOT"); out != "" {
		// go test ./tetris/webapp -run TestBrowser YOMI_TETRIS_SCREENSHOT=docs/tetris-page.png
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(860, 740)); err != nil {
			t.Fatal(err)
		}
		if err := load(ctx, ts.URL+"/tetris/?mode=watch&seed=5&pps0=2.5&pps1=2.5"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(8 * time.Second)
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(len(png))
		t.Logf("screenshot %s (%s bytes)", out, b)
	}
}

// pcForm fills the perfect-clear form as a person would and checks the
// answer against api.PC.
func pcForm(t *testing.T, ctx context.Context) {
	t.Helper()
	field := "XXXXXX____\nXXXXXX____\nXXXXXX____\nXXXXXX____"
	want, err := api.PC(context.Background(), api.PCRequest{Field: field, Pattern: "*p4", Height: 4})
	if err != nil {
		t.Fatal(err)
	}
	fill := fmt.Sprintf(`(() => { const t = document.getElementById("pc-field-text"); t.value = %q; t.dispatchEvent(new Event("input"));
		document.getElementById("pc-pattern").value = "*p4"; document.getElementById("pc-result").textContent = ""; })()`, field)
	if err := chromedp.Do(ctx, chromedp.Click(`nav button[data-tab="pc"]`)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](fill)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(`#pc-find`)); err != nil {
		t.Fatal(err)
	}
	text, err := chromedp.Run(ctx, chromedp.Poll[string](`(() => { const s = document.getElementById("pc-result").textContent; return s.startsWith("Perfect") || s.startsWith("Error") ? s : ""; })()`,
		chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		t.Fatal(err)
	}
	head := fmt.Sprintf("Perfect clear in %d of %d sequences", want.Success, want.Total)
	if !strings.HasPrefix(text, head) {
		t.Fatalf("the form says %q, want %q…", text, head)
	}
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#pc-solutions canvas").length`))
	if err != nil || n != len(want.Fields) || n == 0 {
		t.Fatalf("%d solutions drawn, want %d (%v)", n, len(want.Fields), err)
	}
}
