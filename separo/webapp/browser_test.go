// This file holds the end-to-end test of the page in headless Chromium: a
// human move by mouse against the server's AI until the score changes, an
// AI-vs-AI game on the server, three touch taps, and, on the static export
// with the AI in a Web Worker, an AI-vs-AI game and a playout benchmark
// against native code. Chromium runs through chromedp
// (internal/browsertest).

package webapp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/yomi-ai/yomi/internal/browsertest"
	"github.com/yomi-ai/yomi/separo/webapp/api"
	"github.com/yomi-ai/yomi/web"
)

func site() *web.Server {
	return &web.Server{Entries: []web.Entry{{Slug: "separo", Title: "SEPARO", Summary: "test",
		App: &web.App{Handler: Handler(Options{}), Static: Static()}}}}
}

// page drives one tab of the test browser; its methods take the tab's
// context (from newPage), so that every call has the test's time bound.
type page struct{}

// newPage opens a tab whose calls end at deadline; its errors join errs.
func newPage(t *testing.T, b *browsertest.Browser, deadline time.Time, errs *[]*browsertest.Errors) (*page, context.Context) {
	pctx, perrs := b.Page(t)
	*errs = append(*errs, perrs)
	ctx, cancel := context.WithDeadline(pctx, deadline)
	t.Cleanup(cancel)
	return &page{}, ctx
}

func (p *page) eval(ctx context.Context, expr string, out any) error {
	return browsertest.Eval(ctx, expr, out)
}

func (p *page) waitFor(ctx context.Context, what, expr string) error {
	return browsertest.WaitFor(ctx, what, expr)
}

func (p *page) navigate(ctx context.Context, url string) error {
	return chromedp.Do(ctx, chromedp.Navigate(url))
}

// mouse sends one mouse event at viewport coordinates (x, y).
func (p *page) mouse(ctx context.Context, typ input.DispatchMouseEventType, x, y float64, pressed bool) error {
	opt := func(m *input.DispatchMouseEventParams) {
		m.PointerType = input.DispatchMouseEventPointerTypeMouse
		if typ != input.DispatchMouseEventTypeMouseMoved || pressed {
			m.Button = input.MouseButtonLeft
			m.ClickCount = 1
		}
		if pressed {
			m.Buttons = 1
		}
	}
	return chromedp.Do(ctx, chromedp.MouseEvent(typ, x, y, opt))
}

// tap sends one touch tap at viewport coordinates (x, y).
func (p *page) tap(ctx context.Context, x, y float64) error {
	return chromedp.Do(ctx, chromedp.TapXY(x, y))
}

type jsState struct {
	Size   int
	Moves  []api.Move
	Turn   int
	Over   bool
	Result string
	Score  [2]int
	Legal  [2][]api.Move
}

func (p *page) state(ctx context.Context) (jsState, error) {
	var s jsState
	err := p.eval(ctx, "separo.state", &s)
	return s, err
}

// viewport returns the viewport coordinates of intersection (x, y).
func (p *page) viewport(ctx context.Context, x, y int) (float64, float64, error) {
	var xy [2]float64
	err := p.eval(ctx, fmt.Sprintf(`(() => { const c = document.getElementById("board"), r = c.getBoundingClientRect();
		const cell = 480 / (separo.state.size - 1);
		return [r.left + (30 + %d * cell) * r.width / c.width, r.top + (30 + %d * cell) * r.height / c.height]; })()`, x, y), &xy)
	return xy[0], xy[1], err
}

// drag plays m with the mouse: press on s1, move over s2, release on s3.
func (p *page) drag(ctx context.Context, m api.Move) error {
	var pts [3][2]float64
	for i := range 3 {
		x, y, err := p.viewport(ctx, m[2*i], m[2*i+1])
		if err != nil {
			return err
		}
		pts[i] = [2]float64{x, y}
	}
	if err := p.mouse(ctx, input.DispatchMouseEventTypeMouseMoved, pts[0][0], pts[0][1], false); err != nil {
		return err
	}
	if err := p.mouse(ctx, input.DispatchMouseEventTypeMousePressed, pts[0][0], pts[0][1], true); err != nil {
		return err
	}
	for i := 1; i < 3; i++ { // a few intermediate points on each leg
		for k := 1; k <= 4; k++ {
			f := float64(k) / 4
			x := pts[i-1][0] + f*(pts[i][0]-pts[i-1][0])
			y := pts[i-1][1] + f*(pts[i][1]-pts[i-1][1])
			if err := p.mouse(ctx, input.DispatchMouseEventTypeMouseMoved, x, y, true); err != nil {
				return err
			}
		}
	}
	return p.mouse(ctx, input.DispatchMouseEventTypeMouseReleased, pts[2][0], pts[2][1], false)
}

func (p *page) setControls(ctx context.Context, red, blue string, moveTime float64, size int) error {
	return p.eval(ctx, fmt.Sprintf(`(() => { const $ = (id) => document.getElementById(id);
		$("red").value = %q; $("blue").value = %q; $("movetime").value = %v; $("size").value = %d;
		$("newgame").click(); return true; })()`, red, blue, moveTime, size), nil)
}

func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	var errs []*browsertest.Errors
	b := browsertest.Start(t, context.Background(), chromedp.WindowSize(1000, 1400),
		chromedp.Flag("host-resolver-rules", "MAP rebound.example 127.0.0.1")) // a DNS-rebinding site, for other-sites
	deadline := time.Now().Add(120 * time.Second) // a bound for a loaded CI machine; it takes ~12 s

	var posts postLog
	srv := httptest.NewServer(posts.wrap(site().Handler()))
	defer srv.Close()

	t.Run("server", func(t *testing.T) {
		p, ctx := newPage(t, b, deadline, &errs)
		if err := p.navigate(ctx, srv.URL+"/separo/"); err != nil {
			t.Fatal(err)
		}
		if err := p.waitFor(ctx, "first position", `window.separo && separo.state && separo.state.moves.length === 0`); err != nil {
			t.Fatal(err)
		}
		var eng string
		if err := p.eval(ctx, "separo.engine.name", &eng); err != nil || eng != "server" {
			t.Fatalf("engine %q, %v; want server", eng, err)
		}
		// Human (Red) against the UCT AI (Blue), 0.1 s per move.
		if err := p.setControls(ctx, "human", "uct", 0.1, 9); err != nil {
			t.Fatal(err)
		}
		if err := p.waitFor(ctx, "new game", `separo.state && separo.state.moves.length === 0 && !separo.busy`); err != nil {
			t.Fatal(err)
		}
		var shown [2]string
		for n := 0; ; n++ {
			s, err := p.state(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if s.Over {
				t.Fatalf("game over after %d moves before any score changed: %+v", len(s.Moves), s.Score)
			}
			if s.Turn != api.Red {
				t.Fatalf("turn %d, want Red", s.Turn)
			}
			// Prefer a move that raises Red's score, as a human would.
			m := s.Legal[api.Red][len(s.Legal[api.Red])-1]
			if err := p.drag(ctx, m); err != nil {
				t.Fatal(err)
			}
			before := len(s.Moves)
			if err := p.waitFor(ctx, "human move and AI reply",
				fmt.Sprintf(`!separo.busy && separo.state.moves.length >= %d && (separo.state.over || separo.state.turn === 0)`, before+2)); err != nil {
				t.Fatal(err)
			}
			s, _ = p.state(ctx)
			if s.Moves[before] != m {
				t.Fatalf("page played %v, mouse drew %v", s.Moves[before], m)
			}
			if err := p.eval(ctx, `[document.getElementById("redscore").textContent, document.getElementById("bluescore").textContent]`, &shown); err != nil {
				t.Fatal(err)
			}
			if shown != [2]string{fmt.Sprint(s.Score[0]), fmt.Sprint(s.Score[1])} {
				t.Fatalf("score line shows %v, state says %v", shown, s.Score)
			}
			if s.Score != [2]int{1, 1} {
				t.Logf("score changed to %v after %d moves (%d by mouse)", s.Score, len(s.Moves), n+1)
				break
			}
		}
		// AI against AI on the server until the end.
		if err := p.setControls(ctx, "random", "naive", 0.05, 7); err != nil {
			t.Fatal(err)
		}
		if err := p.waitFor(ctx, "AI-vs-AI game over", `separo.state && separo.state.size === 7 && separo.state.over`); err != nil {
			t.Fatal(err)
		}
		checkFinished(ctx, t, p)
	})

	t.Run("touch", func(t *testing.T) {
		p, ctx := newPage(t, b, deadline, &errs)
		if _, err := chromedp.Call(ctx, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: true, MaxTouchPoints: 1}); err != nil {
			t.Fatal(err)
		}
		if err := p.navigate(ctx, srv.URL+"/separo/"); err != nil {
			t.Fatal(err)
		}
		if err := p.waitFor(ctx, "first position", `window.separo && separo.state && !separo.busy`); err != nil {
			t.Fatal(err)
		}
		if err := p.setControls(ctx, "human", "human", 1, 9); err != nil {
			t.Fatal(err)
		}
		if err := p.waitFor(ctx, "new game", `separo.state.moves.length === 0 && !separo.busy`); err != nil {
			t.Fatal(err)
		}
		s, err := p.state(ctx)
		if err != nil {
			t.Fatal(err)
		}
		m := s.Legal[api.Red][0]
		for i := range 3 {
			x, y, err := p.viewport(ctx, m[2*i], m[2*i+1])
			if err != nil {
				t.Fatal(err)
			}
			if err := p.tap(ctx, x, y); err != nil {
				t.Fatal(err)
			}
		}
		if err := p.waitFor(ctx, "tapped move", `separo.state.moves.length === 1 && separo.state.turn === 1`); err != nil {
			t.Fatal(err)
		}
		if s, _ := p.state(ctx); s.Moves[0] != m {
			t.Fatalf("taps played %v, want %v", s.Moves[0], m)
		}
	})

	t.Run("export-worker", func(t *testing.T) {
		dir := t.TempDir()
		if err := site().Export(dir); err != nil {
			t.Fatal(err)
		}
		static := httptest.NewServer(http.FileServer(http.Dir(dir)))
		defer static.Close()
		p, ctx := newPage(t, b, deadline, &errs)
		if err := p.navigate(ctx, static.URL+"/separo/"); err != nil {
			t.Fatal(err)
		}
		if err := p.waitFor(ctx, "first position from the worker", `window.separo && separo.state && !separo.busy`); err != nil {
			t.Fatal(err)
		}
		var eng string
		if err := p.eval(ctx, "separo.engine.name", &eng); err != nil || eng != "worker" {
			t.Fatalf("engine %q, %v; want worker", eng, err)
		}
		if err := p.setControls(ctx, "uct", "yomi", 0.05, 9); err != nil {
			t.Fatal(err)
		}
		if err := p.waitFor(ctx, "AI-vs-AI game over in the worker", `separo.state && separo.state.over`); err != nil {
			t.Fatal(err)
		}
		checkFinished(ctx, t, p)

		// Speed in the browser against native code on the same work (random
		// playouts; one UCT and one yomi search of fixed iterations): best of
		// three alternating runs each, to damp the noise of a shared machine.
		// The deterministic results must agree.
		n := 3000
		if v, err := strconv.Atoi(os.Getenv("YOMI_SEPARO_BENCH_PLAYOUTS")); err == nil && v > 0 {
			n = v // for BENCHMARKS.md: longer runs
		}
		for _, aiName := range []string{"", "uct", "yomi"} {
			req := api.BenchRequest{Size: 9, Playouts: n, Seed: 1, AI: aiName}
			js, _ := json.Marshal(req)
			var bestWeb, bestNative float64
			for range 3 {
				var web api.BenchResult
				if err := p.eval(ctx, fmt.Sprintf(`separo.engine.bench(%s)`, js), &web); err != nil {
					t.Fatal(err)
				}
				native, err := api.Bench(req)
				if err != nil {
					t.Fatal(err)
				}
				if web.Plies != native.Plies || (web.Move == nil) != (native.Move == nil) || (web.Move != nil && *web.Move != *native.Move) {
					t.Fatalf("%+v: wasm made %d plies and chose %v, native %d and %v: the builds disagree", req, web.Plies, web.Move, native.Plies, native.Move)
				}
				bestWeb, bestNative = max(bestWeb, web.PerSecond), max(bestNative, native.PerSecond)
			}
			what := "random playouts"
			if aiName != "" {
				what = aiName + " iterations from the start"
			}
			t.Logf("9x9 %s (best of 3 x %d): wasm %.0f/s, native %.0f/s (native/wasm %.2f)", what, req.Playouts, bestWeb, bestNative, bestNative/bestWeb)
		}
	})

	// The page's own API calls went through the server's cross-site checks.
	if got := posts.get(); len(got) == 0 || got[0] != "200 same-origin" {
		t.Errorf("the page's POSTs: %q, want 200 same-origin", got)
	}

	t.Run("other-sites", func(t *testing.T) {
		// A page of another site posts to the API as a simple request
		// (text/plain, no preflight): the server must refuse it before the
		// AI thinks.
		other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<!doctype html><title>another site</title>")
		}))
		defer other.Close()
		p, ctx := newPage(t, b, deadline, &errs)
		if err := p.navigate(ctx, other.URL+"/"); err != nil {
			t.Fatal(err)
		}
		if err := p.waitFor(ctx, "the other site", `document.title === "another site"`); err != nil {
			t.Fatal(err)
		}
		posts.reset()
		body, _ := json.Marshal(`{"size":9,"moves":[],"ai":"uct","movetime_ms":100}`)
		var done bool
		if err := p.eval(ctx, fmt.Sprintf(`fetch(%q, {method: "POST", mode: "no-cors", body: %s}).then(() => true, () => true)`,
			srv.URL+"/separo/api/step", body), &done); err != nil {
			t.Fatal(err)
		}
		if got := posts.get(); len(got) != 1 || got[0] != "403 same-site" {
			t.Errorf("another site's POST: %q, want one 403 same-site", got)
		}
		// The same site under a name rebound to 127.0.0.1: the browser
		// calls it same-origin, the server refuses the Host.
		rebound := strings.Replace(srv.URL, "127.0.0.1", "rebound.example", 1) + "/separo/"
		if err := p.navigate(ctx, rebound); err != nil {
			t.Fatal(err)
		}
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := p.waitFor(wctx, "the refusal", `document.body && document.body.innerText.includes("refused Host")`); err != nil {
			t.Fatal(err)
		}
	})
	for _, e := range errs {
		e.Check(t)
	}
}

// postLog records the status and Sec-Fetch-Site of each POST to the site.
type postLog struct {
	mu   sync.Mutex
	seen []string
}

func (l *postLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != "POST" {
			h.ServeHTTP(w, r)
			return
		}
		sw := &statusWriter{ResponseWriter: w, status: 200}
		h.ServeHTTP(sw, r)
		l.mu.Lock()
		l.seen = append(l.seen, fmt.Sprintf("%d %s", sw.status, r.Header.Get("Sec-Fetch-Site")))
		l.mu.Unlock()
	})
}

func (l *postLog) get() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.seen...)
}

func (l *postLog) reset() {
	l.mu.Lock()
	l.seen = nil
	l.mu.Unlock()
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

// checkFinished checks the page shows the final result of a finished game.
func checkFinished(ctx context.Context, t *testing.T, p *page) {
	t.Helper()
	s, err := p.state(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var status string
	if err := p.eval(ctx, `document.getElementById("status").textContent`, &status); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"red": "Red wins!", "blue": "Blue wins!", "draw": "draw!"}[s.Result]
	if want == "" || status != want || len(s.Legal[0])+len(s.Legal[1]) != 0 {
		t.Fatalf("finished game: result %q, status %q, legal %d+%d", s.Result, status, len(s.Legal[0]), len(s.Legal[1]))
	}
	t.Logf("AI-vs-AI %dx%d: %d moves, %s %d-%d", s.Size, s.Size, len(s.Moves), s.Result, s.Score[0], s.Score[1])
}
