// Package arenatest holds misbehaving bots for tests of anything that runs
// external bot commands (arena.Process, the match runner, the referees and
// protocol clients): each is a /bin/sh command line, so any test can pass
// it where a bot command goes.
package arenatest

// Chaos is one misbehaving bot.
type Chaos struct {
	Name string
	Cmd  string // /bin/sh -c command line
	// Fails says how a harness must see it: "flood" (killed for flooding,
	// arena.ErrFlood), "cannot-run" (arena.ErrCannotRun: an error, not a
	// lost game), "exit" (ends at once), "silent" (times out) or "garbage"
	// (prints a junk line at once and after every line it reads).
	Fails string
}

// The chaos bots, by name.
var (
	FloodLines  = Chaos{"flood-lines", "yes flood", "flood"}
	EndlessLine = Chaos{"endless-line", `yes x | tr -d '\n'`, "flood"}
	StderrFlood = Chaos{"stderr-flood", "yes stderr-flood >&2", "flood"}
	// Unread prints more lines than it is asked for, but few enough to
	// buffer, then exits: the old runner hung on it (issue 25).
	Unread        = Chaos{"unread", "seq 100", "exit"}
	Garbage       = Chaos{"garbage", `g='garbage }{ \377'; echo "$g"; while read -r l; do echo "$g"; done`, "garbage"}
	ExitAtOnce    = Chaos{"exit-at-once", "exit 0", "exit"}
	Crash         = Chaos{"crash", "echo dying >&2; exit 3", "exit"}
	Missing       = Chaos{"missing", "/nonexistent/chaos-bot --flag", "cannot-run"}
	NotExecutable = Chaos{"not-executable", "/dev/null", "cannot-run"}
	Silent        = Chaos{"silent", "sleep 3600", "silent"}
	// ClosedOut closes its stdout and lingers: reads must end at once.
	ClosedOut = Chaos{"closed-stdout", "exec >&-; sleep 3600", "exit"}
)

// All lists every chaos bot.
var All = []Chaos{FloodLines, EndlessLine, StderrFlood, Unread, Garbage, ExitAtOnce, Crash, Missing, NotExecutable, Silent, ClosedOut}
