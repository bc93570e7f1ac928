// Score tables: S(C) for chains and E(b) for skill explosions, computed once
// from the exact formulas in codevs/sim.

package codevs

import "github.com/yomi-ai/yomi/codevs/sim"

// Table sizes: a field holds at most 19×10 blocks, so no turn has more than
// 95 chains or explodes more than 190 blocks.
const (
	maxChainTable = 128
	maxBlockTable = 256
)

// scoreTables holds S and E; read-only after init.
type scoreTables struct {
	chain [maxChainTable]int64
	blast [maxBlockTable]int64
}

var tables = func() *scoreTables {
	t := new(scoreTables)
	for c := range t.chain {
		t.chain[c] = sim.ChainScore(c)
	}
	for b := range t.blast {
		t.blast[b] = sim.ExplosionScore(b)
	}
	return t
}()

// ChainScore returns S(C) = Σ_{i=1..C} ⌊1.3^i⌋ (0 for C ≤ 0).
func ChainScore(c int) int64 {
	if c <= 0 {
		return 0
	}
	if c < maxChainTable {
		return tables.chain[c]
	}
	return sim.ChainScore(c)
}

// ExplosionScore returns E(b) = ⌊25·2^(b/12)⌋ (0 for b ≤ 0).
func ExplosionScore(b int) int64 {
	if b <= 0 {
		return 0
	}
	if b < maxBlockTable {
		return tables.blast[b]
	}
	return sim.ExplosionScore(b)
}

// ChainOjama is the ojama a normal turn with c chains sends: ⌊S(c)/2⌋.
func ChainOjama(c int) int { return int(ChainScore(c) / 2) }
