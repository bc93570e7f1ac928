// tetris_tbpspeed.go is the `yomi tetris tbp-speed` verb: the search rate
// of any Tetris Bot Protocol bot on the tetris/bot benchmark positions,
// timed from outside the process the same way for every bot (issue 6's
// speed target compares Yomi with Cold Clear 2, which has no benchmark
// mode of its own and reports its rate only inside move_info).

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/internal/cli"
	"github.com/yomi-ai/yomi/tetris"
	"github.com/yomi-ai/yomi/tetris/bot"
	"github.com/yomi-ai/yomi/tetris/tbp"
)

// tbpSpeedPosition is one position's measurement.
type tbpSpeedPosition struct {
	Nodes     int64   `json:"nodes"`      // the bot's move_info.nodes at the stop
	Seconds   float64 `json:"seconds"`    // from sending start to that suggestion's arrival
	Rate      float64 `json:"rate"`       // Nodes / Seconds
	Polls     int     `json:"polls"`      // suggest messages sent
	BotReport string  `json:"bot_report"` // the bot's own move_info nps and extra text
}

// tbpSpeedResult is the whole run.
type tbpSpeedResult struct {
	Bot       string             `json:"bot"`
	Budget    int64              `json:"budget"`
	Nodes     int64              `json:"nodes"`
	Seconds   float64            `json:"seconds"`
	Rate      float64            `json:"rate"`
	Positions []tbpSpeedPosition `json:"positions"`
}

// tbpStart is the TBP start message for a benchmark position: empty hold,
// no combo, the seven-bag state that follows the queue when the queue is
// read as the start of a bag (as tetris/bot's benchmark resets the bot).
func tbpStart(rows []string, queue string) (tbp.Start, error) {
	b, err := bot.ParseField(rows)
	if err != nil {
		return tbp.Start{}, err
	}
	q, err := parseQueue(queue)
	if err != nil {
		return tbp.Start{}, err
	}
	left := tetris.AllPieces
	for _, p := range q {
		left = left.Without(p)
		if left == 0 {
			left = tetris.AllPieces
		}
	}
	return tbp.Start{Queue: tbp.PieceNames(q), Board: tbp.BoardFrom(&b.Board), Randomizer: tbp.SevenBag(left)}, nil
}

// tbpSpeed runs the benchmark positions on c: for each, start, then
// suggest every poll until move_info.nodes reaches budget, then stop. With
// wait > 0 it sends one suggest wait after start instead (for bots that
// stop thinking at suggest, like Yomi's TBP server) and takes that
// suggestion's nodes whatever their number.
func tbpSpeed(ctx context.Context, c *tbp.Client, budget int64, poll, wait, limit time.Duration) (tbpSpeedResult, error) {
	res := tbpSpeedResult{Bot: c.Info.Name + " " + c.Info.Version, Budget: budget}
	if err := c.Rules(tbp.Rules{Randomizer: "seven_bag"}); err != nil {
		return res, err
	}
	for i, pos := range tetrisBotPositions {
		st, err := tbpStart(pos.rows, pos.queue)
		if err != nil {
			return res, err
		}
		t0 := time.Now()
		if err := c.Send(st); err != nil {
			return res, err
		}
		var p tbpSpeedPosition
		for {
			if err := ctx.Err(); err != nil {
				return res, err
			}
			if wait > 0 {
				time.Sleep(wait)
			} else {
				time.Sleep(poll)
			}
			s, err := c.Suggest()
			if err != nil {
				return res, err
			}
			el := time.Since(t0)
			p.Polls++
			if s.MoveInfo == nil || s.MoveInfo.Nodes == 0 {
				if wait > 0 || el > limit {
					return res, fmt.Errorf("position %d: no move_info nodes after %v", i+1, el.Round(time.Millisecond))
				}
				continue
			}
			if wait > 0 || s.MoveInfo.Nodes >= budget || el > limit {
				p.Nodes, p.Seconds = s.MoveInfo.Nodes, el.Seconds()
				p.Rate = float64(p.Nodes) / p.Seconds
				p.BotReport = fmt.Sprintf("nps %.0f", s.MoveInfo.NPS)
				if s.MoveInfo.Extra != "" {
					p.BotReport += "; " + s.MoveInfo.Extra
				}
				break
			}
		}
		if err := c.Send(tbp.Stop{}); err != nil {
			return res, err
		}
		res.Positions = append(res.Positions, p)
		res.Nodes += p.Nodes
		res.Seconds += p.Seconds
	}
	if res.Seconds > 0 {
		res.Rate = float64(res.Nodes) / res.Seconds
	}
	return res, nil
}

func runTetrisTBPSpeed(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi tetris tbp-speed", "--bot CMD [flags]",
		`Times a Tetris Bot Protocol bot's search on the four positions of the tetris/bot benchmark
(yomi bench tetris/bot): for each, it sends start (empty hold, seven_bag state), then suggest
every --poll-ms until the suggestion's move_info.nodes reaches --nodes, and reports
nodes / (time from start to that suggestion). A bot that stops thinking at suggest (Yomi's TBP
server does) is timed with --wait-ms W instead: one suggest W ms after start. Every bot is
timed the same way from outside, so Yomi ("yomi tetris tbp --threads 2") and Cold Clear 2 can
be compared on one harness; each bot's own nps and extra text from move_info are printed too.
What a node is stays each bot's own definition (see BENCHMARKS.md).`)
	cmd := fs.String("bot", "", "TBP bot command line (run with /bin/sh -c)")
	budget := fs.Int64("nodes", tetrisBotBudget, "nodes per position")
	pollMS := fs.Int("poll-ms", 5, "interval between suggest messages in `MS`")
	waitMS := fs.Int("wait-ms", 0, "send a single suggest after `MS` instead of polling (0: poll)")
	limit := fs.Duration("limit", time.Minute, "give up a position after this long")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	if *cmd == "" || *budget < 1 || *pollMS < 1 || *waitMS < 0 || *limit <= 0 {
		return cli.Usagef("--bot is required; --nodes, --poll-ms and --limit must be > 0, --wait-ms ≥ 0")
	}
	c, err := tbp.Launch(ctx, *cmd, 30*time.Second, arena.ProcessOptions{})
	if err != nil {
		return err
	}
	defer c.Close()
	c.Timeout = 30 * time.Second
	res, err := tbpSpeed(ctx, c, *budget, time.Duration(*pollMS)*time.Millisecond, time.Duration(*waitMS)*time.Millisecond, *limit)
	// Let the bot exit on its own (Close kills it after 200 ms), so that a
	// wrapper such as /usr/bin/time can report its CPU time.
	if c.Send(tbp.Quit{}) == nil {
		for i := 0; i < 500 && !c.Exited(); i++ {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if err != nil {
		return fmt.Errorf("%v (bot stderr: %s)", err, c.StderrTail())
	}
	if *asJSON {
		b, _ := json.Marshal(res)
		fmt.Fprintln(env.Stdout, string(b))
		return nil
	}
	fmt.Fprintf(env.Stdout, "bot %s\n", res.Bot)
	for i, p := range res.Positions {
		fmt.Fprintf(env.Stdout, "position %d: %d nodes in %.3fs = %.3f M nodes/s (%d polls; bot says: %s)\n",
			i+1, p.Nodes, p.Seconds, p.Rate/1e6, p.Polls, p.BotReport)
	}
	fmt.Fprintf(env.Stdout, "total: %d nodes in %.3fs = %.3f M nodes/s\n", res.Nodes, res.Seconds, res.Rate/1e6)
	return nil
}
