// tetris_placements.go plugs the engine's move generator (tetris/movegen)
// into the binary: the `yomi tetris placements` verb and the
// `tetris/movegen` benchmark.

package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/yomi-ai/yomi/internal/bench"
	"github.com/yomi-ai/yomi/internal/cli"
	"github.com/yomi-ai/yomi/tetris"
	"github.com/yomi-ai/yomi/tetris/movegen"
)

// withTetrisPlacements adds the placements verb and the movegen benchmark.
func withTetrisPlacements(g game) game {
	g.area.Verbs = append(g.area.Verbs, &cli.Verb{
		Name:    "placements",
		Summary: "list every reachable placement of a piece (and the hold piece) on a field",
		Run:     runTetrisPlacements,
	})
	g.benches = append(g.benches, tetrisMovegenBenchmarks()...)
	return g
}

// placementJSON is one placement in --json output; orientation, x, y and
// spin are TBP's location fields, the rest are extras.
type placementJSON struct {
	Piece       string   `json:"piece"`
	Orientation string   `json:"orientation"`
	X           int      `json:"x"`
	Y           int      `json:"y"`
	Spin        string   `json:"spin"`
	Hold        bool     `json:"hold"`
	Lines       int      `json:"lines"`
	Time        int      `json:"time"`
	Path        []string `json:"path"`
}

func runTetrisPlacements(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "tetris placements", "--field ROWS --piece P [--hold P] [--180] [--no-spin-180] [--step-drop] [--sfinder-spins] [--json]",
		"Lists every reachable final placement of piece P on the field (complete 0G move generator:\n"+
			"shifts, SRS kicks, soft drops, tucks, spins), one per covered cells plus spin status, with\n"+
			"its fastest input path and time in ticks (Cold Clear 1's cost model). Coordinates are\n"+
			"TBP's: the piece center, y up from the bottom row.")
	field := fs.String("field", "", "field rows top first, X filled, _ empty, separated by '/', spaces or newlines (or @FILE, -); default empty")
	pieceS := fs.String("piece", "", "piece to place: I O T L J S Z")
	holdS := fs.String("hold", "", "also list the placements of this hold piece (marked hold, +1 tick)")
	allow180 := fs.Bool("180", false, "allow 180° rotations (jstris kick table)")
	noSpin180 := fs.Bool("no-spin-180", false, "with --180: a 180° turn never makes a T-spin")
	stepDrop := fs.Bool("step-drop", false, "also soft-drop one row at a time (stop mid-fall, as sfinder and human players can)")
	sfinder := fs.Bool("sfinder-spins", false, "upgrade 5th-kick T-spins only when ending east/west (sfinder)")
	asJSON := fs.Bool("json", false, "print a JSON list")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	if *pieceS == "" {
		return cli.Usagef("--piece is required")
	}
	p, err := tetris.ParsePiece(*pieceS)
	if err != nil {
		return cli.Usagef("--piece: %v", err)
	}
	hold := tetris.NoPiece
	if *holdS != "" {
		if hold, err = tetris.ParsePiece(*holdS); err != nil {
			return cli.Usagef("--hold: %v", err)
		}
	}
	text := ""
	if *field != "" {
		if text, err = cli.ReadArg(env, *field); err != nil {
			return err
		}
	}
	b, err := tetris.ParseField(text)
	if err != nil {
		return cli.Usagef("--field: %v", err)
	}
	opts := movegen.Options{Allow180: *allow180, NoSpin180: *noSpin180, StepDrop: *stepDrop}
	if *sfinder {
		opts.SpinRule = tetris.FifthKickTST
	}
	g := movegen.New(opts)
	moves := g.Turn(nil, &b, p, hold, tetris.NoPiece, hold != tetris.NoPiece)
	out := make([]placementJSON, 0, len(moves))
	var path []movegen.Input
	for _, m := range moves {
		path = g.Path(m, path[:0])
		names := make([]string, len(path))
		for i, in := range path {
			names[i] = in.String()
		}
		s := tetris.State{Board: b}
		res := s.Lock(m.Placement, &tetris.CC1Attack)
		out = append(out, placementJSON{
			Piece: m.Piece.String(), Orientation: m.Rot.String(), X: int(m.X), Y: int(m.Y),
			Spin: m.Spin.String(), Hold: m.Hold, Lines: res.Lines, Time: int(m.Time), Path: names,
		})
	}
	if *asJSON {
		return cli.WriteJSON(env.Stdout, out)
	}
	for _, o := range out {
		h := ""
		if o.Hold {
			h = " hold"
		}
		fmt.Fprintf(env.Stdout, "%s %-5s x=%d y=%d spin=%s%s lines=%d time=%d path=%s\n",
			o.Piece, o.Orientation, o.X, o.Y, o.Spin, h, o.Lines, o.Time, strings.Join(o.Path, ","))
	}
	_, err = fmt.Fprintf(env.Stdout, "%d placements\n", len(out))
	return err
}

// tetrisMovegenBenchmarks measures the move generator on its fixed board set.
func tetrisMovegenBenchmarks() []bench.Benchmark {
	return []bench.Benchmark{{
		Name:    "tetris/movegen",
		Summary: "move generator: placements/s and ns per piece over 64 fixed boards × 7 pieces (1 thread), complete and CC1 fast mode",
		Run: func(ctx context.Context) ([]bench.Figure, error) {
			boards := movegen.BenchBoards()
			g := movegen.New(movegen.Options{})
			dst := make([]movegen.Move, 0, 1024)
			var perRun, callsPerRun int
			calls, work, el := bench.Rate(2*time.Second, func() int64 {
				n, c := movegen.BenchWorkload(g, boards, dst)
				perRun, callsPerRun = n, c
				return int64(n)
			})
			figs := []bench.Figure{
				{Name: "tetris/movegen/placements", Value: float64(perRun), Unit: "placements per pass"},
				{Name: "tetris/movegen/rate", Value: float64(work) / el.Seconds(), Unit: "placements/s"},
				{Name: "tetris/movegen/piece", Value: float64(el.Nanoseconds()) / float64(calls*int64(callsPerRun)), Unit: "ns/piece"},
			}
			// CC1's fast mode (the bot's default), same boards.
			fastRun := 0
			calls, work, el = bench.Rate(2*time.Second, func() int64 {
				n := 0
				for i := range boards {
					for p := tetris.I; p <= tetris.Z; p++ {
						dst = g.FastGenerate(dst[:0], &boards[i], p)
						n += len(dst)
					}
				}
				fastRun = n
				return int64(n)
			})
			return append(figs,
				bench.Figure{Name: "tetris/movegen/fast/placements", Value: float64(fastRun), Unit: "placements per pass"},
				bench.Figure{Name: "tetris/movegen/fast/rate", Value: float64(work) / el.Seconds(), Unit: "placements/s"},
				bench.Figure{Name: "tetris/movegen/fast/piece", Value: float64(el.Nanoseconds()) / float64(calls*int64(callsPerRun)), Unit: "ns/piece"},
			), nil
		},
	}}
}
