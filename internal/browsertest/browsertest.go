// Package browsertest starts headless Chromium for the web pages' end-to-end
// tests, driven through chromedp over the DevTools pipe.
//
// Tests skip when no browser is installed, unless YOMI_REQUIRE_CHROMIUM=1
// (set by .ci/run), which turns a missing browser into a failure.
package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Path returns Chromium's executable, or skips t when there is none (fails it
// when YOMI_REQUIRE_CHROMIUM=1).
func Path(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("YOMI_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("YOMI_REQUIRE_CHROMIUM") == "1" {
		t.Fatal("chromium not found and YOMI_REQUIRE_CHROMIUM=1")
	}
	t.Skip("chromium not installed (set YOMI_REQUIRE_CHROMIUM=1 to make this a failure)")
	return ""
}

// Flags are the command-line options every test browser gets; callers add
// theirs (window size, host resolver rules) through Start's opts.
func Flags(t testing.TB) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(Path(t)),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("mute-audio", true),
		chromedp.UserDataDir(t.TempDir()), // a fresh profile for each browser
	}
}

// Browser is one headless Chromium process for a test; open tabs with Page.
type Browser struct {
	ctx context.Context // the first tab's context, which owns the process
}

// Start launches Chromium for t with the standard flags plus opts and waits
// until it answers; t's cleanup closes it. The browser lives no longer than
// parent.
func Start(t testing.TB, parent context.Context, opts ...chromedp.ExecAllocatorOption) *Browser {
	t.Helper()
	all := append(Flags(t), opts...)
	actx, acancel := chromedp.NewExecAllocator(parent, all...)
	ctx, cancel := chromedp.NewContext(actx)
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		acancel()
		t.Fatalf("start chromium: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		acancel()
	})
	return &Browser{ctx: ctx}
}

// Page opens a new tab and returns its context (for chromedp.Run) and the
// log of its uncaught exceptions and console errors. The tab closes with t.
func (b *Browser) Page(t testing.TB) (context.Context, *Errors) {
	t.Helper()
	errs := &Errors{}
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithListener(errs.event))
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		t.Fatalf("new tab: %v", err)
	}
	t.Cleanup(cancel)
	return ctx, errs
}

// Errors collects a page's uncaught exceptions and console.error/assert calls.
type Errors struct {
	mu   sync.Mutex
	msgs []string
}

func (e *Errors) event(ev any) {
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		msg := ev.ExceptionDetails.Text
		if ev.ExceptionDetails.Exception != nil {
			msg += " " + ev.ExceptionDetails.Exception.Description
		}
		e.add("exception: " + msg)
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			var parts []string
			for _, a := range ev.Args {
				if a.Value != nil {
					parts = append(parts, string(a.Value))
				} else {
					parts = append(parts, a.Description)
				}
			}
			e.add("console." + string(ev.Type) + ": " + strings.Join(parts, " "))
		}
	}
}

func (e *Errors) add(s string) {
	e.mu.Lock()
	e.msgs = append(e.msgs, s)
	e.mu.Unlock()
}

// Messages returns what was collected so far.
func (e *Errors) Messages() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.msgs...)
}

// Check fails t for each collected error.
func (e *Errors) Check(t testing.TB) {
	t.Helper()
	for _, m := range e.Messages() {
		t.Errorf("page error: %s", shorten(m, 600))
	}
}

// Eval evaluates a JavaScript expression in the page (awaiting a promise) and
// decodes its JSON value into out (which may be nil).
func Eval(ctx context.Context, expr string, out any) error {
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		return fmt.Errorf("eval %q: %w", shorten(expr, 200), err)
	}
	if out != nil && len(raw) > 0 {
		return json.Unmarshal(raw, out)
	}
	return nil
}

func shorten(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// WaitFor polls a JavaScript expression every 50 ms until it is truthy or ctx
// ends; what names the wait in the error.
func WaitFor(ctx context.Context, what, expr string) error {
	var last error
	for {
		var ok bool
		err := Eval(ctx, "!!("+expr+")", &ok)
		if err == nil && ok {
			return nil
		}
		if err != nil {
			last = err
		}
		select {
		case <-ctx.Done():
			if last == nil {
				last = fmt.Errorf("still false")
			}
			return fmt.Errorf("waiting for %s (%s): %v", what, expr, last)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Tab starts a browser for t with a window of w×h pixels and opens one tab,
// bounded by timeout; check fails t for the tab's uncaught exceptions and
// console errors (call it at the end of the test).
func Tab(t testing.TB, w, h int, timeout time.Duration) (ctx context.Context, check func()) {
	t.Helper()
	b := Start(t, context.Background(), chromedp.WindowSize(w, h))
	ctx, errs := b.Page(t)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	t.Cleanup(cancel)
	return ctx, func() {
		t.Helper()
		errs.Check(t)
	}
}

// WaitJS polls a JavaScript condition every 50 ms until it holds (20 s at
// most), as a chromedp action.
func WaitJS(cond string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Poll[bool]("!!("+cond+")", chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second))(ctx, t)
		if err != nil {
			return chromedp.Void{}, fmt.Errorf("waiting for %s: %w", cond, err)
		}
		return chromedp.Void{}, nil
	}
}

// Must runs a and fails t at once if it fails.
func Must[T any](t testing.TB, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
