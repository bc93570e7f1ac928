// Tests of the bot: whole games against the referee's dummy, the protocol
// loop and bad input.
package ai

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/protocol"
	"github.com/yomi-ai/yomi/codevs/referee"
)

// TestBotBeatsDummy plays games against the random dummy with fixed widths
// (deterministic; YOMI_LONG=1 adds two more seeds) and checks that every answer is legal, that the bot builds
// and fires a real chain, and that it wins.
func TestBotBeatsDummy(t *testing.T) {
	seeds := []uint64{1, 2} // seed 2 with Config.WorstCase and DenySkill
	if testing.Short() {
		seeds = seeds[:1]
	} else if os.Getenv("YOMI_LONG") != "" {
		seeds = append(seeds, 3, 4)
	}
	for _, seed := range seeds {
		packs, err := codevs.PacksForSeed(seed, codevs.ProfileClient)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := codevs.NewGame(packs)
		bot := NewBot(packs, Config{FixedWidth: 150, OwnDepth: 2, Threads: 2, WorstCase: seed%2 == 0, DenySkill: seed%2 == 0})
		rng := rand.New(rand.NewPCG(seed, 9))
		maxChain := 0
		for !g.Over && g.Turn < 200 {
			in := g.Input(0, [2]int64{100000, 100000})
			m, err := bot.Decide(context.Background(), &in)
			if err != nil {
				t.Fatalf("seed %d turn %d: %v", seed, g.Turn, err)
			}
			if err := g.P[0].Legal(m); err != nil {
				t.Fatalf("seed %d turn %d: illegal %v: %v", seed, g.Turn, m, err)
			}
			d := referee.DummyMove(&g.P[1], packs[g.Turn], referee.DummyRandom, rng)
			h, err := g.Step([2]codevs.Move{m, d})
			if err != nil {
				t.Fatal(err)
			}
			maxChain = max(maxChain, h[0].Chains)
		}
		if !g.Over || g.Result.Winner != 0 {
			t.Fatalf("seed %d: over %v, result %+v after %d turns", seed, g.Over, g.Result, g.Turn)
		}
		if maxChain < 8 {
			t.Errorf("seed %d: largest chain %d", seed, maxChain)
		}
		t.Logf("seed %d: won at turn %d (%s), largest chain %d", seed, g.Turn, g.Result.Reason, maxChain)
	}
}

// TestRunProtocol feeds a start block and two turn blocks and checks the
// name line and that each answer parses.
func TestRunProtocol(t *testing.T) {
	packs, _ := codevs.PacksForSeed(3, codevs.ProfileClient)
	g, _ := codevs.NewGame(packs)
	in := protocol.AppendStart(nil, codevs.ProtocolPacks(packs))
	tb := g.Input(0, [2]int64{180000, 180000})
	in = protocol.AppendTurn(in, &tb)
	if _, err := g.Step([2]codevs.Move{codevs.Drop(4, 0), codevs.Drop(4, 0)}); err != nil {
		t.Fatal(err)
	}
	tb = g.Input(0, [2]int64{170000, 180000})
	in = protocol.AppendTurn(in, &tb)
	var out bytes.Buffer
	if err := Run(context.Background(), bytes.NewReader(in), &out, Config{FixedWidth: 50, OwnDepth: 2}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || lines[0] != "yomi" {
		t.Fatalf("output %q", out.String())
	}
	for _, l := range lines[1:] {
		if _, err := protocol.ParseCommand(l); err != nil {
			t.Errorf("answer %q: %v", l, err)
		}
	}
}

func TestRunBadInput(t *testing.T) {
	packs, _ := codevs.PacksForSeed(3, codevs.ProfileClient)
	start := protocol.AppendStart(nil, codevs.ProtocolPacks(packs))
	holey := func() []byte {
		g, _ := codevs.NewGame(packs)
		tb := g.Input(0, [2]int64{1000, 1000})
		tb.Me.Field[0][0] = 3 // a block in the top row above empty cells
		return protocol.AppendTurn(append([]byte{}, start...), &tb)
	}()
	lateTurn := func() []byte {
		g, _ := codevs.NewGame(packs)
		tb := g.Input(0, [2]int64{1000, 1000})
		tb.Turn = 499
		b := protocol.AppendTurn(append([]byte{}, start...), &tb)
		return bytes.Replace(b, []byte("END\n499\n"), []byte("END\n500\n"), 1)
	}()
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"garbage", []byte("1 2\nx y\nEND\n"), "line"},
		{"truncated turn", append(append([]byte{}, start...), "0\n180000\n0\n"...), ""},
		{"hole in field", holey, "above an empty cell"},
		{"turn out of range", lateTurn, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := Run(context.Background(), bytes.NewReader(tc.in), &out, Config{FixedWidth: 20, OwnDepth: 1})
			if err == nil {
				t.Fatalf("no error; output %q", out.String())
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q lacks %q", err, tc.want)
			}
		})
	}
}

// TestDenyMove checks denyMove against a brute force over codevs.Player:
// it returns a drop making at least 3 chains exactly when one exists.
func TestDenyMove(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	found := 0
	for i := 0; i < 300; i++ {
		packs, _ := codevs.PacksForSeed(uint64(i%7+1), codevs.ProfileClient)
		s, p := randomSide(rng, packs)
		s.stock, p.Ojama = 0, 0
		off := 50 + i%40
		m, ok := denyMove(&s, packs[off:])
		exists := false
		for k := 0; k < 36; k++ {
			q := p
			h, err := q.Act(packs[off], toMove(k))
			if err == nil && !q.Dead() && h.Chains >= codevs.DrainMinimum {
				exists = true
			}
		}
		if ok != exists {
			t.Fatalf("case %d: denyMove ok=%v, brute force %v", i, ok, exists)
		}
		if ok {
			found++
			q := p
			if h, _ := q.Act(packs[off], toMove(m)); h.Chains < codevs.DrainMinimum {
				t.Fatalf("case %d: move %v makes %d chains", i, toMove(m), h.Chains)
			}
		}
	}
	if found == 0 {
		t.Fatal("no case had a 3-chain: the test is too weak")
	}
	t.Logf("%d/300 fields had a denial move", found)
}

// TestFiresFirst checks the race rule of holdFire: an opponent fire of the
// threat size at a ply before ours wins the race; at our ply it only offsets.
func TestFiresFirst(t *testing.T) {
	for _, c := range []struct {
		fires []int
		ours  int
		want  bool
	}{
		{[]int{0, 0, 25, 0, 0}, 3, false}, // its 25 at ply 3 goes off with ours
		{[]int{0, 0, 25, 0, 0}, 4, true},  // its 25 at ply 3 lands before our ply-4 fire
		{[]int{19, 19, 19}, 4, false},     // below the threat
		{[]int{0, 45}, 2, false},
		{[]int{45}, 1, false}, // we fire this turn
		{[]int{0, 0}, 5, false},
		{[]int{0, 20}, 5, true},
	} {
		if got := firesFirst(c.fires, c.ours, 20); got != c.want {
			t.Errorf("firesFirst(%v, %d) = %v, want %v", c.fires, c.ours, got, c.want)
		}
	}
}
