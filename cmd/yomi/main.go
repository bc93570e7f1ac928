// Command yomi is Yomi's one binary: `yomi <area> <verb> [flags]`.
//
// Each game contributes one area, its benchmarks and its landing-page entry
// through a function in its own file here (hatetris.go, codevs.go, …); this
// file only assembles them.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/pprof"
	"syscall"

	"github.com/yomi-ai/yomi/fabric"
	"github.com/yomi-ai/yomi/internal/bench"
	"github.com/yomi-ai/yomi/internal/cli"
	"github.com/yomi-ai/yomi/web"
)

// game is what one game plugs into the binary.
type game struct {
	area    *cli.Area
	benches []bench.Benchmark
	entry   web.Entry
	// jobs are the job kinds (match games and the like) the game's verbs
	// put on the job fabric; `yomi worker` runs them.
	jobs map[string]fabric.Handler
}

// games lists the games in the order help and the landing page show them.
func games() []game {
	return []game{tetrisGame(), hatetrisGame(), codevsGame(), seigotGame(), separoGame()}
}

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		rev, dirty := "", ""
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
				if len(rev) > 12 {
					rev = rev[:12]
				}
			case "vcs.modified":
				if s.Value == "true" {
					dirty = "+dirty"
				}
			}
		}
		if rev != "" {
			return "dev-" + rev + dirty
		}
		if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			return bi.Main.Version
		}
	}
	return "dev"
}

func newApp() *cli.App {
	gs := games()
	app := &cli.App{Name: "yomi", Version: version()}
	var benches []bench.Benchmark
	var entries []web.Entry
	for _, g := range gs {
		app.Areas = append(app.Areas, g.area)
		benches = append(benches, g.benches...)
		entries = append(entries, g.entry)
	}
	benches = append(append(arenaBenchmarks(), fabricBenchmarks()...), benches...)
	app.Areas = append(app.Areas, arenaArea(), benchArea(benches), serveArea(entries), workerArea(), fabricArea(), tuneArea())
	return app
}

// profileEnv names a file for a CPU profile of the whole command (for `go
// tool pprof`): the hot paths of any verb can be profiled without a flag.
const profileEnv = "YOMI_CPUPROFILE"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	stopProfile, err := startProfile(os.Getenv(profileEnv))
	if err != nil {
		fmt.Fprintf(os.Stderr, "yomi: %s: %v\n", profileEnv, err)
		os.Exit(1)
	}
	code := newApp().Main(ctx, cli.OSEnv(), os.Args[1:])
	stopProfile()
	stop()
	os.Exit(code)
}

// startProfile starts a CPU profile into path (nothing when path is empty)
// and returns the function that ends it.
func startProfile(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "yomi: %s: %v\n", profileEnv, err)
		}
	}, nil
}
