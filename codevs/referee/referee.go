// Package referee runs a CODE VS Reborn game between two AI processes the
// way the official client did: it reads each AI's name, sends the 500 packs
// and then one turn block per turn (codevs/protocol), reads one answer line
// per turn, charges each AI the time between sending a turn and reading its
// answer against its 180 s budget, applies both moves with codevs.Game, and
// ends the game with a clear reason on death, the turn limit, a crash, a
// timeout or illegal output. Start with Play; Config says what can be set.
//
// What the client sent is recorded byte for byte (Config.LogDir:
// p1_stdin.txt, p2_stdin.txt) with a JSON replay (Replay) that VerifyReplay
// re-checks against the rules. RunDummy is a tiny stand-in AI (random or
// fixed drops, with injectable faults) for tests and smoke runs.
package referee

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/protocol"
	"github.com/yomi-ai/yomi/codevs/sim"
)

// DefaultTime is each player's thinking time for a whole game.
const DefaultTime = 180 * time.Second

// DefaultStartTimeout bounds the wait for an AI's name line; it is not
// charged to the AI's thinking time (ysai, for one, builds 160 MB of tables
// before printing its name).
const DefaultStartTimeout = 30 * time.Second

// Config describes one game.
type Config struct {
	Cmd   [2]string  // shell command lines of player 1 and player 2
	Packs []sim.Pack // the 500 packs, shared by both players
	// Time is each player's thinking time for the game (0 = DefaultTime).
	Time time.Duration
	// TurnLimit, if positive, also limits each single answer (the online
	// qualifier had 20 s; the local client had none).
	TurnLimit time.Duration
	// StartTimeout bounds the name line (0 = DefaultStartTimeout).
	StartTimeout time.Duration
	// Sequential asks player 1, then player 2, instead of both at once; on
	// a small machine it keeps two multi-threaded AIs from sharing cores.
	Sequential bool
	// Dir is the AIs' working directory ("" = current).
	Dir string
	// LogDir, if set, receives p1_stdin.txt, p2_stdin.txt (what each AI
	// received), p1_stderr.txt, p2_stderr.txt and replay.json.
	LogDir string
	// OnTurn, if set, is called after every turn played (for progress).
	OnTurn func(turn int)
	// OnStart and OnRecord, if set, see the game as it is played (for a
	// live viewer): the names and packs once both AIs have answered their
	// names, then every turn's record with the time each AI was charged.
	OnStart  func(names [2]string, packs []protocol.Pack)
	OnRecord func(rec TurnRecord, thinkNs [2]int64)
}

// Fault kinds, as recorded in Result.Faults.
const (
	FaultTimeout = "timeout"
	FaultCrash   = "crash"
	FaultIllegal = "illegal"
)

// Result is how a game went.
type Result struct {
	Outcome codevs.Outcome `json:"outcome"` // Winner 0 (player 1), 1 (player 2) or -1 (draw)
	Turns   int            `json:"turns"`   // turns played
	Names   [2]string      `json:"names"`
	Scores  [2]int64       `json:"scores"`
	Faults  [2]string      `json:"faults"`  // "", timeout, crash or illegal
	TimeMs  [2]float64     `json:"time_ms"` // thinking time used
	Replay  *Replay        `json:"-"`
}

// seat is one AI process and its bookkeeping.
type seat struct {
	idx   int
	proc  *arena.Process
	left  time.Duration
	log   io.Writer // receives everything delivered on stdin
	files []*os.File
	name  string
	out   []string
	think []int64
}

// answer is what one seat produced for a turn.
type answer struct {
	line  string
	move  codevs.Move
	fault string
	why   string
	used  time.Duration
	// logErr is a failure to write the stdin log (a referee error).
	logErr error
	// err is the process error behind a crash (ErrCannotRun is a referee
	// error too).
	err error
}

// Play runs one game. A player's crash, hang or bad output ends the game
// with a Result saying so; an error means the referee itself failed (a
// process could not be started, the logs could not be written, ctx ended).
func Play(ctx context.Context, cfg Config) (*Result, error) {
	if cfg.Time <= 0 {
		cfg.Time = DefaultTime
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = DefaultStartTimeout
	}
	g, err := codevs.NewGame(cfg.Packs)
	if err != nil {
		return nil, err
	}
	if cfg.LogDir != "" {
		if err := os.MkdirAll(cfg.LogDir, 0o755); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var seats [2]*seat
	defer func() {
		for _, s := range seats {
			if s != nil {
				s.proc.Close()
				for _, f := range s.files {
					f.Close()
				}
			}
		}
	}()
	for i := range seats {
		s := &seat{idx: i, left: cfg.Time, log: io.Discard}
		seats[i] = s
		opt := arena.ProcessOptions{Dir: cfg.Dir, StderrTail: 1024}
		if cfg.LogDir != "" {
			// Logs are written as the game goes, so a long game can be
			// watched and a referee failure loses nothing.
			in, err := os.Create(filepath.Join(cfg.LogDir, fmt.Sprintf("p%d_stdin.txt", i+1)))
			if err != nil {
				return nil, err
			}
			errf, err := os.Create(filepath.Join(cfg.LogDir, fmt.Sprintf("p%d_stderr.txt", i+1)))
			if err != nil {
				in.Close()
				return nil, err
			}
			s.files = []*os.File{in, errf}
			s.log, opt.Stderr = in, errf
		}
		if s.proc, err = arena.StartProcess(ctx, cfg.Cmd[i], opt); err != nil {
			seats[i] = nil
			for _, f := range s.files {
				f.Close()
			}
			return nil, fmt.Errorf("player %d: %w", i+1, err)
		}
	}
	res := &Result{}
	rp := &Replay{Version: 1, TimeMs: cfg.Time.Milliseconds(), TurnLimitMs: cfg.TurnLimit.Milliseconds(),
		Sequential: cfg.Sequential, Packs: codevs.ProtocolPacks(cfg.Packs)}
	finish := func(o codevs.Outcome) (*Result, error) {
		res.Outcome = o
		res.Turns = g.Turn
		for i, s := range seats {
			res.Names[i] = s.name
			res.Scores[i] = g.P[i].Score
			res.TimeMs[i] = float64(cfg.Time-s.left) / float64(time.Millisecond)
			rp.Players[i] = ReplayPlayer{Name: s.name, Command: cfg.Cmd[i], Outputs: s.out, ThinkNs: s.think}
		}
		rp.Result = ReplayResult{Winner: o.Winner, Reason: o.Reason, Turns: g.Turn, Faults: res.Faults}
		res.Replay = rp
		// Close stdin so well-behaved AIs see EOF and exit.
		for _, s := range seats {
			s.proc.Close()
		}
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if cfg.LogDir != "" {
			if err := writeReplay(cfg.LogDir, rp); err != nil {
				return res, err
			}
		}
		return res, nil
	}

	// Names, read at once, not charged.
	var wg sync.WaitGroup
	var nameFault [2]string
	var harness [2]error // a command the shell cannot run
	for i, s := range seats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			var line string
			var err error
			for { // blank lines are whitespace, as for answers
				wait := max(cfg.StartTimeout-time.Since(t0), time.Millisecond)
				if line, err = s.proc.ReadLine(wait); err != nil || strings.TrimSpace(line) != "" {
					break
				}
			}
			switch {
			case errors.Is(err, arena.ErrTimeout):
				res.Faults[i], nameFault[i] = FaultTimeout, fmt.Sprintf("player %d sent no name within %v", i+1, cfg.StartTimeout)
			case errors.Is(err, arena.ErrCannotRun):
				harness[i] = fmt.Errorf("player %d: %w", i+1, err)
			case errors.Is(err, arena.ErrFlood):
				res.Faults[i], nameFault[i] = FaultIllegal, fmt.Sprintf("player %d before its name: %v", i+1, err)
			case err != nil:
				res.Faults[i], nameFault[i] = FaultCrash, fmt.Sprintf("player %d crashed before its name: %v", i+1, err)
			default:
				s.name = strings.TrimSpace(line)
				if err := protocol.ValidName(line); err != nil {
					res.Faults[i], nameFault[i] = FaultIllegal, fmt.Sprintf("player %d: %v", i+1, err)
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(harness[:]...); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return finish(codevs.Outcome{Winner: -1, Reason: "cancelled"})
	}
	if o, done := faultOutcome(res.Faults, nameFault, g); done {
		return finish(o)
	}

	if cfg.OnStart != nil {
		cfg.OnStart([2]string{seats[0].name, seats[1].name}, rp.Packs)
	}
	start := protocol.AppendStart(nil, rp.Packs)
	for !g.Over {
		times := [2]int64{seats[0].left.Milliseconds(), seats[1].left.Milliseconds()}
		var ans [2]answer
		ask := func(i int) {
			in := g.Input(i, times)
			var msg []byte
			if g.Turn == 0 {
				msg = append(msg, start...)
			}
			msg = protocol.AppendTurn(msg, &in)
			ans[i] = seats[i].ask(ctx, msg, cfg.TurnLimit, &g.P[i], g.Turn)
		}
		if cfg.Sequential {
			ask(0)
			ask(1)
		} else {
			var wg sync.WaitGroup
			for i := range 2 {
				wg.Add(1)
				go func() { defer wg.Done(); ask(i) }()
			}
			wg.Wait()
		}
		if err := ctx.Err(); err != nil {
			return finish(codevs.Outcome{Winner: -1, Reason: "cancelled"})
		}
		for _, a := range ans {
			if a.logErr != nil {
				return nil, a.logErr
			}
		}
		for i, a := range ans {
			if errors.Is(a.err, arena.ErrCannotRun) {
				return nil, fmt.Errorf("player %d: %w", i+1, a.err)
			}
		}
		var why [2]string
		for i := range 2 {
			res.Faults[i], why[i] = ans[i].fault, ans[i].why
		}
		if o, done := faultOutcome(res.Faults, why, g); done {
			return finish(o)
		}
		turn := g.Turn
		h, err := g.Step([2]codevs.Move{ans[0].move, ans[1].move})
		if err != nil {
			return nil, fmt.Errorf("turn %d: %w (moves were checked)", turn, err)
		}
		rp.Turns = append(rp.Turns, turnRecord(turn, ans, h, g))
		if cfg.OnTurn != nil {
			cfg.OnTurn(turn)
		}
		if cfg.OnRecord != nil {
			cfg.OnRecord(rp.Turns[len(rp.Turns)-1], [2]int64{ans[0].used.Nanoseconds(), ans[1].used.Nanoseconds()})
		}
	}
	return finish(g.Result)
}

// ask sends msg to the AI and waits for its answer, skipping blank lines.
func (s *seat) ask(ctx context.Context, msg []byte, turnLimit time.Duration, p *codevs.Player, turn int) answer {
	limit := s.left
	if turnLimit > 0 && turnLimit < limit {
		limit = turnLimit
	}
	t0 := time.Now()
	done := make(chan answer, 1)
	go func() {
		if err := s.proc.Write(msg); err != nil {
			done <- s.failed(turn, err, nil)
			return
		}
		// Logged once delivered: the log holds what the AI received.
		var logErr error
		if _, err := s.log.Write(msg); err != nil {
			logErr = fmt.Errorf("writing player %d's stdin log: %w", s.idx+1, err)
		}
		for {
			wait := limit - time.Since(t0)
			if wait <= 0 {
				wait = time.Millisecond
			}
			line, err := s.proc.ReadLine(wait)
			switch {
			case errors.Is(err, arena.ErrTimeout):
				done <- answer{fault: FaultTimeout, logErr: logErr}
				return
			case err != nil:
				done <- s.failed(turn, err, logErr)
				return
			}
			cmd, err := protocol.ParseCommand(line)
			if errors.Is(err, protocol.ErrEmpty) {
				continue // blank lines are whitespace
			}
			a := answer{line: line, logErr: logErr}
			if err != nil {
				a.fault, a.why = FaultIllegal, fmt.Sprintf("player %d gave illegal output on turn %d: %v", s.idx+1, turn, err)
			} else if err := p.Legal(cmd); err != nil {
				a.fault, a.why = FaultIllegal, fmt.Sprintf("player %d gave an illegal move on turn %d: %v", s.idx+1, turn, err)
			} else {
				a.move = cmd
			}
			done <- a
			return
		}
	}()
	var a answer
	timer := time.NewTimer(limit + 100*time.Millisecond) // the writer may be stuck on a full pipe
	defer timer.Stop()
	select {
	case a = <-done:
	case <-timer.C:
		a = answer{fault: FaultTimeout}
	case <-ctx.Done():
		a = answer{fault: FaultCrash, why: "cancelled"}
	}
	a.used = time.Since(t0)
	if a.fault == "" && a.used > limit {
		a.fault = FaultTimeout
	}
	if a.fault == FaultTimeout {
		a.used = max(a.used, limit)
		if turnLimit > 0 && limit == turnLimit && limit < s.left {
			a.why = fmt.Sprintf("player %d exceeded the %v turn limit on turn %d", s.idx+1, turnLimit, turn)
		} else {
			a.why = fmt.Sprintf("player %d ran out of time on turn %d (%d ms left at the start of the turn)", s.idx+1, turn, s.left.Milliseconds())
		}
	}
	s.left -= a.used
	if s.left < 0 {
		s.left = 0
	}
	s.out = append(s.out, a.line)
	s.think = append(s.think, a.used.Nanoseconds())
	return a
}

// failed is the answer of a seat whose process failed on turn: a flood is
// illegal output, anything else a crash.
func (s *seat) failed(turn int, err, logErr error) answer {
	if errors.Is(err, arena.ErrFlood) {
		return answer{fault: FaultIllegal, why: fmt.Sprintf("player %d on turn %d: %v", s.idx+1, turn, err), logErr: logErr, err: err}
	}
	return answer{fault: FaultCrash, why: fmt.Sprintf("player %d crashed on turn %d: %v", s.idx+1, turn, err), logErr: logErr, err: err}
}

// faultOutcome decides a game in which at least one player faulted: the
// other wins; if both did on the same turn, both timing out (or crashing)
// is decided by score, and both giving illegal output, or one of each, is a
// draw.
func faultOutcome(f, why [2]string, g *codevs.Game) (codevs.Outcome, bool) {
	switch {
	case f[0] == "" && f[1] == "":
		return codevs.Outcome{}, false
	case f[1] == "":
		return codevs.Outcome{Winner: 1, Reason: why[0]}, true
	case f[0] == "":
		return codevs.Outcome{Winner: 0, Reason: why[1]}, true
	}
	both := why[0] + "; " + why[1]
	timeish := func(s string) bool { return s == FaultTimeout || s == FaultCrash }
	if timeish(f[0]) && timeish(f[1]) {
		return codevs.ByScore(both, g.P[0].Score, g.P[1].Score), true
	}
	return codevs.Outcome{Winner: -1, Reason: both + ": draw"}, true
}

func writeReplay(dir string, rp *Replay) error {
	data, err := json.Marshal(rp)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "replay.json"), append(data, '\n'), 0o644)
}

// ReadReplay reads a replay.json file.
func ReadReplay(r io.Reader) (*Replay, error) {
	var rp Replay
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rp); err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	return &rp, nil
}
