package fabric

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// ServeOptions configures a standalone JetStream node.
type ServeOptions struct {
	// ConfigFile is a nats-server configuration file (accounts, TLS,
	// clustering, anything nats-server reads); the fields below override
	// it where set.
	ConfigFile string
	Listen     string // client address, host:port (default 127.0.0.1:4222)
	Store      string // JetStream directory (required unless in ConfigFile)
	Name       string // server name, unique in a cluster (default: host name)
	// Cluster is the address other nodes connect to (host:port); "" runs a
	// single node. ClusterName names the cluster (default "yomi").
	Cluster     string
	ClusterName string
	Routes      []string // other nodes' cluster addresses (host:port or nats-route://…)
	// Logging to stderr (nats-server's own log lines).
	Log, Debug bool
}

// Server is a running JetStream node.
type Server struct{ s *server.Server }

// StartServer starts a JetStream node and waits until it takes clients.
func StartServer(opt ServeOptions) (*Server, error) {
	o := &server.Options{}
	if opt.ConfigFile != "" {
		var err error
		if o, err = server.ProcessConfigFile(opt.ConfigFile); err != nil {
			return nil, fmt.Errorf("fabric: %s: %w", opt.ConfigFile, err)
		}
	}
	o.JetStream = true
	o.NoSigs = true
	if opt.Listen != "" || opt.ConfigFile == "" {
		listen := opt.Listen
		if listen == "" {
			listen = "127.0.0.1:4222"
		}
		host, port, err := splitHostPort(listen)
		if err != nil {
			return nil, fmt.Errorf("fabric: --listen %q: %w", listen, err)
		}
		o.Host, o.Port = host, port
	}
	if opt.Store != "" {
		o.StoreDir = opt.Store
	}
	if o.StoreDir == "" {
		return nil, errors.New("fabric: a JetStream node needs a store directory (--store DIR)")
	}
	if err := os.MkdirAll(o.StoreDir, 0o755); err != nil {
		return nil, fmt.Errorf("fabric: store: %w", err)
	}
	if opt.Name != "" {
		o.ServerName = opt.Name
	}
	if o.ServerName == "" {
		h, _ := os.Hostname()
		o.ServerName = h
	}
	if opt.Cluster != "" {
		host, port, err := splitHostPort(opt.Cluster)
		if err != nil {
			return nil, fmt.Errorf("fabric: --cluster %q: %w", opt.Cluster, err)
		}
		o.Cluster.Host, o.Cluster.Port = host, port
		o.Cluster.Name = opt.ClusterName
		if o.Cluster.Name == "" {
			o.Cluster.Name = "yomi"
		}
	}
	for _, r := range opt.Routes {
		if !strings.Contains(r, "://") {
			r = "nats-route://" + r
		}
		u, err := url.Parse(r)
		if err != nil {
			return nil, fmt.Errorf("fabric: route %q: %w", r, err)
		}
		o.Routes = append(o.Routes, u)
	}
	if len(o.Routes) > 0 && o.Cluster.Port == 0 {
		return nil, errors.New("fabric: routes need a cluster address (--cluster host:port)")
	}
	o.NoLog = !opt.Log && !opt.Debug
	o.Debug = opt.Debug
	s, err := server.NewServer(o)
	if err != nil {
		return nil, fmt.Errorf("fabric: %w", err)
	}
	if !o.NoLog {
		s.ConfigureLogger()
	}
	s.Start()
	if !s.ReadyForConnections(15 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("fabric: the node did not start on %s (is the port in use?)", net.JoinHostPort(o.Host, strconv.Itoa(o.Port)))
	}
	return &Server{s: s}, nil
}

func splitHostPort(a string) (string, int, error) {
	host, ps, err := net.SplitHostPort(a)
	if err != nil {
		return "", 0, err
	}
	p, err := strconv.Atoi(ps)
	if err != nil || p < -1 || p > 65535 {
		return "", 0, fmt.Errorf("bad port %q", ps)
	}
	if p == 0 {
		p = -1 // nats-server's "any free port"
	}
	return host, p, nil
}

// ClientURL is the URL clients and workers connect to.
func (s *Server) ClientURL() string { return s.s.ClientURL() }

// ClusterAddr is the address other nodes route to ("" without a cluster).
func (s *Server) ClusterAddr() string {
	if a := s.s.ClusterAddr(); a != nil {
		return a.String()
	}
	return ""
}

// Name is the server's name.
func (s *Server) Name() string { return s.s.Name() }

// Shutdown stops the node and waits until it has.
func (s *Server) Shutdown() {
	s.s.Shutdown()
	s.s.WaitForShutdown()
}
