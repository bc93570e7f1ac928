package ai

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/yomi-ai/yomi/codevs"
)

// TestEraseKey checks the erase-based beam keys on random fields, some
// under an ojama row: the bucket is the erase potential (KeyErase), the max
// of both potentials (KeyMax) or their sum (KeyEraseAdd), and keys order
// fields by bucket, then by the other potential. Some fields must have an
// erase potential above their add potential, or the keys equal KeyAdd's.
func TestEraseKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 37))
	packs, _ := codevs.PacksForSeed(9, codevs.ProfileClient)
	for _, key := range []PotentialKey{KeyErase, KeyMax, KeyEraseAdd} {
		var fields []keyedField
		above := 0
		for i := 0; i < 300; i++ {
			s, _ := randomSide(rng, packs)
			if rng.IntN(2) == 0 {
				s.f.DropOjamaRow()
			}
			if s.f.MaxHeight() >= 14 {
				continue
			}
			b, k := eraseKey(&s, key)
			pot, _, _ := s.f.Potential()
			er, _, _ := s.f.ErasePotential()
			want, second := er, pot
			switch key {
			case KeyMax:
				want, second = max(pot, er), min(pot, er)
			case KeyEraseAdd:
				want, second = pot+er, er
			}
			if int(b) != want {
				t.Fatalf("%v field %d: bucket %d, want %d (add %d, erase %d)", key, i, b, want, pot, er)
			}
			if er > pot {
				above++
			}
			fields = append(fields, keyedField{int(b), second, k})
		}
		checkKeyOrder(t, key.String(), fields)
		if above < 10 {
			t.Fatalf("%v: only %d fields with an erase potential above the add potential", key, above)
		}
	}
}

// TestBeamEraseKeys checks that beams on the erase-based keys build and
// record chains on the testdata packs (8+ chains in 13 plies at width 200).
// At this width they may build 1-2 chains shorter than the add key on a
// file (pack_0000: add 10, erase 8, sum 9); the comparison at width 600 is
// in BENCHMARKS.md (session codevs-pot).
func TestBeamEraseKeys(t *testing.T) {
	for _, name := range []string{"pack_0000.pack", "pack_0001.pack"} {
		packs := loadPacks(t, name)
		for _, key := range []PotentialKey{KeyErase, KeyMax, KeyEraseAdd} {
			cfg := BeamConfig{Depth: 13, Width: 200, BucketWidth: 60, XMin: 2, XMax: 6, Threads: 2, Potential: true, Key: key}
			res := runBeam(context.Background(), side{}, packs, cfg)
			best := 0
			for _, f := range res.PerPly {
				best = max(best, f.Chains)
			}
			t.Logf("%s: key %v: best chain in 13 plies %d", name, key, best)
			if best < 8 {
				t.Errorf("%s: key %v built only %d chains in 13 plies", name, key, best)
			}
		}
	}
}

// keyedField is a field's beam bucket, its tie-break value and its key.
type keyedField struct {
	bucket, second int
	key            int64
}

// checkKeyOrder fails unless the keys order the fields by bucket, then by
// the tie-break value (a higher pair needs a higher key).
func checkKeyOrder(t *testing.T, name string, fields []keyedField) {
	t.Helper()
	for i, a := range fields {
		for j, c := range fields {
			if (a.bucket > c.bucket || a.bucket == c.bucket && a.second > c.second) && a.key <= c.key {
				t.Fatalf("%s fields %d, %d: bucket/second %d/%d vs %d/%d, keys %x <= %x", name, i, j, a.bucket, a.second, c.bucket, c.second, a.key, c.key)
			}
		}
	}
}

// TestEnemyKey: the opponent's beam uses Config.EnemyKey, and on some of
// these fields the erase key reads a different answer than the add key
// (else the option would change nothing).
func TestEnemyKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 43))
	packs, _ := codevs.PacksForSeed(9, codevs.ProfileClient)
	differ := 0
	for i := 0; i < 12; i++ {
		s, _ := randomSide(rng, packs)
		if s.f.MaxHeight() >= 12 {
			continue
		}
		got := map[PotentialKey][]int{}
		for _, key := range []PotentialKey{KeyAdd, KeyErase} {
			bot := NewBot(packs, Config{FixedWidth: 120, Threads: 2, EnemyKey: key})
			got[key] = bot.enemyFiresHit(context.Background(), s, 0, 6, 120, 0, 0)
			want := runBeam(context.Background(), s, packs, BeamConfig{Depth: 6, Width: 120, BucketWidth: 36, XMax: 8, Threads: 2, Potential: true, Key: key})
			for p, f := range want.PerPly {
				if got[key][p] != f.Sent {
					t.Fatalf("field %d key %v ply %d: bot reads %d, a beam with that key %d", i, key, p+1, got[key][p], f.Sent)
				}
			}
		}
		if !slices.Equal(got[KeyAdd], got[KeyErase]) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("the erase key read the same answers as the add key on every field")
	}
}
