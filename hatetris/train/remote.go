// This file holds Refine on the job fabric: each Refine checkpoint (a batch
// of samples) is a job of kind RefineKind that any `yomi worker` runs; the
// net travels by digest through the fabric's artifact store. Results are
// keyed by batch, so a batch a dead worker left is run again by another and
// recorded once, and a coordinator started again finds what is stored.
package train

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sync"
	"time"

	"github.com/yomi-ai/yomi/fabric"
	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/nn"
)

// RefineKind is the fabric job kind of a Refine batch.
const RefineKind = "hatetris.refine"

// Remote makes Runner run Refine as fabric jobs.
type Remote struct {
	Client *fabric.Client
	// Version is the Yomi version that must run the jobs.
	Version string
	// Local is the number of Refine jobs this process runs at once
	// (0 leaves them to workers elsewhere).
	Local int
	// Log receives workers' notices and the local workers' failures.
	Log io.Writer
}

// refineJob is a batch's payload: the net by digest, the Refine settings
// and the wells (wellBytes each, as in samples.bin).
type refineJob struct {
	Net   string `json:"net"`
	Width int    `json:"width"`
	Depth int    `json:"depth"`
	Wells []byte `json:"wells"`
}

// refineResult is a batch's output: x and y per well as float32 bits, so
// the targets are exactly those of the in-process Refine.
type refineResult struct {
	X []uint32 `json:"x"`
	Y []uint32 `json:"y"`
}

// RefineHandler runs Refine batches; fetch gets a net file by its digest
// (the fabric client's GetArtifact). Nets are cached by digest.
func RefineHandler(fetch func(ctx context.Context, digest string) ([]byte, error)) fabric.Handler {
	var mu sync.Mutex
	cache := map[string]Evaluators{}
	tables := func(ctx context.Context, digest string) (Evaluators, error) {
		mu.Lock()
		defer mu.Unlock()
		if t, ok := cache[digest]; ok {
			return t, nil
		}
		b, err := fetch(ctx, digest)
		if err != nil {
			return nil, err
		}
		net, err := nn.Unmarshal(b)
		if err != nil {
			return nil, fmt.Errorf("net %s: %w", digest, err)
		}
		t, err := NewEvaluators(net)
		if err != nil {
			return nil, err
		}
		if len(cache) >= 4 {
			clear(cache)
		}
		cache[digest] = t
		return t, nil
	}
	return func(ctx context.Context, job fabric.Job) (json.RawMessage, error) {
		var rj refineJob
		if err := json.Unmarshal(job.Payload, &rj); err != nil {
			return nil, fmt.Errorf("refine job %s: %w", job.ID, err)
		}
		if len(rj.Wells)%wellBytes != 0 || rj.Width < 1 || rj.Depth < 1 {
			return nil, fmt.Errorf("refine job %s: bad payload (%d well bytes, width %d, depth %d)", job.ID, len(rj.Wells), rj.Width, rj.Depth)
		}
		tab, err := tables(ctx, rj.Net)
		if err != nil {
			return nil, err
		}
		n := len(rj.Wells) / wellBytes
		out := refineResult{X: make([]uint32, n), Y: make([]uint32, n)}
		e := tab.NewValuer()
		cfg := Config{RefineWidth: rj.Width, RefineDepth: rj.Depth}
		for i := 0; i < n; i++ {
			w := getWell(rj.Wells[i*wellBytes:])
			if err := check(&w); err != nil {
				return nil, fmt.Errorf("refine job %s well %d: %w", job.ID, i, err)
			}
			x, y, err := refineOne(ctx, tab, e, &w, cfg)
			if err != nil {
				return nil, err
			}
			out.X[i], out.Y[i] = math.Float32bits(x), math.Float32bits(y)
		}
		return json.Marshal(out)
	}
}

// refineRemote computes the chunks that have no checkpoint file as fabric
// jobs and writes each chunk's checkpoint as its result arrives; xs and ys
// get every chunk's values. A chunk's seconds are the wall time since the
// previous result, so they sum to the phase's wall time, as in-process.
func (r *Runner) refineRemote(ctx context.Context, g int, net *nn.Net, wells []hatetris.Well, xs, ys []float32, size int) (float64, error) {
	rm := r.Remote
	c := rm.Client
	nChunks := (len(wells) + size - 1) / size
	var secs float64
	pending := map[string]int{} // job id → chunk
	doneN := 0
	for k := 0; k < nChunks; k++ {
		lo, hi := k*size, min((k+1)*size, len(wells))
		if ch, err := readChunk(r.chunkPath(g, k)); err == nil && len(ch.X) == hi-lo {
			copy(xs[lo:], ch.X)
			copy(ys[lo:], ch.Y)
			secs += ch.Seconds
			doneN += hi - lo
			continue
		}
		pending[fmt.Sprintf("c%05d", k)] = k
	}
	r.progress(g, "refine", doneN, len(wells), "resumed")
	if len(pending) == 0 {
		return secs, nil
	}
	netBytes, err := net.MarshalBinary()
	if err != nil {
		return 0, err
	}
	digest, err := c.PutArtifact(ctx, netBytes)
	if err != nil {
		return 0, err
	}
	var wb bytes.Buffer
	for i := range wells {
		putWell(&wb, &wells[i])
	}
	all := wb.Bytes()
	// The run is this generation's Refine of these samples with this net:
	// results stored for it are valid whichever process stored them.
	run := fabric.RunID(RefineKind, digest, fabric.Digest(all), fmt.Sprint(r.Config.RefineWidth, r.Config.RefineDepth, size))
	last := time.Now()
	err = c.Coordinate(ctx, fabric.Coordination{
		Run: run, Kind: RefineKind, Version: rm.Version, Log: rm.Log,
		Local: rm.Local, Handlers: map[string]fabric.Handler{RefineKind: RefineHandler(c.GetArtifact)},
		Accept: func(res fabric.Result) (bool, error) {
			k, ok := pending[res.ID]
			if !ok {
				return false, nil // not ours or already recorded
			}
			lo, hi := k*size, min((k+1)*size, len(wells))
			var out refineResult
			switch {
			case res.Error != "":
				return true, fmt.Errorf("refine batch %s (worker %s): %s", res.ID, res.Worker, res.Error)
			case json.Unmarshal(res.Output, &out) != nil || len(out.X) != hi-lo || len(out.Y) != hi-lo:
				return true, fmt.Errorf("refine batch %s: worker %s sent a malformed result", res.ID, res.Worker)
			}
			for i := range out.X {
				xs[lo+i], ys[lo+i] = math.Float32frombits(out.X[i]), math.Float32frombits(out.Y[i])
			}
			el := time.Since(last).Seconds()
			last = time.Now()
			if err := writeChunk(r.chunkPath(g, k), chunk{X: xs[lo:hi], Y: ys[lo:hi], Seconds: el}); err != nil {
				return true, err
			}
			delete(pending, res.ID)
			secs += el
			doneN += hi - lo
			r.progress(g, "refine", doneN, len(wells), res.Worker)
			return len(pending) == 0, nil
		},
		Jobs: func() ([]fabric.Job, error) {
			var jobs []fabric.Job
			for id, k := range pending {
				lo, hi := k*size, min((k+1)*size, len(wells))
				p, err := json.Marshal(refineJob{Net: digest, Width: r.Config.RefineWidth, Depth: r.Config.RefineDepth, Wells: all[lo*wellBytes : hi*wellBytes]})
				if err != nil {
					return nil, err
				}
				jobs = append(jobs, fabric.Job{ID: id, Payload: p})
			}
			return jobs, nil
		},
	})
	if err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return secs, nil
}
