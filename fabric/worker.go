package fabric

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Handler runs one job and returns its output. An error is stored as the
// job's result (the job is not retried: the same input would fail again).
// Handlers must return promptly when ctx ends.
type Handler func(ctx context.Context, job Job) (json.RawMessage, error)

// Worker pulls jobs of the kinds it has handlers for and runs them.
type Worker struct {
	Client   *Client
	Handlers map[string]Handler
	// Version is this binary's Yomi version; jobs of another version are
	// refused and handed back for a worker that has it.
	Version string
	// Name identifies the worker in results and notices (default: host-pid).
	Name string
	// Concurrency is the number of jobs run at once (default 1).
	Concurrency int
	// Log receives one line per refusal or failure (nil = discard).
	Log io.Writer
	// Idle, if positive, makes Run return nil once no job has been seen for
	// that long (used by tests and one-shot workers); 0 runs until ctx ends.
	Idle time.Duration

	mu       sync.Mutex
	running  map[string]map[*runningJob]struct{} // run → its jobs running here
	stopped  map[string]int                      // run → its last stopped attempt (absent: never stopped)
	told     map[string]bool                     // notices already sent, by run and reason
	lastSeen time.Time
}

type runningJob struct {
	attempt int
	cancel  context.CancelFunc
}

// refusalDelay is how long a refused job waits before it is offered again.
const refusalDelay = 2 * time.Second

// Run works until ctx ends (or, with Idle set, until the queue stays empty).
// A job running when ctx ends is handed back at once for another worker.
func (w *Worker) Run(ctx context.Context) error {
	if w.Client == nil {
		return errors.New("fabric: worker without a client")
	}
	if w.Name == "" {
		h, _ := os.Hostname()
		w.Name = fmt.Sprintf("%s-%d", h, os.Getpid())
	}
	conc := max(w.Concurrency, 1)
	w.running = map[string]map[*runningJob]struct{}{}
	w.stopped = map[string]int{}
	w.told = map[string]bool{}
	w.lastSeen = time.Now()
	c := w.Client
	cons, err := c.js.CreateOrUpdateConsumer(ctx, JobsStream, jetstream.ConsumerConfig{
		Durable:       workersDurable,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       c.opt.AckWait,
		MaxDeliver:    -1,
		MaxAckPending: -1,
	})
	if err != nil {
		return fmt.Errorf("fabric: joining the workers: %w", err)
	}
	watch, err := c.runs.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return fmt.Errorf("fabric: watching run states: %w", err)
	}
	defer watch.Stop()
	go w.watchRuns(ctx, watch)

	var wg sync.WaitGroup
	idle := make(chan struct{})
	var idleOnce sync.Once
	for range conc {
		wg.Go(func() {
			for ctx.Err() == nil {
				select {
				case <-idle:
					return
				default:
				}
				// The pull ends with ctx, so that a stopping worker does
				// not sit out a pull's wait.
				nctx, ncancel := context.WithTimeout(ctx, time.Second)
				msg, err := cons.Next(jetstream.FetchContext(nctx))
				ncancel()
				if ctx.Err() != nil {
					if err == nil {
						_ = msg.Nak() // not started: hand it back at once
					}
					return
				}
				if err != nil {
					if w.Idle > 0 && w.idleFor() > w.Idle {
						idleOnce.Do(func() { close(idle) })
						return
					}
					if !errors.Is(err, jetstream.ErrNoMessages) && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, nats.ErrTimeout) {
						// A node or the connection is gone for a moment: wait
						// and try again rather than spin.
						select {
						case <-ctx.Done():
						case <-time.After(200 * time.Millisecond):
						}
					}
					continue
				}
				w.touch()
				if refused := w.handle(ctx, msg); refused {
					// Step back so that a worker that can run it gets the
					// job next (pull requests are served oldest first).
					select {
					case <-ctx.Done():
					case <-time.After(refusalDelay):
					}
				}
				w.touch()
			}
		})
	}
	wg.Wait()
	return nil
}

func (w *Worker) touch() {
	w.mu.Lock()
	w.lastSeen = time.Now()
	w.mu.Unlock()
}

func (w *Worker) idleFor() time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.running) > 0 {
		return 0
	}
	return time.Since(w.lastSeen)
}

func (w *Worker) watchRuns(ctx context.Context, watch jetstream.KeyWatcher) {
	for {
		select {
		case <-ctx.Done():
			return
		case e, ok := <-watch.Updates():
			if !ok {
				return
			}
			if e == nil {
				continue // initial values delivered
			}
			var info RunInfo
			if json.Unmarshal(e.Value(), &info) != nil {
				continue
			}
			if info.State != RunStopped {
				continue
			}
			w.mu.Lock()
			w.stopped[e.Key()] = info.Attempt
			for j := range w.running[e.Key()] {
				if j.attempt <= info.Attempt {
					j.cancel()
				}
			}
			w.mu.Unlock()
		}
	}
}

func (w *Worker) logf(format string, args ...any) {
	if w.Log != nil {
		fmt.Fprintf(w.Log, "worker %s: "+format+"\n", append([]any{w.Name}, args...)...)
	}
}

// notify tells the run's coordinator (once per run and reason) and the log.
func (w *Worker) notify(run, key, text string, fatal bool) {
	w.mu.Lock()
	seen := w.told[run+"\x00"+key]
	w.told[run+"\x00"+key] = true
	w.mu.Unlock()
	if seen {
		return
	}
	w.logf("%s", text)
	if CheckToken("run id", run) == nil {
		b, _ := json.Marshal(Notice{Worker: w.Name, Text: text, Fatal: fatal})
		_ = w.Client.nc.Publish(noticeSubject(run), b)
	}
}

// handle runs one job; it reports whether it handed the job back unrun.
func (w *Worker) handle(ctx context.Context, msg jetstream.Msg) (refused bool) {
	var job Job
	if err := json.Unmarshal(msg.Data(), &job); err != nil {
		w.logf("dropping a malformed job on %s: %v", msg.Subject(), err)
		_ = msg.TermWithReason("malformed job")
		return false
	}
	if job.Version != w.Version {
		w.notify(job.Run, "version", fmt.Sprintf("refusing jobs of run %s: they need Yomi %s, this worker is %s", job.Run, job.Version, w.Version), false)
		_ = msg.NakWithDelay(refusalDelay)
		return true
	}
	h := w.Handlers[job.Kind]
	if h == nil {
		w.notify(job.Run, "kind", fmt.Sprintf("refusing jobs of run %s: this worker has no handler for kind %q", job.Run, job.Kind), false)
		_ = msg.NakWithDelay(refusalDelay)
		return true
	}
	w.mu.Lock()
	last, stopped := w.stopped[job.Run]
	w.mu.Unlock()
	if stopped && job.Attempt <= last {
		_ = msg.TermWithReason("run stopped")
		return false
	}
	jctx, cancel := context.WithCancel(context.WithValue(ctx, clientKey{}, w.Client))
	defer cancel()
	rj := &runningJob{attempt: job.Attempt, cancel: cancel}
	w.mu.Lock()
	if w.running[job.Run] == nil {
		w.running[job.Run] = map[*runningJob]struct{}{}
	}
	w.running[job.Run][rj] = struct{}{}
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		delete(w.running[job.Run], rj)
		if len(w.running[job.Run]) == 0 {
			delete(w.running, job.Run)
		}
		w.mu.Unlock()
	}()

	// Heartbeats keep a long job ours; a dead worker stops beating and the
	// job goes to another after the ack wait.
	beat := make(chan struct{})
	go func() {
		t := time.NewTicker(max(w.Client.opt.AckWait/3, 10*time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-beat:
				return
			case <-t.C:
				_ = msg.InProgress()
			}
		}
	}()
	start := time.Now()
	out, err := safeRun(jctx, h, job)
	close(beat)
	if ctx.Err() != nil {
		// The worker is stopping: hand the job back for another.
		_ = msg.Nak()
		return false
	}
	if jctx.Err() != nil {
		_ = msg.TermWithReason("run stopped")
		return false
	}
	res := Result{Run: job.Run, ID: job.ID, Kind: job.Kind, Worker: w.Name, Version: w.Version, Output: out, Millis: time.Since(start).Milliseconds()}
	if err != nil {
		res.Error = err.Error()
		w.logf("job %s/%s failed: %v", job.Run, job.ID, err)
	}
	b, _ := json.Marshal(res)
	// Storing and acknowledging finish even when the worker is stopping
	// (the result is already computed), within a bound.
	pctx, pcancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer pcancel()
	// The result is stored before the job is acknowledged: a worker killed
	// between the two leaves a stored result and a job that runs again,
	// whose second result the de-duplication (and the coordinator) drops.
	if _, err := w.Client.js.Publish(pctx, resultSubject(job.Run, job.ID), b, jetstream.WithMsgID(job.Run+"."+job.ID)); err != nil {
		if isFull(err) {
			// Trying again cannot help until someone makes room: say so
			// to the run's coordinator, which stops the run.
			w.notify(job.Run, "full", fmt.Sprintf("cannot store results of run %s: %v", job.Run, err), true)
			_ = msg.NakWithDelay(refusalDelay)
			return true
		}
		w.logf("storing the result of %s/%s: %v (the job will run again)", job.Run, job.ID, err)
		_ = msg.Nak()
		return false
	}
	if err := msg.DoubleAck(pctx); err != nil {
		w.logf("acknowledging %s/%s: %v", job.Run, job.ID, err)
	}
	return false
}

// clientKey is the context key of the client a job's handler runs under.
type clientKey struct{}

// ClientFrom returns the fabric connection of the worker running the job
// whose context ctx is (nil outside a job): a handler fetches the job's
// artifacts through it.
func ClientFrom(ctx context.Context) *Client {
	c, _ := ctx.Value(clientKey{}).(*Client)
	return c
}

func safeRun(ctx context.Context, h Handler, job Job) (out json.RawMessage, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic in job: %v", p)
		}
	}()
	return h(ctx, job)
}
