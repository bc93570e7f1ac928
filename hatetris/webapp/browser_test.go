// This file holds the end-to-end test of the page in headless Chromium
// (internal/browsertest): moves by keyboard checked against the engine, undo
// and redo, a Mild game to its end with the server's check, records in the
// viewer (to their scores), a replay shared through the URL fragment, a
// server search, and the exported site from a plain file server.

package webapp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/hatetris/replay"
	"github.com/yomi-ai/yomi/hatetris/webapp/api"
	"github.com/yomi-ai/yomi/internal/browsertest"
	"github.com/yomi-ai/yomi/web"
)

func site() *web.Server {
	return &web.Server{Entries: []web.Entry{{Slug: "hatetris", Title: "HATETRIS", Summary: "test",
		App: &web.App{Handler: Handler(Options{MaxWidth: 200, MaxSearchTime: 10 * time.Second, SearchWorkers: 1}), Static: Static()}}}}
}

// shown reads the well the page draws in table id: '@' the falling piece,
// '#' filled, '.' empty, one string per row.
func shown(ctx context.Context, id string) ([]string, error) {
	var rows []string
	err := browsertest.Eval(ctx, fmt.Sprintf(`[...document.getElementById(%q).rows].map(tr => [...tr.cells].map(td => td.className === "p" ? "@" : td.className === "f" ? "#" : ".").join(""))`, id), &rows)
	return rows, err
}

// drawing is what the page must show for game g.
func drawing(g *hatetris.Game) []string {
	piece := g.PieceRows()
	rows := make([]string, hatetris.Height)
	for y := range rows {
		b := make([]byte, hatetris.Width)
		for x := range b {
			switch {
			case piece[y]>>x&1 != 0:
				b[x] = '@'
			case g.Well[y]>>x&1 != 0:
				b[x] = '#'
			default:
				b[x] = '.'
			}
		}
		rows[y] = string(b)
	}
	return rows
}

func text(ctx context.Context, id string) (string, error) {
	var s string
	err := browsertest.Eval(ctx, fmt.Sprintf(`document.getElementById(%q).textContent`, id), &s)
	return s, err
}

// checkShows compares the page's well, score and status (table id, prefix
// "play" or "view") with game g.
func checkShows(ctx context.Context, t *testing.T, prefix string, g *hatetris.Game) {
	t.Helper()
	rows, err := shown(ctx, prefix+"-well")
	if err != nil {
		t.Fatal(err)
	}
	if want := drawing(g); strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%s well shows\n%s\nthe engine has\n%s", prefix, strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	score, err := text(ctx, prefix+"-score")
	if err != nil {
		t.Fatal(err)
	}
	status, err := text(ctx, prefix+"-status")
	if err != nil {
		t.Fatal(err)
	}
	if score != fmt.Sprint(g.Score) {
		t.Fatalf("%s score shows %q, engine %d", prefix, score, g.Score)
	}
	if g.Over != strings.HasPrefix(status, "Game over") || (!g.Over && !strings.HasSuffix(status, ": "+g.Piece.String())) {
		t.Fatalf("%s status %q; engine: over %v, piece %v", prefix, status, g.Over, g.Piece)
	}
}

var keyOf = map[hatetris.Move]string{hatetris.Left: kb.ArrowLeft, hatetris.Right: kb.ArrowRight, hatetris.Down: kb.ArrowDown, hatetris.Up: kb.ArrowUp}

// press types moves as arrow keys and waits until the page has played them.
func press(ctx context.Context, moves []hatetris.Move, wantPos int) error {
	var keys strings.Builder
	for _, m := range moves {
		keys.WriteString(keyOf[m])
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(keys.String())); err != nil {
		return err
	}
	return browsertest.WaitFor(ctx, "the moves", fmt.Sprintf(`hatetris.play.pos === %d || hatetris.play.over`, wantPos))
}

func open(ctx context.Context, u string) error {
	if err := chromedp.Do(ctx, chromedp.Navigate(u)); err != nil {
		return err
	}
	return browsertest.WaitFor(ctx, "the engine and the first piece", `window.hatetris && hatetris.ready && hatetris.play && hatetris.records.length > 0`)
}

func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	b := browsertest.Start(t, context.Background(), chromedp.WindowSize(1000, 900))
	deadline := time.Now().Add(90 * time.Second) // a bound for a loaded machine; it takes a few seconds
	var errs []*browsertest.Errors
	page := func(t *testing.T) context.Context {
		pctx, e := b.Page(t)
		errs = append(errs, e)
		ctx, cancel := context.WithDeadline(pctx, deadline)
		t.Cleanup(cancel)
		return ctx
	}
	srv := httptest.NewServer(site().Handler())
	defer srv.Close()

	t.Run("play", func(t *testing.T) {
		ctx := page(t)
		if err := open(ctx, srv.URL+"/hatetris/"); err != nil {
			t.Fatal(err)
		}
		g := hatetris.NewGame(hatetris.Hatetris)
		checkShows(ctx, t, "play", g)
		// Two pieces as a person would: shift, rotate, drop row by row until
		// the blocked down locks it.
		var all []hatetris.Move
		for _, seq := range []string{"LLU", "DDDDDDDDDDDDDDDDDDD", "RRRUU", "DDDDDDDDDDDDDDDDDDD"} {
			ms, _ := hatetris.ParseMoves(seq)
			for _, m := range ms {
				g.Apply(m)
			}
			all = append(all, ms...)
			if err := press(ctx, ms, len(all)); err != nil {
				t.Fatal(err)
			}
			checkShows(ctx, t, "play", g)
		}
		if g.Pieces < 3 {
			t.Fatalf("the moves placed %d pieces, want 2 locked", g.Pieces-1)
		}
		var code string
		if err := browsertest.Eval(ctx, `document.getElementById("play-replay").value`, &code); err != nil {
			t.Fatal(err)
		}
		if want, _ := replay.Encode(all, replay.Base2048); code != want {
			t.Fatalf("replay shows %q, want %q", code, want)
		}
		// Ctrl+Z steps back one move, Ctrl+Y forward again.
		if err := chromedp.Do(ctx, chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
			t.Fatal(err)
		}
		if err := browsertest.WaitFor(ctx, "undo", fmt.Sprintf("hatetris.play.pos === %d", len(all)-1)); err != nil {
			t.Fatal(err)
		}
		back := hatetris.NewGame(hatetris.Hatetris)
		back.Play(all[:len(all)-1])
		checkShows(ctx, t, "play", back)
		if err := chromedp.Do(ctx, chromedp.KeyEvent("y", chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
			t.Fatal(err)
		}
		if err := browsertest.WaitFor(ctx, "redo", fmt.Sprintf("hatetris.play.pos === %d", len(all))); err != nil {
			t.Fatal(err)
		}
		checkShows(ctx, t, "play", g)

		// Mild, new game, straight drops to the end; the server re-checks it.
		if err := browsertest.Eval(ctx, `(() => { const s = document.getElementById("play-ai"); s.value = "mild"; s.dispatchEvent(new Event("change")); document.getElementById("play-new").click(); return true; })()`, nil); err != nil {
			t.Fatal(err)
		}
		if err := browsertest.WaitFor(ctx, "the Mild game", `hatetris.play.ai === "mild" && hatetris.play.pos === 0`); err != nil {
			t.Fatal(err)
		}
		mild := hatetris.NewGame(hatetris.Mild)
		var drops []hatetris.Move
		for !mild.Over {
			mild.Apply(hatetris.Down)
			drops = append(drops, hatetris.Down)
		}
		if err := press(ctx, drops, len(drops)); err != nil {
			t.Fatal(err)
		}
		checkShows(ctx, t, "play", mild)
		if err := browsertest.WaitFor(ctx, "the server's check", `document.getElementById("play-check").textContent.startsWith("Checked by the server")`); err != nil {
			t.Fatal(err)
		}
		t.Logf("Mild straight drops: game over after %d moves, %d pieces", len(drops), mild.Pieces)
	})

	t.Run("viewer", func(t *testing.T) {
		ctx := page(t)
		if err := open(ctx, srv.URL+"/hatetris/"); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#tab-view"))); err != nil {
			t.Fatal(err)
		}
		// Yomi's best record, picked from the list and run to its end.
		var idx int
		if err := browsertest.Eval(ctx, `hatetris.records.findIndex(r => r.group === "Yomi" && r.score === 107)`, &idx); err != nil || idx < 0 {
			t.Fatalf("no 107-line record in the list: %d, %v", idx, err)
		}
		if err := browsertest.Eval(ctx, fmt.Sprintf(`(() => { const s = document.getElementById("view-records"); s.value = "%d"; s.dispatchEvent(new Event("change")); return true; })()`, idx), nil); err != nil {
			t.Fatal(err)
		}
		if err := browsertest.WaitFor(ctx, "the record loaded", `hatetris.view && hatetris.view.total > 0`); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#view-last"))); err != nil {
			t.Fatal(err)
		}
		if err := browsertest.WaitFor(ctx, "the record's end", `hatetris.view && hatetris.view.total > 0 && hatetris.view.pos === hatetris.view.total`); err != nil {
			t.Fatal(err)
		}
		rec, _ := os.ReadFile(filepath.Join("..", "records", "107-nn-beam10000-quiescence.txt"))
		ms, _, err := replay.Decode(string(rec))
		if err != nil {
			t.Fatal(err)
		}
		g := hatetris.NewGame(hatetris.Hatetris)
		g.Play(ms)
		checkShows(ctx, t, "view", g)
		if g.Score != 107 {
			t.Fatalf("engine replays the record to %d", g.Score)
		}
		// Scrub to a move in the middle.
		mid := len(ms) / 2
		if err := browsertest.Eval(ctx, fmt.Sprintf(`(() => { const s = document.getElementById("view-scrub"); s.value = "%d"; s.dispatchEvent(new Event("input")); return true; })()`, mid), nil); err != nil {
			t.Fatal(err)
		}
		if err := browsertest.WaitFor(ctx, "the scrubbed position", fmt.Sprintf("hatetris.view.pos === %d", mid)); err != nil {
			t.Fatal(err)
		}
		g = hatetris.NewGame(hatetris.Hatetris)
		g.Play(ms[:mid])
		checkShows(ctx, t, "view", g)
		// To the next piece: the first state with one more spawn.
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#view-nextpiece"))); err != nil {
			t.Fatal(err)
		}
		for !g.Over {
			n := g.Pieces
			g.Apply(ms[g.Moves])
			if g.Pieces != n {
				break
			}
		}
		if err := browsertest.WaitFor(ctx, "the next piece", fmt.Sprintf("hatetris.view.pos === %d", g.Moves)); err != nil {
			t.Fatal(err)
		}
		checkShows(ctx, t, "view", g)
		// Play from the start at the fastest speed until the end: an upstream
		// record (Atypical, 11 lines, hex).
		if err := browsertest.Eval(ctx, `(() => { const i = hatetris.records.findIndex(r => r.name.includes("Atypical")); const s = document.getElementById("view-records"); s.value = String(i); s.dispatchEvent(new Event("change"));
			document.getElementById("view-speed").value = "2000"; return true; })()`, nil); err != nil {
			t.Fatal(err)
		}
		if err := browsertest.WaitFor(ctx, "Atypical's replay loaded", `hatetris.view && hatetris.view.pos === 0 && hatetris.view.total > 0`); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#view-play"))); err != nil {
			t.Fatal(err)
		}
		if err := browsertest.WaitFor(ctx, "the replay played to the end", `hatetris.view.pos > 0 && hatetris.view.pos === hatetris.view.total`); err != nil {
			t.Fatal(err)
		}
		if s, _ := text(ctx, "view-score"); s != "11" {
			t.Fatalf("Atypical's replay ends with score %q, want 11", s)
		}
		// For the README: YOMI_SCREENSHOT=FILE.png writes the viewer in the
		// middle of the 107-line record.
		if out := os.Getenv("YOMI_SCREENSHOT"); out != "" {
			err := browsertest.Eval(ctx, fmt.Sprintf(`(() => { const s = document.getElementById("view-records"); s.value = "%d"; s.dispatchEvent(new Event("change")); return true; })()`, idx), nil)
			if err == nil {
				err = browsertest.WaitFor(ctx, "the record loaded", `hatetris.view && hatetris.view.total > 0`)
			}
			if err == nil {
				err = browsertest.Eval(ctx, `(() => { const r = document.getElementById("view-scrub"); r.value = "2600"; r.dispatchEvent(new Event("input")); return true; })()`, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("main")))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(out, png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	})

	t.Run("fragment", func(t *testing.T) {
		// A Mild loop shared through the URL: raw moves, no game over.
		ctx := page(t)
		moves := "DDDDDDDDDDDDDDDDDDLLLDDDDDDDDDDDDDDDDDDRRRRDDDDDDDDDDDDDDDDDD"
		ms, _ := hatetris.ParseMoves(moves)
		g := hatetris.NewGame(hatetris.Mild)
		g.Play(ms)
		if err := open(ctx, srv.URL+"/hatetris/#replay="+url.QueryEscape(moves)+"&ai=mild&at=20"); err != nil {
			t.Fatal(err)
		}
		if err := browsertest.WaitFor(ctx, "the shared replay", `hatetris.view && hatetris.view.ai === "mild" && hatetris.view.pos === 20 && !document.getElementById("view").hidden`); err != nil {
			t.Fatal(err)
		}
		at20 := hatetris.NewGame(hatetris.Mild)
		at20.Play(ms[:20])
		checkShows(ctx, t, "view", at20)
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#view-last"))); err != nil {
			t.Fatal(err)
		}
		if err := browsertest.WaitFor(ctx, "the end", fmt.Sprintf("hatetris.view.pos === %d", g.Moves)); err != nil {
			t.Fatal(err)
		}
		checkShows(ctx, t, "view", g)
		// Share link: the fragment names the replay, the AI and the position.
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#view-share"))); err != nil {
			t.Fatal(err)
		}
		var frag string
		if err := browsertest.Eval(ctx, `location.hash`, &frag); err != nil {
			t.Fatal(err)
		}
		q, err := url.ParseQuery(strings.TrimPrefix(frag, "#"))
		if err != nil || q.Get("replay") != moves || q.Get("ai") != "mild" || q.Get("at") != fmt.Sprint(g.Moves) {
			t.Fatalf("shared fragment %q (%v)", frag, err)
		}
	})

	t.Run("search", func(t *testing.T) {
		ctx := page(t)
		if err := open(ctx, srv.URL+"/hatetris/"); err != nil {
			t.Fatal(err)
		}
		if err := browsertest.Eval(ctx, `(() => { hatetris.tab("search"); document.getElementById("search-width").value = "20"; document.getElementById("search-seconds").value = "3"; return true; })()`, nil); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#search-start"))); err != nil {
			t.Fatal(err)
		}
		if err := browsertest.WaitFor(ctx, "the search's end", `hatetris.searchStatus && !hatetris.searchStatus.running && hatetris.search && hatetris.search.score === hatetris.searchStatus.lineScore`); err != nil {
			t.Fatal(err)
		}
		var st SearchStatus
		if err := browsertest.Eval(ctx, `hatetris.searchStatus`, &st); err != nil {
			t.Fatal(err)
		}
		res, err := api.Check(api.CheckRequest{Replay: st.Line})
		if err != nil || res.Score != st.LineScore || st.Depth == 0 {
			t.Fatalf("search line %+v: check %+v, %v", st, res, err)
		}
		if s, _ := text(ctx, "search-score"); s != fmt.Sprint(st.LineScore) {
			t.Fatalf("best line shows %q, status says %d", s, st.LineScore)
		}
		t.Logf("search width 20, 3 s: depth %d, %d lines, %d wells, stopped %v", st.Depth, st.LineScore, st.Wells, st.Stopped)
	})

	t.Run("export", func(t *testing.T) {
		dir := t.TempDir()
		if err := site().Export(dir); err != nil {
			t.Fatal(err)
		}
		static := httptest.NewServer(http.FileServer(http.Dir(dir)))
		defer static.Close()
		ctx := page(t)
		if err := chromedp.Do(ctx, chromedp.Navigate(static.URL+"/")); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`a[href="hatetris/"]`))); err != nil {
			t.Fatal(err)
		}
		if err := browsertest.WaitFor(ctx, "the exported page", `window.hatetris && hatetris.ready && hatetris.play && hatetris.records.length > 0`); err != nil {
			t.Fatal(err)
		}
		ms, _ := hatetris.ParseMoves("RRRDDDDDDDDDDDDDDDDDDD")
		g := hatetris.NewGame(hatetris.Hatetris)
		g.Play(ms)
		if err := press(ctx, ms, len(ms)); err != nil {
			t.Fatal(err)
		}
		checkShows(ctx, t, "play", g)
		var off struct {
			Hidden, Disabled bool
		}
		if err := browsertest.Eval(ctx, `({Hidden: document.getElementById("search-off").hidden, Disabled: document.getElementById("search-start").disabled})`, &off); err != nil {
			t.Fatal(err)
		}
		if off.Hidden || !off.Disabled {
			t.Errorf("exported page: search note hidden %v, start disabled %v; want the note and no search", off.Hidden, off.Disabled)
		}
	})
	for _, e := range errs {
		e.Check(t)
	}
}
