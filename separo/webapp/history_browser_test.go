// This file holds the Chromium test of the page's history and records (with
// chromedp): paste a game, undo, redo, jump in the move list, export,
// a bad paste, the scoring regions on demand, and the exported site opened
// as a file saying how to serve it. YOMI_SCREENSHOTS=DIR also saves a
// screenshot for the README.

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

	"github.com/yomi-ai/yomi/separo/webapp"
	"github.com/yomi-ai/yomi/separo/webapp/api"
	"github.com/yomi-ai/yomi/web"
)

// choose sets a <select> and fires its change event, as a user does.
func choose(id, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(chromedp.SetValue(chromedp.ID(id), value),
		eval(fmt.Sprintf(`document.getElementById(%q).dispatchEvent(new Event("change"))`, id)))
}

func eval(js string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Evaluate[any](js)(ctx, t)
		return err
	})
}

func testSite() *web.Server {
	return &web.Server{Entries: []web.Entry{{Slug: "separo", Title: "SEPARO", Summary: "test",
		App: &web.App{Handler: webapp.Handler(webapp.Options{}), Static: webapp.Static()}}}}
}

// The spec's 9×9 game vector (a draw at 6–6), as the page exports it.
const vector9 = "R:88-77-67 B:08-17-27 R:00-11-12 B:80-71-61 R:12-03-04 B:27-36-46 R:67-56-55 B:61-52-53 " +
	"R:11-20-30 B:27-38-48 R:55-64-74 B:52-41-31 R:77-86-85 B:41-50-60 R:12-23-33 B:36-25-24 " +
	"R:55-44-34 B:25-16-17 R:23-14-04 B:46-57-58 R:74-83-82 B:57-66-65 R:56-47-37 B:65-54-53 " +
	"R:37-28-18 B:54-45-35 R:18-07-06 R:06-15-14"

func TestBrowserHistoryAndRecords(t *testing.T) {
	ctx, checkErrors := browsertest.Tab(t, 1000, 1100, 90*time.Second)
	srv := httptest.NewServer(testSite().Handler())
	defer srv.Close()
	moves := strings.Fields(vector9)
	idle := func(n int) chromedp.Action[chromedp.Void] {
		return browsertest.WaitJS(fmt.Sprintf(`separo.state.moves.length === %d && !separo.busy`, n))
	}
	browsertest.Must(t, ctx, chromedp.Steps(
		chromedp.Navigate(srv.URL+"/separo/"),
		browsertest.WaitJS(`window.separo && window.separo.state && !window.separo.busy`),
		// Two humans, so that Undo and Redo go one move at a time.
		choose("blue", "human"),
		chromedp.SetValue(chromedp.ID("record"), "# pasted\nsize 9\nmoves "+vector9+"\n"),
		chromedp.Click(chromedp.ID("load")),
		idle(28),
	))
	if s := browsertest.Must(t, ctx, chromedp.Text(chromedp.ID("status"))); s != "draw!" {
		t.Errorf("status after paste %q, want draw!", s)
	}
	items := browsertest.Must(t, ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#movelist button")].map(b => b.textContent)`))
	if strings.Join(items, " ") != vector9 {
		t.Errorf("move list\n got %v\nwant %v", items, moves)
	}
	// Undo three times, redo once: the scores shown are the engine's after 26 moves.
	browsertest.Must(t, ctx, chromedp.Steps(
		chromedp.Click(chromedp.ID("undo")), idle(27),
		chromedp.Click(chromedp.ID("undo")), idle(26),
		chromedp.Click(chromedp.ID("undo")), idle(25),
		chromedp.Click(chromedp.ID("redo")), idle(26),
	))
	red := browsertest.Must(t, ctx, chromedp.Text(chromedp.ID("redscore")))
	blue := browsertest.Must(t, ctx, chromedp.Text(chromedp.ID("bluescore")))
	lineLen := browsertest.Must(t, ctx, chromedp.Evaluate[int](`separo.line.moves.length`))
	want, err := api.Step(context.Background(), api.Request{Record: "size 9\n" + strings.Join(moves[:26], " ")})
	if err != nil {
		t.Fatal(err)
	}
	if red != strconv.Itoa(want.Score[0]) || blue != strconv.Itoa(want.Score[1]) || lineLen != 28 {
		t.Errorf("after undo ×3, redo: score %s-%s, line of %d moves; want %v, 28", red, blue, lineLen, want.Score)
	}
	// Jump to move 10 in the list and export.
	browsertest.Must(t, ctx, chromedp.Steps(
		chromedp.Click(chromedp.CSS(`#movelist li:nth-child(10) button`)), idle(10),
		chromedp.Click(chromedp.ID("export")),
	))
	text := browsertest.Must(t, ctx, chromedp.Value(chromedp.ID("record")))
	if w := api.FormatRecord(9, moves[:10]); text != w {
		t.Errorf("export\n got %q\nwant %q", text, w)
	}
	// Regions on demand: the canvas changes and the note counts them.
	const canvas = `document.getElementById("board").toDataURL()`
	before := browsertest.Must(t, ctx, chromedp.Evaluate[string](canvas))
	browsertest.Must(t, ctx, choose("regions", "0"))
	after := browsertest.Must(t, ctx, chromedp.Evaluate[string](canvas))
	why := browsertest.Must(t, ctx, chromedp.Text(chromedp.ID("scorewhy")))
	w10, err := api.Step(context.Background(), api.Request{Record: text})
	if err != nil {
		t.Fatal(err)
	}
	if before == after || !strings.Contains(why, "Red's "+strconv.Itoa(w10.Score[0])+" scoring region") {
		t.Errorf("regions shown: canvas changed %v, note %q (Red's score %d)", before != after, why, w10.Score[0])
	}
	if dir := os.Getenv("YOMI_SCREENSHOTS"); dir != "" {
		browsertest.Must(t, ctx, chromedp.Steps(chromedp.Click(chromedp.CSS(`#movelist li:nth-child(24) button`)), idle(24)))
		png := browsertest.Must(t, ctx, chromedp.ScreenshotScale(chromedp.CSS("main"), 0.5))
		if err := os.WriteFile(filepath.Join(dir, "separo-page.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Against one AI, Undo and Redo skip the AI's moves: back to the
	// human's turn, and the AI waits while the game is reviewed.
	browsertest.Must(t, ctx, chromedp.Steps(
		choose("blue", "random"),
		chromedp.SetValue(chromedp.ID("record"), "size 9\nmoves "+strings.Join(moves[:4], " ")),
		chromedp.Click(chromedp.ID("load")), idle(4),
		chromedp.Click(chromedp.ID("undo")), idle(2),
		chromedp.Sleep(300*time.Millisecond), idle(2), // Blue (an AI) is not to move, nothing plays
		chromedp.Click(chromedp.ID("redo")), idle(4),
		chromedp.Sleep(300*time.Millisecond), idle(4), // Red (human) to move: paused or not, nothing plays
		chromedp.Click(chromedp.ID("undo")), idle(2),
		chromedp.Click(chromedp.ID("undo")), idle(0),
		choose("red", "random"), // now both are AIs: paused at the start, Continue lets them play
		browsertest.WaitJS(`!document.getElementById("continue").hidden`),
		chromedp.Sleep(300*time.Millisecond), idle(0),
		chromedp.Click(chromedp.ID("continue")),
		browsertest.WaitJS(`separo.state.moves.length >= 2`),
		choose("red", "human"), choose("blue", "human"),
	))
	// A bad paste says which move is wrong and keeps the position.
	browsertest.Must(t, ctx, browsertest.WaitJS(`!separo.busy`))
	movesBefore := browsertest.Must(t, ctx, chromedp.Evaluate[string](`JSON.stringify(separo.state.moves)`))
	browsertest.Must(t, ctx, chromedp.Steps(
		chromedp.SetValue(chromedp.ID("record"), "size 9\nmoves R:88-77-67 R:08-17-27"),
		// A click by script: the AIs have just stopped, and a last re-render
		// (score note, status) may still move the button under the mouse.
		eval(`document.getElementById("load").click()`),
	))
	if _, err := chromedp.Run(ctx, browsertest.WaitJS(`!document.getElementById("error").hidden && !separo.busy`)); err != nil {
		d := browsertest.Must(t, ctx, chromedp.Evaluate[string](`JSON.stringify({err: document.getElementById("error").hidden, etext: document.getElementById("error").textContent, busy: separo.busy, paused: separo.paused, n: separo.state.moves.length, rec: document.getElementById("record").value, status: document.getElementById("status").textContent, note: document.getElementById("recordnote").textContent, red: document.getElementById("red").value, blue: document.getElementById("blue").value})`))
		t.Fatalf("%v: %s", err, d)
	}
	msg := browsertest.Must(t, ctx, chromedp.Text(chromedp.ID("error")))
	movesAfter := browsertest.Must(t, ctx, chromedp.Evaluate[string](`JSON.stringify(separo.state.moves)`))
	if !strings.Contains(msg, "Cannot load the game: record: move 2 R:08-17-27: it is Blue's turn") || movesAfter != movesBefore {
		t.Errorf("bad paste: error %q, moves %s before and %s after", msg, movesBefore, movesAfter)
	}
	checkErrors()
}

// TestBrowserExportFromFile opens the exported page as a file: the engine
// runs (built from the generated scripts) and an AI-vs-AI game starts; with
// a script missing, the page says how to serve the folder instead.
func TestBrowserExportFromFile(t *testing.T) {
	ctx, checkErrors := browsertest.Tab(t, 1000, 1100, 90*time.Second)
	dir := t.TempDir()
	if err := testSite().Export(dir); err != nil {
		t.Fatal(err)
	}
	page := "file://" + filepath.Join(dir, "separo", "index.html")
	browsertest.Must(t, ctx, chromedp.Steps(
		chromedp.Navigate(page),
		browsertest.WaitJS(`window.separo && separo.state && !separo.busy`),
		chromedp.SetValue(chromedp.ID("movetime"), "0.05"),
		choose("red", "random"),
		browsertest.WaitJS(`separo.state.moves.length >= 4`),
	))
	if eng := browsertest.Must(t, ctx, chromedp.Evaluate[string](`separo.engine.name`)); eng != "worker" {
		t.Errorf("engine %q from a file, want the worker", eng)
	}
	checkErrors()
	if err := os.Remove(filepath.Join(dir, "separo", "worker-src.js")); err != nil {
		t.Fatal(err)
	}
	browsertest.Must(t, ctx, chromedp.Steps(
		chromedp.Navigate(page),
		browsertest.WaitJS(`!document.getElementById("error").hidden`),
	))
	msg := browsertest.Must(t, ctx, chromedp.Text(chromedp.ID("error")))
	want := "python3 -m http.server 8000 --directory '" + dir + "'"
	if !strings.Contains(msg, want) || !strings.Contains(msg, "http://localhost:8000/separo/") || !strings.Contains(msg, "cannot load worker-src.js") {
		t.Errorf("page without its worker script says %q, want it to contain %q", msg, want)
	}
}
