// `yomi arena`: the SPRT calculator (sprt), match reports rebuilt from results
// files (report) and the arena benchmarks.

package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/internal/bench"
	"github.com/yomi-ai/yomi/internal/cli"
)

func arenaArea() *cli.Area {
	return &cli.Area{
		Name:    "arena",
		Summary: "strength statistics: Elo, nElo, LOS, SPRT",
		Doc: `Game areas run their matches through the arena runner (see e.g. 'yomi separo match').
Here are the statistics on their own, for counts from anywhere.`,
		Verbs: []*cli.Verb{
			{Name: "sprt", Summary: "Elo, nElo, LOS and SPRT state for W/L/D or pentanomial counts", Run: runSPRT},
			{Name: "report", Summary: "statistics of a match's results file (JSON lines)", Run: runReport},
		},
	}
}

func parseInts(s string, n int, what string) ([]int, error) {
	parts := strings.Split(s, ",")
	if len(parts) != n {
		return nil, cli.Usagef("%s needs %d comma-separated counts, got %q", what, n, s)
	}
	out := make([]int, n)
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || v < 0 {
			return nil, cli.Usagef("%s: count %d (%q) is not a non-negative integer", what, i+1, p)
		}
		out[i] = v
	}
	return out, nil
}

// parseSPRTPair parses "elo0,elo1" as the game areas' --sprt flag takes it.
func parseSPRTPair(s string) (*arena.SPRT, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) != 2 {
		return nil, cli.Usagef("--sprt wants elo0,elo1 (e.g. 0,5), got %q", s)
	}
	sp := arena.DefaultSPRT()
	var err error
	if sp.Elo0, err = strconv.ParseFloat(strings.TrimSpace(parts[0]), 64); err != nil {
		return nil, cli.Usagef("--sprt: bad elo0 %q", parts[0])
	}
	if sp.Elo1, err = strconv.ParseFloat(strings.TrimSpace(parts[1]), 64); err != nil {
		return nil, cli.Usagef("--sprt: bad elo1 %q", parts[1])
	}
	if err := sp.Validate(); err != nil {
		return nil, cli.Usagef("%v", err)
	}
	return &sp, nil
}

func runSPRT(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi arena sprt", "--elo0 A --elo1 B [--alpha 0.05 --beta 0.05] [--model normalized|logistic|bayesian] (--wdl W,L,D | --ptnml LL,LD,DD+WL,WD,WW) [--json]",
		`Prints Elo, normalized Elo, LOS and the SPRT's log-likelihood ratio for the given counts
(from A's point of view), in fastchess's layout. Pentanomial counts are pair counts for pair
scores 0, 1/2, 1, 3/2, 2; W/L/D are derived from them for the report.`)
	elo0 := fs.Float64("elo0", 0, "Elo difference under H0")
	elo1 := fs.Float64("elo1", 2, "Elo difference under H1")
	alpha := fs.Float64("alpha", 0.05, "false-positive rate")
	beta := fs.Float64("beta", 0.05, "false-negative rate")
	model := fs.String("model", "normalized", "Elo model: normalized, logistic or bayesian")
	wdl := fs.String("wdl", "", "trinomial counts `W,L,D`")
	ptnml := fs.String("ptnml", "", "pentanomial counts `LL,LD,DD+WL,WD,WW`")
	name := fs.String("names", "A,B", "names of the two sides")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	s := arena.SPRT{Elo0: *elo0, Elo1: *elo1, Alpha: *alpha, Beta: *beta, Model: arena.Model(*model)}
	if err := s.Validate(); err != nil {
		return cli.Usagef("%v", err)
	}
	if (*wdl == "") == (*ptnml == "") {
		return cli.Usagef("give exactly one of --wdl and --ptnml")
	}
	names := strings.SplitN(*name, ",", 2)
	if len(names) != 2 {
		return cli.Usagef("--names wants A,B")
	}
	var sum arena.Summary
	if *wdl != "" {
		v, err := parseInts(*wdl, 3, "--wdl")
		if err != nil {
			return err
		}
		sum = arena.Summarize(names[0], names[1], arena.WDL{W: v[0], L: v[1], D: v[2]}, nil, &s)
	} else {
		if s.Model == arena.Bayesian {
			return cli.Usagef("the bayesian model has no pentanomial form; use --wdl")
		}
		v, err := parseInts(*ptnml, 5, "--ptnml")
		if err != nil {
			return err
		}
		// The middle bucket is pooled; W/L/D need a split, so count it as draws.
		p := arena.Ptnml{LL: v[0], LD: v[1], DD: v[2], WD: v[3], WW: v[4]}
		w := arena.WDL{W: 2*p.WW + p.WD, L: 2*p.LL + p.LD, D: p.LD + 2*p.DD + p.WD}
		sum = arena.Summarize(names[0], names[1], w, &p, &s)
	}
	if *asJSON {
		return cli.WriteJSON(env.Stdout, sum)
	}
	sum.Write(env.Stdout)
	return nil
}

func arenaBenchmarks() []bench.Benchmark {
	return []bench.Benchmark{{
		Name:    "arena/sprt",
		Summary: "pentanomial normalized-model SPRT updates per second",
		Run: func(ctx context.Context) ([]bench.Figure, error) {
			s := arena.DefaultSPRT()
			p := arena.Ptnml{LL: 900, LD: 4000, DD: 9000, WL: 1000, WD: 4100, WW: 950}
			var sink float64
			calls, _, el := bench.Rate(300*time.Millisecond, func() int64 {
				p.WW++
				sink += s.LLRPentanomial(p)
				return 1
			})
			if sink == 0 {
				return nil, fmt.Errorf("no LLR computed")
			}
			return []bench.Figure{{Name: "arena/sprt", Value: float64(calls) / el.Seconds(), Unit: "updates/s"}}, nil
		},
	}}
}

func runReport(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi arena report", "[--sprt elo0,elo1] [--json] RESULTS.jsonl",
		`Rebuilds the statistics of a match from the results file a game's match command wrote
(--results): the fastchess block for two-player games, paired score statistics for score games.`)
	sprt := fs.String("sprt", "", "also evaluate an SPRT `elo0,elo1` (normalized model, alpha = beta = 0.05)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return cli.Usagef("report needs exactly one results file")
	}
	s, err := parseSPRTPair(*sprt)
	if err != nil {
		return err
	}
	games, err := arena.ReadResults(fs.Arg(0))
	if err != nil {
		return err
	}
	rep, err := arena.SummarizeRecords(games, s)
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	if *asJSON {
		return cli.WriteJSON(env.Stdout, rep)
	}
	rep.(interface{ Write(io.Writer) }).Write(env.Stdout)
	return nil
}
