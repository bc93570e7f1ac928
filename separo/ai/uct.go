// This file holds UCT, separo-rs's UCTMonteCarlo reproduced: c = 2, ln N
// of the root at every depth, expansion of all children after 3 samples,
// draws counted only as samples, the final choice by win rate minus loss
// rate, and tree reuse.

package ai

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/yomi-ai/yomi/separo"
)

// uctNode is one node of UCT's tree, stored in an arena slice. color is
// the side to move at the node; win counts playouts won by the side that
// moved into it (color's opponent), lose those won by color.
type uctNode struct {
	win, lose, samples uint32
	first, n           int32 // children: arena[first : first+n]
	color              separo.Color
	pass               bool // a pass child: same board, other side to move
	move               separo.Move
}

// UCT is separo-rs's UCTMonteCarlo.
type UCT struct {
	c         float64
	threshold uint32
	rng       *rand.Rand
	nodes     []uctNode
	root      int32
	rootBoard separo.Board
	valid     bool // the tree describes a position of this game
	buf       separo.PlayoutBuf
	moves     []separo.Move
	path      []int32
	spare     []uctNode
}

// NewUCT builds the original UCT; opt.C (default 2) and opt.Threshold
// (default 3) override the page's constants.
func NewUCT(opt Options) *UCT {
	u := &UCT{c: opt.C, threshold: uint32(opt.Threshold), rng: newRNG(opt.Seed, 3)}
	if u.c == 0 {
		u.c = 2
	}
	if u.threshold == 0 {
		u.threshold = 3
	}
	return u
}

// Name returns "uct".
func (u *UCT) Name() string { return "uct" }

// Iterations returns the root's sample count (for benchmarks).
func (u *UCT) Iterations() int {
	if !u.valid {
		return 0
	}
	return int(u.nodes[u.root].samples)
}

// childBoard returns the board of child ch of a node whose board is b.
func childBoard(b separo.Board, parentColor separo.Color, ch *uctNode) separo.Board {
	if !ch.pass {
		b.Apply(parentColor, ch.move)
	}
	return b
}

// reroot makes the child of the current root whose board equals b (with c
// to move) the root, as separo-rs does with the opponent's reply; if none
// matches (first call, or the tree was never expanded, where the original
// panics) it starts a fresh tree.
func (u *UCT) reroot(b *separo.Board, c separo.Color) {
	if u.valid {
		r := &u.nodes[u.root]
		if r.color == c && u.rootBoard.Equal(b) {
			return
		}
		for i := r.first; i < r.first+r.n; i++ {
			ch := &u.nodes[i]
			if ch.color != c {
				continue
			}
			cb := childBoard(u.rootBoard, r.color, ch)
			if cb.Equal(b) {
				u.setRoot(i, cb)
				return
			}
		}
	}
	u.nodes = u.nodes[:0]
	u.nodes = append(u.nodes, uctNode{color: c})
	u.root = 0
	u.rootBoard = *b
	u.valid = true
}

// setRoot keeps only the subtree under node i, copied into a fresh arena.
func (u *UCT) setRoot(i int32, b separo.Board) {
	dst := u.spare[:0]
	dst = append(dst, u.nodes[i])
	dst[0].first, dst[0].n = 0, 0
	// Breadth-first copy: queue holds (old index, new index).
	type pair struct{ old, new int32 }
	queue := []pair{{i, 0}}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		o := u.nodes[p.old]
		if o.n == 0 {
			continue
		}
		dst[p.new].first = int32(len(dst))
		dst[p.new].n = o.n
		for k := o.first; k < o.first+o.n; k++ {
			queue = append(queue, pair{k, int32(len(dst))})
			nd := u.nodes[k]
			nd.first, nd.n = 0, 0
			dst = append(dst, nd)
		}
	}
	u.spare = u.nodes[:0]
	u.nodes = dst
	u.root = 0
	u.rootBoard = b
}

func (u *UCT) expand(i int32, b *separo.Board) {
	nd := u.nodes[i]
	u.moves = b.Moves(nd.color, u.moves)
	first := int32(len(u.nodes))
	opp := nd.color.Opponent()
	for _, m := range u.moves {
		u.nodes = append(u.nodes, uctNode{color: opp, move: m})
	}
	if len(u.moves) == 0 {
		u.nodes = append(u.nodes, uctNode{color: opp, pass: true})
	}
	u.nodes[i].first = first
	u.nodes[i].n = int32(len(u.nodes)) - first
}

func (n *uctNode) rate(x uint32) float64 {
	if n.samples == 0 {
		return 0.5
	}
	return float64(x) / float64(n.samples)
}

// iterate runs one UCT iteration from the root.
func (u *UCT) iterate() {
	b := u.rootBoard
	i := u.root
	logN := math.Log(float64(u.nodes[u.root].samples))
	u.path = append(u.path[:0], i)
	for u.nodes[i].n > 0 {
		nd := &u.nodes[i]
		best := nd.first
		bestV := u.ucb1(best, logN)
		for k := nd.first + 1; k < nd.first+nd.n; k++ {
			v := u.ucb1(k, logN)
			// Rust's max_by keeps the later element unless the earlier one
			// compares Greater; NaN compares as Less.
			if !(bestV > v) {
				best, bestV = k, v
			}
		}
		b = childBoard(b, nd.color, &u.nodes[best])
		i = best
		u.path = append(u.path, i)
	}
	leaf := &u.nodes[i]
	pb := b
	winner := pb.Playout(leaf.color, u.rng, &u.buf)
	for _, k := range u.path {
		nd := &u.nodes[k]
		nd.samples++
		switch {
		case winner == separo.RedWin && nd.color == separo.Blue, winner == separo.BlueWin && nd.color == separo.Red:
			nd.win++
		case winner == separo.RedWin && nd.color == separo.Red, winner == separo.BlueWin && nd.color == separo.Blue:
			nd.lose++
		}
	}
	if u.nodes[i].samples >= u.threshold && !b.GameOver() {
		u.expand(i, &b)
	}
}

func (u *UCT) ucb1(k int32, logN float64) float64 {
	n := &u.nodes[k]
	if n.samples == 0 {
		return math.Inf(1)
	}
	return n.rate(n.win) + u.c*math.Sqrt(logN/float64(n.samples))
}

// Move searches from b with tree reuse and returns the root child with the
// largest win rate minus loss rate (the last among equals), which becomes
// the new root.
func (u *UCT) Move(ctx context.Context, b separo.Board, c separo.Color, budget Budget) (separo.Move, bool) {
	if !b.CanMove(c) {
		return separo.Move{}, false
	}
	u.reroot(&b, c)
	clk := newClock(ctx, budget)
	for it := 0; !clk.done(it); it++ {
		u.iterate()
	}
	r := u.nodes[u.root]
	if r.n == 0 { // too little time to expand: play the first legal move
		u.expand(u.root, &b)
		r = u.nodes[u.root]
	}
	best := u.choose()
	m := u.nodes[best].move
	nb := b
	nb.Apply(c, m)
	u.setRoot(best, nb)
	return m, true
}

// choose returns the root child with the largest win rate minus loss rate
// (an unvisited child counts 0.5 - 0.5), the last among equals.
func (u *UCT) choose() int32 {
	r := u.nodes[u.root]
	best := r.first
	bestV := u.nodes[best].rate(u.nodes[best].win) - u.nodes[best].rate(u.nodes[best].lose)
	for k := r.first + 1; k < r.first+r.n; k++ {
		nd := &u.nodes[k]
		v := nd.rate(nd.win) - nd.rate(nd.lose)
		if !(bestV > v) {
			best, bestV = k, v
		}
	}
	return best
}
