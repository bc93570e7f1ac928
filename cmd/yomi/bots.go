// bots.go holds what the verbs that run external bot commands share: a
// check, before any game, that the shell can run each command at all.
package main

import (
	"context"
	"fmt"
	"sync"

	"github.com/yomi-ai/yomi/arena"
)

// botCmd is one external bot command and the flag that named it.
type botCmd struct {
	flag, cmd string
	dir       string // working directory ("" = current)
}

// checkBots starts each command once (stdin closed, at most half a second,
// all at once) and fails if the shell cannot run one: a missing bot is an
// error before the match, not a string of lost games.
func checkBots(ctx context.Context, bots ...botCmd) error {
	errs := make([]error, len(bots))
	var wg sync.WaitGroup
	for i, b := range bots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := arena.CheckCommand(ctx, b.cmd, arena.ProcessOptions{Dir: b.dir}, 0); err != nil {
				errs[i] = fmt.Errorf("%s: %w", b.flag, err)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
