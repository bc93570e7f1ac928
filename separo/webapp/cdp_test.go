// This file holds a minimal Chrome DevTools Protocol client for the browser
// test: it starts Debian's chromium headless with --remote-debugging-pipe and
// speaks CDP over the pipe (NUL-terminated JSON on fds 3 and 4), so the test
// needs nothing beyond the standard library and the browser.

package webapp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// chromiumPath finds the browser, or skips the test unless
// YOMI_REQUIRE_CHROMIUM=1, in which case a missing browser fails it.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
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

type cdpMsg struct {
	ID        int             `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// browser is one headless chromium process driven over the pipe.
type browser struct {
	t       *testing.T
	cmd     *exec.Cmd
	w       *os.File
	mu      sync.Mutex
	next    int
	pending map[int]chan cdpMsg
	events  func(cdpMsg) // called on the reader goroutine
	dead    chan struct{}
}

func startBrowser(t *testing.T, onEvent func(cdpMsg)) *browser {
	t.Helper()
	path := chromiumPath(t)
	toBrowserR, toBrowserW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	fromBrowserR, fromBrowserW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--no-first-run", "--no-default-browser-check", "--disable-extensions", "--mute-audio",
		"--remote-debugging-pipe", "--window-size=1000,1400",
		"--user-data-dir="+t.TempDir(),
		"--host-resolver-rules=MAP rebound.example 127.0.0.1", // a DNS-rebinding site, for TestBrowser/other-sites
		"about:blank")
	cmd.ExtraFiles = []*os.File{toBrowserR, fromBrowserW} // fds 3 and 4
	var stderr strings.Builder
	cmd.Stderr = &limitedWriter{w: &stderr, n: 1 << 16}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	toBrowserR.Close()
	fromBrowserW.Close()
	b := &browser{t: t, cmd: cmd, w: toBrowserW, pending: map[int]chan cdpMsg{}, events: onEvent, dead: make(chan struct{})}
	go b.read(fromBrowserR)
	t.Cleanup(func() {
		b.w.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("chromium stderr (tail):\n%s", tail(stderr.String(), 3000))
		}
	})
	return b
}

type limitedWriter struct {
	mu sync.Mutex
	w  *strings.Builder
	n  int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w.Len() < l.n {
		l.w.Write(p)
	}
	return len(p), nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

func (b *browser) read(r *os.File) {
	defer close(b.dead)
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := br.ReadBytes(0)
		if err != nil {
			return
		}
		var m cdpMsg
		if err := json.Unmarshal(line[:len(line)-1], &m); err != nil {
			continue
		}
		if m.ID != 0 {
			b.mu.Lock()
			ch := b.pending[m.ID]
			delete(b.pending, m.ID)
			b.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		} else if b.events != nil {
			b.events(m)
		}
	}
}

// call sends one command (to the browser when session is "", else to that
// page session) and decodes its result into out (if not nil).
func (b *browser) call(ctx context.Context, session, method string, params, out any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return err
	}
	if params == nil {
		raw = []byte("{}")
	}
	ch := make(chan cdpMsg, 1)
	b.mu.Lock()
	b.next++
	id := b.next
	b.pending[id] = ch
	msg, _ := json.Marshal(cdpMsg{ID: id, Method: method, Params: raw, SessionID: session})
	_, err = b.w.Write(append(msg, 0))
	b.mu.Unlock()
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return fmt.Errorf("%s: %s", method, m.Error.Message)
		}
		if out != nil {
			return json.Unmarshal(m.Result, out)
		}
		return nil
	case <-b.dead:
		return fmt.Errorf("%s: browser exited", method)
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// page is one tab attached in flat session mode.
type page struct {
	b       *browser
	session string
}

func (b *browser) newPage(ctx context.Context) (*page, error) {
	var target struct{ TargetID string }
	if err := b.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		return nil, err
	}
	var att struct{ SessionID string }
	if err := b.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &att); err != nil {
		return nil, err
	}
	p := &page{b: b, session: att.SessionID}
	for _, m := range []string{"Page.enable", "Runtime.enable"} {
		if err := p.call(ctx, m, nil, nil); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func (p *page) call(ctx context.Context, method string, params, out any) error {
	return p.b.call(ctx, p.session, method, params, out)
}

// eval evaluates a JavaScript expression (awaiting promises) and decodes its
// JSON value into out (if not nil).
func (p *page) eval(ctx context.Context, expr string, out any) error {
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception *struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	err := p.call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &res)
	if err != nil {
		return err
	}
	if e := res.ExceptionDetails; e != nil {
		msg := e.Text
		if e.Exception != nil {
			msg = e.Exception.Description
		}
		return fmt.Errorf("eval %q: %s", expr, msg)
	}
	if out != nil && len(res.Result.Value) > 0 {
		return json.Unmarshal(res.Result.Value, out)
	}
	return nil
}

// waitFor polls a boolean JavaScript expression until it is true.
func (p *page) waitFor(ctx context.Context, what, expr string) error {
	for {
		var ok bool
		err := p.eval(ctx, "!!("+expr+")", &ok)
		if err == nil && ok {
			return nil
		}
		select {
		case <-ctx.Done():
			if err == nil {
				err = errors.New("still false")
			}
			return fmt.Errorf("waiting for %s (%s): %v", what, expr, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// mouse sends one mouse event at viewport coordinates (x, y).
func (p *page) mouse(ctx context.Context, typ string, x, y float64, pressed bool) error {
	params := map[string]any{"type": typ, "x": x, "y": y, "button": "none", "buttons": 0, "pointerType": "mouse"}
	if typ != "mouseMoved" || pressed {
		params["button"] = "left"
		params["clickCount"] = 1
	}
	if pressed {
		params["buttons"] = 1
	}
	return p.call(ctx, "Input.dispatchMouseEvent", params, nil)
}

// tap sends one touch tap at viewport coordinates (x, y).
func (p *page) tap(ctx context.Context, x, y float64) error {
	pt := []map[string]any{{"x": x, "y": y}}
	if err := p.call(ctx, "Input.dispatchTouchEvent", map[string]any{"type": "touchStart", "touchPoints": pt}, nil); err != nil {
		return err
	}
	return p.call(ctx, "Input.dispatchTouchEvent", map[string]any{"type": "touchEnd", "touchPoints": []any{}}, nil)
}
