// This file holds "yomi", our Monte-Carlo tree search: UCB1 with the
// parent's visit count, draws worth half a win, RAVE (all-moves-as-first
// statistics blended in with weight sqrt(K/(3n+K))), expansion on the first
// revisit, the most-visited child as the final choice, and tree reuse.

package ai

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/yomi-ai/yomi/separo"
)

// yNode is one node of yomi's tree. color is the side to move; w and aw are
// reward sums from the point of view of the side that moved into the node
// (1 win, 1/2 draw, 0 loss), n and an the visit and AMAF counts.
type yNode struct {
	n, an    uint32
	w, aw    float32
	first, k int32 // children: arena[first : first+k]
	key      int32 // MoveKey of move, -1 for a pass
	color    separo.Color
	pass     bool
	move     separo.Move
}

// Yomi is our MCTS player.
type Yomi struct {
	name      string
	helpers   []*Yomi // root-parallel searchers (none: search here)
	solveGate int
	solver    solver
	c         float64
	rave      float64
	threshold uint32
	rng       *rand.Rand
	nodes     []yNode
	spare     []yNode
	root      int32
	rootBoard separo.Board
	valid     bool
	buf       separo.PlayoutBuf
	moves     []separo.Move
	path      []int32
	mark      [2][]uint32 // mark[c][key] == gen: c played key after the node
	gen       uint32
}

// Default tuning of yomi (see BENCHMARKS.md for the runs behind them).
const (
	DefaultYomiC    = 0.2
	DefaultYomiRAVE = 300
	// DefaultYomiSolve is the endgame gate: both sides' legal moves in total.
	DefaultYomiSolve = 12
)

// NewYomi builds our player; opt.C (default 0.2), opt.RAVE (default 300,
// negative disables AMAF) and opt.Threshold (default 1) tune it.
func NewYomi(opt Options) *Yomi {
	y := &Yomi{name: "yomi", c: opt.C, rave: opt.RAVE, threshold: uint32(opt.Threshold), rng: newRNG(opt.Seed, 4), solveGate: opt.Solve}
	if y.solveGate == 0 {
		y.solveGate = DefaultYomiSolve
	}
	if y.c == 0 {
		y.c = DefaultYomiC
	}
	if y.rave == 0 {
		y.rave = DefaultYomiRAVE
	}
	if y.threshold == 0 {
		y.threshold = 1
	}
	y.buf.Trace = y.rave > 0
	if opt.Workers > 1 {
		for w := range opt.Workers {
			o := opt
			o.Workers, o.Solve = 0, -1
			h := NewYomi(o)
			h.rng = newRNG(opt.Seed, 100+uint64(w))
			y.helpers = append(y.helpers, h)
		}
	}
	return y
}

// Name returns "yomi" (or the variant's registry name).
func (y *Yomi) Name() string { return y.name }

// Iterations returns the root's visit count (for benchmarks; with helpers,
// their sum).
func (y *Yomi) Iterations() int {
	if len(y.helpers) > 0 {
		n := 0
		for _, h := range y.helpers {
			n += h.Iterations()
		}
		return n
	}
	if !y.valid {
		return 0
	}
	return int(y.nodes[y.root].n)
}

func (y *Yomi) childBoard(b separo.Board, parent separo.Color, ch *yNode) separo.Board {
	if !ch.pass {
		b.Apply(parent, ch.move)
	}
	return b
}

func (y *Yomi) reroot(b *separo.Board, c separo.Color) {
	if y.valid && y.rootBoard.Size() == b.Size() {
		r := &y.nodes[y.root]
		if r.color == c && y.rootBoard.Equal(b) {
			return
		}
		for i := r.first; i < r.first+r.k; i++ {
			ch := &y.nodes[i]
			if ch.color != c {
				continue
			}
			cb := y.childBoard(y.rootBoard, r.color, ch)
			if cb.Equal(b) {
				y.setRoot(i, cb)
				return
			}
		}
	}
	y.nodes = append(y.nodes[:0], yNode{color: c, key: -1})
	y.root = 0
	y.rootBoard = *b
	y.valid = true
	keys := b.MoveKeys()
	for c := range y.mark {
		if len(y.mark[c]) != keys {
			y.mark[c] = make([]uint32, keys)
			y.gen = 0
		}
	}
}

func (y *Yomi) setRoot(i int32, b separo.Board) {
	dst := append(y.spare[:0], y.nodes[i])
	dst[0].first, dst[0].k = 0, 0
	type pair struct{ old, new int32 }
	queue := []pair{{i, 0}}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		o := y.nodes[p.old]
		if o.k == 0 {
			continue
		}
		dst[p.new].first = int32(len(dst))
		dst[p.new].k = o.k
		for k := o.first; k < o.first+o.k; k++ {
			queue = append(queue, pair{k, int32(len(dst))})
			nd := y.nodes[k]
			nd.first, nd.k = 0, 0
			dst = append(dst, nd)
		}
	}
	y.spare = y.nodes[:0]
	y.nodes = dst
	y.root = 0
	y.rootBoard = b
}

// expand creates all children of node i (board b); a side without moves
// gets one pass child. It returns false when the game is over at b.
func (y *Yomi) expand(i int32, b *separo.Board) bool {
	col := y.nodes[i].color
	opp := col.Opponent()
	y.moves = b.Moves(col, y.moves)
	if len(y.moves) == 0 && !b.CanMove(opp) {
		return false
	}
	first := int32(len(y.nodes))
	for _, m := range y.moves {
		y.nodes = append(y.nodes, yNode{color: opp, move: m, key: int32(b.MoveKey(m))})
	}
	if len(y.moves) == 0 {
		y.nodes = append(y.nodes, yNode{color: opp, pass: true, key: -1})
	}
	y.nodes[i].first = first
	y.nodes[i].k = int32(len(y.nodes)) - first
	return true
}

// selectChild returns the child of node i with the best blended score.
func (y *Yomi) selectChild(i int32) int32 {
	nd := &y.nodes[i]
	logN := math.Log(float64(nd.n) + 1)
	best, bestV := nd.first, math.Inf(-1)
	for k := nd.first; k < nd.first+nd.k; k++ {
		ch := &y.nodes[k]
		var q float64
		n := float64(ch.n)
		if ch.n > 0 {
			q = float64(ch.w) / n
		}
		if y.rave > 0 {
			qa := 1.0 // optimistic first-play value
			if ch.an > 0 {
				qa = float64(ch.aw) / float64(ch.an)
			}
			beta := math.Sqrt(y.rave / (3*n + y.rave))
			q = (1-beta)*q + beta*qa
		} else if ch.n == 0 {
			q = math.Inf(1)
		}
		v := q + y.c*math.Sqrt(logN/(n+1))
		if v > bestV {
			best, bestV = k, v
		}
	}
	return best
}

func reward(r separo.Result, mover separo.Color) float32 {
	switch {
	case r == separo.Draw:
		return 0.5
	case (r == separo.RedWin) == (mover == separo.Red):
		return 1
	}
	return 0
}

func (y *Yomi) iterate() {
	b := y.rootBoard
	i := y.root
	y.path = append(y.path[:0], i)
	for {
		nd := &y.nodes[i]
		if nd.k == 0 {
			if nd.n < y.threshold || !y.expand(i, &b) {
				break
			}
		}
		parent := y.nodes[i].color
		i = y.selectChild(i)
		b = y.childBoard(b, parent, &y.nodes[i])
		y.path = append(y.path, i)
	}
	leaf := y.nodes[i].color
	result := b.Playout(leaf, y.rng, &y.buf)
	for _, k := range y.path {
		nd := &y.nodes[k]
		nd.n++
		nd.w += reward(result, nd.color.Opponent())
	}
	if y.rave <= 0 {
		return
	}
	// AMAF: moves played later by the side to move at each path node.
	y.gen++
	if y.gen == 0 { // wrapped: clear the marks
		for c := range y.mark {
			clear(y.mark[c])
		}
		y.gen = 1
	}
	g := y.gen
	for _, s := range y.buf.Steps {
		y.mark[s.Color][s.Key] = g
	}
	for j := len(y.path) - 1; j >= 0; j-- {
		p := &y.nodes[y.path[j]]
		if j+1 < len(y.path) {
			if ch := &y.nodes[y.path[j+1]]; ch.key >= 0 {
				y.mark[p.color][ch.key] = g
			}
		}
		marks := y.mark[p.color]
		rw := reward(result, p.color)
		for k := p.first; k < p.first+p.k; k++ {
			ch := &y.nodes[k]
			if ch.key >= 0 && marks[ch.key] == g {
				ch.an++
				ch.aw += rw
			}
		}
	}
}

// Move searches from b (reusing the tree when b follows the last search)
// and plays the most visited root child.
func (y *Yomi) Move(ctx context.Context, b separo.Board, c separo.Color, budget Budget) (separo.Move, bool) {
	if !b.CanMove(c) {
		return separo.Move{}, false
	}
	if m, ok := y.endgame(ctx, &b, c, budget); ok {
		for _, h := range y.helpers {
			h.valid = false
		}
		return m, true
	}
	if len(y.helpers) == 0 {
		y.search(ctx, &b, c, budget)
		r := y.nodes[y.root]
		best := r.first
		for k := r.first + 1; k < r.first+r.k; k++ {
			a, bb := &y.nodes[k], &y.nodes[best]
			if a.n > bb.n || a.n == bb.n && a.w > bb.w {
				best = k
			}
		}
		m := y.nodes[best].move
		nb := b
		nb.Apply(c, m)
		y.setRoot(best, nb)
		return m, true
	}
	// Root parallel: every helper searches its own tree with its own
	// random stream and an equal share of the iterations; the root
	// statistics are summed, so the choice does not depend on scheduling
	// under an iteration budget.
	share := budget.normalized()
	if share.Iterations > 0 {
		share.Iterations = (share.Iterations + len(y.helpers) - 1) / len(y.helpers)
	}
	var wg sync.WaitGroup
	for _, h := range y.helpers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.search(ctx, &b, c, share)
		}()
	}
	wg.Wait()
	h0 := y.helpers[0]
	r0 := h0.nodes[h0.root]
	best, bestN, bestW := int32(0), uint32(0), float32(-1)
	for j := range r0.k {
		var n uint32
		var w float32
		for _, h := range y.helpers {
			ch := &h.nodes[h.nodes[h.root].first+j]
			n += ch.n
			w += ch.w
		}
		if j == 0 || n > bestN || n == bestN && w > bestW {
			best, bestN, bestW = j, n, w
		}
	}
	m := h0.nodes[r0.first+best].move
	nb := b
	nb.Apply(c, m)
	for _, h := range y.helpers {
		h.setRoot(h.nodes[h.root].first+best, nb)
	}
	return m, true
}

// search runs iterations from b (reusing the tree when b follows the last
// search) until the budget is spent, and leaves the root expanded.
func (y *Yomi) search(ctx context.Context, b *separo.Board, c separo.Color, budget Budget) {
	y.reroot(b, c)
	clk := newClock(ctx, budget)
	for it := 0; !clk.done(it); it++ {
		y.iterate()
	}
	if y.nodes[y.root].k == 0 {
		y.expand(y.root, b)
	}
}

// endgame runs the exact solver when few moves remain (both sides' legal
// moves at most the gate, after 2·size plies), with at most half the time
// (or 50 nodes per allowed iteration), and returns a move proven to win or
// draw. A proven loss leaves the choice to the tree search.
func (y *Yomi) endgame(ctx context.Context, b *separo.Board, c separo.Color, budget Budget) (separo.Move, bool) {
	if y.solveGate < 0 {
		return separo.Move{}, false
	}
	var tmp [64]separo.Move
	n := len(b.Moves(c, tmp[:0]))
	n += len(b.Moves(c.Opponent(), tmp[:0]))
	// Few moves at the start do not mean a small tree: every move opens
	// new ones. Wait until 2·size plies have been played.
	if n > y.solveGate || b.Plies() < 2*b.Size() {
		return separo.Move{}, false
	}
	budget = budget.normalized()
	clk := clock{ctx: ctx}
	if budget.Time > 0 {
		clk.timed, clk.deadline = true, time.Now().Add(budget.Time/2)
	}
	y.solver.clk = &clk
	y.solver.limit = 1 << 40
	if budget.Iterations > 0 {
		y.solver.limit = 50 * budget.Iterations
	}
	m, v, ok := y.solver.solve(b, c)
	if !ok || v < 0 {
		return separo.Move{}, false
	}
	y.valid = false // the tree does not follow this move
	return m, true
}
