// Referee tests with scripted AIs: this test binary re-runs itself as a
// dummy AI (CODEVS_DUMMY="key=value …"), so crashes, hangs and bad output
// are real processes misbehaving.
package referee

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/arena/arenatest"
	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/protocol"
)

func TestMain(m *testing.M) {
	if spec, ok := os.LookupEnv("CODEVS_DUMMY"); ok {
		o, err := parseDummySpec(spec)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		err = RunDummy(context.Background(), os.Stdin, os.Stdout, o)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// parseDummySpec reads "strategy=random seed=3 crash=5 …".
func parseDummySpec(spec string) (DummyOptions, error) {
	o := NoFaults()
	for _, kv := range strings.Fields(spec) {
		k, v, _ := strings.Cut(kv, "=")
		n, _ := strconv.Atoi(v)
		switch k {
		case "name":
			o.Name = v
		case "strategy":
			o.Strategy = v
		case "seed":
			o.Seed = uint64(n)
		case "delay":
			d, err := time.ParseDuration(v)
			if err != nil {
				return o, err
			}
			o.Delay = d
		case "crash":
			o.CrashTurn = n
		case "hang":
			o.HangTurn = n
		case "garbage":
			o.GarbageTurn = n
		case "skill":
			o.SkillTurn = n
		default:
			return o, fmt.Errorf("unknown dummy option %q", k)
		}
	}
	return o, nil
}

// dummy returns the command line running this binary as a dummy AI.
func dummy(spec string) string {
	return fmt.Sprintf("CODEVS_DUMMY='%s' exec '%s' -test.run='^$'", spec, os.Args[0])
}

func packs(t *testing.T, seed uint64) Config {
	t.Helper()
	p, err := codevs.PacksForSeed(seed, codevs.ProfileClient)
	if err != nil {
		t.Fatal(err)
	}
	return Config{Packs: p}
}

func TestFullGameLogsAndReplay(t *testing.T) {
	for _, seq := range []bool{false, true} {
		cfg := packs(t, 7)
		cfg.Cmd = [2]string{dummy("name=alpha seed=1"), dummy("name=beta seed=2")}
		cfg.LogDir = t.TempDir()
		cfg.Sequential = seq
		res, err := Play(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Names != [2]string{"alpha", "beta"} || res.Faults != [2]string{} {
			t.Fatalf("result %+v", res)
		}
		if !strings.Contains(res.Outcome.Reason, "died") && !strings.Contains(res.Outcome.Reason, "turn limit") {
			t.Fatalf("reason %q", res.Outcome.Reason)
		}
		t.Logf("sequential=%v: %d turns, %s, scores %v, time %v ms", seq, res.Turns, res.Outcome.Reason, res.Scores, res.TimeMs)
		if res.Turns < 5 {
			t.Fatalf("only %d turns", res.Turns)
		}
		data, err := os.ReadFile(filepath.Join(cfg.LogDir, "replay.json"))
		if err != nil {
			t.Fatal(err)
		}
		rp, err := ReadReplay(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyReplay(rp); err != nil {
			t.Fatal(err)
		}
		if len(rp.Turns) != res.Turns || len(rp.Players[0].Outputs) != res.Turns || rp.Players[1].Name != "beta" {
			t.Fatalf("replay: %d turns, %d outputs", len(rp.Turns), len(rp.Players[0].Outputs))
		}
		// Each stdin log is exactly the start block plus one turn block per
		// turn, rebuilt here from the replay (times from the think times).
		for i := range 2 {
			got, err := os.ReadFile(filepath.Join(cfg.LogDir, fmt.Sprintf("p%d_stdin.txt", i+1)))
			if err != nil {
				t.Fatal(err)
			}
			if want := rebuildStdin(t, rp, i); !bytes.Equal(got, want) {
				t.Fatalf("p%d_stdin.txt (%d bytes) differs from the rebuilt input (%d bytes)", i+1, len(got), len(want))
			}
		}
	}
}

// rebuildStdin replays rp and writes what player i should have received.
func rebuildStdin(t *testing.T, rp *Replay, i int) []byte {
	g, err := codevs.NewGame(codevs.SimPacks(rp.Packs))
	if err != nil {
		t.Fatal(err)
	}
	out := protocol.AppendStart(nil, rp.Packs)
	left := [2]time.Duration{time.Duration(rp.TimeMs) * time.Millisecond, time.Duration(rp.TimeMs) * time.Millisecond}
	for k, rec := range rp.Turns {
		in := g.Input(i, [2]int64{left[0].Milliseconds(), left[1].Milliseconds()})
		out = protocol.AppendTurn(out, &in)
		var m [2]codevs.Move
		for j := range 2 {
			m[j], _ = protocol.ParseCommand(rec.Moves[j])
			left[j] -= time.Duration(rp.Players[j].ThinkNs[k])
		}
		if _, err := g.Step(m); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func TestFaults(t *testing.T) {
	cases := []struct {
		name       string
		p1, p2     string
		time, turn time.Duration
		winner     int
		faults     [2]string
		reason     string
		turns      int
	}{
		{"p1 crashes", "crash=3", "", 0, 0, 1, [2]string{FaultCrash, ""}, "player 1 crashed on turn 3", 3},
		{"p2 garbage", "", "garbage=2", 0, 0, 0, [2]string{"", FaultIllegal}, `player 2 gave illegal output on turn 2: bad x "a" in "a 100"`, 2},
		{"p2 early skill", "", "skill=1", 0, 0, 0, [2]string{"", FaultIllegal}, "player 2 gave an illegal move on turn 1: skill with gauge", 1},
		{"p1 hangs", "hang=2", "", 1500 * time.Millisecond, 0, 1, [2]string{FaultTimeout, ""}, "player 1 ran out of time on turn 2", 2},
		{"p2 slow turn", "", "delay=300ms", 0, 100 * time.Millisecond, 0, [2]string{"", FaultTimeout}, "player 2 exceeded the 100ms turn limit on turn 0", 0},
		{"both garbage", "garbage=1", "garbage=1", 0, 0, -1, [2]string{FaultIllegal, FaultIllegal}, "draw", 1},
		{"both crash", "crash=4", "crash=4", 0, 0, -2, [2]string{FaultCrash, FaultCrash}, "on score", 4},
		{"bad name", "name=a/b", "", 0, 0, 1, [2]string{FaultIllegal, ""}, `player 1: AI name "a/b" contains '/'`, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cfg := packs(t, 3)
			cfg.Cmd = [2]string{dummy("seed=5 " + c.p1), dummy("seed=6 " + c.p2)}
			cfg.Time, cfg.TurnLimit = c.time, c.turn
			res, err := Play(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if c.winner != -2 && res.Outcome.Winner != c.winner {
				t.Errorf("winner %d want %d (%s)", res.Outcome.Winner, c.winner, res.Outcome.Reason)
			}
			if res.Faults != c.faults || !strings.Contains(res.Outcome.Reason, c.reason) || res.Turns != c.turns {
				t.Errorf("faults %q turns %d reason %q; want %q %d ~%q", res.Faults, res.Turns, res.Outcome.Reason, c.faults, c.turns, c.reason)
			}
			if err := VerifyReplay(res.Replay); err != nil {
				t.Errorf("replay: %v", err)
			}
		})
	}
}

func TestNoNameAndMissingBinary(t *testing.T) {
	cfg := packs(t, 4)
	cfg.Cmd = [2]string{"exit 0", "exit 3"}
	res, err := Play(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome.Winner != -1 || res.Faults != [2]string{FaultCrash, FaultCrash} || !strings.Contains(res.Outcome.Reason, "player 2 crashed before its name") {
		t.Fatalf("%+v", res)
	}
	// A command the shell cannot run is the referee's error, not a game.
	for _, c := range []string{arenatest.Missing.Cmd, arenatest.NotExecutable.Cmd} {
		cfg.Cmd = [2]string{dummy(""), c}
		res, err = Play(context.Background(), cfg)
		if !errors.Is(err, arena.ErrCannotRun) || !strings.Contains(err.Error(), "player 2: cannot run") || res != nil {
			t.Fatalf("%s: %v, %+v", c, err, res)
		}
	}
	cfg.Cmd = [2]string{"echo; echo '  '; " + dummy("name=late"), "echo; sleep 5"}
	cfg.StartTimeout = 200 * time.Millisecond
	res, err = Play(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome.Winner != 0 || res.Names[0] != "late" || !strings.Contains(res.Outcome.Reason, "player 2 sent no name") {
		t.Fatalf("%+v", res)
	}
}

// TestStuckWriteTimesOut: an AI that never reads stdin fills the pipe; the
// referee must still end the turn on time.
func TestStuckWriteTimesOut(t *testing.T) {
	p, err := arena.StartProcess(context.Background(), "echo name; sleep 30", arena.ProcessOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.ReadLine(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	s := &seat{idx: 0, proc: p, left: 300 * time.Millisecond, log: new(bytes.Buffer)}
	start := time.Now()
	var pl codevs.Player
	a := s.ask(context.Background(), bytes.Repeat([]byte("0 0\n"), 1<<20), 0, &pl, 0)
	if a.fault != FaultTimeout || time.Since(start) > 2*time.Second || s.left != 0 {
		t.Fatalf("fault %q after %v, left %v", a.fault, time.Since(start), s.left)
	}
}

func TestCancel(t *testing.T) {
	cfg := packs(t, 5)
	cfg.Cmd = [2]string{dummy("hang=0"), dummy("hang=0")}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Play(ctx, cfg)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Fatalf("err %v after %v", err, time.Since(start))
	}
}

func TestVerifyReplayCatchesTampering(t *testing.T) {
	cfg := packs(t, 8)
	cfg.Cmd = [2]string{dummy("seed=1"), dummy("seed=2")}
	res, err := Play(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	rp := res.Replay
	if err := VerifyReplay(rp); err != nil {
		t.Fatal(err)
	}
	rp.Turns[1].Score[0]++
	if err := VerifyReplay(rp); err == nil || !strings.Contains(err.Error(), "turn 1") {
		t.Fatalf("tampered score: %v", err)
	}
	rp.Turns[1].Score[0]--
	rp.Result.Winner = 5
	if err := VerifyReplay(rp); err == nil {
		t.Fatal("tampered winner accepted")
	}
}

// TestSidesSymmetric: the game treats both sides alike, so two
// deterministic AIs swapping sides get mirrored results.
func TestSidesSymmetric(t *testing.T) {
	cfg := packs(t, 12)
	a, b := dummy("name=a seed=31"), dummy("name=b seed=32")
	cfg.Cmd = [2]string{a, b}
	r1, err := Play(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Cmd = [2]string{b, a}
	r2, err := Play(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	mirror := map[int]int{0: 1, 1: 0, -1: -1}
	if r2.Outcome.Winner != mirror[r1.Outcome.Winner] || r2.Scores != [2]int64{r1.Scores[1], r1.Scores[0]} || r1.Turns != r2.Turns {
		t.Fatalf("not mirrored: %+v / %+v", r1, r2)
	}
	for k := range r1.Replay.Turns {
		x, y := r1.Replay.Turns[k], r2.Replay.Turns[k]
		if x.Moves[0] != y.Moves[1] || x.Gauge[0] != y.Gauge[1] || x.Ojama[1] != y.Ojama[0] {
			t.Fatalf("turn %d not mirrored", k)
		}
	}
}

// TestChaosPlayers: every misbehaving bot loses at once with a reason that
// names what it did, and the game never hangs (issue 25: a bot printing
// more than 64 unread lines hung the referee for good).
func TestChaosPlayers(t *testing.T) {
	for _, c := range arenatest.All {
		if c.Fails == "cannot-run" || c.Fails == "silent" {
			continue // an error (TestNoNameAndMissingBinary); a timeout (TestStuckWriteTimesOut)
		}
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			cfg := packs(t, 2)
			cfg.Cmd = [2]string{dummy(""), c.Cmd}
			cfg.StartTimeout = 5 * time.Second
			done := make(chan struct{})
			var res *Result
			var err error
			go func() { defer close(done); res, err = Play(context.Background(), cfg) }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("the game hangs")
			}
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{"flood": "killed for flooding", "exit": "player 2", "garbage": "player 2 gave illegal output"}[c.Fails]
			if c == arenatest.Crash || c == arenatest.ExitAtOnce {
				want = "player 2 crashed before its name"
			}
			if res.Outcome.Winner != 0 || res.Faults[1] == "" || !strings.Contains(res.Outcome.Reason, want) {
				t.Fatalf("faults %q, reason %q (want %q)", res.Faults, res.Outcome.Reason, want)
			}
		})
	}
}
