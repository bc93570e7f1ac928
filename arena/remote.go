// This file holds matches on the job fabric: each game a job that any worker
// (in this process or on another machine) plays, results collected from the
// fabric into the same results file, progress and SPRT as local play.

package arena

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/yomi-ai/yomi/fabric"
)

// Remote sends a match's games to the job fabric instead of calling the
// PlayFunc or ScoreFunc in this process.
type Remote struct {
	Client *fabric.Client
	// Kind is the job kind; workers play it with the handler registered for
	// it (PairHandler or ScoreHandler around the same factory).
	Kind string
	// Spec is everything a worker needs to rebuild the players (bots,
	// budgets, rules); it is part of every job.
	Spec json.RawMessage
	// Version is the Yomi version that must play the games.
	Version string
	// Run names the match on the fabric; "" derives it from Kind, Spec, the
	// player names and Version, so the same command finds its run again.
	Run string
	// Local is the number of workers this process runs for the match (with
	// Handlers); 0 leaves the games to workers elsewhere.
	Local    int
	Handlers map[string]fabric.Handler
	// Log receives workers' notices (a worker refusing the jobs) and the
	// local workers' failures.
	Log io.Writer
}

// gameJob is the payload of one game's job.
type gameJob struct {
	Spec      json.RawMessage `json:"spec"`
	Seed      uint64          `json:"seed"`
	Game      int             `json:"game"`
	TimeoutMS int64           `json:"timeout_ms,omitempty"`
}

func jobID(j gameKey) string { return strconv.FormatUint(j.seed, 10) + "-" + strconv.Itoa(j.game) }

// factoryCache keeps the players a factory built for recent specs, so a
// worker does not rebuild them for every game of a match.
type factoryCache[F any] struct {
	mu    sync.Mutex
	make  func(json.RawMessage) (F, error)
	cache map[string]F
}

func (c *factoryCache[F]) get(spec json.RawMessage) (F, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.cache[string(spec)]; ok {
		return f, nil
	}
	f, err := c.make(spec)
	if err != nil {
		return f, err
	}
	if c.cache == nil || len(c.cache) >= 8 {
		c.cache = map[string]F{}
	}
	c.cache[string(spec)] = f
	return f, nil
}

func decodeGameJob(job fabric.Job) (gameJob, error) {
	var g gameJob
	if err := json.Unmarshal(job.Payload, &g); err != nil {
		return g, fmt.Errorf("game job %s: %w", job.ID, err)
	}
	return g, nil
}

func withTimeout(ctx context.Context, ms int64) (context.Context, context.CancelFunc) {
	if ms > 0 {
		return context.WithTimeout(ctx, time.Duration(ms)*time.Millisecond)
	}
	return context.WithCancel(ctx)
}

// PairHandler makes a job handler for two-player games: factory rebuilds
// the match's PlayFunc from its Spec.
func PairHandler(factory func(spec json.RawMessage) (PlayFunc, error)) fabric.Handler {
	fc := &factoryCache[PlayFunc]{make: factory}
	return func(ctx context.Context, job fabric.Job) (json.RawMessage, error) {
		return runGameJob(ctx, job, func(ctx context.Context, g gameJob) (GameRecord, error) {
			play, err := fc.get(g.Spec)
			if err != nil {
				return GameRecord{}, err
			}
			o, err := play(ctx, g.Seed, g.Game == 1)
			if err != nil {
				return GameRecord{}, err
			}
			if o.Result < Loss || o.Result > Win {
				return GameRecord{}, fmt.Errorf("play returned invalid result %d", o.Result)
			}
			return GameRecord{Result: o.Result.String(), Reason: o.Reason, Info: marshalInfo(o.Info)}, nil
		})
	}
}

// ScoreHandler makes a job handler for score games: factory rebuilds the
// match's ScoreFunc from its Spec.
func ScoreHandler(factory func(spec json.RawMessage) (ScoreFunc, error)) fabric.Handler {
	fc := &factoryCache[ScoreFunc]{make: factory}
	return func(ctx context.Context, job fabric.Job) (json.RawMessage, error) {
		return runGameJob(ctx, job, func(ctx context.Context, g gameJob) (GameRecord, error) {
			play, err := fc.get(g.Spec)
			if err != nil {
				return GameRecord{}, err
			}
			o, err := play(ctx, g.Seed, g.Game)
			if err != nil {
				return GameRecord{}, err
			}
			sc := o.Score
			return GameRecord{Score: &sc, Reason: o.Reason, Info: marshalInfo(o.Info)}, nil
		})
	}
}

// runGameJob plays one game job as the local runner plays a game: with its
// time limit, panics caught, and a harness error (AbortMatch, e.g. a bot
// command the shell cannot run) returned as the job's error so that the
// coordinator stops the match instead of counting the game.
func runGameJob(ctx context.Context, job fabric.Job, play func(context.Context, gameJob) (GameRecord, error)) (json.RawMessage, error) {
	g, err := decodeGameJob(job)
	if err != nil {
		return nil, err
	}
	gctx, cancel := withTimeout(ctx, g.TimeoutMS)
	defer cancel()
	ab := &aborter{cancel: cancel}
	gctx = context.WithValue(gctx, abortKey{}, ab.abort)
	start := time.Now()
	rec, err := safePlay(gctx, gameKey{g.Seed, g.Game}, func(ctx context.Context, _ gameKey) (GameRecord, error) { return play(ctx, g) })
	if aerr := ab.error(); aerr != nil {
		return nil, aerr
	}
	if err != nil {
		return nil, err
	}
	rec.Millis = time.Since(start).Milliseconds()
	return json.Marshal(rec)
}

// runRemote is runJobs on the fabric: the jobs not yet in res are queued,
// results stored by workers (also those of an earlier, killed coordinator
// of the same run) are recorded as they arrive.
func runRemote(ctx context.Context, cfg Config, res *results, todo []gameKey, record func(gameKey, GameRecord) (stop bool, err error)) error {
	r := cfg.Remote
	if r.Client == nil || r.Kind == "" {
		return errors.New("arena: Remote needs a Client and a Kind")
	}
	run := r.Run
	if run == "" {
		run = fabric.RunID(r.Kind, string(r.Spec), cfg.NameA, cfg.NameB, r.Version)
	}
	pending := map[string]gameKey{}
	for _, j := range todo {
		pending[jobID(j)] = j
	}
	return r.Client.Coordinate(ctx, fabric.Coordination{
		Run: run, Kind: r.Kind, Version: r.Version, Local: r.Local, Handlers: r.Handlers, Log: r.Log,
		Accept: func(fr fabric.Result) (bool, error) {
			j, ok := pending[fr.ID]
			if !ok {
				return false, nil // not ours, or already recorded
			}
			delete(pending, fr.ID)
			if fr.Error != "" {
				return true, fmt.Errorf("seed %d game %d (worker %s): %s", j.seed, j.game, fr.Worker, fr.Error)
			}
			var rec GameRecord
			if err := json.Unmarshal(fr.Output, &rec); err != nil {
				return true, fmt.Errorf("seed %d game %d: worker %s sent %q: %v", j.seed, j.game, fr.Worker, fr.Output, err)
			}
			stop, err := record(j, rec)
			return stop || err != nil || len(pending) == 0, err
		},
		Jobs: func() ([]fabric.Job, error) {
			var jobs []fabric.Job
			for _, j := range todo {
				if _, ok := pending[jobID(j)]; !ok {
					continue
				}
				payload, err := json.Marshal(gameJob{Spec: r.Spec, Seed: j.seed, Game: j.game, TimeoutMS: cfg.GameTimeout.Milliseconds()})
				if err != nil {
					return nil, err
				}
				jobs = append(jobs, fabric.Job{ID: jobID(j), Payload: payload})
			}
			return jobs, nil
		},
	})
}
