// hash_test.go checks how well the state hash tells boards apart.

package bot

import (
	"math/rand/v2"
	"testing"
)

// TestBoardHashSpread checks that boardHash tells apart boards that differ
// in one cell, in the combo or in back-to-back: no two of 200 000 such
// boards share a hash, and their table tags (the upper 32 bits) collide
// about as often as random ones would.
func TestBoardHashSpread(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	seen := map[uint64]Board{}
	tags := map[uint64]int{}
	tagDup := 0
	var b Board
	for len(seen) < 200000 {
		switch rng.IntN(8) {
		case 0:
			b.Combo = uint32(rng.IntN(5))
		case 1:
			b.B2B = !b.B2B
		default:
			b.Board.Rows[rng.IntN(40)] ^= 1 << uint(rng.IntN(10))
		}
		h := boardHash(&b)
		if o, ok := seen[h]; ok {
			if o != b {
				t.Fatalf("boards %v and %v share hash %#x", o, b, h)
			}
			continue
		}
		seen[h] = b
		if tags[tag(h)]++; tags[tag(h)] > 1 {
			tagDup++
		}
	}
	// 200 000 random 32-bit tags: about 4.7 collisions expected
	if tagDup > 30 {
		t.Fatalf("%d tag collisions among %d boards", tagDup, len(seen))
	}
	t.Logf("%d tag collisions", tagDup)
}
