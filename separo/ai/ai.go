// Package ai holds SEPARO players: Random, NaiveMC and UCT as separo-rs
// plays them (the baseline), and "yomi", our stronger Monte-Carlo tree search.
//
// Start with New, which builds a Player by name; Player.Move picks a move
// within a Budget. Nothing here needs cgo or OS features, so the package
// builds for GOOS=js GOARCH=wasm.
package ai

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sort"
	"time"

	"github.com/yomi-ai/yomi/separo"
)

// Budget bounds one move's search: a wall-clock limit, an iteration limit
// (playouts), or both; the first reached stops the search. A zero Budget
// means one second, as separo-rs's default.
type Budget struct {
	Time       time.Duration
	Iterations int
}

func (b Budget) normalized() Budget {
	if b.Time <= 0 && b.Iterations <= 0 {
		b.Time = time.Second
	}
	return b
}

// clock tells a search when to stop.
type clock struct {
	ctx      context.Context
	deadline time.Time
	timed    bool
	maxIter  int
}

func newClock(ctx context.Context, b Budget) clock {
	b = b.normalized()
	c := clock{ctx: ctx, maxIter: b.Iterations}
	if b.Time > 0 {
		c.timed = true
		c.deadline = time.Now().Add(b.Time)
	}
	return c
}

// done reports whether the search must stop before iteration i (0-based).
// At least one iteration always runs.
func (c *clock) done(i int) bool {
	if i == 0 {
		return false
	}
	if c.maxIter > 0 && i >= c.maxIter {
		return true
	}
	return i&15 == 0 && c.expired()
}

// expired reports whether the context is done or the time is up.
func (c *clock) expired() bool {
	return c.ctx.Err() != nil || c.timed && !time.Now().Before(c.deadline)
}

// Player chooses moves. Players may keep state between calls (tree reuse),
// so one Player plays one game; it is not safe for concurrent use.
type Player interface {
	// Name returns the player's registry name.
	Name() string
	// Move returns c's move on b; ok is false when c has no legal move
	// (a pass). b is not modified.
	Move(ctx context.Context, b separo.Board, c separo.Color, budget Budget) (m separo.Move, ok bool)
}

// Options configure players built by New; zero values take defaults.
type Options struct {
	// Seed makes the player's random choices reproducible.
	Seed uint64
	// C is the exploration coefficient (uct: 2.0; yomi: 0.2).
	C float64
	// Threshold is the number of samples before a leaf is expanded (uct: 3, yomi: 1).
	Threshold int
	// RAVE is yomi's AMAF equivalence parameter (default 300; negative disables AMAF).
	RAVE float64
	// Solve is yomi's endgame gate: the exact solver runs when both sides
	// together have at most this many legal moves (default 12; negative
	// disables the solver).
	Solve int
	// Workers is yomi's number of root-parallel searches, each with its own
	// tree and an equal share of the iterations (default 1).
	Workers int
}

// Names lists the players New knows, weakest first.
func Names() []string { return []string{"random", "naive", "uct", "yomi"} }

// New builds the named player: "random", "naive" (NaiveMC), "uct"
// (separo-rs's UCT) or "yomi" (ours).
func New(name string, opt Options) (Player, error) {
	switch name {
	case "random":
		return &Random{rng: newRNG(opt.Seed, 1)}, nil
	case "naive":
		return &Naive{rng: newRNG(opt.Seed, 2)}, nil
	case "uct":
		return NewUCT(opt), nil
	case "yomi":
		return NewYomi(opt), nil
	case "yomi-par":
		if opt.Workers == 0 {
			opt.Workers = runtime.GOMAXPROCS(0)
		}
		p := NewYomi(opt)
		p.name = "yomi-par"
		return p, nil
	case "yomi-nosolve":
		opt.Solve = -1
		p := NewYomi(opt)
		p.name = "yomi-nosolve"
		return p, nil
	}
	names := Names()
	sort.Strings(names)
	return nil, fmt.Errorf("separo/ai: unknown player %q (want one of %v)", name, names)
}

func newRNG(seed, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x5e9a70<<8|stream))
}

// Random plays a uniformly random legal move (separo-rs's RandomPlayer).
type Random struct {
	rng *rand.Rand
	buf []separo.Move
}

// Name returns "random".
func (p *Random) Name() string { return "random" }

// Move picks a uniformly random legal move.
func (p *Random) Move(_ context.Context, b separo.Board, c separo.Color, _ Budget) (separo.Move, bool) {
	p.buf = b.Moves(c, p.buf)
	if len(p.buf) == 0 {
		return separo.Move{}, false
	}
	return p.buf[p.rng.IntN(len(p.buf))], true
}

// Naive is separo-rs's NaiveMonteCarlo: rounds of one random playout per
// candidate move until the budget runs out; the most winning candidate
// (the latest among equals) is played. Faithful quirks: each playout starts
// with the AI's own colour to move again, and draws count as nothing.
type Naive struct {
	rng *rand.Rand
	buf separo.PlayoutBuf
}

// Name returns "naive".
func (p *Naive) Name() string { return "naive" }

// Move runs the rounds; Budget.Iterations counts playouts (whole rounds
// are played, at least one).
func (p *Naive) Move(ctx context.Context, b separo.Board, c separo.Color, budget Budget) (separo.Move, bool) {
	moves := b.Moves(c, nil)
	if len(moves) == 0 {
		return separo.Move{}, false
	}
	boards := make([]separo.Board, len(moves))
	for i, m := range moves {
		boards[i] = b
		boards[i].Apply(c, m)
	}
	wins := make([]int, len(moves))
	want := separo.RedWin
	if c == separo.Blue {
		want = separo.BlueWin
	}
	clk := newClock(ctx, budget)
	for n := 0; ; {
		for i := range boards {
			x := boards[i]
			if x.Playout(c, p.rng, &p.buf) == want {
				wins[i]++
			}
		}
		n += len(boards)
		if clk.maxIter > 0 && n >= clk.maxIter || clk.expired() {
			break
		}
	}
	best := 0
	for i := range wins {
		if wins[i] >= wins[best] {
			best = i
		}
	}
	return moves[best], true
}
