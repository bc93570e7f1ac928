// `yomi bench`: runs the registered benchmarks and prints their deterministic
// figures (or JSON).

package main

import (
	"context"
	"fmt"

	"github.com/yomi-ai/yomi/internal/bench"
	"github.com/yomi-ai/yomi/internal/cli"
)

func benchArea(all []bench.Benchmark) *cli.Area {
	return &cli.Area{
		Name:    "bench",
		Summary: "run the deterministic benchmarks (`yomi bench [--json] [prefix...]`)",
		Run: func(ctx context.Context, env *cli.Env, args []string) error {
			fs := cli.NewFlags(env, "yomi bench", "[--json] [--list] [name-prefix...]",
				"Runs the registered benchmarks whose names start with one of the prefixes (all by\ndefault) and prints one line per figure: name value unit. Counts (nodes, states) are\ndeterministic; rates depend on the machine.")
			asJSON := fs.Bool("json", false, "print one JSON object per figure")
			list := fs.Bool("list", false, "list the benchmarks and exit")
			if err := cli.Parse(fs, args); err != nil {
				return err
			}
			sel := bench.Select(all, fs.Args())
			if len(sel) == 0 {
				return cli.Usagef("no benchmark matches %q (try --list)", fs.Args())
			}
			for _, b := range sel {
				if *list {
					fmt.Fprintf(env.Stdout, "%-24s %s\n", b.Name, b.Summary)
					continue
				}
				if err := ctx.Err(); err != nil {
					return err
				}
				figs, err := b.Run(ctx)
				if err != nil {
					return fmt.Errorf("%s: %w", b.Name, err)
				}
				for _, f := range figs {
					if *asJSON {
						if err := cli.WriteJSON(env.Stdout, f); err != nil {
							return err
						}
					} else {
						bench.Format(env.Stdout, f)
					}
				}
			}
			return nil
		},
	}
}
