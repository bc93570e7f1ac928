package fabric

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// Coordination is one coordinator's pass over a run: the jobs it still
// needs, and what to do with each result.
type Coordination struct {
	Run, Kind, Version string
	// Jobs returns the jobs still to run, after the results already stored
	// for the run have been given to Accept. Coordinate fills in their Run,
	// Kind, Version and Attempt.
	Jobs func() ([]Job, error)
	// Accept takes one result (stored earlier or arriving now; results of
	// ids it does not wait for must be ignored) and reports whether the run
	// is over; an error ends it. Calls never overlap.
	Accept func(Result) (done bool, err error)
	// Local workers (Concurrency Local, with Handlers) run in this process
	// while the run lasts; 0 leaves the jobs to workers elsewhere.
	Local    int
	Handlers map[string]Handler
	// Log receives workers' notices and the local workers' failures.
	Log io.Writer
}

// Coordinate runs a run as its coordinator until Accept says it is over,
// ctx ends or something fails. A coordinator started again (after a kill)
// takes a new attempt: the old attempt's queued jobs are dropped first, the
// results stored meanwhile are accepted, and only the rest is queued. When
// Coordinate returns, nothing of the run stays queued and running workers
// drop its jobs. A fatal notice (the fabric cannot store results) ends it
// with that error.
func (c *Client) Coordinate(ctx context.Context, co Coordination) error {
	info, err := c.Run(ctx, co.Run)
	if err != nil {
		return err
	}
	attempt := info.Attempt + 1
	// Workers drop only jobs of the stopped attempt, so the new ones are
	// safe even from a worker that has not yet seen the run restart.
	if err := c.Cancel(ctx, co.Run); err != nil {
		return err
	}
	if err := c.SetRun(ctx, co.Run, RunInfo{State: RunActive, Kind: co.Kind, Version: co.Version, Attempt: attempt}); err != nil {
		return err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = c.Cancel(cctx, co.Run)
	}()

	var mu sync.Mutex
	over := false
	var failure error
	done := make(chan struct{})
	var once sync.Once
	end := func(err error) { // with mu held
		if failure == nil {
			failure = err
		}
		over = true
		once.Do(func() { close(done) })
	}
	accept := func(r Result) {
		mu.Lock()
		defer mu.Unlock()
		if over {
			return
		}
		if fin, err := co.Accept(r); err != nil || fin {
			end(err)
		}
	}

	stored, from, err := c.Stored(ctx, co.Run)
	if err != nil {
		return err
	}
	for _, r := range stored {
		accept(r)
	}
	mu.Lock()
	var jobs []Job
	if !over {
		if jobs, err = co.Jobs(); err != nil {
			end(err)
		} else if len(jobs) == 0 {
			end(nil)
		}
	}
	mu.Unlock()
	if len(jobs) > 0 {
		for i := range jobs {
			jobs[i].Run, jobs[i].Kind, jobs[i].Version, jobs[i].Attempt = co.Run, co.Kind, co.Version, attempt
		}
		stopN, err := c.Notices(co.Run, func(n Notice) {
			if co.Log != nil {
				fmt.Fprintln(co.Log, n)
			}
			if n.Fatal {
				mu.Lock()
				end(errors.New(n.String()))
				mu.Unlock()
			}
		})
		if err != nil {
			return err
		}
		defer stopN()
		stopW, err := c.Watch(ctx, co.Run, from, accept)
		if err != nil {
			return err
		}
		defer stopW()
		if err := c.Submit(ctx, jobs); err != nil {
			return err
		}
		var wg sync.WaitGroup
		wctx, wstop := context.WithCancel(ctx)
		defer func() {
			wstop()
			wg.Wait()
		}()
		for i := range co.Local {
			w := &Worker{Client: c, Handlers: co.Handlers, Version: co.Version, Name: fmt.Sprintf("local-%d", i), Log: co.Log}
			wg.Go(func() {
				if err := w.Run(wctx); err != nil {
					mu.Lock()
					end(err)
					mu.Unlock()
				}
			})
		}
	}
	select {
	case <-done:
	case <-ctx.Done():
	}
	mu.Lock()
	defer mu.Unlock()
	over = true // later results are not accepted
	return failure
}
