// `yomi serve`: the web app (landing page and each game's page) and its static
// export.

package main

import (
	"context"
	"fmt"
	"log"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/yomi-ai/yomi/arena/webapp"
	codevsweb "github.com/yomi-ai/yomi/codevs/webapp"
	"github.com/yomi-ai/yomi/internal/cli"
	"github.com/yomi-ai/yomi/web"
)

func serveArea(entries []web.Entry) *cli.Area {
	return &cli.Area{
		Name:    "serve",
		Summary: "serve the Yomi web app (http://localhost:8080)",
		Run: func(ctx context.Context, env *cli.Env, args []string) error {
			fs := cli.NewFlags(env, "yomi serve", "[--addr HOST:PORT] [--allow-host NAME[:PORT]]... [--any-host] [--results-dir DIR]... [--codevs-logs DIR]... [--codevs-ai NAME=CMD]... [--tetris-bot CMD] [--export DIR] [--log]",
				"Serves the landing page and every game's page until Ctrl-C. With --export, writes\na static copy of the site (pages whose AI runs in the browser) to DIR and exits;\nopen DIR/index.html as a file or serve DIR with any static web server.\n\n"+
					"Since any web page you visit can send requests to a local server, the server\n"+
					"answers only requests addressed to it: the Host header must be the address a\n"+
					"request arrived on (localhost too for a loopback address), or a name given with\n"+
					"--allow-host (or any name with --any-host, behind a reverse proxy that checks\n"+
					"Host). POSTs must come from its own pages (Sec-Fetch-Site/Origin) with a JSON\n"+
					"body; others are refused (421, 403, 415).")
			addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
			var allow []string
			fs.Func("allow-host", "also answer requests whose Host is `NAME[:PORT]` (any port without one; repeat or separate with commas), e.g. a LAN name when --addr is 0.0.0.0:8080", func(v string) error {
				for _, h := range strings.Split(v, ",") {
					if err := web.CheckAllowedHost(h); err != nil {
						return err
					}
					allow = append(allow, h)
				}
				return nil
			})
			anyHost := fs.Bool("any-host", false, "answer requests whatever their Host header (for a reverse proxy that checks it; cross-site POSTs are still refused)")
			export := fs.String("export", "", "write a static site to `DIR` instead of serving")
			tetrisBot := fs.String("tetris-bot", "", "a TBP bot `CMD` the Tetris page can watch against Yomi (one process per game)")
			var resultsDirs []string
			fs.Func("results-dir", "offer the match results files (*.jsonl) in `DIR` on the arena page (repeatable), e.g. codevs/matches", func(v string) error {
				if st, err := os.Stat(v); err != nil || !st.IsDir() {
					return fmt.Errorf("%s is not a directory", v)
				}
				resultsDirs = append(resultsDirs, v)
				return nil
			})
			codevsAIs := map[string]string{}
			fs.Func("codevs-ai", "let the CODE VS viewer's live games use the AI command `NAME=CMD` (repeatable; besides yomi, yomi-light and dummy)", func(v string) error {
				name, cmd, ok := strings.Cut(v, "=")
				if !ok || strings.TrimSpace(name) == "" || strings.TrimSpace(cmd) == "" {
					return fmt.Errorf("want NAME=CMD, got %q", v)
				}
				codevsAIs[strings.TrimSpace(name)] = cmd
				return nil
			})
			var codevsLogs []string
			fs.Func("codevs-logs", "offer the CODE VS replays (replay.json, up to two levels down) in `DIR` on the replay viewer (repeatable), e.g. a match's --log-dir", func(v string) error {
				if st, err := os.Stat(v); err != nil || !st.IsDir() {
					return fmt.Errorf("%s is not a directory", v)
				}
				codevsLogs = append(codevsLogs, v)
				return nil
			})
			logReq := fs.Bool("log", false, "log each request to stderr")
			if err := cli.Parse(fs, args); err != nil {
				return err
			}
			if fs.NArg() > 0 {
				return cli.Usagef("serve takes no arguments, got %q", fs.Args())
			}
			if *export == "" {
				if err := checkListenAddr(*addr); err != nil {
					return err
				}
			}
			if *tetrisBot != "" {
				entries = withTetrisExternalBot(entries, *tetrisBot)
			}
			all := append(slices.Clone(entries), arenaEntry(resultsDirs))
			for i, e := range all {
				if e.Slug == "codevs" && e.App == nil {
					// The replay viewer needs the server (it replays on it).
					all[i].App = &web.App{Handler: codevsweb.Handler(codevsweb.Options{LogDirs: codevsLogs, Players: codevsPlayers(codevsAIs)})}
				}
			}
			srv := &web.Server{Entries: all, AllowedHosts: allow, AnyHost: *anyHost}
			if *export != "" {
				if err := srv.Export(*export); err != nil {
					return err
				}
				fmt.Fprintf(env.Stdout, "exported static site to %s\nOpen %s in a browser, or serve the directory, e.g.\n  python3 -m http.server 8000 --directory %s\nthen open http://localhost:8000/\n",
					*export, filepath.Join(*export, "index.html"), *export)
				return nil
			}
			if *logReq {
				srv.Logger = log.New(env.Stderr, "", log.LstdFlags)
			}
			return srv.Run(ctx, *addr, func(a net.Addr) {
				fmt.Fprintf(env.Stderr, "Yomi is serving on http://%s/ (Ctrl-C to stop)\n", a)
			})
		},
	}
}

// checkListenAddr refuses an --addr that is not HOST:PORT with a port
// number (or service name) as a usage error, before anything listens.
func checkListenAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return cli.Usagef("--addr %q: want HOST:PORT, e.g. 127.0.0.1:8080 (%v)", addr, err)
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return cli.Usagef("--addr %q: bad port %q", addr, port)
	}
	return nil
}

// arenaEntry is the arena page's landing-page entry: results files are
// uploaded or picked from dirs (--results-dir).
func arenaEntry(dirs []string) web.Entry {
	return web.Entry{Slug: "arena", Title: "Arena",
		Summary: "Open a match's results file: W/L/D, pentanomial, Elo and nElo with intervals, LOS, the SPRT's LLR over the games, score distributions.",
		App:     &web.App{Handler: webapp.Handler(webapp.Options{Dirs: dirs})}}
}

// codevsPlayers returns the live games' AI commands: this binary's AI (as
// the contest ran it, and a light setting for a small machine) and dummy,
// then the --codevs-ai ones.
func codevsPlayers(extra map[string]string) map[string]string {
	p := map[string]string{}
	if exe, err := os.Executable(); err == nil {
		q := "'" + strings.ReplaceAll(exe, "'", `'\''`) + "'"
		p["yomi"] = q + " codevs ai"
		p["yomi-light"] = q + " codevs ai --width 100 --threads 1 --own-depth 2 --enemy-depth 1"
		p["dummy"] = q + " codevs dummy"
	}
	for n, c := range extra {
		p[n] = c
	}
	return p
}
