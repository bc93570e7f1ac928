// This file holds `yomi tetris pc percent|path`, the perfect-clear finder's
// verbs, and its `tetris/pc` benchmarks.

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/yomi-ai/yomi/internal/bench"
	"github.com/yomi-ai/yomi/internal/cli"
	"github.com/yomi-ai/yomi/tetris/pc"
)

// tetrisPCVerb returns the `pc` verb group of the tetris area.
func tetrisPCVerb() *cli.Verb {
	return &cli.Verb{
		Name:    "pc",
		Summary: "perfect-clear finder (sfinder-compatible): pc percent | pc path",
		Run: func(ctx context.Context, env *cli.Env, args []string) error {
			if len(args) == 0 {
				return cli.Usagef("usage: yomi tetris pc percent|path --field ROWS --pieces PATTERN [--clear N] [--hold|--no-hold] [--json]")
			}
			switch args[0] {
			case "percent":
				return tetrisPCRun(ctx, env, args[1:], false)
			case "path":
				return tetrisPCRun(ctx, env, args[1:], true)
			}
			return cli.Usagef("yomi tetris pc: unknown verb %q (want percent or path)", args[0])
		},
	}
}

type pcArgs struct {
	field, pieces   string
	clear           int
	hold, noHold    bool
	json, solutions bool
}

func pcFlags(env *cli.Env, path bool) (*flag.FlagSet, *pcArgs) {
	a := &pcArgs{}
	name, doc := "tetris pc percent", "Counts the sequences of PATTERN from which a perfect clear exists (sfinder percent)."
	if path {
		name, doc = "tetris pc path", "Counts the unique and minimal perfect-clear solutions over PATTERN (sfinder path)."
	}
	doc += "\nA search that runs over a second draws a progress bar on stderr; Ctrl-C or SIGTERM stops\nit within a moment (exit 1, no result)."
	fs := cli.NewFlags(env, name, "--field ROWS --pieces PATTERN [--clear N] [--hold|--no-hold] [--json]", doc)
	fs.StringVar(&a.field, "field", "", "field rows top first, X filled, _ empty, separated by spaces, commas or newlines (or @FILE, -)")
	fs.StringVar(&a.pieces, "pieces", "", "sfinder pattern, e.g. '*p7', 'T,I,O,*p4' (or @FILE, -)")
	fs.IntVar(&a.clear, "clear", 0, "lines to clear (default: the field's row count, or 4 for an empty field)")
	fs.BoolVar(&a.hold, "hold", true, "allow hold")
	fs.BoolVar(&a.noHold, "no-hold", false, "disallow hold")
	fs.BoolVar(&a.json, "json", false, "print JSON")
	if path {
		fs.BoolVar(&a.solutions, "solutions", false, "also print the minimal solutions as fields")
	}
	return fs, a
}

func tetrisPCRun(ctx context.Context, env *cli.Env, args []string, path bool) error {
	fs, a := pcFlags(env, path)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	if a.pieces == "" {
		return cli.Usagef("--pieces is required")
	}
	fieldText, err := cli.ReadArg(env, a.field)
	if a.field == "" {
		fieldText, err = "", nil
	}
	if err != nil {
		return err
	}
	patText, err := cli.ReadArg(env, a.pieces)
	if err != nil {
		return err
	}
	var f pc.Field
	rows := 0
	if strings.TrimSpace(fieldText) != "" {
		if f, rows, err = pc.ParseField(fieldText); err != nil {
			return cli.Usagef("--field: %v", err)
		}
	}
	h := a.clear
	if h == 0 {
		h = rows
		if h == 0 {
			h = 4
		}
	}
	if h < 1 || h > pc.MaxHeight {
		return cli.Usagef("--clear %d outside 1..%d", h, pc.MaxHeight)
	}
	if rows > h {
		// Rows above the clear height must be empty.
		if uint64(f)>>(10*h) != 0 {
			return cli.Usagef("--field has blocks above --clear %d", h)
		}
	}
	pat, err := pc.ParsePattern(patText)
	if err != nil {
		return cli.Usagef("--pieces: %v", err)
	}
	opt := pc.Options{Height: h, Hold: a.hold && !a.noHold}
	prog := newPCProgress(env, path)
	opt.Progress = prog.update
	if !path {
		s, t, err := pc.Percent(ctx, f, pat, opt)
		prog.finish(err)
		if err != nil {
			return prog.wrap(ctx, err)
		}
		if a.json {
			return cli.WriteJSON(env.Stdout, map[string]int{"success": s, "total": t})
		}
		pct := 0.0
		if t > 0 {
			pct = 100 * float64(s) / float64(t)
		}
		_, err = fmt.Fprintf(env.Stdout, "success: %d/%d (%.2f %%)\n", s, t, pct)
		return err
	}
	sols, _, err := pc.Paths(ctx, f, pat, opt)
	prog.finish(err)
	if err != nil {
		return prog.wrap(ctx, err)
	}
	minimal := pc.Minimal(sols)
	if a.json {
		out := map[string]any{"unique": len(sols), "minimal": len(minimal)}
		if a.solutions {
			var fs []string
			for _, s := range minimal {
				fs = append(fs, strings.TrimSpace(s.Format(f, h)))
			}
			out["solutions"] = fs
		}
		return cli.WriteJSON(env.Stdout, out)
	}
	fmt.Fprintf(env.Stdout, "unique: %d\nminimal: %d\n", len(sols), len(minimal))
	if a.solutions {
		for i, s := range minimal {
			fmt.Fprintf(env.Stdout, "\n# minimal %d (solves %d sequences)\n%s", i+1, len(s.Covers), s.Format(f, h))
		}
	}
	return nil
}

// pcProgress draws a progress bar on stderr for a long pc search: only
// once it has run for pcProgressAfter, so quick searches print nothing.
type pcProgress struct {
	env         *cli.Env
	desc        string
	start       time.Time
	mu          sync.Mutex
	bar         *progressbar.ProgressBar
	done, total int
}

// pcProgressAfter is how long a search runs before it gets a bar.
const pcProgressAfter = time.Second

// newPCProgress returns the bar of one search: over the pattern's
// sequences, or (path, and percent's bitset path) over the moves from the
// field that the search explores in turn.
func newPCProgress(env *cli.Env, path bool) *pcProgress {
	desc := "pc percent"
	if path {
		desc = "pc path"
	}
	return &pcProgress{env: env, desc: desc, start: time.Now()}
}

// update is pc.Options.Progress (called from the search's goroutines).
func (p *pcProgress) update(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if done <= p.done && total == p.total {
		return // reports from several workers arrive out of order
	}
	p.done, p.total = done, total
	if p.bar == nil {
		if time.Since(p.start) < pcProgressAfter {
			return
		}
		p.bar = cli.Progress(p.env.Stderr, int64(total), p.desc, false)
	}
	_ = p.bar.Set(done)
}

// finish ends the bar: complete after a whole search, cut short (with its
// line ended) after an error.
func (p *pcProgress) finish(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar == nil {
		return
	}
	if err == nil {
		_ = p.bar.Finish()
	} else {
		fmt.Fprintln(p.env.Stderr)
	}
	p.bar = nil
}

// wrap names an interruption as such, with how far the search got.
func (p *pcProgress) wrap(ctx context.Context, err error) error {
	if ctx.Err() == nil || !errors.Is(err, ctx.Err()) {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.total > 0 {
		return fmt.Errorf("interrupted (%w) after %d of %d steps of the search; no result", err, p.done, p.total)
	}
	return fmt.Errorf("interrupted (%w); no result", err)
}

// pcBenchCases are the spec's sfinder percent vectors (§25.4), the empty
// 2-line field and a 10-placement case on the empty 4-line field.
var pcBenchCases = []struct {
	name, field, pattern string
	clear                int
}{
	{"percent1", "_______XXX ________XX XX____XXXX XX_____XXX", "*p7", 4},
	{"percent2", "X____X____ XX__XX____ XX__XX____ XXXXXX____", "T,I,O,*p4", 4},
	{"percent5", "XXXX_____X XX______XX XXX____XXX XXX_____XX", "[OSZTLJ]p6", 4},
	{"empty2", "__________ __________", "*p7", 2},
	// 10 placements: Percent's shared-solutions path (solcache.go).
	{"empty4-10", "__________ __________ __________ __________", "I,O,L,J,S,Z,T,*p4", 4},
}

// pcBenchRuns is how many times each case runs; the best time is reported.
const pcBenchRuns = 5

// tetrisPCBenchmarks returns the `tetris/pc` benchmarks: time per spec percent case.
func tetrisPCBenchmarks() []bench.Benchmark {
	return []bench.Benchmark{{
		Name:    "tetris/pc",
		Summary: "perfect-clear finder: best of 5 times for each spec sfinder percent case (hold, 4 lines, all cores), the empty 2-line field with *p7 and the empty 4-line field with I,O,L,J,S,Z,T,*p4 (10 placements)",
		Run: func(ctx context.Context) ([]bench.Figure, error) {
			var figs []bench.Figure
			for _, c := range pcBenchCases {
				f, _, err := pc.ParseField(c.field)
				if err != nil {
					return nil, err
				}
				pat, err := pc.ParsePattern(c.pattern)
				if err != nil {
					return nil, err
				}
				var s, n int
				el := time.Duration(1 << 62)
				for range pcBenchRuns {
					start := time.Now()
					s, n, err = pc.Percent(ctx, f, pat, pc.Options{Height: c.clear, Hold: true})
					if err != nil {
						return nil, err
					}
					el = min(el, time.Since(start))
				}
				name := "tetris/pc/" + c.name
				figs = append(figs,
					bench.Figure{Name: name + "/success", Value: float64(s), Unit: "sequences"},
					bench.Figure{Name: name + "/total", Value: float64(n), Unit: "sequences"},
					bench.Figure{Name: name + "/time", Value: float64(el.Microseconds()) / 1000, Unit: "ms"})
			}
			return figs, nil
		},
	}}
}
