package arena

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/fabric"
)

// toySpec is the toy match as a worker receives it.
type toySpec struct {
	BonusA, BonusB int
	SleepMS        int // per game, so that tests can act mid-match
}

func toyFactory(spec json.RawMessage) (PlayFunc, error) {
	var s toySpec
	if err := json.Unmarshal(spec, &s); err != nil {
		return nil, err
	}
	g := toyGame(builtin(s.BonusA), builtin(s.BonusB))
	return func(ctx context.Context, seed uint64, swapped bool) (Outcome, error) {
		select {
		case <-time.After(time.Duration(s.SleepMS) * time.Millisecond):
		case <-ctx.Done():
			return Outcome{}, ctx.Err()
		}
		return g(ctx, seed, swapped)
	}, nil
}

func toyScoreFactory(spec json.RawMessage) (ScoreFunc, error) {
	var s toySpec
	if err := json.Unmarshal(spec, &s); err != nil {
		return nil, err
	}
	return func(ctx context.Context, seed uint64, player int) (ScoreOutcome, error) {
		b := s.BonusA
		if player == 1 {
			b = s.BonusB
		}
		return ScoreOutcome{Score: float64(toyNumber(seed, 0, b)*100 + toyNumber(seed, 1, 0))}, nil
	}, nil
}

var toyHandlers = map[string]fabric.Handler{
	"toy.pairs":  PairHandler(toyFactory),
	"toy.scores": ScoreHandler(toyScoreFactory),
}

func embedded(t *testing.T, opt fabric.Options) *fabric.Client {
	t.Helper()
	c, err := fabric.Connect(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func toyRemote(c *fabric.Client, kind string, spec toySpec, local int) *Remote {
	b, _ := json.Marshal(spec)
	return &Remote{Client: c, Kind: kind, Spec: b, Version: "test", Local: local, Handlers: toyHandlers}
}

// records is a results file's games keyed by (seed, game), without timing.
func records(t *testing.T, path string) map[[2]uint64]GameRecord {
	t.Helper()
	games, err := ReadResults(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[[2]uint64]GameRecord{}
	for _, g := range games {
		k := [2]uint64{g.Seed, uint64(g.Game)}
		if _, dup := out[k]; dup {
			t.Fatalf("seed %d game %d recorded twice", g.Seed, g.Game)
		}
		g.Millis = 0
		out[k] = g
	}
	return out
}

func sameRecords(t *testing.T, got, want map[[2]uint64]GameRecord) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d games, want %d", len(got), len(want))
	}
	for k, w := range want {
		g := got[k]
		if g.Result != w.Result || g.Reason != w.Reason || string(g.Info) != string(w.Info) || fmt.Sprint(g.Score) != fmt.Sprint(w.Score) && (g.Score == nil || w.Score == nil || *g.Score != *w.Score) {
			t.Fatalf("seed %d game %d: %+v, want %+v", k[0], k[1], g, w)
		}
	}
}

func TestRemotePairsEqualLocal(t *testing.T) {
	dir := t.TempDir()
	spec := toySpec{BonusA: 1}
	local := Config{NameA: "strong", NameB: "weak", Seed: 7, Pairs: 30, Concurrency: 2, Results: filepath.Join(dir, "local.jsonl")}
	lrep, err := RunPairs(context.Background(), local, toyGame(builtin(1), builtin(0)))
	if err != nil {
		t.Fatal(err)
	}
	remote := local
	remote.Results = filepath.Join(dir, "remote.jsonl")
	remote.Remote = toyRemote(embedded(t, fabric.Options{}), "toy.pairs", spec, 2)
	rrep, err := RunPairs(context.Background(), remote, func(context.Context, uint64, bool) (Outcome, error) {
		t.Fatal("the coordinator played a game itself")
		return Outcome{}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if lrep.Summary.WDL != rrep.Summary.WDL || *lrep.Summary.Ptnml != *rrep.Summary.Ptnml {
		t.Fatalf("remote %+v, local %+v", rrep.Summary, lrep.Summary)
	}
	sameRecords(t, records(t, remote.Results), records(t, local.Results))
}

func TestRemoteScoresEqualLocal(t *testing.T) {
	dir := t.TempDir()
	spec := toySpec{BonusA: 2, BonusB: 1}
	f, _ := toyScoreFactory(mustJSON(spec))
	local := Config{NameA: "a", NameB: "b", Seed: 3, Pairs: 12, Results: filepath.Join(dir, "local.jsonl")}
	lrep, err := RunScores(context.Background(), local, f)
	if err != nil {
		t.Fatal(err)
	}
	remote := local
	remote.Results = filepath.Join(dir, "remote.jsonl")
	remote.Remote = toyRemote(embedded(t, fabric.Options{}), "toy.scores", spec, 1)
	rrep, err := RunScores(context.Background(), remote, nil)
	if err != nil {
		t.Fatal(err)
	}
	if lrep.A != rrep.A || *lrep.Paired != *rrep.Paired {
		t.Fatalf("remote %+v, local %+v", rrep.A, lrep.A)
	}
	sameRecords(t, records(t, remote.Results), records(t, local.Results))
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func TestRemoteSPRTCancelsQueued(t *testing.T) {
	c := embedded(t, fabric.Options{})
	s := SPRT{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05, Model: Normalized}
	cfg := Config{NameA: "much", NameB: "weak", Pairs: 500, SPRT: &s, Remote: toyRemote(c, "toy.pairs", toySpec{BonusA: 4}, 2)}
	rep, err := RunPairs(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stopped == "" || rep.Summary.WDL.N() >= 1000 {
		t.Fatalf("not stopped early: %+v", rep.Summary.WDL)
	}
	run := fabric.RunID("toy.pairs", string(cfg.Remote.Spec), "much", "weak", "test")
	if n, err := c.Queued(context.Background(), run); err != nil || n != 0 {
		t.Fatalf("%d jobs still queued after the SPRT stop (%v)", n, err)
	}
	if info, _ := c.Run(context.Background(), run); info.State != fabric.RunStopped {
		t.Fatalf("run state %+v", info)
	}
}

// A coordinator killed mid-match (its jobs still queued, workers still
// playing) is started again with the same results file: every game is
// recorded once and the results are those of an uninterrupted run.
func TestRemoteCoordinatorRestart(t *testing.T) {
	dir := t.TempDir()
	c := embedded(t, fabric.Options{StoreDir: filepath.Join(dir, "js")})
	spec := toySpec{BonusA: 1, SleepMS: 20}
	cfg := Config{NameA: "strong", NameB: "weak", Seed: 50, Pairs: 15, Results: filepath.Join(dir, "m.jsonl"), Remote: toyRemote(c, "toy.pairs", spec, 0)}

	// A worker elsewhere, running throughout.
	wctx, wstop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	w := &fabric.Worker{Client: c, Handlers: toyHandlers, Version: "test", Name: "elsewhere", Concurrency: 2}
	wg.Go(func() { w.Run(wctx) })
	defer func() { wstop(); wg.Wait() }()

	// First coordinator: stopped (Ctrl-C) after a few games.
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for {
			time.Sleep(20 * time.Millisecond)
			if g, _ := ReadResults(cfg.Results); len(g) >= 6 {
				cancel()
				return
			}
		}
	}()
	if _, err := RunPairs(ctx, cfg, nil); err == nil {
		t.Fatal("the interrupted coordinator reported success")
	}
	first := len(records(t, cfg.Results))

	// A coordinator killed hard leaves its jobs queued and its run active;
	// queue the rest of the match as it would have, and let the worker get
	// through some of them before the restart.
	run := fabric.RunID("toy.pairs", string(cfg.Remote.Spec), "strong", "weak", "test")
	info, _ := c.Run(context.Background(), run)
	if err := c.SetRun(context.Background(), run, fabric.RunInfo{State: fabric.RunActive, Attempt: info.Attempt + 1}); err != nil {
		t.Fatal(err)
	}
	var jobs []fabric.Job
	for s := uint64(50); s < 65; s++ {
		for g := range 2 {
			p := mustJSON(gameJob{Spec: cfg.Remote.Spec, Seed: s, Game: g})
			jobs = append(jobs, fabric.Job{Kind: "toy.pairs", Run: run, ID: jobID(gameKey{s, g}), Version: "test", Payload: p, Attempt: info.Attempt + 1})
		}
	}
	if err := c.Submit(context.Background(), jobs); err != nil {
		t.Fatal(err)
	}
	time.Sleep(150 * time.Millisecond)

	rep, err := RunPairs(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := records(t, cfg.Results)
	if len(got) != 30 || rep.Summary.WDL.N() != 30 {
		t.Fatalf("after restart: %d records, %d games (first run recorded %d)", len(got), rep.Summary.WDL.N(), first)
	}
	ref := Config{NameA: "strong", NameB: "weak", Seed: 50, Pairs: 15, Results: filepath.Join(dir, "ref.jsonl")}
	if _, err := RunPairs(context.Background(), ref, toyGame(builtin(1), builtin(0))); err != nil {
		t.Fatal(err)
	}
	sameRecords(t, got, records(t, ref.Results))
	t.Logf("first coordinator recorded %d games", first)
}

// cluster starts n JetStream nodes on loopback, each routed to all.
func cluster(t *testing.T, n int) []*fabric.Server {
	t.Helper()
	// JetStream clustering needs every node's routes up front, so the
	// cluster ports are picked before the nodes start.
	var routes []string
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		routes = append(routes, l.Addr().String())
		l.Close()
	}
	nodes := make([]*fabric.Server, n)
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		opt := fabric.ServeOptions{Listen: "127.0.0.1:0", Store: t.TempDir(), Name: fmt.Sprintf("n%d", i), Cluster: routes[i], ClusterName: "test", Routes: routes}
		wg.Go(func() { nodes[i], errs[i] = fabric.StartServer(opt) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nodes[i].Shutdown)
	}
	return nodes
}

// connectCluster retries while the cluster elects its JetStream leader.
func connectCluster(t *testing.T, url string) *fabric.Client {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		c, err := fabric.Connect(ctx, fabric.Options{URL: url, Replicas: 3, AckWait: 2 * time.Second})
		cancel()
		if err == nil {
			t.Cleanup(c.Close)
			return c
		}
		if time.Now().After(deadline) {
			t.Fatalf("cluster not ready: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// A three-node cluster with three workers plays a match exactly as the
// local runner does, and keeps every result when a node stops mid-match.
func TestClusterMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a three-node cluster")
	}
	nodes := cluster(t, 3)
	var urls []string
	for _, n := range nodes {
		urls = append(urls, n.ClientURL())
	}
	all := strings.Join(urls, ",")
	coord := connectCluster(t, all)
	var wg sync.WaitGroup
	wctx, wstop := context.WithCancel(context.Background())
	defer func() { wstop(); wg.Wait() }()
	for i := range 3 {
		// Each worker prefers its own node and fails over to the others.
		wc := connectCluster(t, urls[i]+","+all)
		w := &fabric.Worker{Client: wc, Handlers: toyHandlers, Version: "test", Name: fmt.Sprintf("w%d", i)}
		wg.Go(func() { w.Run(wctx) })
	}
	dir := t.TempDir()
	cfg := Config{NameA: "strong", NameB: "weak", Seed: 200, Pairs: 20, Results: filepath.Join(dir, "m.jsonl"), Remote: toyRemote(coord, "toy.pairs", toySpec{BonusA: 1, SleepMS: 30}, 0)}
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			time.Sleep(20 * time.Millisecond)
			if g, _ := ReadResults(cfg.Results); len(g) >= 10 {
				nodes[2].Shutdown()
				return
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	rep, err := RunPairs(ctx, cfg, nil)
	<-stopped
	if err != nil {
		t.Fatal(err)
	}
	ref := Config{NameA: "strong", NameB: "weak", Seed: 200, Pairs: 20, Results: filepath.Join(dir, "ref.jsonl")}
	lrep, err := RunPairs(context.Background(), ref, toyGame(builtin(1), builtin(0)))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Summary.WDL != lrep.Summary.WDL {
		t.Fatalf("cluster %+v, local %+v", rep.Summary.WDL, lrep.Summary.WDL)
	}
	sameRecords(t, records(t, cfg.Results), records(t, ref.Results))
	// The stored results survive the stopped node too.
	stored, _, err := coord.Stored(context.Background(), fabric.RunID("toy.pairs", string(cfg.Remote.Spec), "strong", "weak", "test"))
	if err != nil || len(stored) != 40 {
		t.Fatalf("%d results stored on the cluster (%v), want 40", len(stored), err)
	}
	workers := map[string]int{}
	for _, r := range stored {
		workers[r.Worker]++
	}
	keys := make([]string, 0, len(workers))
	for k := range workers {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	t.Logf("games per worker: %v", workers)
}

// A harness error in a worker's game (a bot the shell cannot run) stops the
// match with that error and counts nothing for the game.
func TestRemoteAbort(t *testing.T) {
	c := embedded(t, fabric.Options{})
	h := map[string]fabric.Handler{"toy.abort": PairHandler(func(json.RawMessage) (PlayFunc, error) {
		return func(ctx context.Context, seed uint64, swapped bool) (Outcome, error) {
			if seed == 3 {
				AbortMatch(ctx, errors.New("bot: not found"))
				<-ctx.Done()
				return Outcome{Result: Loss, Reason: "cut short"}, nil
			}
			return Outcome{Result: Win}, nil
		}, nil
	})}
	path := filepath.Join(t.TempDir(), "m.jsonl")
	cfg := Config{NameA: "a", NameB: "b", Seed: 1, Pairs: 4, Results: path,
		Remote: &Remote{Client: c, Kind: "toy.abort", Spec: json.RawMessage(`{}`), Version: "test", Local: 1, Handlers: h}}
	_, err := RunPairs(context.Background(), cfg, nil)
	if err == nil || !strings.Contains(err.Error(), "bot: not found") {
		t.Fatalf("error %v, want the abort", err)
	}
	for _, g := range records(t, path) {
		if g.Seed == 3 {
			t.Fatalf("the aborted game was recorded: %+v", g)
		}
	}
}

// A fabric that cannot store results stops the match with a clear error
// instead of waiting for ever.
func TestRemoteResultsFull(t *testing.T) {
	c := embedded(t, fabric.Options{MaxResultBytes: 2048})
	cfg := Config{NameA: "strong", NameB: "weak", Pairs: 50, Remote: toyRemote(c, "toy.pairs", toySpec{BonusA: 1}, 1)}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := RunPairs(ctx, cfg, nil)
	if err == nil || !strings.Contains(err.Error(), "cannot store results") {
		t.Fatalf("error %v, want the full store named", err)
	}
	if ctx.Err() != nil {
		t.Fatal("the match hung until the test's deadline")
	}
}
