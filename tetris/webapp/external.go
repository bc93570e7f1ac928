// This file holds the server's other bot: any TBP bot command given to
// `yomi serve --tetris-bot CMD` (Cold Clear 2, another Yomi…), one process
// per session, that the page can watch against Yomi.

package webapp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/tetris/tbp"
	"github.com/yomi-ai/yomi/tetris/webapp/api"
)

// external is one TBP bot process; it thinks in the background as TBP
// bots do, and a suggest waits the think time before asking.
type external struct {
	c *tbp.Client
}

// launchExternal starts cmd and reads its info (within 10 s).
func launchExternal(cmd string) (*external, error) {
	c, err := tbp.Launch(context.Background(), cmd, 10*time.Second, arena.ProcessOptions{})
	if err != nil {
		return nil, fmt.Errorf("the server's TBP bot did not start: %w", err)
	}
	return &external{c: c}, nil
}

func (e *external) info() api.Message {
	return api.Message{Type: "info", Name: e.c.Info.Name, Version: e.c.Info.Version, Author: e.c.Info.Author, Features: []string{}}
}

// handle forwards one message; a suggest first waits think, then the bot
// has maxWait to answer.
func (e *external) handle(ctx context.Context, m api.Message, think, maxWait time.Duration) ([]api.Message, error) {
	if e.c.Exited() {
		return nil, fmt.Errorf("the TBP bot exited: %s", e.c.StderrTail())
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	msg, err := tbp.DecodeFrontend(b)
	if err != nil {
		return nil, err
	}
	switch msg := msg.(type) {
	case tbp.Rules:
		e.c.Timeout = maxWait
		if err := e.c.Rules(msg); err != nil {
			return nil, err
		}
		return []api.Message{{Type: "ready"}}, nil
	case tbp.Suggest:
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(think):
		}
		e.c.Timeout = maxWait
		s, err := e.c.Suggest()
		if err != nil {
			return nil, err
		}
		b, err := tbp.Encode(s)
		if err != nil {
			return nil, err
		}
		out, err := api.Decode(b)
		if err != nil {
			return nil, err
		}
		return []api.Message{out}, nil
	case tbp.Unknown, tbp.Quit:
		return nil, nil // quit is the server's to send, at Close
	}
	return nil, e.c.Send(msg)
}

func (e *external) close() { e.c.Close() }

var errNoExternal = errors.New("this server has no TBP bot: start it with yomi serve --tetris-bot CMD")
