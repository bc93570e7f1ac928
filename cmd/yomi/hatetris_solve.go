// This file holds `yomi hatetris solve`: the exact value of small wells
// (the data of the solved start, --start solved of `yomi hatetris train`).

package main

import (
	"context"
	"fmt"
	"time"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/internal/cli"
)

func runHatetrisSolve(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi hatetris solve", "[--height H] [--ai hatetris|mild] [--limit N] [--json]",
		`Solves HATETRIS exactly in a well of H rows below the bar (width 10): the most lines the
player can guarantee from the empty well when the enemy picks every piece by its own rule and
the player picks the placement. States are memoised on the well; the loop rule is exact: it
can act only between wells on a cycle of futures, whose states also hold the path's wells of
that cycle (found by a cycle search over every piece's futures between the reached wells,
repeated until the cycles no longer change). Prints the optimum, the wells and states, the wells by value, the
wells on cycles, how often the loop rule changed a piece, and the time. The wells grow 20- to
35-fold per row: heights 4 and 5 take seconds, 6 about 20 minutes and 7 GB (mostly the cycle
search); 7 does not fit in 24 GiB.`)
	h := fs.Int("height", 4, "rows below the bar, 1..7")
	ai := aiFlag(fs)
	limit := fs.Int("limit", 0, "stop with an error after this many states (0 = no limit)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	kind, err := hatetris.ParseAI(*ai)
	if err != nil {
		return cli.Usagef("%v", err)
	}
	if *h < 1 || *h > 7 {
		return cli.Usagef("--height %d: want 1..7", *h)
	}
	if *limit < 0 {
		return cli.Usagef("--limit must not be negative")
	}
	t0 := time.Now()
	sol, err := hatetris.SolveSmall(ctx, *h, kind, *limit)
	if err != nil {
		return err
	}
	out := struct {
		Height   int     `json:"height"`
		AI       string  `json:"ai"`
		Best     int     `json:"best"`
		Wells    int     `json:"wells"`
		States   int     `json:"states"`
		Cyclic   int     `json:"cyclic"`
		Edges    int     `json:"edges"`
		Rounds   int     `json:"rounds"`
		Fired    int     `json:"fired"`
		Revisits int     `json:"revisits"`
		Seconds  float64 `json:"seconds"`
		// ByValue[v] is the number of wells worth v lines.
		ByValue []int `json:"byValue"`
	}{Height: *h, AI: kind.String(), Best: sol.Best, Wells: len(sol.Value), States: sol.States,
		Cyclic: sol.Cyclic, Edges: sol.Edges, Rounds: sol.Rounds, Fired: sol.Fired,
		Revisits: sol.Revisits, Seconds: time.Since(t0).Seconds()}
	for _, v := range sol.Value {
		for int(v) >= len(out.ByValue) {
			out.ByValue = append(out.ByValue, 0)
		}
		out.ByValue[v]++
	}
	if *asJSON {
		return cli.WriteJSON(env.Stdout, out)
	}
	fmt.Fprintf(env.Stdout, "height %d (%s): best %d lines; %d wells, %d states; %d wells on cycles (%d edges searched), %d solves; loop rule changed the piece %d times, %d revisits; %.1f s\n",
		out.Height, out.AI, out.Best, out.Wells, out.States, out.Cyclic, out.Edges, out.Rounds, out.Fired, out.Revisits, out.Seconds)
	fmt.Fprintf(env.Stdout, "wells by value (lines 0, 1, ...): %v\n", out.ByValue)
	return nil
}
