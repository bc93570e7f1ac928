// tetris_bot.go plugs the Tetris bot (tetris/bot) into the binary: the
// `yomi tetris think` verb and the `tetris/bot` benchmarks.
package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/yomi-ai/yomi/internal/bench"
	"github.com/yomi-ai/yomi/internal/cli"
	"github.com/yomi-ai/yomi/tetris/bot"
)

// withTetrisBot adds the bot's verb and benchmarks to the tetris game.
func withTetrisBot(g game) game {
	g.area.Verbs = append(g.area.Verbs, &cli.Verb{Name: "think", Summary: "search a position with the Cold-Clear-class bot and print its move", Run: runTetrisThink})
	g.benches = append(g.benches, tetrisBotBenchmarks()...)
	g.benches = append(g.benches, tetrisInGameBenchmarks()...)
	return g
}

// parseQueue reads pieces such as "TIOLJ".
func parseQueue(s string) ([]bot.Piece, error) {
	var q []bot.Piece
	for i, ch := range strings.TrimSpace(s) {
		p, err := bot.ParsePiece(string(ch))
		if err != nil {
			return nil, fmt.Errorf("queue position %d: %v", i+1, err)
		}
		q = append(q, p)
	}
	return q, nil
}

// parseBotField reads rows top to bottom separated by '/', ',' or newlines.
func parseBotField(s string) (bot.Board, error) {
	f := func(r rune) bool { return r == '/' || r == ',' || r == '\n' || r == ' ' }
	rows := strings.FieldsFunc(s, f)
	return bot.ParseField(rows)
}

type thinkOutput struct {
	Moves      []thinkMove `json:"moves"`
	Nodes      int64       `json:"nodes"`
	Expansions int64       `json:"expansions"`
	Unique     int         `json:"unique_nodes"`
	Depth      int         `json:"depth"`
	Seconds    float64     `json:"seconds"`
	NodesPerS  float64     `json:"nodes_per_second"`
	Plan       []thinkMove `json:"plan"`
	PC         *pcOutput   `json:"pc,omitempty"`
}

// pcOutput is the perfect-clear mode's part of `think --json`.
type pcOutput struct {
	Active  bool    `json:"active"`
	Moves   int     `json:"moves_left"`
	Seconds float64 `json:"search_seconds"`
	GaveUp  bool    `json:"gave_up"`
}

type thinkMove struct {
	Piece       string `json:"piece"`
	Orientation string `json:"orientation"`
	X           int    `json:"x"`
	Y           int    `json:"y"`
	Spin        string `json:"spin"`
	Hold        bool   `json:"hold"`
}

func toThinkMove(m bot.Move) thinkMove {
	return thinkMove{m.Piece.String(), m.Rot.String(), int(m.X), int(m.Y), m.Spin.String(), m.Hold}
}

func runTetrisThink(ctx context.Context, env *cli.Env, args []string) error {
	fs := cli.NewFlags(env, "yomi tetris think", "--queue PIECES [--field ROWS|@FILE] [flags]",
		`Searches one position with the Cold-Clear-class bot (CC1 Standard evaluator, Monte-Carlo DAG
search with 7-bag speculation) and prints the chosen move first, then the other root moves best
first, with nodes, nodes/s and depth. The field is rows top to bottom ('X' filled, '_' empty)
separated by '/' or newlines; the queue starts with the current piece.`)
	field := fs.String("field", "", "board rows top to bottom, `ROWS` separated by '/' (or @FILE, - for stdin)")
	queue := fs.String("queue", "", "known `PIECES`, current first, e.g. TIOLJ")
	hold := fs.String("hold", "", "held `PIECE` (empty: none)")
	combo := fs.Uint("combo", 0, "consecutive clears so far (TBP/CC convention)")
	b2b := fs.Bool("b2b", false, "back-to-back is active")
	nodes := fs.Int64("nodes", 200000, "node budget (0: time only)")
	ms := fs.Int("ms", 0, "time budget in milliseconds (0: nodes only)")
	threads := fs.Int("threads", 1, "search threads")
	seed := fs.Uint64("seed", 1, "selection seed")
	incoming := fs.Int("incoming", 0, "incoming garbage lines for the final-move rule")
	weights := fs.String("weights", "", "evaluator weights JSON `FILE` (default: Cold Clear's)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	pcMode := fs.Bool("pc", false, "perfect-clear mode: on an empty board with 11 known pieces (10 with --no-hold) play a perfect clear found by tetris/pc")
	pcNodes := fs.Int64("pc-nodes", 0, "perfect-clear finder budget in positions (0: default)")
	noHold := fs.Bool("no-hold", false, "play without hold")
	reserve := reserveFlag(fs)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	if *nodes < 0 || *ms < 0 || *incoming < 0 {
		return cli.Usagef("--nodes, --ms and --incoming must not be negative")
	}
	if *nodes == 0 && *ms == 0 {
		return cli.Usagef("need --nodes or --ms")
	}
	if *threads < 1 || *threads > 64 {
		return cli.Usagef("--threads must be 1..64")
	}
	var board bot.Board
	if *field != "" {
		text, err := cli.ReadArg(env, *field)
		if err != nil {
			return err
		}
		if board, err = parseBotField(text); err != nil {
			return cli.Usagef("--field: %v", err)
		}
	}
	board.Combo = uint32(*combo)
	board.B2B = *b2b
	q, err := parseQueue(*queue)
	if err != nil {
		return cli.Usagef("--queue: %v", err)
	}
	if len(q) == 0 {
		return cli.Usagef("--queue needs at least one piece")
	}
	h := bot.NoPiece
	if *hold != "" {
		if h, err = bot.ParsePiece(*hold); err != nil {
			return cli.Usagef("--hold: %v", err)
		}
	}
	if *pcNodes < 0 {
		return cli.Usagef("--pc-nodes must be >= 0")
	}
	if *reserve < 0 {
		return cli.Usagef("--reserve must be ≥ 0")
	}
	opt := bot.Options{Threads: *threads, Seed: *seed, PerfectClear: *pcMode, PCNodes: *pcNodes, NoHold: *noHold,
		Reserve: reserveOption(*reserve)}
	if *weights != "" {
		w, err := bot.LoadWeights(*weights)
		if err != nil {
			return err
		}
		opt.Weights = &w
	}
	b := bot.New(opt)
	if err := b.Reset(board, q, h, 0); err != nil {
		return cli.Usagef("%v", err)
	}
	st := b.Think(ctx, bot.Budget{Nodes: *nodes, Duration: time.Duration(*ms) * time.Millisecond})
	out := thinkOutput{Nodes: st.Nodes, Expansions: st.Expansions, Unique: st.Unique, Depth: st.Depth,
		Seconds: st.Elapsed.Seconds(), NodesPerS: st.NodesPerSecond()}
	for _, m := range b.Suggest(*incoming) {
		out.Moves = append(out.Moves, toThinkMove(m))
	}
	plan := b.Plan()
	if *pcMode {
		on, left := b.PCActive()
		ps := b.PCStats()
		out.PC = &pcOutput{Active: on, Moves: left, Seconds: ps.SearchTime.Seconds(), GaveUp: ps.GaveUp > 0}
		if on {
			plan = b.PCPlan()
		}
	}
	for _, m := range plan {
		out.Plan = append(out.Plan, toThinkMove(m))
	}
	// No move at all is a lost position, not an answer: say so and fail.
	var noMove error
	if len(out.Moves) == 0 {
		noMove = fmt.Errorf("no move: %v cannot spawn or every placement tops out", q[0])
		if h != bot.NoPiece && !*noHold {
			noMove = fmt.Errorf("no move: neither %v nor the held %v can spawn, or every placement tops out", q[0], h)
		}
	}
	if *asJSON {
		if err := cli.WriteJSON(env.Stdout, out); err != nil {
			return err
		}
		return noMove
	}
	if len(out.Moves) > 0 {
		m := out.Moves[0]
		fmt.Fprintf(env.Stdout, "move %s %s x=%d y=%d spin=%s hold=%v\n", m.Piece, m.Orientation, m.X, m.Y, m.Spin, m.Hold)
	}
	if out.PC != nil {
		fmt.Fprintf(env.Stdout, "perfect clear: active %v, %d moves, search %.3fs\n", out.PC.Active, out.PC.Moves, out.PC.Seconds)
	}
	fmt.Fprintf(env.Stdout, "plan")
	for _, m := range out.Plan {
		fmt.Fprintf(env.Stdout, " %s:%s@%d,%d", m.Piece, m.Orientation, m.X, m.Y)
	}
	fmt.Fprintf(env.Stdout, "\nnodes %d expansions %d unique %d depth %d time %.3fs nodes/s %.0f\n",
		out.Nodes, out.Expansions, out.Unique, out.Depth, out.Seconds, out.NodesPerS)
	return noMove
}

// reserveFlag adds --reserve: the search memory to map before the first
// search, in MiB (bot.Reserve).
func reserveFlag(fs *flag.FlagSet) *int {
	return fs.Int("reserve", bot.DefaultReserve>>20, "search memory in `MiB` to map before the first search (0: none; the first search then pays the page faults)")
}

// reserveOption converts --reserve's MiB to bot.Options.Reserve.
func reserveOption(mib int) int {
	if mib == 0 {
		return -1
	}
	return mib << 20
}

// tetrisBotPositions is the fixed benchmark set: (field rows, queue).
var tetrisBotPositions = []struct {
	rows  []string
	queue string
}{
	{nil, "TIOLJSZ"},
	{[]string{"XX________", "X___XXXXXX", "XX_XXXXXXX"}, "TOILJ"},
	{[]string{"XXXXXXXXX_", "XXXXXXXXX_", "XXXXXXXXX_", "XXXXXXXXX_"}, "IOSZL"},
	{[]string{"_X___XX___", "XXX_XXXX_X", "XXXX_XXXXX", "X_XXXXXXXX"}, "SZJLT"},
}

// tetrisBotBudget is the node budget per position of the tetris/bot benchmark.
const tetrisBotBudget = 100000

func tetrisBotRun(ctx context.Context, threads int) (bot.Stats, error) {
	var total bot.Stats
	for i, pos := range tetrisBotPositions {
		board, err := bot.ParseField(pos.rows)
		if err != nil {
			return total, err
		}
		q, err := parseQueue(pos.queue)
		if err != nil {
			return total, err
		}
		b := bot.New(bot.Options{Threads: threads, Seed: uint64(i + 1)})
		if err := b.Reset(board, q, bot.NoPiece, 0); err != nil {
			return total, err
		}
		st := b.Think(ctx, bot.Budget{Nodes: tetrisBotBudget})
		b.Close() // its memory goes to the next position, as a TBP server's Reset does
		total.Nodes += st.Nodes
		total.Expansions += st.Expansions
		total.Unique += st.Unique
		total.Depth = max(total.Depth, st.Depth)
		total.Elapsed += st.Elapsed
	}
	return total, ctx.Err()
}

func tetrisBotBenchmarks() []bench.Benchmark {
	return []bench.Benchmark{{
		Name:    "tetris/bot/1t",
		Summary: "bot search at 1 thread: nodes/s of the searches themselves and deterministic counts at a fixed budget (4 positions × 100k nodes; the search memory is mapped before, by bot.New, outside the timing)",
		Run: func(ctx context.Context) ([]bench.Figure, error) {
			st, err := tetrisBotRun(ctx, 1)
			if err != nil {
				return nil, err
			}
			return []bench.Figure{
				{Name: "tetris/bot/1t/nodes", Value: float64(st.Nodes), Unit: "nodes"},
				{Name: "tetris/bot/1t/expansions", Value: float64(st.Expansions), Unit: "expansions"},
				{Name: "tetris/bot/1t/unique", Value: float64(st.Unique), Unit: "nodes"},
				{Name: "tetris/bot/1t/depth", Value: float64(st.Depth), Unit: "placements"},
				{Name: "tetris/bot/1t/rate", Value: st.NodesPerSecond(), Unit: "nodes/s"},
			}, nil
		},
	}, {
		Name:    "tetris/bot/2t",
		Summary: "bot search at 2 threads: nodes/s of the searches themselves (4 positions × 100k nodes; memory mapped before, outside the timing)",
		Run: func(ctx context.Context) ([]bench.Figure, error) {
			st, err := tetrisBotRun(ctx, 2)
			if err != nil {
				return nil, err
			}
			return []bench.Figure{
				{Name: "tetris/bot/2t/nodes", Value: float64(st.Nodes), Unit: "nodes"},
				{Name: "tetris/bot/2t/rate", Value: st.NodesPerSecond(), Unit: "nodes/s"},
			}, nil
		},
	}}
}
