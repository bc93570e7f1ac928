package arena

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The toy game: both players name a number for the seed; the higher wins,
// equal numbers draw. A player is a function or an external process (this
// test binary re-run with YOMI_TOY_PLAYER set).

func toyNumber(seed uint64, side int, bonus int) int {
	h := seed*0x9e3779b97f4a7c15 + uint64(side)*0xbf58476d1ce4e5b9
	h ^= h >> 29
	return int(h%10) + bonus
}

func TestMain(m *testing.M) {
	if mode := os.Getenv("YOMI_TOY_PLAYER"); mode != "" {
		toyPlayer(mode)
		return
	}
	os.Exit(m.Run())
}

// toyPlayer answers "seed S side K" lines with a number.
func toyPlayer(mode string) {
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		var seed uint64
		var side int
		fmt.Sscanf(in.Text(), "seed %d side %d", &seed, &side)
		switch mode {
		case "crash":
			fmt.Fprintln(os.Stderr, "toy: segmentation fault (simulated)")
			os.Exit(3)
		case "hang":
			time.Sleep(time.Hour)
		case "nonsense":
			fmt.Println("banana")
		default:
			fmt.Println(toyNumber(seed, side, 1))
		}
	}
	os.Exit(0)
}

type toyPlayerFunc func(ctx context.Context, seed uint64, side int) (int, string)

func builtin(bonus int) toyPlayerFunc {
	return func(ctx context.Context, seed uint64, side int) (int, string) {
		return toyNumber(seed, side, bonus), ""
	}
}

func external(t *testing.T, mode string) toyPlayerFunc {
	// A loaded machine can take a while to start a process; only the hanging
	// player should ever hit its limit.
	limit := 20 * time.Second
	if mode == "hang" {
		limit = time.Second
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return func(ctx context.Context, seed uint64, side int) (int, string) {
		p, err := StartProcess(ctx, strconv.Quote(exe), ProcessOptions{Env: []string{"YOMI_TOY_PLAYER=" + mode}})
		if err != nil {
			return -1, "could not start: " + err.Error()
		}
		defer p.Close()
		if err := p.WriteLine(fmt.Sprintf("seed %d side %d", seed, side)); err != nil {
			return -1, "write: " + err.Error()
		}
		line, err := p.ReadLine(limit)
		if err != nil {
			return -1, err.Error()
		}
		n, err := strconv.Atoi(line)
		if err != nil {
			return -1, fmt.Sprintf("nonsense answer %q", line)
		}
		return n, ""
	}
}

// toyGame plays a against b; a faulty player loses.
func toyGame(a, b toyPlayerFunc) PlayFunc {
	return func(ctx context.Context, seed uint64, swapped bool) (Outcome, error) {
		sideA, sideB := 0, 1
		if swapped {
			sideA, sideB = 1, 0
		}
		na, ra := a(ctx, seed, sideA)
		nb, rb := b(ctx, seed, sideB)
		switch {
		case ra != "" && rb != "":
			return Outcome{Result: Draw, Reason: "both failed: " + ra + "; " + rb}, nil
		case ra != "":
			return Outcome{Result: Loss, Reason: "A: " + ra}, nil
		case rb != "":
			return Outcome{Result: Win, Reason: "B: " + rb}, nil
		case na > nb:
			return Outcome{Result: Win, Info: map[string]int{"a": na, "b": nb}}, nil
		case na < nb:
			return Outcome{Result: Loss, Info: map[string]int{"a": na, "b": nb}}, nil
		}
		return Outcome{Result: Draw}, nil
	}
}

func TestRunPairsDeterministicAcrossConcurrency(t *testing.T) {
	var sums []Summary
	for _, conc := range []int{1, 4} {
		rep, err := RunPairs(context.Background(), Config{NameA: "strong", NameB: "weak", Seed: 100, Pairs: 60, Concurrency: conc}, toyGame(builtin(1), builtin(0)))
		if err != nil {
			t.Fatal(err)
		}
		if rep.Summary.WDL.N() != 120 || rep.Summary.Ptnml.Pairs() != 60 || len(rep.Games) != 120 {
			t.Fatalf("conc %d: %+v", conc, rep.Summary)
		}
		sums = append(sums, rep.Summary)
	}
	if sums[0].WDL != sums[1].WDL || *sums[0].Ptnml != *sums[1].Ptnml {
		t.Fatalf("results depend on concurrency: %+v vs %+v", sums[0].WDL, sums[1].WDL)
	}
	if sums[0].WDL.W <= sums[0].WDL.L {
		t.Fatalf("the stronger toy did not win: %+v", sums[0].WDL)
	}
}

func TestRunPairsResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	var played atomic.Int64
	game := toyGame(builtin(1), builtin(0))
	counting := func(ctx context.Context, seed uint64, swapped bool) (Outcome, error) {
		if played.Add(1) == 15 {
			cancel() // killed mid-match
		}
		return game(ctx, seed, swapped)
	}
	cfg := Config{NameA: "strong", NameB: "weak", Seed: 1, Pairs: 20, Results: path}
	if _, err := RunPairs(ctx, cfg, counting); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: err %v", err)
	}
	// Simulate a torn write at the moment of the kill.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"a":"strong","b":"weak","seed":9`)
	f.Close()
	before := countLines(t, path)
	if before == 0 || before >= 40 {
		t.Fatalf("%d lines after the interruption", before)
	}
	played.Store(0)
	rep, err := RunPairs(context.Background(), cfg, counting)
	if err != nil {
		t.Fatal(err)
	}
	if int(played.Load()) != 40-before {
		t.Fatalf("resumed run played %d games, want %d", played.Load(), 40-before)
	}
	if rep.Summary.WDL.N() != 40 || countLines(t, path) != 40 {
		t.Fatalf("after resume: %d games, %d lines", rep.Summary.WDL.N(), countLines(t, path))
	}
	full, _ := RunPairs(context.Background(), Config{NameA: "strong", NameB: "weak", Seed: 1, Pairs: 20}, game)
	if full.Summary.WDL != rep.Summary.WDL {
		t.Fatalf("resumed %+v != uninterrupted %+v", rep.Summary.WDL, full.Summary.WDL)
	}
	// A different match must not reuse the file.
	if _, err := RunPairs(context.Background(), Config{NameA: "x", NameB: "y", Pairs: 1, Results: path}, game); err == nil {
		t.Fatal("results of another match were accepted")
	}
}

func countLines(t *testing.T, path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "\n")
}

func TestRunPairsSPRTStopsEarly(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05, Model: Normalized}
	rep, err := RunPairs(context.Background(), Config{NameA: "much", NameB: "weak", Pairs: 2000, Concurrency: 2, SPRT: &s}, toyGame(builtin(4), builtin(0)))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stopped == "" || rep.Summary.SPRT.Verdict != AcceptH1 || rep.Summary.WDL.N() >= 4000 {
		t.Fatalf("no early stop: %+v %s", rep.Summary, rep.Stopped)
	}
}

func TestRunPairsFaultyExternalPlayers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	for _, mode := range []string{"crash", "hang", "nonsense"} {
		t.Run(mode, func(t *testing.T) {
			start := time.Now()
			rep, err := RunPairs(context.Background(), Config{NameA: "good", NameB: mode, Pairs: 2, Concurrency: 2},
				toyGame(external(t, "good"), external(t, mode)))
			if err != nil {
				t.Fatal(err)
			}
			if rep.Summary.WDL != (WDL{W: 4}) {
				t.Fatalf("faulty player did not lose every game: %+v", rep.Summary.WDL)
			}
			want := map[string]string{"crash": "segmentation fault (simulated)", "hang": "timed out", "nonsense": "nonsense answer"}[mode]
			for _, g := range rep.Games {
				if !strings.Contains(g.Reason, want) {
					t.Errorf("reason %q lacks %q", g.Reason, want)
				}
			}
			if el := time.Since(start); el > 60*time.Second {
				t.Errorf("took %v: the hanging process was not cut off", el)
			}
		})
	}
}

func TestProcessKillsGroupOnClose(t *testing.T) {
	p, err := StartProcess(context.Background(), "sleep 30 & sleep 30; echo never", ProcessOptions{})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	p.Close()
	if time.Since(start) > 5*time.Second || !p.Exited() {
		t.Fatal("Close did not kill the process group")
	}
	if _, err := StartProcess(context.Background(), "  ", ProcessOptions{}); err == nil {
		t.Fatal("empty command accepted")
	}
	long, _ := StartProcess(context.Background(), "yes aaaaaaaa | tr -d '\\n'", ProcessOptions{MaxLine: 1024})
	if _, err := long.ReadLine(10 * time.Second); !errors.Is(err, ErrExited) || !strings.Contains(err.Error(), "too long") {
		t.Fatalf("over-long line: %v", err)
	}
	long.Close()
	q, _ := StartProcess(context.Background(), "exit 7", ProcessOptions{})
	defer q.Close()
	if _, err := q.ReadLine(5 * time.Second); !errors.Is(err, ErrExited) || !strings.Contains(err.Error(), "exit status 7") {
		t.Fatalf("exit: %v", err)
	}
}

func TestRunScoresPaired(t *testing.T) {
	play := func(ctx context.Context, seed uint64, player int) (ScoreOutcome, error) {
		return ScoreOutcome{Score: float64(toyNumber(seed, 0, 0) + 2*(1-player))}, nil
	}
	s := DefaultSPRT()
	rep, err := RunScores(context.Background(), Config{NameA: "a", NameB: "b", Seed: 1, Pairs: 30, Concurrency: 3, SPRT: &s}, play)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Paired.Diff.Mean != 2 || rep.Paired.Duels.W == 0 || rep.Paired.Duels.L != 0 {
		t.Fatalf("%+v", rep.Paired)
	}
	solo, err := RunScores(context.Background(), Config{NameA: "a", Seed: 1, Pairs: 30}, play)
	if err != nil || solo.Paired != nil || solo.A.N != 30 || solo.A.Mean != rep.Paired.A.Mean {
		t.Fatalf("solo: %+v %v", solo, err)
	}
}

func TestSummarizeRecordsMatchesRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	rep, err := RunPairs(context.Background(), Config{NameA: "s", NameB: "w", Pairs: 25, Results: path}, toyGame(builtin(1), builtin(0)))
	if err != nil {
		t.Fatal(err)
	}
	games, err := ReadResults(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := SummarizeRecords(games, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pr := got.(*PairReport); pr.Summary.WDL != rep.Summary.WDL || *pr.Summary.Ptnml != *rep.Summary.Ptnml {
		t.Fatalf("%+v vs %+v", pr.Summary, rep.Summary)
	}
}

func TestSummarizeRecordsHalfPair(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	if _, err := RunPairs(context.Background(), Config{NameA: "s", NameB: "w", Pairs: 3, Results: path}, toyGame(builtin(1), builtin(0))); err != nil {
		t.Fatal(err)
	}
	games, err := ReadResults(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, drop := range []int{0, 1} { // the match stopped before the last pair's first or second game
		var kept []GameRecord
		for _, g := range games {
			if !(g.Seed == games[len(games)-1].Seed && g.Game == drop) {
				kept = append(kept, g)
			}
		}
		got, err := SummarizeRecords(kept, nil)
		if err != nil {
			t.Fatalf("drop game %d: %v", drop, err)
		}
		pr := got.(*PairReport)
		if pr.Summary.WDL.N() != 5 || pr.Summary.Ptnml.Pairs() != 2 || len(pr.Games) != 5 {
			t.Fatalf("drop game %d: %+v, %d games", drop, pr.Summary, len(pr.Games))
		}
	}
}
