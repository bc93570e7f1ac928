package fabric

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Names of the JetStream assets the fabric uses.
const (
	JobsStream      = "YOMI_JOBS"      // work-queue stream of jobs
	ResultsStream   = "YOMI_RESULTS"   // results, kept after they are read
	RunsBucket      = "yomi_runs"      // key-value bucket: run id → RunInfo
	ArtifactsBucket = "yomi_artifacts" // object store: SHA-256 digest → bytes
	workersDurable  = "yomi-workers"   // the one durable consumer every worker shares
)

// Job is one unit of work.
type Job struct {
	Kind    string          `json:"kind"`    // which Handler runs it, e.g. "tetris.versus"
	Run     string          `json:"run"`     // the run (match, tuning run) it belongs to
	ID      string          `json:"id"`      // unique within the run
	Version string          `json:"version"` // the Yomi version that must run it
	Payload json.RawMessage `json:"payload"` // kind-specific input
	// Attempt tells submissions of the same job apart: a coordinator
	// started again submits its unfinished jobs with a new attempt, which
	// the queue's de-duplication (same run, id and attempt) lets through.
	Attempt int `json:"attempt,omitempty"`
}

// Result is what a worker stored for a job.
type Result struct {
	Run     string          `json:"run"`
	ID      string          `json:"id"`
	Kind    string          `json:"kind"`
	Worker  string          `json:"worker"`
	Version string          `json:"version"`
	Output  json.RawMessage `json:"output,omitempty"`
	Error   string          `json:"error,omitempty"` // the handler failed; retrying will not help
	Millis  int64           `json:"ms"`
}

// RunInfo is a run's state in the runs bucket.
type RunInfo struct {
	State   string    `json:"state"` // RunActive or RunStopped
	Kind    string    `json:"kind,omitempty"`
	Version string    `json:"version,omitempty"`
	Attempt int       `json:"attempt,omitempty"` // the coordinator's latest start
	Updated time.Time `json:"updated"`
}

// Run states.
const (
	RunActive  = "active"
	RunStopped = "stopped"
)

// Options configures Connect.
type Options struct {
	// URL of a NATS server or cluster (comma-separated URLs allowed); "" runs
	// an embedded server inside the process, reachable only from it.
	URL string
	// StoreDir is the embedded server's JetStream directory; "" keeps the
	// streams in memory (and the server's own files in a temporary
	// directory removed by Close): the results file is the record.
	StoreDir string
	// Credentials and TLS for URL (all optional): a NATS .creds file, a CA
	// file to trust, a client certificate and key. User and password may
	// also be given in the URL.
	Creds, TLSCA, TLSCert, TLSKey string
	// Name is the connection's name as NATS monitoring shows it.
	Name string
	// Replicas of the streams, bucket and store when this connection creates
	// them (default 1; 3 on a three-node cluster keeps them through the loss
	// of a node).
	Replicas int
	// AckWait is how long a job may go without a heartbeat before it is
	// given to another worker (default 30 s; workers beat every third).
	AckWait time.Duration
	// MaxJobBytes and MaxResultBytes bound the job and result streams when
	// this connection creates them (0 = unlimited); a full stream refuses
	// new jobs with ErrFull, and a worker that cannot store a result tells
	// the run's coordinator (a fatal Notice).
	MaxJobBytes, MaxResultBytes int64
	// ConnectTimeout bounds reaching URL (default 5 s).
	ConnectTimeout time.Duration
}

// ErrFull is returned when a stream or store is full.
var ErrFull = errors.New("fabric: storage full")

// Client is a connection to the fabric.
type Client struct {
	nc      *nats.Conn
	js      jetstream.JetStream
	srv     *server.Server // embedded server, or nil
	tmp     string         // embedded server's temporary store, removed by Close
	opt     Options
	runs    jetstream.KeyValue
	results jetstream.Stream
	jobs    jetstream.Stream
}

// Connect joins the fabric at opt.URL, or starts an embedded one.
func Connect(ctx context.Context, opt Options) (*Client, error) {
	if opt.Replicas <= 0 {
		opt.Replicas = 1
	}
	if opt.AckWait <= 0 {
		opt.AckWait = 30 * time.Second
	}
	if opt.ConnectTimeout <= 0 {
		opt.ConnectTimeout = 5 * time.Second
	}
	c := &Client{opt: opt}
	var err error
	if opt.URL == "" {
		err = c.startEmbedded()
	} else {
		err = c.dial()
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	if err := c.ensure(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func (c *Client) startEmbedded() error {
	dir := c.opt.StoreDir
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "yomi-fabric-"); err != nil {
			return fmt.Errorf("fabric: %w", err)
		}
		c.tmp = dir
	}
	srv, err := server.NewServer(&server.Options{
		ServerName: "yomi-embedded",
		JetStream:  true,
		StoreDir:   dir,
		DontListen: true,
		NoSigs:     true,
		NoLog:      true,
	})
	if err != nil {
		return fmt.Errorf("fabric: embedded server: %w", err)
	}
	srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		srv.Shutdown()
		return errors.New("fabric: embedded server did not start")
	}
	c.srv = srv
	nc, err := nats.Connect("", nats.InProcessServer(srv), nats.Name(c.name()))
	if err != nil {
		return fmt.Errorf("fabric: connecting to the embedded server: %w", err)
	}
	c.nc = nc
	c.js, err = jetstream.New(nc)
	return err
}

func (c *Client) name() string {
	if c.opt.Name != "" {
		return c.opt.Name
	}
	return "yomi"
}

func (c *Client) dial() error {
	o := []nats.Option{
		nats.Name(c.name()),
		nats.Timeout(c.opt.ConnectTimeout),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250 * time.Millisecond),
	}
	if c.opt.Creds != "" {
		if _, err := os.Stat(c.opt.Creds); err != nil {
			return fmt.Errorf("fabric: credentials: %w", err)
		}
		o = append(o, nats.UserCredentials(c.opt.Creds))
	}
	if c.opt.TLSCA != "" {
		o = append(o, nats.RootCAs(c.opt.TLSCA))
	}
	if (c.opt.TLSCert == "") != (c.opt.TLSKey == "") {
		return errors.New("fabric: a TLS client certificate needs both the certificate and its key")
	}
	if c.opt.TLSCert != "" {
		o = append(o, nats.ClientCert(c.opt.TLSCert, c.opt.TLSKey))
	}
	nc, err := nats.Connect(c.opt.URL, o...)
	if err != nil {
		return fmt.Errorf("fabric: cannot connect to NATS at %s: %w", redact(c.opt.URL), err)
	}
	c.nc = nc
	c.js, err = jetstream.New(nc)
	return err
}

// redact hides a password given in a URL.
func redact(u string) string {
	var out []string
	for _, one := range strings.Split(u, ",") {
		if at := strings.LastIndex(one, "@"); at >= 0 {
			if s := strings.Index(one, "://"); s >= 0 && s < at {
				one = one[:s+3] + "***" + one[at:]
			}
		}
		out = append(out, one)
	}
	return strings.Join(out, ",")
}

// ensure creates the streams and the runs bucket if they do not exist.
func (c *Client) ensure(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := c.js.AccountInfo(ctx); err != nil {
		if errors.Is(err, jetstream.ErrJetStreamNotEnabled) || errors.Is(err, jetstream.ErrJetStreamNotEnabledForAccount) {
			return fmt.Errorf("fabric: the NATS server at %s has no JetStream (start it with -js, or use `yomi fabric serve`)", redact(c.opt.URL))
		}
		return fmt.Errorf("fabric: JetStream: %w", err)
	}
	maxJob, maxResult := c.opt.MaxJobBytes, c.opt.MaxResultBytes
	if maxJob <= 0 {
		maxJob = -1
	}
	if maxResult <= 0 {
		maxResult = -1
	}
	var err error
	c.jobs, err = c.stream(ctx, jetstream.StreamConfig{
		Name:       JobsStream,
		Subjects:   []string{"yomi.jobs.>"},
		Retention:  jetstream.WorkQueuePolicy,
		Storage:    c.storage(),
		Replicas:   c.opt.Replicas,
		Duplicates: 12 * time.Hour,
		MaxBytes:   maxJob,
		Discard:    jetstream.DiscardNew,
	})
	if err != nil {
		return err
	}
	c.results, err = c.stream(ctx, jetstream.StreamConfig{
		Name:       ResultsStream,
		Subjects:   []string{"yomi.results.>"},
		Retention:  jetstream.LimitsPolicy,
		Storage:    c.storage(),
		Replicas:   c.opt.Replicas,
		Duplicates: 12 * time.Hour,
		MaxAge:     30 * 24 * time.Hour,
		MaxBytes:   maxResult,
		Discard:    jetstream.DiscardNew,
	})
	if err != nil {
		return err
	}
	c.runs, err = c.js.KeyValue(ctx, RunsBucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		c.runs, err = c.js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: RunsBucket, Replicas: c.opt.Replicas, Storage: c.storage()})
		if errors.Is(err, jetstream.ErrBucketExists) {
			c.runs, err = c.js.KeyValue(ctx, RunsBucket)
		}
	}
	if err != nil {
		return fmt.Errorf("fabric: run state bucket: %w", err)
	}
	return nil
}

func (c *Client) stream(ctx context.Context, cfg jetstream.StreamConfig) (jetstream.Stream, error) {
	s, err := c.js.Stream(ctx, cfg.Name)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		s, err = c.js.CreateStream(ctx, cfg)
		if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			s, err = c.js.Stream(ctx, cfg.Name)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("fabric: stream %s: %w", cfg.Name, err)
	}
	return s, nil
}

// Close disconnects, stops an embedded server and removes its temporary
// store.
func (c *Client) Close() {
	if c.nc != nil {
		c.nc.Close()
	}
	if c.srv != nil {
		c.srv.Shutdown()
		c.srv.WaitForShutdown()
	}
	if c.tmp != "" {
		os.RemoveAll(c.tmp)
	}
}

// Embedded reports whether the client runs its own server.
func (c *Client) Embedded() bool { return c.srv != nil }

// AckWait is the redelivery delay of a job whose worker stopped beating.
func (c *Client) AckWait() time.Duration { return c.opt.AckWait }

var tokenRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)

// CheckToken reports whether s can be a run or job id (letters, digits, -
// and _, at most 128).
func CheckToken(what, s string) error {
	if !tokenRE.MatchString(s) {
		return fmt.Errorf("fabric: %s %q: use 1-128 letters, digits, - or _", what, s)
	}
	return nil
}

// RunID derives a run id from the parts that identify a run (kind,
// settings, player names): the same command gives the same id, so a
// coordinator started again finds its run.
func RunID(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s;", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))[:20]
}

func jobSubject(run, id string) string    { return "yomi.jobs." + run + "." + id }
func resultSubject(run, id string) string { return "yomi.results." + run + "." + id }
func noticeSubject(run string) string     { return "yomi.notices." + run }

// SetRun records a run's state.
func (c *Client) SetRun(ctx context.Context, run string, info RunInfo) error {
	if err := CheckToken("run id", run); err != nil {
		return err
	}
	info.Updated = time.Now().UTC()
	b, _ := json.Marshal(info)
	if _, err := c.runs.Put(ctx, run, b); err != nil {
		return fmt.Errorf("fabric: run state: %w", err)
	}
	return nil
}

// Run returns a run's state (State "" if never recorded).
func (c *Client) Run(ctx context.Context, run string) (RunInfo, error) {
	e, err := c.runs.Get(ctx, run)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return RunInfo{}, nil
	}
	if err != nil {
		return RunInfo{}, fmt.Errorf("fabric: run state: %w", err)
	}
	var info RunInfo
	if err := json.Unmarshal(e.Value(), &info); err != nil {
		return RunInfo{}, fmt.Errorf("fabric: run state of %s: %w", run, err)
	}
	return info, nil
}

// Submit queues jobs. A job already queued (same run, id and attempt,
// within 12 hours) is not queued twice.
func (c *Client) Submit(ctx context.Context, jobs []Job) error {
	if len(jobs) == 0 {
		return nil
	}
	for _, j := range jobs {
		if err := CheckToken("run id", j.Run); err != nil {
			return err
		}
		if err := CheckToken("job id", j.ID); err != nil {
			return err
		}
		if j.Kind == "" {
			return errors.New("fabric: job without a kind")
		}
	}
	futures := make([]jetstream.PubAckFuture, 0, len(jobs))
	for _, j := range jobs {
		b, err := json.Marshal(j)
		if err != nil {
			return err
		}
		f, err := c.js.PublishAsync(jobSubject(j.Run, j.ID), b, jetstream.WithMsgID(fmt.Sprintf("%s.%s.%d", j.Run, j.ID, j.Attempt)))
		if err != nil {
			return c.pubErr("queueing jobs", err)
		}
		futures = append(futures, f)
	}
	for _, f := range futures {
		select {
		case <-f.Ok():
		case err := <-f.Err():
			return c.pubErr("queueing jobs", err)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// pubErr names a full stream as such.
func (c *Client) pubErr(what string, err error) error {
	if isFull(err) {
		return fmt.Errorf("%w: %s: %v", ErrFull, what, err)
	}
	return fmt.Errorf("fabric: %s: %w", what, err)
}

func isFull(err error) bool {
	// The server names these only in the error text (codes 10047, 10077,
	// 10078 and friends are not exported by the client).
	s := strings.ToLower(err.Error())
	return strings.Contains(s, "maximum bytes") || strings.Contains(s, "maximum messages") ||
		strings.Contains(s, "insufficient resources") || strings.Contains(s, "insufficient storage")
}

// Cancel stops a run's current attempt: its queued jobs are removed and
// running workers are told (through the runs bucket) to drop the jobs of
// that attempt and earlier ones.
func (c *Client) Cancel(ctx context.Context, run string) error {
	info, _ := c.Run(ctx, run)
	info.State = RunStopped
	if err := c.SetRun(ctx, run, info); err != nil {
		return err
	}
	if err := c.jobs.Purge(ctx, jetstream.WithPurgeSubject(jobSubject(run, ">"))); err != nil {
		return fmt.Errorf("fabric: removing queued jobs of %s: %w", run, err)
	}
	return nil
}

// Queued is the number of jobs of run waiting or running.
func (c *Client) Queued(ctx context.Context, run string) (uint64, error) {
	subj := jobSubject(run, ">")
	info, err := c.jobs.Info(ctx, jetstream.WithSubjectFilter(subj))
	if err != nil {
		return 0, err
	}
	var n uint64
	for _, v := range info.State.Subjects {
		n += v
	}
	return n, nil
}

// Stored returns the results already stored for run (the first one per
// job id) and the stream sequence to watch from for later ones. A cluster
// that is changing leaders answers "no responders" for a moment: Stored
// tries again for up to 20 s.
func (c *Client) Stored(ctx context.Context, run string) (map[string]Result, uint64, error) {
	deadline := time.Now().Add(20 * time.Second)
	for {
		out, from, err := c.stored(ctx, run)
		if err == nil || ctx.Err() != nil || time.Now().After(deadline) || !transient(err) {
			return out, from, err
		}
		select {
		case <-ctx.Done():
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// transient reports errors a cluster gives while it elects leaders.
func transient(err error) bool {
	return errors.Is(err, nats.ErrNoResponders) || errors.Is(err, nats.ErrTimeout) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, jetstream.ErrNoHeartbeat) ||
		strings.Contains(err.Error(), "no responders") || strings.Contains(err.Error(), "timeout")
}

func (c *Client) stored(ctx context.Context, run string) (map[string]Result, uint64, error) {
	out := map[string]Result{}
	info, err := c.results.Info(ctx, jetstream.WithSubjectFilter(resultSubject(run, ">")))
	if err != nil {
		return nil, 0, fmt.Errorf("fabric: results: %w", err)
	}
	last := info.State.LastSeq
	var n uint64
	for _, v := range info.State.Subjects {
		n += v
	}
	if n == 0 {
		return out, last + 1, nil
	}
	cons, err := c.js.OrderedConsumer(ctx, ResultsStream, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{resultSubject(run, ">")},
		DeliverPolicy:  jetstream.DeliverAllPolicy,
	})
	if err != nil {
		return nil, 0, fmt.Errorf("fabric: results: %w", err)
	}
	for {
		msg, err := cons.Next(jetstream.FetchMaxWait(5 * time.Second))
		if err != nil {
			return nil, 0, fmt.Errorf("fabric: reading stored results: %w", err)
		}
		md, err := msg.Metadata()
		if err != nil {
			return nil, 0, err
		}
		var r Result
		if json.Unmarshal(msg.Data(), &r) == nil {
			if _, seen := out[r.ID]; !seen {
				out[r.ID] = r
			}
		}
		if md.Sequence.Stream >= last || md.NumPending == 0 {
			return out, md.Sequence.Stream + 1, nil
		}
	}
}

// Watch calls fn for every result of run stored from stream sequence from
// on (as Stored returns it), in order, until stop is called or ctx ends.
// fn runs on one goroutine at a time.
func (c *Client) Watch(ctx context.Context, run string, from uint64, fn func(Result)) (stop func(), err error) {
	cons, err := c.js.OrderedConsumer(ctx, ResultsStream, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{resultSubject(run, ">")},
		DeliverPolicy:  jetstream.DeliverByStartSequencePolicy,
		OptStartSeq:    from,
	})
	if err != nil {
		return nil, fmt.Errorf("fabric: watching results: %w", err)
	}
	cc, err := cons.Consume(func(msg jetstream.Msg) {
		var r Result
		if json.Unmarshal(msg.Data(), &r) == nil {
			fn(r)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("fabric: watching results: %w", err)
	}
	return cc.Stop, nil
}

// Notice is what a worker tells a run's coordinator: that it refuses the
// run's jobs (another version, an unknown kind), or, Fatal, that the run
// cannot go on (the fabric cannot store its results).
type Notice struct {
	Worker string `json:"worker"`
	Text   string `json:"text"`
	Fatal  bool   `json:"fatal,omitempty"`
}

func (n Notice) String() string { return "worker " + n.Worker + ": " + n.Text }

// Notices calls fn with each notice workers send about run.
func (c *Client) Notices(run string, fn func(Notice)) (stop func(), err error) {
	sub, err := c.nc.Subscribe(noticeSubject(run), func(m *nats.Msg) {
		var n Notice
		if json.Unmarshal(m.Data, &n) == nil {
			fn(n)
		}
	})
	if err != nil {
		return nil, err
	}
	return func() { _ = sub.Unsubscribe() }, nil
}

func (c *Client) artifacts(ctx context.Context) (jetstream.ObjectStore, error) {
	s, err := c.js.ObjectStore(ctx, ArtifactsBucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		s, err = c.js.CreateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: ArtifactsBucket, Replicas: c.opt.Replicas, Storage: c.storage()})
		if errors.Is(err, jetstream.ErrBucketExists) {
			s, err = c.js.ObjectStore(ctx, ArtifactsBucket)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("fabric: artifact store: %w", err)
	}
	return s, nil
}

// Digest is the name of data in the artifact store: "sha256-" and its
// hex SHA-256.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256-" + hex.EncodeToString(sum[:])
}

// PutArtifact stores data under its digest and returns the digest.
func (c *Client) PutArtifact(ctx context.Context, data []byte) (string, error) {
	s, err := c.artifacts(ctx)
	if err != nil {
		return "", err
	}
	d := Digest(data)
	if _, err := s.GetInfo(ctx, d); err == nil {
		return d, nil
	}
	if _, err := s.PutBytes(ctx, d, data); err != nil {
		return "", c.pubErr("storing an artifact", err)
	}
	return d, nil
}

// GetArtifact fetches the data stored under digest and checks it.
func (c *Client) GetArtifact(ctx context.Context, digest string) ([]byte, error) {
	s, err := c.artifacts(ctx)
	if err != nil {
		return nil, err
	}
	b, err := s.GetBytes(ctx, digest)
	if err != nil {
		return nil, fmt.Errorf("fabric: artifact %s: %w", digest, err)
	}
	if Digest(b) != digest {
		return nil, fmt.Errorf("fabric: artifact %s arrived corrupted", digest)
	}
	return b, nil
}

// RunStatus is one run as Runs lists it.
type RunStatus struct {
	Run string `json:"run"`
	RunInfo
	Queued  uint64 `json:"queued"`  // jobs waiting or running
	Results uint64 `json:"results"` // results stored
}

// Runs lists the runs the fabric knows, most recently updated first.
func (c *Client) Runs(ctx context.Context) ([]RunStatus, error) {
	lister, err := c.runs.ListKeys(ctx)
	if err != nil {
		return nil, fmt.Errorf("fabric: runs: %w", err)
	}
	var out []RunStatus
	for k := range lister.Keys() {
		info, err := c.Run(ctx, k)
		if err != nil {
			return nil, err
		}
		st := RunStatus{Run: k, RunInfo: info}
		if st.Queued, err = c.Queued(ctx, k); err != nil {
			return nil, err
		}
		ri, err := c.results.Info(ctx, jetstream.WithSubjectFilter(resultSubject(k, ">")))
		if err != nil {
			return nil, err
		}
		for _, v := range ri.State.Subjects {
			st.Results += v
		}
		out = append(out, st)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Updated.After(out[j].Updated) })
	return out, nil
}

// storage is where this connection's streams live when it creates them:
// in memory for an embedded fabric with a temporary store (it dies with
// the process anyway), on disk otherwise.
func (c *Client) storage() jetstream.StorageType {
	if c.srv != nil && c.tmp != "" {
		return jetstream.MemoryStorage
	}
	return jetstream.FileStorage
}
