package fabric

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// square is a deterministic job kind: {"n": k} → {"sq": k*k, "n": k}.
func square(ctx context.Context, job Job) (json.RawMessage, error) {
	var in struct{ N int }
	if err := json.Unmarshal(job.Payload, &in); err != nil {
		return nil, err
	}
	if in.N < 0 {
		return nil, fmt.Errorf("negative %d", in.N)
	}
	return json.Marshal(map[string]int{"n": in.N, "sq": in.N * in.N})
}

func squareJobs(run string, n int, version string) []Job {
	var jobs []Job
	for i := range n {
		jobs = append(jobs, Job{Kind: "square", Run: run, ID: fmt.Sprintf("j%d", i), Version: version, Payload: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i))})
	}
	return jobs
}

// collect waits for n distinct results of run.
func collect(t *testing.T, ctx context.Context, c *Client, run string, n int, timeout time.Duration) map[string]Result {
	t.Helper()
	got, from, err := c.Stored(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	done := make(chan struct{})
	var once sync.Once
	if len(got) >= n {
		return got
	}
	stop, err := c.Watch(ctx, run, from, func(r Result) {
		mu.Lock()
		defer mu.Unlock()
		if _, ok := got[r.ID]; !ok {
			got[r.ID] = r
		}
		if len(got) >= n {
			once.Do(func() { close(done) })
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	select {
	case <-done:
	case <-time.After(timeout):
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("only %d of %d results after %v", len(got), n, timeout)
	}
	mu.Lock()
	defer mu.Unlock()
	out := map[string]Result{}
	for k, v := range got {
		out[k] = v
	}
	return out
}

func checkSquares(t *testing.T, got map[string]Result, n int) {
	t.Helper()
	for i := range n {
		r, ok := got[fmt.Sprintf("j%d", i)]
		if !ok {
			t.Fatalf("no result for j%d", i)
		}
		var out struct{ N, Sq int }
		if err := json.Unmarshal(r.Output, &out); err != nil || out.N != i || out.Sq != i*i {
			t.Fatalf("j%d: %s (%v)", i, r.Output, err)
		}
	}
}

func startWorkers(ctx context.Context, t *testing.T, c *Client, k int, version string, h map[string]Handler) *sync.WaitGroup {
	var wg sync.WaitGroup
	for i := range k {
		w := &Worker{Client: c, Handlers: h, Version: version, Name: fmt.Sprintf("w%d", i), Concurrency: 1}
		wg.Go(func() {
			if err := w.Run(ctx); err != nil {
				t.Error(err)
			}
		})
	}
	return &wg
}

func TestEmbeddedRoundTrip(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := connect(t, ctx, Options{})
	wctx, wstop := context.WithCancel(ctx)
	wg := startWorkers(wctx, t, c, 2, "v1", map[string]Handler{"square": square})
	const n = 40
	if err := c.Submit(ctx, squareJobs("run1", n, "v1")); err != nil {
		t.Fatal(err)
	}
	// Queueing the same jobs again is a no-op.
	if err := c.Submit(ctx, squareJobs("run1", n, "v1")); err != nil {
		t.Fatal(err)
	}
	got := collect(t, ctx, c, "run1", n, 20*time.Second)
	checkSquares(t, got, n)
	// A failing job stores its error, once.
	bad := Job{Kind: "square", Run: "run2", ID: "neg", Version: "v1", Payload: json.RawMessage(`{"n":-3}`)}
	if err := c.Submit(ctx, []Job{bad}); err != nil {
		t.Fatal(err)
	}
	r := collect(t, ctx, c, "run2", 1, 10*time.Second)["neg"]
	if !strings.Contains(r.Error, "negative -3") {
		t.Fatalf("error result %+v", r)
	}
	wstop()
	wg.Wait()
	// Stored sees every result of the run exactly once per id.
	stored, _, err := c.Stored(ctx, "run1")
	if err != nil || len(stored) != n {
		t.Fatalf("stored %d results (%v), want %d", len(stored), err, n)
	}
}

func TestVersionRefused(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	c := connect(t, ctx, Options{})
	notices := make(chan string, 10)
	stopN, err := c.Notices("runv", func(n Notice) { notices <- n.String() })
	if err != nil {
		t.Fatal(err)
	}
	defer stopN()
	var ran sync.Map
	h := map[string]Handler{"square": func(ctx context.Context, j Job) (json.RawMessage, error) {
		ran.Store(j.ID, true)
		return square(ctx, j)
	}}
	wctx, wstop := context.WithCancel(ctx)
	old := startWorkers(wctx, t, c, 1, "old", h)
	if err := c.Submit(ctx, squareJobs("runv", 3, "new")); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-notices:
		if !strings.Contains(s, "need Yomi new") || !strings.Contains(s, "this worker is old") {
			t.Fatalf("notice %q", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no refusal notice")
	}
	time.Sleep(300 * time.Millisecond)
	if n, _ := c.Queued(ctx, "runv"); n != 3 {
		t.Fatalf("%d jobs queued after the refusal, want 3", n)
	}
	ran.Range(func(k, v any) bool { t.Fatalf("the old worker ran %v", k); return false })
	// A worker of the right version takes them.
	cur := startWorkers(wctx, t, c, 1, "new", h)
	checkSquares(t, collect(t, ctx, c, "runv", 3, 25*time.Second), 3)
	wstop()
	old.Wait()
	cur.Wait()
}

// A worker that dies mid-job (its connection gone, no ack) loses the job to
// another after the ack wait; each job has one result.
func TestDeadWorkerJobRedelivered(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	dir := t.TempDir()
	c := connect(t, ctx, Options{StoreDir: dir, AckWait: time.Second})
	// The doomed worker has its own connection to the same server.
	dc, err := c.connectSame(ctx)
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan string, 1)
	release := make(chan struct{})
	doomed := &Worker{Client: dc, Version: "v", Name: "doomed", Handlers: map[string]Handler{"square": func(ctx context.Context, j Job) (json.RawMessage, error) {
		started <- j.ID
		<-release
		return square(ctx, j)
	}}}
	dctx, dstop := context.WithCancel(ctx)
	defer dstop()
	go doomed.Run(dctx)
	if err := c.Submit(ctx, squareJobs("rund", 1, "v")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the doomed worker never started the job")
	}
	dc.nc.Close() // the "kill": no heartbeat, no result, no ack
	wctx, wstop := context.WithCancel(ctx)
	wg := startWorkers(wctx, t, c, 1, "v", map[string]Handler{"square": square})
	begin := time.Now()
	got := collect(t, ctx, c, "rund", 1, 20*time.Second)
	checkSquares(t, got, 1)
	if got["j0"].Worker == "doomed" {
		t.Fatal("the dead worker's result was stored")
	}
	t.Logf("redelivered after %v", time.Since(begin))
	close(release)
	time.Sleep(200 * time.Millisecond)
	wstop()
	wg.Wait()
	if n, _ := c.Queued(ctx, "rund"); n != 0 {
		t.Fatalf("%d jobs left", n)
	}
}

func TestCancelPurgesAndStopsRunning(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := connect(t, ctx, Options{})
	started := make(chan struct{}, 1)
	h := map[string]Handler{"square": func(ctx context.Context, j Job) (json.RawMessage, error) {
		select {
		case started <- struct{}{}:
		default:
		}
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	if err := c.SetRun(ctx, "runc", RunInfo{State: RunActive}); err != nil {
		t.Fatal(err)
	}
	wctx, wstop := context.WithCancel(ctx)
	wg := startWorkers(wctx, t, c, 1, "v", h)
	if err := c.Submit(ctx, squareJobs("runc", 10, "v")); err != nil {
		t.Fatal(err)
	}
	<-started
	t0 := time.Now()
	if err := c.Cancel(ctx, "runc"); err != nil {
		t.Fatal(err)
	}
	for {
		n, err := c.Queued(ctx, "runc")
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		if time.Since(t0) > 10*time.Second {
			t.Fatalf("%d jobs still queued after Cancel", n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if st, _, _ := c.Stored(ctx, "runc"); len(st) != 0 {
		t.Fatalf("a cancelled job stored a result: %v", st)
	}
	info, err := c.Run(ctx, "runc")
	if err != nil || info.State != RunStopped {
		t.Fatalf("run state %+v %v", info, err)
	}
	wstop()
	wg.Wait()
}

func TestFullStream(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := connect(t, ctx, Options{MaxJobBytes: 4096})
	err := c.Submit(ctx, squareJobs("runf", 200, "v"))
	if !errors.Is(err, ErrFull) {
		t.Fatalf("submitting past the limit: %v, want ErrFull", err)
	}
}

func TestArtifacts(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := connect(t, ctx, Options{})
	data := []byte(strings.Repeat("net weights ", 100000))
	d, err := c.PutArtifact(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	if d != Digest(data) {
		t.Fatalf("digest %s", d)
	}
	if d2, err := c.PutArtifact(ctx, data); err != nil || d2 != d {
		t.Fatalf("second put %s %v", d2, err)
	}
	got, err := c.GetArtifact(ctx, d)
	if err != nil || string(got) != string(data) {
		t.Fatalf("get: %d bytes, %v", len(got), err)
	}
	if _, err := c.GetArtifact(ctx, Digest([]byte("nothing"))); err == nil {
		t.Fatal("a missing artifact was found")
	}
}

func TestBadURLs(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  Options
		want string
	}{
		{"unreachable", Options{URL: "nats://127.0.0.1:1", ConnectTimeout: time.Second}, "cannot connect to NATS at nats://127.0.0.1:1"},
		{"password hidden", Options{URL: "nats://u:secret@127.0.0.1:1", ConnectTimeout: time.Second}, "nats://***@127.0.0.1:1"},
		{"missing creds", Options{URL: "nats://127.0.0.1:1", Creds: "/nonexistent.creds"}, "credentials"},
		{"cert without key", Options{URL: "nats://127.0.0.1:1", TLSCert: "c.pem"}, "both the certificate and its key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t0 := time.Now()
			_, err := Connect(context.Background(), tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "secret") {
				t.Fatalf("password in error: %v", err)
			}
			if d := time.Since(t0); d > 10*time.Second {
				t.Fatalf("took %v", d)
			}
		})
	}
}

func TestWrongCredentials(t *testing.T) {
	srv, err := StartServer(ServeOptions{Listen: "127.0.0.1:0", Store: t.TempDir(), ConfigFile: writeConf(t, `authorization { user: yomi, password: right }`)})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	u := strings.Replace(srv.ClientURL(), "nats://", "nats://yomi:wrong@", 1)
	_, err = Connect(context.Background(), Options{URL: u, ConnectTimeout: 2 * time.Second})
	if err == nil || !strings.Contains(strings.ToLower(err.Error()), "authorization") {
		t.Fatalf("wrong password: %v", err)
	}
	u = strings.Replace(srv.ClientURL(), "nats://", "nats://yomi:right@", 1)
	c, err := Connect(context.Background(), Options{URL: u})
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
}

// connectSame opens a second client on c's embedded server.
func (c *Client) connectSame(ctx context.Context) (*Client, error) {
	d := &Client{opt: c.opt}
	nc, err := nats.Connect("", nats.InProcessServer(c.srv), nats.Name("second"))
	if err != nil {
		return nil, err
	}
	d.nc = nc
	if d.js, err = jetstream.New(nc); err != nil {
		return nil, err
	}
	return d, d.ensure(ctx)
}

func writeConf(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "nats.conf")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// A handler reaches its worker's connection (for artifacts) through ctx.
func TestClientFromJob(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := connect(t, ctx, Options{})
	d, err := c.PutArtifact(ctx, []byte("weights"))
	if err != nil {
		t.Fatal(err)
	}
	if ClientFrom(ctx) != nil {
		t.Fatal("a client outside any job")
	}
	h := map[string]Handler{"fetch": func(ctx context.Context, j Job) (json.RawMessage, error) {
		fc := ClientFrom(ctx)
		if fc == nil {
			return nil, errors.New("no client in the job's context")
		}
		b, err := fc.GetArtifact(ctx, d)
		if err != nil {
			return nil, err
		}
		return json.Marshal(string(b))
	}}
	wctx, wstop := context.WithCancel(ctx)
	wg := startWorkers(wctx, t, c, 1, "v", h)
	if err := c.Submit(ctx, []Job{{Kind: "fetch", Run: "runa", ID: "a", Version: "v", Payload: json.RawMessage(`{}`)}}); err != nil {
		t.Fatal(err)
	}
	r := collect(t, ctx, c, "runa", 1, 10*time.Second)["a"]
	if r.Error != "" || string(r.Output) != `"weights"` {
		t.Fatalf("result %+v", r)
	}
	wstop()
	wg.Wait()
}

// connect starts an embedded fabric (or joins opt.URL) for one test.
func connect(t *testing.T, ctx context.Context, opt Options) *Client {
	t.Helper()
	c, err := Connect(ctx, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}
