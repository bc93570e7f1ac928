// `yomi worker`, `yomi fabric …` and the --nats flags of the job-producing
// verbs: the job fabric (package fabric) from the command line.

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/fabric"
	"github.com/yomi-ai/yomi/internal/cli"
)

// jobHandlers is every job kind this binary can run, from every game.
func jobHandlers() map[string]fabric.Handler {
	out := fabricJobs()
	for k, h := range tuneJobs() {
		out[k] = h
	}
	for _, g := range games() {
		for k, h := range g.jobs {
			out[k] = h
		}
	}
	return out
}

// natsFlags are the fabric options every job-producing verb and the worker
// take.
type natsFlags struct {
	url, creds, ca, cert, key, run *string
	replicas                       *int
}

func addNATSFlags(fs *flag.FlagSet, withRun bool) *natsFlags {
	n := &natsFlags{
		url:      fs.String("nats", "", "NATS `URL` of a fabric shared with yomi workers on other machines (comma-separated for a cluster; user:password@ allowed); default: an embedded server inside this process"),
		creds:    fs.String("nats-creds", "", "NATS credentials `FILE` (.creds)"),
		ca:       fs.String("nats-tls-ca", "", "CA certificate `FILE` to trust for the NATS server"),
		cert:     fs.String("nats-tls-cert", "", "TLS client certificate `FILE` (with --nats-tls-key)"),
		key:      fs.String("nats-tls-key", "", "TLS client key `FILE`"),
		replicas: fs.Int("nats-replicas", 1, "replicas of the fabric's streams when this command creates them (3 on a three-node cluster)"),
	}
	if withRun {
		n.run = fs.String("run", "", "fabric run `ID` (default: derived from the command's settings, so the same command resumes its run)")
	}
	return n
}

func (n *natsFlags) check(conc int) error {
	if *n.url == "" {
		for _, f := range []struct{ name, v string }{{"nats-creds", *n.creds}, {"nats-tls-ca", *n.ca}, {"nats-tls-cert", *n.cert}, {"nats-tls-key", *n.key}} {
			if f.v != "" {
				return cli.Usagef("--%s needs --nats URL", f.name)
			}
		}
		if conc < 1 {
			return cli.Usagef("--concurrency must be at least 1 without --nats (no other worker can play the games)")
		}
	}
	if *n.replicas < 1 || *n.replicas > 5 {
		return cli.Usagef("--nats-replicas %d: want 1..5", *n.replicas)
	}
	if n.run != nil && *n.run != "" {
		if err := fabric.CheckToken("run id", *n.run); err != nil {
			return cli.Usagef("--run: %v", err)
		}
	}
	return nil
}

func (n *natsFlags) connect(ctx context.Context, name string) (*fabric.Client, error) {
	return n.connectOpt(ctx, name, 0)
}

func (n *natsFlags) connectOpt(ctx context.Context, name string, ackWait time.Duration) (*fabric.Client, error) {
	return fabric.Connect(ctx, fabric.Options{
		URL: *n.url, Creds: *n.creds, TLSCA: *n.ca, TLSCert: *n.cert, TLSKey: *n.key,
		Replicas: *n.replicas, Name: name, AckWait: ackWait,
	})
}

// fetchArtifact gets an artifact through the connection of the worker
// running the job ctx belongs to.
func fetchArtifact(ctx context.Context, digest string) ([]byte, error) {
	c := fabric.ClientFrom(ctx)
	if c == nil {
		return nil, errors.New("no fabric connection to fetch " + digest + " from (not inside a job)")
	}
	return c.GetArtifact(ctx, digest)
}

// remote connects to the fabric for a match of kind whose players workers
// rebuild from spec; local workers (conc of them) play in this process. The
// caller closes the client when the match is over.
func (n *natsFlags) remote(ctx context.Context, env *cli.Env, kind string, spec any, conc int) (*arena.Remote, *fabric.Client, error) {
	b, err := json.Marshal(spec)
	if err != nil {
		return nil, nil, err
	}
	c, err := n.connect(ctx, "yomi "+kind)
	if err != nil {
		return nil, nil, err
	}
	r := &arena.Remote{Client: c, Kind: kind, Spec: b, Version: version(), Local: conc, Handlers: jobHandlers(), Log: env.Stderr}
	if n.run != nil {
		r.Run = *n.run
	}
	return r, c, nil
}

func workerArea() *cli.Area {
	return &cli.Area{
		Name:    "worker",
		Summary: "pull jobs (match games, tuning, training) from a NATS job fabric and run them",
		Run:     runWorker,
	}
}

func runWorker(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi worker", "--nats URL [--concurrency K] [--name N]",
		`Joins the job fabric at --nats (a NATS server with JetStream: `+"`yomi fabric serve`"+`, or
an existing NATS cluster) and runs jobs of every kind this binary knows — games of
`+"`yomi tetris versus/solo`, `yomi codevs match`, `yomi separo match`, `yomi seigot play`"+` and the Refine batches of
`+"`yomi hatetris train`"+` started
anywhere with the same --nats — until Ctrl-C. A job is acknowledged only after its result is
stored; a worker that dies mid-job loses it to another after the ack wait (30 s of silence).
Jobs made by another Yomi version are refused and handed back, with a notice to the command
that queued them: run the same version everywhere.
Kinds: `+strings.Join(sortedKinds(), ", ")+`.`)
	nf := addNATSFlags(fs, false)
	conc := fs.Int("concurrency", runtime.NumCPU(), "jobs run at once")
	name := fs.String("name", "", "worker `NAME` in results and notices (default: host-pid)")
	idle := fs.Duration("idle", 0, "exit after this long without a job (0: run until Ctrl-C)")
	ackWait := fs.Duration("ack-wait", 30*time.Second, "how long a job may go without this worker's heartbeat before another worker gets it (the workers' shared setting: the last worker started sets it)")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	if *nf.url == "" {
		return cli.Usagef("a worker needs --nats URL (start a node with `yomi fabric serve`; without --nats every job-producing verb runs its own workers)")
	}
	if err := nf.check(*conc); err != nil {
		return err
	}
	if *conc < 1 {
		return cli.Usagef("--concurrency %d: want at least 1", *conc)
	}
	if *ackWait < 100*time.Millisecond {
		return cli.Usagef("--ack-wait %v: want at least 100ms", *ackWait)
	}
	c, err := nf.connectOpt(ctx, "yomi worker "+*name, *ackWait)
	if err != nil {
		return err
	}
	defer c.Close()
	w := &fabric.Worker{Client: c, Handlers: jobHandlers(), Version: version(), Name: *name, Concurrency: *conc, Log: env.Stderr, Idle: *idle}
	fmt.Fprintf(env.Stderr, "yomi worker (%s): %d at a time, kinds %s; Ctrl-C stops\n", version(), *conc, strings.Join(sortedKinds(), ", "))
	if err := w.Run(ctx); err != nil {
		return err
	}
	if ctx.Err() != nil {
		fmt.Fprintln(env.Stderr, "yomi worker: stopped; jobs under way were handed back")
	}
	return nil
}

func sortedKinds() []string {
	var ks []string
	for k := range jobHandlers() {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func fabricArea() *cli.Area {
	return &cli.Area{
		Name:    "fabric",
		Summary: "the job fabric: run a NATS JetStream node, look at runs",
		Doc: `Yomi's long work (match games, tuning, training) runs as jobs on NATS JetStream. Without
--nats every verb embeds a server for itself; to use many machines, start a node (or a cluster of
them) with "yomi fabric serve", a "yomi worker --nats URL" on each machine, and the match with
--nats URL.`,
		Verbs: []*cli.Verb{
			{Name: "serve", Summary: "run a standalone JetStream node (the embedded server as a process)", Run: runFabricServe},
			{Name: "status", Summary: "show a fabric's runs and queued jobs", Run: runFabricStatus},
		},
	}
}

func runFabricServe(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi fabric serve", "--listen ADDR --store DIR [--cluster ADDR --routes A,B] [--config FILE]",
		`Runs a NATS server with JetStream until Ctrl-C, for `+"`yomi worker`s and verbs given --nats"+`.
For a cluster, start three nodes, each with --cluster (its own route address) and --routes (all
three), and give --nats-replicas 3 to the first command that creates the streams. Accounts, TLS
and anything else nats-server knows come from --config (a nats-server configuration file).
Listening on 127.0.0.1 (the default) serves this machine only; use 0.0.0.0:4222 for others,
with credentials in --config on a network you do not trust.`)
	listen := fs.String("listen", "127.0.0.1:4222", "client `ADDR` (host:port; port 0 picks a free one)")
	store := fs.String("store", "", "JetStream storage `DIR` (required)")
	name := fs.String("name", "", "server `NAME`, unique in a cluster (default: host name)")
	clusterAddr := fs.String("cluster", "", "cluster route `ADDR` (host:port) other nodes connect to")
	clusterName := fs.String("cluster-name", "yomi", "cluster `NAME`")
	routes := fs.String("routes", "", "comma-separated route addresses of the cluster's nodes (host:port)")
	config := fs.String("config", "", "nats-server configuration `FILE`")
	logIt := fs.Bool("log", false, "print the server's log to stderr")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	if *store == "" && *config == "" {
		return cli.Usagef("--store DIR is required (where the node keeps jobs and results)")
	}
	if *routes != "" && *clusterAddr == "" {
		return cli.Usagef("--routes needs --cluster ADDR")
	}
	var rs []string
	for _, r := range strings.Split(*routes, ",") {
		if r = strings.TrimSpace(r); r != "" {
			rs = append(rs, r)
		}
	}
	opt := fabric.ServeOptions{ConfigFile: *config, Store: *store, Name: *name, Cluster: *clusterAddr, ClusterName: *clusterName, Routes: rs, Log: *logIt}
	if *config == "" || isSet(fs, "listen") {
		opt.Listen = *listen
	}
	s, err := fabric.StartServer(opt)
	if err != nil {
		return err
	}
	defer s.Shutdown()
	fmt.Fprintf(env.Stdout, "yomi fabric node %s listening on %s\n", s.Name(), s.ClientURL())
	if a := s.ClusterAddr(); a != "" {
		fmt.Fprintf(env.Stdout, "cluster routes on %s\n", a)
	}
	if f, ok := env.Stdout.(*os.File); ok {
		f.Sync()
	}
	<-ctx.Done()
	fmt.Fprintln(env.Stderr, "yomi fabric serve: stopping")
	return nil
}

func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func runFabricStatus(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi fabric status", "--nats URL [--json]", `Lists the runs a fabric knows, their state and queued jobs.`)
	nf := addNATSFlags(fs, false)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if *nf.url == "" {
		return cli.Usagef("status needs --nats URL (an embedded fabric lives only as long as its command)")
	}
	if err := nf.check(1); err != nil {
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c, err := nf.connect(cctx, "yomi fabric status")
	if err != nil {
		return err
	}
	defer c.Close()
	runs, err := c.Runs(cctx)
	if err != nil {
		return err
	}
	if *asJSON {
		return cli.WriteJSON(env.Stdout, runs)
	}
	if len(runs) == 0 {
		fmt.Fprintln(env.Stdout, "no runs")
		return nil
	}
	fmt.Fprintf(env.Stdout, "%-20s %-8s %-16s %7s %7s %s\n", "RUN", "STATE", "KIND", "QUEUED", "RESULTS", "UPDATED")
	for _, r := range runs {
		fmt.Fprintf(env.Stdout, "%-20s %-8s %-16s %7d %7d %s\n", r.Run, r.State, r.Kind, r.Queued, r.Results, r.Updated.Format(time.RFC3339))
	}
	return nil
}
