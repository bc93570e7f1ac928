package browsertest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	b := Start(t, context.Background())
	pctx, errs := b.Page(t)
	ctx, cancel := context.WithTimeout(pctx, 30*time.Second)
	defer cancel()
	page := `data:text/html,<title>t</title><script>console.error("boom"); setTimeout(() => { window.ready = 42; null.x; }, 100)</script>`
	if err := chromedp.Do(ctx, chromedp.Navigate(page)); err != nil {
		t.Fatal(err)
	}
	if err := WaitFor(ctx, "ready", "window.ready === 42"); err != nil {
		t.Fatal(err)
	}
	var got struct{ A int }
	if err := Eval(ctx, `Promise.resolve({a: 1}).then(v => ({A: v.a + 1}))`, &got); err != nil || got.A != 2 {
		t.Fatalf("Eval: %+v, %v", got, err)
	}
	if err := Eval(ctx, `nosuchname`, nil); err == nil {
		t.Error("Eval of an undefined name: no error")
	}
	short, cancel2 := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel2()
	if err := WaitFor(short, "never", "false"); err == nil || !strings.Contains(err.Error(), "never") {
		t.Errorf("WaitFor of false: %v", err)
	}
	msgs := strings.Join(errs.Messages(), "\n")
	if !strings.Contains(msgs, "boom") || !strings.Contains(msgs, "exception") {
		t.Errorf("collected errors %q, want the console.error and the exception", msgs)
	}
}
