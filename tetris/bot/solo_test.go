// solo_test.go plays short solo games through the public API (Reset,
// Think, Suggest, Play, AddPiece) with a seeded 7-bag and checks the bot
// survives and attacks.

package bot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

// bagFeed returns a seeded 7-bag piece source (PCG(seed, 0)), the
// sequence the solo, PC-mode and catch-up games share.
func bagFeed(seed uint64) func() Piece {
	rng := rand.New(rand.NewPCG(seed, 0))
	var bag []Piece
	return func() Piece {
		if len(bag) == 0 {
			bag = []Piece{I, O, T, L, J, S, Z}
			rng.Shuffle(len(bag), func(i, j int) { bag[i], bag[j] = bag[j], bag[i] })
		}
		p := bag[0]
		bag = bag[1:]
		return p
	}
}

// soloGame plays n pieces with budget nodes per move; it returns lines
// cleared, attack sent and whether the bot died.
func soloGame(t *testing.T, seed uint64, n int, nodes int64) (lines, attack int, dead bool) {
	next := bagFeed(seed)
	queue := make([]Piece, 6)
	for i := range queue {
		queue[i] = next()
	}
	b := New(Options{Seed: seed})
	if err := b.Reset(Board{}, queue, NoPiece, 0); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for range n {
		b.Think(ctx, Budget{Nodes: nodes})
		ms := b.Suggest(0)
		if len(ms) == 0 {
			return lines, attack, true
		}
		st := b.State()
		res := lockMove(&st.Board, ms[0].Piece, ms[0].Rot, int(ms[0].X), int(ms[0].Y), ms[0].Spin)
		lines += res.Lines
		attack += res.Attack
		if err := b.Play(ms[0]); err != nil {
			t.Fatal(err)
		}
		for s := b.State(); s.QLen < 6; s = b.State() {
			if err := b.AddPiece(next()); err != nil {
				t.Fatal(err)
			}
		}
	}
	return lines, attack, false
}

func TestSoloSurvives(t *testing.T) {
	n := 120
	if testing.Short() {
		n = 40
	}
	lines, attack, dead := soloGame(t, 11, n, 3000)
	t.Logf("%d pieces: %d lines, %d attack (%.2f attack/piece)", n, lines, attack, float64(attack)/float64(n))
	if dead {
		t.Fatal("the bot died")
	}
	if lines < n*4/10/2 {
		t.Fatalf("only %d lines in %d pieces", lines, n)
	}
	if attack == 0 {
		t.Fatal("no attack sent")
	}
}

// TestSoloLong runs longer solo games when YOMI_BOT_SOLO=pieces,nodes,games
// is set (e.g. 500,20000,4); it only reports figures.
func TestSoloLong(t *testing.T) {
	var n, games int
	var nodes int64
	if _, err := fmt.Sscanf(os.Getenv("YOMI_BOT_SOLO"), "%d,%d,%d", &n, &nodes, &games); err != nil {
		t.Skip("set YOMI_BOT_SOLO=pieces,nodes,games")
	}
	for g := range games {
		lines, attack, dead := soloGame(t, uint64(100+g), n, nodes)
		t.Logf("seed %d: %d pieces, %d lines, %d attack (%.3f/piece), dead=%v", 100+g, n, lines, attack, float64(attack)/float64(n), dead)
	}
}
