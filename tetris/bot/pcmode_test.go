// pcmode_test.go tests the perfect-clear mode: piece conversion, a plan
// from the opening position played to an actual perfect clear, plans
// dropped when the game leaves them, and solo games that count perfect
// clears per 100 pieces with the mode on and off.

package bot

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/yomi-ai/yomi/tetris/pc"
)

func TestPCPieceConversion(t *testing.T) {
	for _, p := range []Piece{I, O, T, L, J, S, Z} {
		q := toPC(p)
		if q.String() != p.String() {
			t.Errorf("toPC(%v) = %v", p, q)
		}
		if fromPC(q) != p {
			t.Errorf("fromPC(toPC(%v)) = %v", p, fromPC(q))
		}
	}
}

// pcSolo plays n pieces of a seeded 7-bag game with a preview of the given
// length; it returns the perfect clears seen by the engine and the bot's
// counters.
func pcSolo(t *testing.T, seed uint64, n, preview int, opt Options, nodes int64) (pcs int, st PCStats, dead bool) {
	t.Helper()
	next := bagFeed(seed)
	queue := make([]Piece, preview)
	for i := range queue {
		queue[i] = next()
	}
	opt.Seed = seed
	b := New(opt)
	if err := b.Reset(Board{}, queue, NoPiece, 0); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for range n {
		b.Think(ctx, Budget{Nodes: nodes})
		ms := b.Suggest(0)
		if len(ms) == 0 {
			return pcs, b.PCStats(), true
		}
		s := b.State()
		// The move must be legal: one of the generator's placements.
		legal := false
		p := s.Queue[0]
		if ms[0].Hold {
			p = s.Hold
			if p == NoPiece {
				p = s.Queue[1]
			}
		}
		for _, m := range NewGenerator().Placements(nil, &s.Board, p) {
			if m.Piece == ms[0].Piece && m.Rot == ms[0].Rot && m.X == ms[0].X && m.Y == ms[0].Y && m.Spin == ms[0].Spin {
				legal = true
			}
		}
		if !legal || ms[0].Piece != p {
			t.Fatalf("illegal move %+v (piece %v)", ms[0], p)
		}
		res := lockMove(&s.Board, ms[0].Piece, ms[0].Rot, int(ms[0].X), int(ms[0].Y), ms[0].Spin)
		if res.PerfectClear {
			pcs++
		}
		if err := b.Play(ms[0]); err != nil {
			t.Fatal(err)
		}
		if got := b.State().Board; got.Board != s.Board.Board {
			t.Fatalf("bot board after play differs from the engine's")
		}
		for s := b.State(); int(s.QLen) < preview; s = b.State() {
			if err := b.AddPiece(next()); err != nil {
				t.Fatal(err)
			}
		}
	}
	return pcs, b.PCStats(), false
}

func TestPCModeSolo(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 40
	}
	cases := []struct {
		name    string
		preview int
		opt     Options
		minPCs  int
	}{
		{"pc-12", 12, Options{PerfectClear: true}, 1},
		{"pc-12-nohold", 12, Options{PerfectClear: true, NoHold: true}, 0},
		{"off-12", 12, Options{}, 0},
		{"pc-5", 5, Options{PerfectClear: true}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pcs, st, dead := pcSolo(t, 7, n, c.preview, c.opt, 1500)
			t.Logf("%d pieces: %d perfect clears (engine), stats %+v", n, pcs, st)
			if dead {
				t.Fatal("the bot died")
			}
			if pcs < c.minPCs {
				t.Fatalf("%d perfect clears, want at least %d", pcs, c.minPCs)
			}
			if st.Completed > pcs {
				t.Fatalf("mode claims %d completed plans, engine saw %d perfect clears", st.Completed, pcs)
			}
			if !c.opt.PerfectClear && (st.Searches != 0 || st.Completed != 0) {
				t.Fatalf("mode off but stats %+v", st)
			}
			if c.preview < 10 && st.Searches != 0 {
				t.Fatalf("searched with only %d known pieces: %+v", c.preview, st)
			}
			if st.Placed != n {
				t.Fatalf("Placed %d, want %d", st.Placed, n)
			}
		})
	}
}

// TestPCPlanBreaks checks that a plan is followed, then dropped (and the
// normal search takes over) when garbage arrives mid-plan.
func TestPCPlanBreaks(t *testing.T) {
	q := []Piece{I, O, T, L, J, S, Z, I, O, T, L, J}
	b := New(Options{PerfectClear: true, Seed: 1})
	if err := b.Reset(Board{}, q, NoPiece, 0); err != nil {
		t.Fatal(err)
	}
	b.Think(context.Background(), Budget{Nodes: 2000})
	on, left := b.PCActive()
	if !on || left < 5 {
		t.Fatalf("no plan on IOTLJSZIOTLJ: active %v left %d, stats %+v", on, left, b.PCStats())
	}
	if st := b.Stats(); st.Nodes != 0 {
		t.Fatalf("searched %d nodes while following a plan", st.Nodes)
	}
	mv := b.Suggest(0)[0]
	if err := b.Play(mv); err != nil {
		t.Fatal(err)
	}
	if on2, left2 := b.PCActive(); !on2 || left2 != left-1 {
		t.Fatalf("after one plan move: active %v left %d, want %d", on2, left2, left-1)
	}
	// A garbage line arrives: the frontend resets the bot with it.
	s := b.State()
	g := s.Board
	copy(g.Rows[1:], g.Rows[:len(g.Rows)-1])
	g.Rows[0] = 0x3FF &^ 1
	if err := b.Reset(g, s.Queue[:s.QLen], s.Hold, s.Bag); err != nil {
		t.Fatal(err)
	}
	b.Think(context.Background(), Budget{Nodes: 2000})
	if on, _ := b.PCActive(); on {
		t.Fatal("plan still active after garbage")
	}
	if st := b.PCStats(); st.Broken != 1 || st.Found != 1 || st.Moves != 1 {
		t.Fatalf("stats %+v, want 1 found, 1 move, 1 broken", st)
	}
	if len(b.Suggest(0)) == 0 || b.Stats().Nodes == 0 {
		t.Fatal("no normal search after the plan broke")
	}
}

// TestPCFindBudget checks that the finder's node budget stops a search.
func TestPCFindBudget(t *testing.T) {
	q := []pc.Piece{pc.S, pc.S, pc.S, pc.S, pc.Z, pc.Z, pc.Z, pc.Z, pc.S, pc.S, pc.Z}
	_, ok, err := pc.Find(0, q, pc.NoPiece, pc.Options{Height: 4, Hold: true, MaxNodes: 10})
	if ok || err != pc.ErrBudget {
		t.Fatalf("ok %v err %v, want ErrBudget", ok, err)
	}
}

// TestPCSoloLong reports perfect clears per 100 pieces in longer solo games
// when YOMI_BOT_PC=pieces,nodes,games,preview is set (e.g. 500,3000,4,12);
// it only reports figures (mode on and off, same seeds).
func TestPCSoloLong(t *testing.T) {
	var n, games, preview int
	var nodes int64
	if _, err := fmt.Sscanf(os.Getenv("YOMI_BOT_PC"), "%d,%d,%d,%d", &n, &nodes, &games, &preview); err != nil {
		t.Skip("set YOMI_BOT_PC=pieces,nodes,games,preview")
	}
	for _, on := range []bool{true, false} {
		pcs, placed, searchTime, searches := 0, 0, 0.0, 0
		for g := range games {
			k, st, dead := pcSolo(t, uint64(100+g), n, preview, Options{PerfectClear: on}, nodes)
			pcs += k
			placed += st.Placed
			searchTime += st.SearchTime.Seconds()
			searches += st.Searches
			t.Logf("pc=%v seed %d: %d perfect clears in %d pieces, dead=%v, stats %+v", on, 100+g, k, st.Placed, dead, st)
		}
		t.Logf("pc=%v: %d perfect clears in %d pieces = %.2f per 100 pieces; %d searches, %.3f s finder time", on, pcs, placed, 100*float64(pcs)/float64(max(placed, 1)), searches, searchTime)
	}
}
