// Package cli holds the plumbing shared by every `yomi` subcommand: areas and
// verbs, flag parsing with usage errors (exit 2), --json output, and progress
// bars on stderr.
//
// Start with Area and Verb: each game registers one Area (in cmd/yomi) whose
// verbs receive an Env and their arguments.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// Env is what a verb may touch: its streams. Verbs never use os.Stdout directly,
// so tests can run them in-process.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// OSEnv returns an Env on the process's standard streams.
func OSEnv() *Env { return &Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr} }

// Verb is one action of an area, such as `yomi arena sprt`.
type Verb struct {
	Name    string // e.g. "sprt"
	Summary string // one line for the area's help
	// Run executes the verb. args excludes the area and verb names. A returned
	// UsageError exits 2; any other error exits 1.
	Run func(ctx context.Context, env *Env, args []string) error
}

// Area is a group of verbs, such as `yomi hatetris …`.
type Area struct {
	Name    string
	Summary string
	// Doc is an optional paragraph shown by `yomi AREA --help`.
	Doc   string
	Verbs []*Verb
	// Run, if set, handles `yomi AREA [flags]` for areas that are a single
	// command (such as `yomi serve`); Verbs is then empty.
	Run func(ctx context.Context, env *Env, args []string) error
}

// UsageError reports a bad command line; main prints it with a usage hint and
// exits 2.
type UsageError struct{ Msg string }

// Error returns the message.
func (e *UsageError) Error() string { return e.Msg }

// Usagef builds a UsageError.
func Usagef(format string, a ...any) error { return &UsageError{Msg: fmt.Sprintf(format, a...)} }

// IsUsage tells whether err is (or wraps) a UsageError or flag.ErrHelp.
func IsUsage(err error) bool {
	var u *UsageError
	return errors.As(err, &u)
}

// ExitCode maps an error from a verb to the process exit code: 0, 1, or 2 for
// usage errors.
func ExitCode(err error) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case IsUsage(err):
		return 2
	default:
		return 1
	}
}

// NewFlags returns a FlagSet for `yomi area verb` that reports errors instead
// of exiting and prints its help to env.Stderr. synopsis follows the command
// name in the usage line, e.g. "[--json] REPLAY".
func NewFlags(env *Env, command, synopsis, doc string) *flag.FlagSet {
	fs := flag.NewFlagSet(command, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.Stderr, "usage: %s %s\n", command, synopsis)
		if doc != "" {
			fmt.Fprintf(env.Stderr, "\n%s\n", strings.TrimSpace(doc))
		}
		has := false
		fs.VisitAll(func(*flag.Flag) { has = true })
		if has {
			fmt.Fprintf(env.Stderr, "\nflags:\n")
			fs.PrintDefaults()
		}
	}
	return fs
}

// Parse parses args with fs, turning flag errors into UsageErrors (the flag
// package has already printed the message and usage). -h/--help returns
// flag.ErrHelp, which exits 0.
func Parse(fs *flag.FlagSet, args []string) error {
	// Allow flags after positional arguments: "replay FILE --json".
	var pos []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return err
			}
			return &UsageError{Msg: err.Error()}
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		if rest[0] == "--" {
			pos = append(pos, rest[1:]...)
			break
		}
		pos = append(pos, rest[0])
		rest = rest[1:]
	}
	if len(pos) > 0 {
		// Re-parse an empty list so fs.Args() returns the positionals.
		_ = fs.Parse(append([]string{"--"}, pos...))
	}
	return nil
}

// WriteJSON writes v as one line of JSON to w.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// App is the whole command tree: the areas in the order help lists them.
type App struct {
	Name    string // "yomi"
	Version string
	Areas   []*Area
}

func (a *App) find(name string) *Area {
	for _, ar := range a.Areas {
		if ar.Name == name {
			return ar
		}
	}
	return nil
}

// Help writes the top-level help.
func (a *App) Help(w io.Writer) {
	fmt.Fprintf(w, "%s — a workbench for search-based game AI\n\nusage: %s <area> <verb> [flags]\n       %s <area> --help\n\nareas:\n", a.Name, a.Name, a.Name)
	for _, ar := range a.Areas {
		fmt.Fprintf(w, "  %-10s %s\n", ar.Name, ar.Summary)
	}
	fmt.Fprintf(w, "  %-10s %s\n  %-10s %s\n", "help", "show this help, or `help AREA`", "version", "print the version")
	fmt.Fprintf(w, "\nenvironment:\n  YOMI_CPUPROFILE=FILE  write a CPU profile of the command to FILE (go tool pprof FILE)\n")
}

// AreaHelp writes the help of one area.
func (a *App) AreaHelp(w io.Writer, ar *Area) {
	fmt.Fprintf(w, "%s %s — %s\n", a.Name, ar.Name, ar.Summary)
	if ar.Doc != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(ar.Doc))
	}
	if len(ar.Verbs) > 0 {
		fmt.Fprintf(w, "\nusage: %s %s <verb> [flags]   (%s %s <verb> --help for its flags)\n\nverbs:\n", a.Name, ar.Name, a.Name, ar.Name)
		verbs := append([]*Verb(nil), ar.Verbs...)
		sort.SliceStable(verbs, func(i, j int) bool { return verbs[i].Name < verbs[j].Name })
		for _, v := range verbs {
			fmt.Fprintf(w, "  %-12s %s\n", v.Name, v.Summary)
		}
	} else if ar.Run == nil {
		fmt.Fprintf(w, "\n(no verbs yet: this area is still being built)\n")
	}
}

// Main runs the command line args (without the program name) and returns the
// exit code.
func (a *App) Main(ctx context.Context, env *Env, args []string) int {
	err := a.run(ctx, env, args)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		if IsUsage(err) {
			fmt.Fprintf(env.Stderr, "%s: %v\nRun '%s help' for usage.\n", a.Name, err, a.Name)
		} else {
			fmt.Fprintf(env.Stderr, "%s: %v\n", a.Name, err)
		}
	}
	return ExitCode(err)
}

func isHelp(s string) bool { return s == "-h" || s == "--help" || s == "-help" || s == "help" }

func (a *App) run(ctx context.Context, env *Env, args []string) error {
	if len(args) == 0 {
		a.Help(env.Stderr)
		return &UsageError{Msg: "missing area"}
	}
	name := args[0]
	switch {
	case isHelp(name):
		if len(args) > 1 {
			if ar := a.find(args[1]); ar != nil {
				a.AreaHelp(env.Stdout, ar)
				return nil
			}
			return Usagef("unknown area %q", args[1])
		}
		a.Help(env.Stdout)
		return nil
	case name == "version" || name == "--version":
		fmt.Fprintf(env.Stdout, "%s %s\n", a.Name, a.Version)
		return nil
	}
	ar := a.find(name)
	if ar == nil {
		return Usagef("unknown area %q", name)
	}
	if ar.Run != nil {
		return ar.Run(ctx, env, args[1:])
	}
	if len(args) < 2 || isHelp(args[1]) {
		a.AreaHelp(env.Stdout, ar)
		if len(args) < 2 {
			return Usagef("missing verb for %q", name)
		}
		return nil
	}
	for _, v := range ar.Verbs {
		if v.Name == args[1] {
			return v.Run(ctx, env, args[2:])
		}
	}
	return Usagef("unknown verb %q for %s %s", args[1], a.Name, name)
}
