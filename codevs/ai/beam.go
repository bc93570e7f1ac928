// Chain beam: a beam search over one side's drops that keeps, at each
// depth, the best states per chain bucket (with BeamConfig.Potential the
// longest chain one added block would trigger, else the largest chain the
// actual next pack can trigger), records every fire it meets, and picks the
// fastest target chain. With BeamConfig.Skill it is the seed's skill beam
// instead: buckets by the blocks a skill would remove, states ranked by
// those blocks times the gauge.

package ai

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/sim"
)

// BeamConfig sets one beam search.
type BeamConfig struct {
	Depth       int // plies to search
	Width       int // states kept per depth (the most; fewer when Budget is short)
	BucketWidth int // states kept per chain-count bucket
	XMin, XMax  int // pack columns tried (0..8); the opening uses 2..6
	Target      int // fastest-target rule: the first depth with a fire of at least Target chains wins
	Threads     int // parallel workers (results do not depend on it)
	// Budget, when positive, lets the beam narrow its width after each depth
	// so that the whole search fits the budget (results then depend on speed).
	Budget time.Duration
	// Nodes, when positive (and Budget is not), narrows the width in the
	// same way so that the whole search expands about Nodes states: a
	// budget counted in states, so the result does not depend on speed.
	Nodes int64
	// Horizon, when positive, is the plies the Budget is planned over
	// (default Depth): a target search that usually ends near ply Target+1
	// would otherwise plan widths for Depth plies and leave most of its
	// budget unused. Plies past the horizon share what is left.
	Horizon int
	// Skill makes it the skill beam (the seed's skill mode): states are
	// bucketed by SkillBlocks (capped at 127) and ranked by SkillBlocks times
	// min(gauge, SkillCost); fires do not end a line (they charge the gauge);
	// Line is the best state at the last depth by that value.
	Skill bool
	// Potential ranks chain-beam states by the chain one extra block would
	// trigger (sim.Fast.Potential) instead of the chain the next pack can
	// trigger: buckets by that chain, then more blocks, lower fields.
	Potential bool
	// RowProof (with Potential) orders states within a potential bucket by
	// the potential left after one ojama row falls, before the block count:
	// a chain whose trigger stands above its neighbours survives the
	// opponent's first row and can answer its fire (the counter stance).
	RowProof bool
	// RowKeep (with Potential) buckets states by min(potential, potential
	// after one ojama row + 1): a chain that loses more than one chain to
	// the opponent's first row ranks by what it keeps (session codevs-row;
	// RowProof's tie-break left most ready chains breaking under a row).
	RowKeep bool
	// Key (with Potential, not with RowProof or RowKeep) picks the
	// potential states are bucketed by: the add-one-block potential (the
	// zero value), or one built on the erase-one-block potential
	// (sim.Fast.ErasePotential), whose chain starts inside a column and so
	// is not covered by an ojama row (PEERS.md: tanzaku ranks by such a
	// chain).
	Key PotentialKey
	// Incoming is ojama that joins the root's stock at the end of ply 1,
	// less what that ply fires (the two offset): a fire of ours this turn
	// as the opponent's beam sees it. Its first row falls at ply 2.
	Incoming int
	// Deadline, when positive, is the last ply (1 = this turn) at which a
	// fire still goes off before the opponent's (which lands after it):
	// when no fire of Target chains comes by then, the longest fire of at
	// least DeadlineMin chains by then is chosen instead.
	Deadline, DeadlineMin int
	// HeightCap, when positive (with Potential), takes capPer(Key) chains
	// off a state's bucket per row its field stands above HeightCap: the
	// late stance's low build (kera scores states down above 9 rows).
	HeightCap int
	// UnderRows, when positive (with Potential), buckets states by the
	// add potential after that many ojama rows have fallen (a trigger
	// that stands out of the rows: a block dropped on a column's ojama
	// meets a taller neighbour's cells), then by the plain potential: the
	// late stance's chain must still fire once the opponent's rows land.
	UnderRows int
}

// Fire is a chain the beam found: its plies from the root, chains, ojama
// and the moves leading to it (the last move fires).
type Fire struct {
	Ply    int
	Chains int
	Sent   int
	Blocks int // blocks left on the field after the fire
	Moves  []int
	Fields []sim.Fast // field before each move
}

// Line is a beam's best state at its last depth and the moves to it.
type Line struct {
	Moves       []int
	Fields      []sim.Fast // field before each move
	End         sim.Fast   // field after the last move
	Gauge       int        // skill gauge after the last move
	SkillBlocks int        // blocks a skill would remove from End
}

// BeamResult is what a beam search found.
type BeamResult struct {
	Best     Fire   // the chosen fire (Chains 0 if none was found)
	Line     Line   // the best state at the last depth (the chain beam's own order, or the skill value)
	PerPly   []Fire // best fire at each ply (index 0 = ply 1), moves not filled
	Nodes    int64  // states expanded
	Depth    int    // plies completed
	MaxWidth int    // widest depth kept
	WidthCap int    // narrowest width the budget allowed (cfg.Width if it never narrowed)
	// ExtReads and Ext are the extension reads of ChokudaiConfig.ExtNodes
	// and the chosen fire's extension (0 and 0 without them).
	ExtReads, Ext int
}

// smallFire is the largest chain after which a beam state keeps building:
// some packs vanish by themselves wherever they land.
const smallFire = 2

type beamNode struct {
	s      side
	parent int32
	mv     uint8
	bucket int8
	key    int64
}

// chainNow returns the largest chain any placement of the (rotated) pack
// triggers on f, and the blocks left after it.
func chainNow(f *sim.Fast, rot *rotations) (best, left int) {
	left = -1
	for r := 0; r < 4; r++ {
		if !rot.uniq[r] {
			continue
		}
		for x := 0; x <= 8; x++ {
			if !f.Triggers(rot.q[r], x) {
				continue
			}
			g := *f
			c := g.DropRotated(rot.q[r], x)
			if c == 0 {
				continue
			}
			if b, _ := g.Count(); c > best || (c == best && b > left) {
				best, left = c, b
			}
		}
	}
	return best, left
}

// evalKey is the in-bucket order: more blocks left after the best chain,
// lower fields, then a hash for a deterministic spread.
func evalKey(s *side, bucket, left int) int64 {
	h := s.f.MaxHeight()
	k := int64(bucket)<<40 | int64(max(left, 0))<<24 | int64(32-h)<<16 | int64(s.f.Hash()&0xffff)
	if h >= 14 {
		k = int64(s.f.Hash() & 0xffff) // seed: value 0 once a block reaches row 14
	}
	return k
}

// skillMaxBucket caps the skill beam's buckets (SkillBlocks can reach 160).
const skillMaxBucket = 127

// skillValue is the skill beam's value of a state: the blocks a skill
// would remove times the gauge (capped at the skill's cost), as the seed.
func skillValue(blocks, gauge int) int64 {
	return int64(blocks) * int64(min(gauge, codevs.SkillCost))
}

// skillKey is the skill beam's in-bucket order: skill value (in a bucket:
// the gauge), then lower fields, then a hash.
func skillKey(s *side, blocks int) int64 {
	return int64(min(blocks, skillMaxBucket))<<48 | skillValue(blocks, s.gauge)<<24 | int64(32-s.f.MaxHeight())<<16 | int64(s.f.Hash()&0xffff)
}

// Beam runs a chain beam from root (whose next pack is packs[0]).
func runBeam(ctx context.Context, root side, packs []sim.Pack, cfg BeamConfig) BeamResult {
	start := time.Now()
	threads := max(cfg.Threads, 1)
	depth := min(cfg.Depth, len(packs))
	// Ply d uses packs d and d+1 (the next pack's chain key): the other
	// packs of the game need no rotating.
	rots := make([]rotations, min(depth+1, len(packs)))
	for i := range rots {
		rots[i] = rotate(packs[i])
	}
	var moves []int
	for x := cfg.XMin; x <= cfg.XMax; x++ {
		for r := 0; r < 4; r++ {
			moves = append(moves, x*4+r)
		}
	}
	res := BeamResult{PerPly: make([]Fire, depth), WidthCap: cfg.Width}
	type fireRef struct {
		layer, idx int // parent position
		mv         int
		chains     int
		sent       int
		left       int
	}
	bestFire := make([]fireRef, depth)
	layers := [][]beamNode{{{s: root, parent: -1}}}
	width := cfg.Width
	for d := 0; d < depth; d++ {
		if ctx.Err() != nil {
			break
		}
		t0 := time.Now()
		parents := layers[d]
		rot := &rots[d]
		var next *rotations
		if d+1 < len(rots) {
			next = &rots[d+1]
		}
		type out struct {
			kids []beamNode
			fire fireRef
		}
		outs := make([]out, threads)
		var wg sync.WaitGroup
		chunk := (len(parents) + threads - 1) / threads
		for w := 0; w < threads; w++ {
			lo, hi := w*chunk, min((w+1)*chunk, len(parents))
			if lo >= hi {
				continue
			}
			wg.Add(1)
			go func(w, lo, hi int) {
				defer wg.Done()
				o := &outs[w]
				o.fire.chains = 0
				for pi := lo; pi < hi; pi++ {
					// Every parent (36 children), not every 64th: a
					// starved process (15 s self-play at load 14) ran a
					// decision 1.4 s past its deadline.
					if ctx.Err() != nil {
						return
					}
					p := &parents[pi]
					for _, m := range moves {
						if !rot.uniq[m&3] {
							continue
						}
						c := p.s
						oc := c.act(m, rot)
						if oc.dead {
							continue
						}
						if d == 0 && cfg.Incoming > 0 {
							c.stock += max(cfg.Incoming-oc.net, 0)
						}
						if oc.chains > 0 {
							b, _ := c.f.Count()
							if oc.chains > o.fire.chains || (oc.chains == o.fire.chains && b > o.fire.left) {
								o.fire = fireRef{layer: d, idx: pi, mv: m, chains: oc.chains, sent: oc.sent, left: b}
							}
							if oc.chains > smallFire && !cfg.Skill {
								continue
							}
						}
						n := beamNode{s: c, parent: int32(pi), mv: uint8(m)}
						if cfg.Skill {
							sb := c.f.SkillBlocks()
							n.bucket = int8(min(sb, skillMaxBucket))
							n.key = skillKey(&c, sb)
							o.kids = append(o.kids, n)
							continue
						}
						if cfg.Potential {
							switch {
							case cfg.UnderRows > 0:
								n.bucket, n.key = underRowsKey(&c, cfg.UnderRows)
							case cfg.RowKeep:
								n.bucket, n.key = rowKeepKey(&c)
							case cfg.Key != KeyAdd && !cfg.RowProof:
								n.bucket, n.key = eraseKey(&c, cfg.Key)
							default:
								n.bucket, n.key = potentialKey(&c, cfg.RowProof)
							}
							if cfg.HeightCap > 0 {
								n.bucket, n.key = capKey(c.f.MaxHeight(), cfg.HeightCap, capPer(cfg.Key, cfg.UnderRows), n.bucket, n.key)
							}
							o.kids = append(o.kids, n)
							continue
						}
						bucket, left := 0, 0
						if next != nil {
							bucket, left = chainNow(&c.f, next)
						}
						n.bucket = int8(bucket)
						n.key = evalKey(&c, bucket, left)
						o.kids = append(o.kids, n)
					}
				}
			}(w, lo, hi)
		}
		wg.Wait()
		if ctx.Err() != nil {
			break
		}
		var kids []beamNode
		for w := range outs {
			f := outs[w].fire
			if f.chains > bestFire[d].chains || (f.chains == bestFire[d].chains && f.chains > 0 && f.left > bestFire[d].left) {
				bestFire[d] = f
			}
			kids = append(kids, outs[w].kids...)
		}
		res.Nodes += int64(len(parents))
		res.Depth = d + 1
		if cfg.Target > 0 && bestFire[d].chains >= cfg.Target {
			break
		}
		// Dedup (transpositions), then buckets from the highest chain count.
		order := make([]int32, len(kids))
		for i := range order {
			order[i] = int32(i)
		}
		slices.SortFunc(order, func(a, b int32) int {
			ka, kb := kids[a].key, kids[b].key
			switch {
			case ka > kb:
				return -1
			case ka < kb:
				return 1
			}
			return int(a - b)
		})
		seen := make(map[uint64]struct{}, len(kids))
		var perBucket [skillMaxBucket + 1]int
		kept := make([]beamNode, 0, min(width, len(kids)))
		var spill []beamNode
		for _, ki := range order {
			k := &kids[ki]
			if len(kept) >= width {
				break
			}
			h := k.s.f.Hash() ^ uint64(k.s.stock)<<56
			if cfg.Skill {
				h ^= uint64(k.s.gauge) << 48
			}
			if _, ok := seen[h]; ok {
				continue
			}
			seen[h] = struct{}{}
			if perBucket[k.bucket] >= cfg.BucketWidth {
				if len(spill) < width {
					spill = append(spill, *k)
				}
				continue
			}
			perBucket[k.bucket]++
			kept = append(kept, *k)
		}
		for _, k := range spill {
			if len(kept) >= width {
				break
			}
			kept = append(kept, k)
		}
		if len(kept) == 0 {
			break
		}
		res.MaxWidth = max(res.MaxWidth, len(kept))
		layers = append(layers, kept)
		if cfg.Budget > 0 && d+1 < depth {
			el := time.Since(t0)
			left := cfg.Budget - time.Since(start)
			perParent := el / time.Duration(max(len(parents), 1))
			if perParent <= 0 {
				perParent = time.Microsecond
			}
			want := int(left / time.Duration(planPlies(depth, cfg.Horizon, d)) / perParent)
			width = max(min(want, cfg.Width), 8)
			res.WidthCap = min(res.WidthCap, width)
		} else if cfg.Nodes > 0 && d+1 < depth {
			// Each kept state is expanded once at the next depth.
			want := (cfg.Nodes - res.Nodes) / int64(planPlies(depth, cfg.Horizon, d))
			width = int(max(min(want, int64(cfg.Width)), 8))
			res.WidthCap = min(res.WidthCap, width)
		}
	}
	// Per-ply best fires and the fastest-target choice.
	chains := make([]int, len(bestFire))
	for d := range bestFire {
		f := bestFire[d]
		res.PerPly[d] = Fire{Ply: d + 1, Chains: f.chains, Sent: f.sent, Blocks: f.left}
		chains[d] = f.chains
	}
	choose := chooseFire(chains, cfg.Target, cfg.Deadline, cfg.DeadlineMin)
	if choose >= 0 {
		f := bestFire[choose]
		fire := res.PerPly[choose]
		fire.Moves = make([]int, choose+1)
		fire.Fields = make([]sim.Fast, choose+1)
		fire.Moves[choose] = f.mv
		idx := f.idx
		for d := choose; d >= 0; d-- {
			n := &layers[d][idx]
			fire.Fields[d] = n.s.f
			if d > 0 {
				fire.Moves[d-1] = int(n.mv)
				idx = int(n.parent)
			}
		}
		res.Best = fire
	}
	res.Line = bestLine(layers, cfg.Skill)
	return res
}

// planPlies is the number of plies still to search after depth d (0-based,
// just completed) that the budget left is split over: up to the horizon
// (Depth when 0) plus one ply of reserve, at least one.
func planPlies(depth, horizon, d int) int {
	h := depth
	if horizon > 0 {
		h = min(horizon, depth)
	}
	if h >= depth {
		return max(depth-d-1, 1)
	}
	return max(h-d-1, 0) + 1
}

// bestLine returns the best state of the last layer (by skill value for the
// skill beam, else by the beam's key) and the moves to it.
func bestLine(layers [][]beamNode, skill bool) Line {
	last := len(layers) - 1
	if last < 1 {
		return Line{}
	}
	best := -1
	var bv, bk int64
	for i := range layers[last] {
		n := &layers[last][i]
		var v int64
		if skill {
			v = skillValue(int(n.bucket), n.s.gauge)
			if n.bucket == skillMaxBucket {
				v = skillValue(n.s.f.SkillBlocks(), n.s.gauge)
			}
		}
		if best < 0 || v > bv || (v == bv && n.key > bk) {
			best, bv, bk = i, v, n.key
		}
	}
	n := &layers[last][best]
	ln := Line{Moves: make([]int, last), Fields: make([]sim.Fast, last), End: n.s.f, Gauge: n.s.gauge}
	ln.SkillBlocks = n.s.f.SkillBlocks()
	idx := best
	for d := last; d >= 1; d-- {
		n := &layers[d][idx]
		ln.Moves[d-1] = int(n.mv)
		idx = int(n.parent)
		ln.Fields[d-1] = layers[d-1][idx].s.f
	}
	return ln
}

// ojamaOf is the ojama a normal c-chain sends.
func ojamaOf(c int) int { return codevs.ChainOjama(c) }

// potentialKey is the potential beam's bucket (the one-block potential
// chain) and in-bucket order: more blocks on the field (fewer wasted in
// small fires), then lower fields, then a hash for a deterministic spread;
// as evalKey, a field reaching row 14 keeps only the hash. Tie-breaks on the
// trigger's row (higher or lower) built shorter chains in a study of 12
// generated pack sets at width 600.
func potentialKey(s *side, rowProof bool) (int8, int64) {
	pot, _, _ := s.f.Potential()
	b, _ := s.f.Count()
	h := s.f.MaxHeight()
	k := int64(pot)<<40 | int64(b)<<24 | int64(32-h)<<16 | int64(s.f.Hash()&0xffff)
	if rowProof {
		g := s.f
		g.DropOjamaRow()
		rp, _, _ := g.Potential()
		k = int64(pot)<<56 | int64(rp)<<48 | k&(1<<40-1)
	}
	if h >= 14 {
		k = int64(s.f.Hash() & 0xffff)
	}
	return int8(pot), k
}

// rowKeepKey is the RowKeep bucket, min(pot, rp+1) with rp the potential
// after one ojama row, and in-bucket order (bucketKey): the potential
// itself first.
func rowKeepKey(s *side) (int8, int64) {
	pot, _, _ := s.f.Potential()
	g := s.f
	g.DropOjamaRow()
	rp, _, _ := g.Potential()
	bucket := min(pot, rp+1)
	return int8(bucket), bucketKey(s, bucket, pot)
}

// bucketKey is the in-bucket order of the RowKeep and erase-based keys:
// the bucket, then second (a potential), then as potentialKey (more
// blocks, lower fields, a hash; a field reaching row 14 keeps only the
// hash).
func bucketKey(s *side, bucket, second int) int64 {
	h := s.f.MaxHeight()
	if h >= 14 {
		return int64(s.f.Hash() & 0xffff)
	}
	b, _ := s.f.Count()
	return int64(bucket)<<48 | int64(second)<<40 | int64(b)<<24 | int64(32-h)<<16 | int64(s.f.Hash()&0xffff)
}

// PotentialKey is the potential a Potential beam buckets its states by.
type PotentialKey uint8

// The potential keys. KeyAdd is the beam before session codevs-pot.
const (
	KeyAdd      PotentialKey = iota // sim.Fast.Potential (one block added on a column top)
	KeyErase                        // sim.Fast.ErasePotential, then Potential as the tie-break
	KeyMax                          // max of the two, then the other one
	KeyEraseAdd                     // ErasePotential + Potential (both count; bucket capped at 127)
)

// PotentialKeys names the keys for flags and logs.
var PotentialKeys = map[string]PotentialKey{"add": KeyAdd, "erase": KeyErase, "max": KeyMax, "sum": KeyEraseAdd}

// String returns the key's flag name.
func (k PotentialKey) String() string {
	for n, v := range PotentialKeys {
		if v == k {
			return n
		}
	}
	return "unknown"
}

// eraseKey is the bucket and in-bucket order (bucketKey) of the erase-based
// keys: the bucket by key, then the other potential.
func eraseKey(s *side, key PotentialKey) (int8, int64) {
	pot, _, _ := s.f.Potential()
	er, _, _ := s.f.ErasePotential()
	var bucket, second int
	switch key {
	case KeyMax:
		bucket, second = max(pot, er), min(pot, er)
	case KeyEraseAdd:
		bucket, second = min(pot+er, skillMaxBucket), er
	default:
		bucket, second = er, pot
	}
	return int8(bucket), bucketKey(s, bucket, second)
}
