// client.go holds the frontend side of TBP: Client runs any TBP bot as a
// separate process (arena.Process: own process group, time limits, stderr
// tail) and exchanges typed messages with it.

package tbp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/yomi-ai/yomi/arena"
)

// Client drives one TBP bot process.
type Client struct {
	Info Info // the bot's info message
	p    *arena.Process
	// Timeout bounds each wait for an answer (info, ready, suggestion).
	Timeout time.Duration
	// Skipped counts lines the client ignored (unknown types, bad JSON).
	Skipped int
	paused  bool
}

// Launch starts cmdline (via /bin/sh -c) and reads its info message
// within timeout.
func Launch(ctx context.Context, cmdline string, timeout time.Duration, opt arena.ProcessOptions) (*Client, error) {
	p, err := arena.StartProcess(ctx, cmdline, opt)
	if err != nil {
		return nil, err
	}
	c := &Client{p: p, Timeout: timeout}
	m, err := c.await("info")
	if err != nil {
		p.Close()
		return nil, err
	}
	c.Info = m.(Info)
	return c, nil
}

// Send writes one message.
func (c *Client) Send(m Message) error {
	b, err := Encode(m)
	if err != nil {
		return err
	}
	return c.p.WriteLine(string(b))
}

// await reads lines until a message of one of the wanted types arrives,
// skipping anything else; each read waits at most c.Timeout.
func (c *Client) await(want ...string) (Message, error) {
	deadline := time.Now().Add(c.Timeout)
	for {
		wait := time.Until(deadline)
		if c.Timeout > 0 && wait <= 0 {
			return nil, fmt.Errorf("tbp: no %v within %v: %w", want, c.Timeout, arena.ErrTimeout)
		}
		if c.Timeout == 0 {
			wait = 0
		}
		line, err := c.p.ReadLine(wait)
		if err != nil {
			return nil, fmt.Errorf("tbp: waiting for %v: %w", want, err)
		}
		m, err := DecodeBot([]byte(line))
		if err != nil {
			c.Skipped++
			continue
		}
		for _, w := range want {
			if m.Type() == w {
				return m, nil
			}
		}
		c.Skipped++
	}
}

// Rules sends rules and waits for ready; an error message is returned as
// an error.
func (c *Client) Rules(r Rules) error {
	if err := c.Send(r); err != nil {
		return err
	}
	m, err := c.await("ready", "error")
	if err != nil {
		return err
	}
	if e, ok := m.(Error); ok {
		return fmt.Errorf("tbp: bot rejected the rules: %s", e.Reason)
	}
	return nil
}

// Suggest sends suggest and returns the suggestion.
func (c *Client) Suggest() (Suggestion, error) {
	if err := c.Send(Suggest{}); err != nil {
		return Suggestion{}, err
	}
	m, err := c.await("suggestion")
	if err != nil {
		return Suggestion{}, err
	}
	return m.(Suggestion), nil
}

// Pause stops the bot's process group (SIGSTOP) so that it cannot think
// while it is not its turn; Resume continues it. Messages sent while it is
// paused wait in the pipe.
func (c *Client) Pause() error {
	if c.paused {
		return nil
	}
	c.paused = true
	return c.signal(true)
}

func (c *Client) signal(stop bool) error {
	if err := signalGroup(c.p.Pid(), stop); err != nil {
		if errors.Is(err, errNoProcess) || c.p.Exited() {
			return fmt.Errorf("tbp: %w: %s", arena.ErrExited, c.p.StderrTail())
		}
		return err
	}
	return nil
}

// Resume continues a paused bot.
func (c *Client) Resume() error {
	if !c.paused {
		return nil
	}
	c.paused = false
	return c.signal(false)
}

// Exited reports whether the bot process has exited.
func (c *Client) Exited() bool { return c.p.Exited() }

// StderrTail returns the end of the bot's stderr (for loss reasons).
func (c *Client) StderrTail() string { return c.p.StderrTail() }

// Close sends quit and ends the process (killing its group if it does not
// exit by itself).
func (c *Client) Close() error {
	if c.paused {
		c.Resume()
	}
	c.Send(Quit{}) // a bot that already exited cannot read it
	return c.p.Close()
}
