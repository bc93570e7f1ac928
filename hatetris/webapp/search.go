// This file holds the server's beam searches for the page's "watch a search":
// one at a time, bounded in width and time, polled for progress and for the
// best line so far.

package webapp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/hatetris/nets"
	"github.com/yomi-ai/yomi/hatetris/player"
	"github.com/yomi-ai/yomi/hatetris/train"
	"github.com/yomi-ai/yomi/hatetris/webapp/api"
	"github.com/yomi-ai/yomi/web"
)

// SearchRequest starts a search (POST api/search).
type SearchRequest struct {
	Eval       string  `json:"eval"`       // "heuristic" or "net"
	Width      int     `json:"width"`      // beam width, 1..Options.MaxWidth
	Seconds    float64 `json:"seconds"`    // time limit (0 or more than the cap: the cap)
	Quiescence bool    `json:"quiescence"` // value wells by their single-line-clear chains too
	AI         string  `json:"ai"`         // "hatetris" (default) or "mild"
}

// SearchStatus is a search's progress (GET api/search/{id}).
type SearchStatus struct {
	ID        string `json:"id"`
	Eval      string `json:"eval"`
	Width     int    `json:"width"`
	AI        string `json:"ai"`
	Running   bool   `json:"running"`
	Stopped   bool   `json:"stopped"` // ended by the time limit or a stop, not by the beam dying
	Depth     int    `json:"depth"`   // pieces placed by the beam
	Beam      int    `json:"beam"`
	BestScore int    `json:"bestScore"` // best score in the current beam
	Wells     int64  `json:"wells"`     // wells expanded
	ElapsedMS int64  `json:"elapsedMs"`
	LimitMS   int64  `json:"limitMs"`
	// Line is the best game so far as a Base2048 replay, LineScore its
	// lines and LinePieces its pieces; GameOver when it ends the game.
	Line       string `json:"line"`
	LineScore  int    `json:"lineScore"`
	LinePieces int    `json:"linePieces"`
	GameOver   bool   `json:"gameOver"`
	Error      string `json:"error,omitempty"`
}

type searchJob struct {
	mu     sync.Mutex
	st     SearchStatus
	start  time.Time
	cancel context.CancelFunc
}

func (j *searchJob) status() SearchStatus {
	j.mu.Lock()
	defer j.mu.Unlock()
	st := j.st
	if st.Running {
		st.ElapsedMS = time.Since(j.start).Milliseconds()
	}
	return st
}

type searches struct {
	opt     Options
	mu      sync.Mutex
	jobs    map[string]*searchJob
	order   []string // ids, oldest first
	running *searchJob
	netOnce sync.Once
	net     func() player.Evaluator
	netErr  error
}

// keptSearches is how many searches' results the server keeps for polling.
const keptSearches = 8

func newSearches(opt Options) *searches {
	return &searches{opt: opt, jobs: map[string]*searchJob{}}
}

func (s *searches) netEval() (func() player.Evaluator, error) {
	s.netOnce.Do(func() {
		net, err := nets.Best()
		if err != nil {
			s.netErr = err
			return
		}
		tab, err := train.NewTables(net)
		if err != nil {
			s.netErr = err
			return
		}
		s.net = func() player.Evaluator { return tab.New() }
	})
	return s.net, s.netErr
}

func (s *searches) start(w http.ResponseWriter, r *http.Request) {
	var req SearchRequest
	if !decodeBody(w, r, &req) {
		return
	}
	bad := func(format string, a ...any) {
		web.WriteJSON(w, http.StatusBadRequest, errorBody{fmt.Sprintf(format, a...)})
	}
	ai, err := hatetris.ParseAI(req.AI)
	if err != nil {
		bad("%v", err)
		return
	}
	if req.Width < 1 || req.Width > s.opt.MaxWidth {
		bad("width %d: want 1 to %d", req.Width, s.opt.MaxWidth)
		return
	}
	if req.Seconds < 0 || req.Seconds != req.Seconds {
		bad("seconds %v: want a positive time", req.Seconds)
		return
	}
	limit := s.opt.MaxSearchTime
	if req.Seconds > 0 && req.Seconds < limit.Seconds() {
		limit = time.Duration(req.Seconds * float64(time.Second))
	}
	var newEval func() player.Evaluator
	switch req.Eval {
	case "heuristic", "":
		req.Eval = "heuristic"
	case "net":
		if s.opt.NoNet {
			bad("this server has no net")
			return
		}
		if newEval, err = s.netEval(); err != nil {
			web.WriteJSON(w, http.StatusInternalServerError, errorBody{"loading the net: " + err.Error()})
			return
		}
	default:
		bad("eval %q: want heuristic or net", req.Eval)
		return
	}
	s.mu.Lock()
	if s.running != nil {
		s.mu.Unlock()
		web.WriteJSON(w, http.StatusConflict, errorBody{"a search is already running: stop it or wait for it"})
		return
	}
	var idb [8]byte
	rand.Read(idb[:])
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	j := &searchJob{start: time.Now(), cancel: cancel,
		st: SearchStatus{ID: hex.EncodeToString(idb[:]), Eval: req.Eval, Width: req.Width, AI: ai.String(), Running: true, LimitMS: limit.Milliseconds()}}
	s.running = j
	s.jobs[j.st.ID] = j
	s.order = append(s.order, j.st.ID)
	for len(s.order) > keptSearches {
		delete(s.jobs, s.order[0])
		s.order = s.order[1:]
	}
	s.mu.Unlock()
	go s.run(ctx, j, player.Options{Width: req.Width, Quiescence: req.Quiescence, Workers: s.opt.SearchWorkers, AI: ai, NewEval: newEval})
	web.WriteJSON(w, http.StatusOK, j.status())
}

func (s *searches) run(ctx context.Context, j *searchJob, opt player.Options) {
	defer func() {
		j.cancel()
		s.mu.Lock()
		s.running = nil
		s.mu.Unlock()
	}()
	setLine := func(res *player.Result) {
		line, err := api.EncodeReplay(res.Moves)
		j.mu.Lock()
		defer j.mu.Unlock()
		if err != nil {
			j.st.Error = err.Error()
			return
		}
		j.st.Line, j.st.LineScore, j.st.LinePieces, j.st.GameOver = line, res.Score, len(res.Spawned), res.GameOver
	}
	opt.Progress = func(st player.Stats) {
		j.mu.Lock()
		j.st.Depth, j.st.Beam, j.st.BestScore, j.st.Wells = st.Depth, st.Beam, st.BestScore, st.Wells
		j.mu.Unlock()
	}
	opt.Line, opt.LineEvery = setLine, 250*time.Millisecond
	res, err := player.Search(ctx, opt)
	if err == nil {
		setLine(res)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.st.Running = false
	j.st.ElapsedMS = time.Since(j.start).Milliseconds()
	if err != nil {
		j.st.Error = err.Error()
		return
	}
	j.st.Stopped, j.st.Depth, j.st.Wells = res.Stopped, res.Depth, res.Wells
}

func (s *searches) get(w http.ResponseWriter, r *http.Request) *searchJob {
	s.mu.Lock()
	j := s.jobs[r.PathValue("id")]
	s.mu.Unlock()
	if j == nil {
		web.WriteJSON(w, http.StatusNotFound, errorBody{"no such search (the server keeps the last " + fmt.Sprint(keptSearches) + ")"})
	}
	return j
}

func (s *searches) status(w http.ResponseWriter, r *http.Request) {
	if j := s.get(w, r); j != nil {
		web.WriteJSON(w, http.StatusOK, j.status())
	}
}

func (s *searches) stop(w http.ResponseWriter, r *http.Request) {
	if j := s.get(w, r); j != nil {
		j.cancel()
		web.WriteJSON(w, http.StatusOK, j.status())
	}
}
