// This file holds external bots as processes: started through /bin/sh in their
// own process group, line reads with timeouts, bounded buffering (a bot that
// floods its output is killed and named), exit status and stderr tail in
// errors, and the shell's "cannot run" statuses as harness errors.

package arena

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// ErrTimeout is returned by ReadLine when the process did not answer in time.
var ErrTimeout = errors.New("timed out")

// ErrExited is returned by ReadLine and Write when the process has exited
// (crashed or quit); the error text includes the exit status and stderr tail.
var ErrExited = errors.New("process exited")

// ErrFlood marks the error of a process that was killed for flooding: more
// output lines waiting unread than ProcessOptions.MaxUnread (or bytes than
// MaxUnreadBytes), a line longer than MaxLine, or more stderr than
// MaxStderr. Such errors also match ErrExited, so a caller that treats an
// exited bot as a lost game does the same for a flooding one.
var ErrFlood = errors.New("flooded its output")

// ErrCannotRun marks the error of a command the shell could not run (exit
// status 127: not found, 126: not executable). It also matches ErrExited.
// It is a harness error, not a lost game: a process that ends this way
// inside a match stops the match (see AbortMatch).
var ErrCannotRun = errors.New("cannot run the command")

// Defaults of ProcessOptions.
const (
	DefaultMaxLine        = 1 << 20
	DefaultMaxUnread      = 10000
	DefaultMaxUnreadBytes = 8 << 20
	DefaultMaxStderr      = 16 << 20
	DefaultStderrTail     = 2048
)

// ProcessOptions configures StartProcess. Zero values take the defaults.
type ProcessOptions struct {
	Dir        string   // working directory ("" = current)
	Env        []string // extra environment variables (KEY=VALUE)
	MaxLine    int      // longest accepted output line in bytes (default 1 MiB)
	StderrTail int      // bytes of stderr kept for error messages (default 2 KiB)
	// MaxUnread and MaxUnreadBytes bound the output read from the process
	// but not yet taken by ReadLine (default 10 000 lines, 8 MiB): a process
	// that gets further ahead of its reader is flooding and is killed.
	MaxUnread      int
	MaxUnreadBytes int
	// MaxStderr bounds what the process may write to stderr over its life
	// (default 16 MiB); more is a flood.
	MaxStderr int64
	// Stderr, if set, also receives everything the process writes to stderr.
	Stderr io.Writer
}

func (o *ProcessOptions) fill() {
	if o.MaxLine <= 0 {
		o.MaxLine = DefaultMaxLine
	}
	if o.StderrTail <= 0 {
		o.StderrTail = DefaultStderrTail
	}
	if o.MaxUnread <= 0 {
		o.MaxUnread = DefaultMaxUnread
	}
	if o.MaxUnreadBytes <= 0 {
		o.MaxUnreadBytes = DefaultMaxUnreadBytes
	}
	if o.MaxStderr <= 0 {
		o.MaxStderr = DefaultMaxStderr
	}
}

// Process is an external bot speaking a line protocol on stdin/stdout. It
// runs in its own process group so Close kills everything it started.
//
// Its output is read all the time into a bounded queue that ReadLine takes
// from, so the process never blocks on a full pipe and Close never waits on
// a reader: a bot that prints what nobody asked for is killed as flooding
// once the queue is full, and its next ReadLine says so.
type Process struct {
	cmdline string
	opt     ProcessOptions
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	stdout  *os.File // read ends of the output pipes
	stderr  *os.File
	tail    *tailBuffer

	mu      sync.Mutex
	queue   []string // lines read and not yet taken
	queued  int      // their bytes
	eof     bool     // the reader has stopped
	flood   string   // why the process was killed for flooding ("" = it was not)
	wake    chan struct{}
	waiting bool // a ReadLine waits on wake

	stderrDone chan struct{}
	done       chan struct{} // closed once the process has been reaped
	waitErr    error
	once       sync.Once
}

// StartProcess runs cmdline with /bin/sh -c. When ctx ends, the process
// group is killed. If the shell cannot run the command (status 126 or 127)
// and ctx belongs to a game of RunPairs or RunScores, the match is aborted
// (AbortMatch).
func StartProcess(ctx context.Context, cmdline string, opt ProcessOptions) (*Process, error) {
	if strings.TrimSpace(cmdline) == "" {
		return nil, errors.New("empty command line")
	}
	opt.fill()
	cmd := exec.Command("/bin/sh", "-c", cmdline)
	cmd.Dir = opt.Dir
	if len(opt.Env) > 0 {
		cmd.Env = append(cmd.Environ(), opt.Env...)
	}
	ownGroup(cmd)
	p := &Process{cmdline: cmdline, opt: opt, cmd: cmd, wake: make(chan struct{}),
		stderrDone: make(chan struct{}), done: make(chan struct{}), tail: &tailBuffer{max: opt.StderrTail}}
	// Our own pipes, not exec's: Wait then depends only on the process
	// itself, never on a reader or on a grandchild holding a pipe open.
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	p.stdout, p.stderr = outR, errR
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		outR.Close()
		outW.Close()
		errR.Close()
		errW.Close()
		return nil, err
	}
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("starting %q: %w", cmdline, err)
	}
	go p.readOutput()
	go p.readStderr()
	go func() {
		err := cmd.Wait()
		// Let the stderr tail arrive, briefly: a grandchild may hold it.
		select {
		case <-p.stderrDone:
		case <-time.After(200 * time.Millisecond):
		}
		p.waitErr = err
		if cannotRun(err) {
			// Before done is closed: a game that sees this process fail
			// finds its match already aborted.
			AbortMatch(ctx, p.describe(nil, true))
		}
		close(p.done)
	}()
	go func() {
		select {
		case <-ctx.Done():
			p.kill()
			p.closePipes()
		case <-p.done:
		}
	}()
	return p, nil
}

// cannotRun reports whether the shell said it could not run the command.
func cannotRun(err error) bool {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		c := ee.ExitCode()
		return c == 126 || c == 127
	}
	return false
}

// readOutput reads stdout lines into the queue until EOF or a flood.
func (p *Process) readOutput() {
	defer p.stdout.Close()
	sc := bufio.NewScanner(p.stdout)
	sc.Buffer(make([]byte, 0, min(64*1024, p.opt.MaxLine)), p.opt.MaxLine)
	for sc.Scan() {
		if !p.push(strings.TrimRight(sc.Text(), "\r")) {
			return
		}
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		p.setFlood(fmt.Sprintf("an output line too long (over %s)", byteSize(int64(p.opt.MaxLine))))
	}
	p.mu.Lock()
	p.eof = true
	p.signal()
	p.mu.Unlock()
	// Nothing can come any more: a process that closed its stdout and
	// lingers is as good as dead.
	select {
	case <-p.done:
	case <-time.After(200 * time.Millisecond):
		p.kill()
	}
}

// push queues a line; false means the process is flooding (and now killed).
func (p *Process) push(line string) bool {
	p.mu.Lock()
	if p.flood != "" {
		p.mu.Unlock()
		return false
	}
	if len(p.queue) >= p.opt.MaxUnread || p.queued+len(line) > p.opt.MaxUnreadBytes {
		p.mu.Unlock()
		p.setFlood(fmt.Sprintf("more than %d output lines or %s waiting unread", p.opt.MaxUnread, byteSize(int64(p.opt.MaxUnreadBytes))))
		return false
	}
	p.queue = append(p.queue, line)
	p.queued += len(line)
	p.signal()
	p.mu.Unlock()
	return true
}

// readStderr keeps the stderr tail and copies stderr to opt.Stderr, up to
// MaxStderr bytes.
func (p *Process) readStderr() {
	defer close(p.stderrDone)
	defer p.stderr.Close()
	buf := make([]byte, 32*1024)
	var total int64
	for {
		n, err := p.stderr.Read(buf)
		if n > 0 {
			total += int64(n)
			if total > p.opt.MaxStderr {
				p.setFlood(fmt.Sprintf("more than %s written to stderr", byteSize(p.opt.MaxStderr)))
				return
			}
			p.tail.Write(buf[:n])
			if p.opt.Stderr != nil {
				p.opt.Stderr.Write(buf[:n])
			}
		}
		if err != nil {
			return
		}
	}
}

// setFlood records the first flood and kills the process group.
func (p *Process) setFlood(why string) {
	p.mu.Lock()
	first := p.flood == ""
	if first {
		p.flood = why
		p.queue, p.queued = nil, 0
		p.signal()
	}
	p.mu.Unlock()
	if first {
		p.kill()
	}
}

// signal wakes a waiting ReadLine; p.mu is held.
func (p *Process) signal() {
	if p.waiting {
		close(p.wake)
		p.wake = make(chan struct{})
		p.waiting = false
	}
}

// Pid is the process id of the shell running the command.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Write sends raw bytes to the process's stdin.
func (p *Process) Write(b []byte) error {
	if _, err := p.stdin.Write(b); err != nil {
		return p.exitError(err)
	}
	return nil
}

// WriteLine sends s followed by a newline.
func (p *Process) WriteLine(s string) error { return p.Write([]byte(s + "\n")) }

// ReadLine returns the next output line (without the newline), waiting at
// most timeout (0 = forever). Errors wrap ErrTimeout or ErrExited (and
// ErrFlood or ErrCannotRun when that is why the process ended).
func (p *Process) ReadLine(timeout time.Duration) (string, error) {
	var timer <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		timer = t.C
	}
	for {
		p.mu.Lock()
		switch {
		case p.flood != "":
			p.mu.Unlock()
			return "", p.exitError(nil)
		case len(p.queue) > 0:
			line := p.queue[0]
			p.queue[0] = ""
			p.queue = p.queue[1:]
			p.queued -= len(line)
			p.mu.Unlock()
			return line, nil
		case p.eof:
			p.mu.Unlock()
			return "", p.exitError(nil)
		}
		p.waiting = true
		wake := p.wake
		p.mu.Unlock()
		select {
		case <-wake:
		case <-timer:
			return "", fmt.Errorf("%w after %v", ErrTimeout, timeout)
		}
	}
}

// exitError waits briefly for the exit status and describes it. (The wait
// also lets a cannot-run status abort the match before the game goes on.)
func (p *Process) exitError(cause error) error {
	select {
	case <-p.done:
	case <-time.After(2 * time.Second):
	}
	return p.describe(cause, p.Exited())
}

// describe says why the process is gone: flood, cannot run, or (once it
// has exited: p.waitErr is set) its exit status, with the stderr tail.
func (p *Process) describe(cause error, exited bool) error {
	p.mu.Lock()
	flood := p.flood
	p.mu.Unlock()
	if flood != "" {
		return &exitErr{msg: "process killed for flooding: " + flood, flood: true}
	}
	var b strings.Builder
	cant := exited && cannotRun(p.waitErr)
	if cant {
		fmt.Fprintf(&b, "%v %q (%v)", ErrCannotRun, p.cmdline, p.waitErr)
	} else {
		b.WriteString(ErrExited.Error())
		switch {
		case exited && p.waitErr != nil:
			fmt.Fprintf(&b, " (%v)", p.waitErr)
		case exited:
			b.WriteString(" (status 0)")
		case cause != nil:
			fmt.Fprintf(&b, " (%v)", cause)
		}
	}
	if t := strings.TrimSpace(p.tail.String()); t != "" {
		fmt.Fprintf(&b, "; stderr: %s", t)
	}
	return &exitErr{msg: b.String(), cannotRun: cant}
}

type exitErr struct {
	msg              string
	flood, cannotRun bool
}

func (e *exitErr) Error() string { return e.msg }
func (e *exitErr) Is(target error) bool {
	return target == ErrExited || (e.flood && target == ErrFlood) || (e.cannotRun && target == ErrCannotRun)
}

// Exited reports whether the process has ended.
func (p *Process) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

func (p *Process) kill() {
	if p.cmd.Process != nil {
		killGroup(p.cmd)
	}
}

// closePipes closes our ends of the output pipes, so that the readers stop
// even if something outside the group still holds the write ends.
func (p *Process) closePipes() {
	p.stdout.Close()
	p.stderr.Close()
}

// Close closes stdin, gives the process grace to exit on its own, then
// kills its whole process group. It returns promptly whatever the process
// prints, and is safe to call more than once.
func (p *Process) Close() error {
	p.once.Do(func() {
		p.stdin.Close()
		select {
		case <-p.done:
		case <-time.After(200 * time.Millisecond):
		}
		p.kill()
		p.closePipes()
		<-p.done
	})
	return nil
}

// StderrTail returns the last bytes the process wrote to stderr.
func (p *Process) StderrTail() string { return p.tail.String() }

// CheckCommand starts cmdline with stdin closed and reports an ErrCannotRun
// error if the shell cannot run it, so that a command can refuse a bot
// before it plays (and counts) any game. A command still running after
// wait (default 500 ms) or ending any other way passes; it is killed.
func CheckCommand(ctx context.Context, cmdline string, opt ProcessOptions, wait time.Duration) error {
	if wait <= 0 {
		wait = 500 * time.Millisecond
	}
	// Not the caller's match: a failed check is returned, not reported.
	p, err := StartProcess(context.WithValue(ctx, abortKey{}, nil), cmdline, opt)
	if err != nil {
		return err
	}
	defer p.Close()
	p.stdin.Close()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-p.done:
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
	if err := p.describe(nil, true); errors.Is(err, ErrCannotRun) {
		return err
	}
	return nil
}

// byteSize formats n bytes for messages.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(b)
	if extra := t.buf.Len() - t.max; extra > 0 {
		t.buf.Next(extra)
	}
	return len(b), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
