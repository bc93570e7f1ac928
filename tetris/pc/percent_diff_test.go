// This file is the differential test of Percent's bitset path: on random
// fields and patterns it must agree, sequence by sequence, with the
// per-sequence depth-first search using reach.go's reference generator.

package pc

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomPCField returns a field of height h built from random garbage
// and random placements (no full row), whose empty cells need at most maxN
// pieces: fields like the ones players study, often solvable.
func randomPCField(rng *rand.Rand, h, maxN int) Field {
	ft := fastTabs()
	for {
		var f Field
		for range (10 * h) % 4 {
			f |= 1 << (10*rng.IntN(h) + rng.IntN(10))
		}
		if bits.OnesCount64(uint64(f))%4 != (10*h)%4 {
			continue
		}
		for tries := 0; tries < 50; tries++ {
			empty := 10*h - bits.OnesCount64(uint64(f))
			if empty/4 <= maxN {
				break
			}
			pl := ft.placements(f, h, Piece(rng.IntN(7)), nil)
			if len(pl) == 0 {
				continue
			}
			g := pl[rng.IntN(len(pl))]
			if _, nh := clearLines(g, h); nh == h {
				f = g
			}
		}
		empty := 10*h - bits.OnesCount64(uint64(f))
		if empty%4 == 0 && empty > 0 && empty/4 <= maxN {
			return f
		}
	}
}

// randomPattern returns a pattern text of n+extra pieces.
func randomPattern(rng *rand.Rand, n int) string {
	var parts []string
	left := n
	for left > 0 {
		switch k := rng.IntN(4); {
		case k == 0:
			parts = append(parts, pieceLetters[rng.IntN(7):][:1])
			left--
		case k == 1:
			parts = append(parts, "*")
			left--
		default:
			m := min(left, 1+rng.IntN(3))
			parts = append(parts, "*p"+string(rune('0'+m)))
			left -= m
		}
	}
	return strings.Join(parts, ",")
}

func TestPercentSetsMatchSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 60
	if testing.Short() {
		n = 15
	}
	ctx := context.Background()
	solvedSome := 0
	for i := range n {
		h := 2 + rng.IntN(3)
		f := randomPCField(rng, h, 5)
		need, _ := PiecesNeeded(f, h)
		hold := i%3 != 0
		use := need
		if hold {
			use++
		}
		pat, err := ParsePattern(randomPattern(rng, use))
		if err != nil {
			t.Fatal(err)
		}
		var uniq [][]Piece
		seen := map[string]bool{}
		for _, q := range pat.Sequences() {
			q = q[:min(len(q), use)]
			k := string(func() []byte {
				b := make([]byte, len(q))
				for j, p := range q {
					b[j] = byte(p)
				}
				return b
			}())
			if !seen[k] {
				seen[k] = true
				uniq = append(uniq, q)
			}
		}
		if len(uniq) > 400 {
			uniq = uniq[:400]
		}
		opt := Options{Height: h, Hold: hold}
		got, err := percentSets(ctx, f, h, need, uniq, opt)
		if err != nil {
			t.Fatal(err)
		}
		ref := newSolver(hold)
		ref.slow = newReacher()
		for j, q := range uniq {
			want := ref.solve(f, h, NoPiece, q, nil)
			if got[j] != want {
				t.Fatalf("field (h %d, hold %v)\n%squeue %v: sets %v, search %v", h, hold, f.Format(h), q, got[j], want)
			}
			if want {
				solvedSome++
			}
		}
	}
	if solvedSome == 0 {
		t.Fatal("no sequence solvable in any case: the test is vacuous")
	}
	t.Logf("%d solvable sequences checked", solvedSome)
}

// uniqPrefixes returns the distinct first-use-pieces prefixes of pat's
// sequences, at most limit of them.
func uniqPrefixes(pat *Pattern, use, limit int) [][]Piece {
	var uniq [][]Piece
	seen := map[uint64]bool{}
	for _, q := range pat.Sequences() {
		q = q[:min(len(q), use)]
		k := packQueue(q)<<5 | uint64(len(q))
		if !seen[k] {
			seen[k] = true
			uniq = append(uniq, q)
		}
	}
	return uniq[:min(len(uniq), limit)]
}

// TestPercentSharedMatchesSearch is the differential test of Percent's path
// beyond maxSeqPieces (percentShared, shared solutions): on random fields
// and patterns it must agree sequence by sequence with the per-sequence
// search (with reach.go's reference generator for the smaller cases).
func TestPercentSharedMatchesSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	ctx := context.Background()
	small, large := 40, 3
	if testing.Short() {
		small, large = 12, 1
	}
	var yes, no int
	for i := range small + large {
		h, maxN, limit := 2+rng.IntN(3), 6, 300
		if i >= small {
			h, maxN, limit = 4, 9, 12
		}
		f := randomPCField(rng, h, maxN)
		need, _ := PiecesNeeded(f, h)
		hold := i%4 != 0
		use := need
		if hold {
			use++
		}
		text := randomPattern(rng, use)
		if i >= small { // fixed pieces then a bag tail: a few hundred sequences
			text = ""
			for range use - 3 {
				text += pieceLetters[rng.IntN(7):][:1] + ","
			}
			text += "*p3"
		}
		pat, err := ParsePattern(text)
		if err != nil {
			t.Fatal(err)
		}
		uniq := uniqPrefixes(pat, use, limit)
		opt := Options{Height: h, Hold: hold}
		got, err := percentShared(ctx, f, h, uniq, opt)
		if err != nil {
			t.Fatal(err)
		}
		ref := newSolver(hold)
		if i < small {
			ref.slow = newReacher()
		}
		for j, q := range uniq {
			want := ref.solve(f, h, NoPiece, q, nil)
			if got[j] != want {
				t.Fatalf("field (h %d, hold %v)\n%squeue %v: shared %v, search %v", h, hold, f.Format(h), q, got[j], want)
			}
			if want {
				yes++
			} else {
				no++
			}
		}
	}
	if yes == 0 || no == 0 {
		t.Fatalf("one-sided sample: %d solvable, %d not", yes, no)
	}
	t.Logf("%d solvable and %d unsolvable sequences checked", yes, no)
}

// TestPercentSharedTenPieces checks the automatic choice on a 10-placement
// case (the empty 4-line field, a slice of a pattern) against the search.
func TestPercentSharedTenPieces(t *testing.T) {
	pat, _ := ParsePattern("[TIO]p3,L,J,S,Z,*p4")
	uniq := uniqPrefixes(pat, 11, 24)
	ctx := context.Background()
	opt := Options{Height: 4, Hold: true}
	got, err := percentShared(ctx, 0, 4, uniq, opt)
	if err != nil {
		t.Fatal(err)
	}
	want, err := percentSearch(ctx, 0, 4, uniq, opt)
	if err != nil {
		t.Fatal(err)
	}
	for j := range uniq {
		if got[j] != want[j] {
			t.Fatalf("queue %v: shared %v, search %v", uniq[j], got[j], want[j])
		}
	}
}
