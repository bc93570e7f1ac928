// This file holds external bots as processes: started through /bin/sh in their
// own process group, line reads with timeouts, exit status and stderr tail in
// errors.

package arena

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
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

// ProcessOptions configures StartProcess.
type ProcessOptions struct {
	Dir        string   // working directory ("" = current)
	Env        []string // extra environment variables (KEY=VALUE)
	MaxLine    int      // longest accepted output line in bytes (default 1 MiB)
	StderrTail int      // bytes of stderr kept for error messages (default 2 KiB)
	// Stderr, if set, also receives everything the process writes to stderr.
	Stderr io.Writer
}

// Process is an external bot speaking a line protocol on stdin/stdout. It
// runs in its own process group so Close kills everything it started.
type Process struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	lines   chan string
	readErr error // set before lines is closed
	done    chan struct{}
	waitErr error
	tail    *tailBuffer
	once    sync.Once
}

// StartProcess runs cmdline with /bin/sh -c.
func StartProcess(ctx context.Context, cmdline string, opt ProcessOptions) (*Process, error) {
	if strings.TrimSpace(cmdline) == "" {
		return nil, errors.New("empty command line")
	}
	if opt.MaxLine <= 0 {
		opt.MaxLine = 1 << 20
	}
	if opt.StderrTail <= 0 {
		opt.StderrTail = 2048
	}
	cmd := exec.Command("/bin/sh", "-c", cmdline)
	cmd.Dir = opt.Dir
	if len(opt.Env) > 0 {
		cmd.Env = append(cmd.Environ(), opt.Env...)
	}
	ownGroup(cmd)
	p := &Process{cmd: cmd, lines: make(chan string, 64), done: make(chan struct{}), tail: &tailBuffer{max: opt.StderrTail}}
	if opt.Stderr != nil {
		cmd.Stderr = io.MultiWriter(p.tail, opt.Stderr)
	} else {
		cmd.Stderr = p.tail
	}
	var err error
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %q: %w", cmdline, err)
	}
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64*1024), opt.MaxLine)
		for sc.Scan() {
			p.lines <- strings.TrimRight(sc.Text(), "\r")
		}
		p.readErr = sc.Err()
		if p.readErr != nil {
			// An over-long line stops the scanner; nothing reads the pipe
			// any more, so the process would block: kill it.
			p.kill()
		}
		close(p.lines)
	}()
	go func() {
		// Wait closes stdout, so it must not run before the reader saw EOF.
		<-readDone
		p.waitErr = cmd.Wait()
		close(p.done)
	}()
	go func() {
		select {
		case <-ctx.Done():
			p.kill()
		case <-p.done:
		}
	}()
	return p, nil
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
// most timeout (0 = forever). Errors wrap ErrTimeout or ErrExited.
func (p *Process) ReadLine(timeout time.Duration) (string, error) {
	var timer <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		timer = t.C
	}
	select {
	case line, ok := <-p.lines:
		if !ok {
			if p.readErr != nil {
				return "", fmt.Errorf("%w: reading output: %v", ErrExited, p.readErr)
			}
			return "", p.exitError(nil)
		}
		return line, nil
	case <-timer:
		return "", fmt.Errorf("%w after %v", ErrTimeout, timeout)
	}
}

// exitError waits briefly for the exit status and describes it.
func (p *Process) exitError(cause error) error {
	select {
	case <-p.done:
	case <-time.After(500 * time.Millisecond):
	}
	var b strings.Builder
	b.WriteString(ErrExited.Error())
	select {
	case <-p.done:
		if p.waitErr != nil {
			fmt.Fprintf(&b, " (%v)", p.waitErr)
		} else {
			b.WriteString(" (status 0)")
		}
	default:
		if cause != nil {
			fmt.Fprintf(&b, " (%v)", cause)
		}
	}
	if t := strings.TrimSpace(p.tail.String()); t != "" {
		fmt.Fprintf(&b, "; stderr: %s", t)
	}
	return &exitErr{msg: b.String()}
}

type exitErr struct{ msg string }

func (e *exitErr) Error() string        { return e.msg }
func (e *exitErr) Is(target error) bool { return target == ErrExited }

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

// Close closes stdin, gives the process grace to exit on its own, then
// kills its whole process group. It is safe to call more than once.
func (p *Process) Close() error {
	p.once.Do(func() {
		p.stdin.Close()
		select {
		case <-p.done:
		case <-time.After(200 * time.Millisecond):
		}
		p.kill()
		<-p.done
	})
	return nil
}

// StderrTail returns the last bytes the process wrote to stderr.
func (p *Process) StderrTail() string { return p.tail.String() }

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
