// versus_test.go checks the game loops with scripted players (a greedy
// legal player, a cheater, a crasher), the built-in bot, TBP bots as
// processes (the test binary serving TBP, a crashing and a hanging one),
// and a small match through the arena runner.

package versus

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/tetris"
	"github.com/yomi-ai/yomi/tetris/bot"
	"github.com/yomi-ai/yomi/tetris/movegen"
	"github.com/yomi-ai/yomi/tetris/tbp"
)

func TestMain(m *testing.M) {
	switch os.Getenv("YOMI_VERSUS_TBP") {
	case "1": // a TBP bot capped at 3000 nodes a move
		if tbp.Serve(context.Background(), os.Stdin, os.Stdout, tbp.Config{Bot: bot.Options{Seed: 2}, MaxNodes: 3000}) != nil {
			os.Exit(1)
		}
		os.Exit(0)
	case "free": // the built-in bot's twin: thinks until suggest
		if tbp.Serve(context.Background(), os.Stdin, os.Stdout, tbp.Config{Bot: bot.Options{Seed: 2}}) != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// greedy plays the reachable placement with the lowest resulting stack
// (ties: most lines, then first); cheat > 0 makes its n-th move float in
// the air; fail > 0 makes its n-th move an error.
type greedy struct {
	g           *movegen.Generator
	moves       int
	cheat, fail int
	begins      int
}

func newGreedy() *greedy { return &greedy{g: movegen.New(movegen.Options{})} }

func (g *greedy) Begin(p *tetris.Player) error { g.begins++; return nil }
func (g *greedy) Close() error                 { return nil }
func (g *greedy) Played(p *tetris.Player, pl tetris.Placement, hold bool, fresh []tetris.Piece) error {
	return nil
}
func (g *greedy) Move(ctx context.Context, p *tetris.Player, think time.Duration) ([]tetris.Placement, MoveInfo, error) {
	g.moves++
	if g.moves == g.fail {
		return nil, MoveInfo{}, errors.New("boom")
	}
	if g.moves == g.cheat {
		return []tetris.Placement{{Piece: p.Current, Rot: tetris.North, X: 4, Y: 15}}, MoveInfo{}, nil
	}
	next := tetris.NoPiece
	if len(p.Queue) > 0 {
		next = p.Queue[0]
	}
	ms := g.g.Turn(nil, &p.Board, p.Current, p.Hold, next, true)
	best, bestScore := tetris.Placement{}, 1<<30
	for _, m := range ms {
		st := p.State
		lr := st.Lock(m.Placement, &p.Rules.Attack)
		var h [tetris.Width]int
		st.Heights(&h)
		score := 0
		for _, x := range h {
			score += x * x
		}
		score -= 50 * lr.Lines
		if score < bestScore {
			best, bestScore = m.Placement, score
		}
	}
	return []tetris.Placement{best}, MoveInfo{Nodes: int64(len(ms))}, nil
}

func TestPlayVersusScripted(t *testing.T) {
	tests := []struct {
		name       string
		a, b       *greedy
		wantWinner int
		wantReason string
	}{
		{"cheater loses", &greedy{g: movegen.New(movegen.Options{}), cheat: 7}, newGreedy(), 1, "impossible move"},
		{"crasher loses", newGreedy(), &greedy{g: movegen.New(movegen.Options{}), fail: 3}, 0, "bot failed: boom"},
		{"fair game ends", newGreedy(), newGreedy(), -2, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec, err := PlayVersus(context.Background(), Config{MaxPieces: 300, Record: true}, [2]Player{tc.a, tc.b}, 9, 10)
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantWinner != -2 && rec.Winner != tc.wantWinner {
				t.Fatalf("winner %d (%s), want %d", rec.Winner, rec.Reason, tc.wantWinner)
			}
			if !strings.Contains(rec.Reason, tc.wantReason) {
				t.Fatalf("reason %q lacks %q", rec.Reason, tc.wantReason)
			}
			for i, s := range rec.Sides {
				if s.Pieces != len(s.Moves) {
					t.Errorf("side %d: %d pieces, %d recorded moves", i, s.Pieces, len(s.Moves))
				}
			}
			if tc.wantWinner == -2 {
				// the greedy players clear lines but send little; garbage must still flow both ways
				t.Logf("%s: side 0 pieces %d attack %d", rec.Reason, rec.Sides[0].Pieces, rec.Sides[0].Attack)
				if rec.Sides[0].Pieces < 20 || rec.Sides[0].Ticks == 0 {
					t.Fatalf("game too short: %+v", rec.Sides)
				}
			}
		})
	}
}

func TestPlayVersusBuiltin(t *testing.T) {
	a := &Builtin{b: bot.New(bot.Options{Seed: 1})}
	b := &Builtin{b: bot.New(bot.Options{Seed: 2})}
	pieces := 150
	if testing.Short() {
		pieces = 40
	}
	rec, err := PlayVersus(context.Background(), Config{Think: 2 * time.Millisecond, MaxPieces: pieces}, [2]Player{a, b}, 3, 4)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range rec.Sides {
		if s.Nodes == 0 || s.Pieces == 0 {
			t.Errorf("side %d: %+v", i, s)
		}
		// the phase split accounts for every move (a losing one may be
		// asked for and not played), node and restart (the first move's
		// too; a restart after the last move is not played)
		ph := [2]*Builtin{a, b}[i].Phases
		if ph.Moves != s.Pieces && ph.Moves != s.Pieces+1 || ph.Nodes != s.Nodes || ph.Restarts != s.Restarts && ph.Restarts != s.Restarts+1 || ph.Searching > ph.Think ||
			ph.CatchUp+ph.Think+ph.Answer > time.Duration(s.WallMillis+int64(ph.Moves))*time.Millisecond {
			t.Errorf("side %d: phases %+v of %+v", i, ph, s)
		}
		// a death, or (CC1's rule) no suggestion when every move leads to a
		// block out at the next spawn
		if s.Loss != "" && !strings.Contains(s.Loss, "out") && s.Loss != "no move suggested" {
			t.Errorf("side %d lost for a bad reason: %s", i, s.Loss)
		}
	}
	t.Logf("%d %s: attack %d/%d, sent %d/%d", rec.Winner, rec.Reason, rec.Sides[0].Attack, rec.Sides[1].Attack, rec.Sides[0].Sent, rec.Sides[1].Sent)
}

func TestPlaySolo(t *testing.T) {
	g := newGreedy()
	r, err := PlaySolo(context.Background(), Config{MaxPieces: 100}, g, 5)
	if err != nil {
		t.Fatal(err)
	}
	if r.Side.Pieces != 100 || r.Died {
		t.Fatalf("greedy solo: %+v", r)
	}
	if want := float64(r.Side.Attack) / 100; r.AttackPerPiece != want {
		t.Fatalf("attack per piece %v, want %v", r.AttackPerPiece, want)
	}
	if r.PiecesPerSec <= 0 || r.PiecesPerSec > 60 {
		t.Fatalf("pieces per second %v", r.PiecesPerSec)
	}
	if r.Side.GarbageLines != 0 {
		t.Fatalf("garbage in solo: %+v", r.Side)
	}
}

func selfCmd(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	return "YOMI_VERSUS_TBP=1 exec " + exe
}

// TestTBPPlayers plays the test binary over TBP against the built-in bot,
// and bots that crash, hang or fail to start.
func TestTBPPlayers(t *testing.T) {
	ctx := context.Background()
	self := Spec{Cmd: selfCmd(t)}
	info := `echo '{"type":"info","name":"x","version":"1","author":"a","features":[]}'; `
	tests := []struct {
		name       string
		spec       Spec
		wantLoss   string // "" = plays a normal game
		pieces     int
		wantStart  bool
		wantNoOpen bool
		timeout    time.Duration // reply limit: generous for a real bot on a busy machine, short for a hang
	}{
		{"self over TBP", self, "", 30, false, false, 5 * time.Second},
		{"crashes", Spec{Cmd: info + `read a; echo '{"type":"ready"}'; read b; exit 3`}, "process exited", 30, false, false, 300 * time.Millisecond},
		{"hangs", Spec{Cmd: info + `read a; echo '{"type":"ready"}'; sleep 30`}, "timed out", 30, false, false, 300 * time.Millisecond},
		{"no info", Spec{Cmd: "exit 0"}, "", 30, false, true, 300 * time.Millisecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := tc.spec.Open(ctx, 1, tc.timeout)
			if tc.wantNoOpen {
				if err == nil {
					p.Close()
					t.Fatal("opened a bot that sent no info")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			b := &Builtin{b: bot.New(bot.Options{Seed: 2})}
			rec, err := PlayVersus(ctx, Config{Think: 5 * time.Millisecond, MaxPieces: tc.pieces}, [2]Player{p, b}, 7, 8)
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantLoss == "" {
				if l := rec.Sides[0].Loss; l != "" && !strings.Contains(l, "out") && l != "no move suggested" {
					t.Fatalf("TBP side lost: %s", rec.Sides[0].Loss)
				}
				if rec.Sides[0].Pieces < 10 || rec.Sides[0].Nodes == 0 {
					t.Fatalf("TBP side: %+v", rec.Sides[0])
				}
				return
			}
			if rec.Winner != 1 || !strings.Contains(rec.Reason, tc.wantLoss) {
				t.Fatalf("winner %d reason %q, want side 0 losing with %q", rec.Winner, rec.Reason, tc.wantLoss)
			}
		})
	}
}

func TestMatchRunner(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "m.jsonl")
	a := Spec{Options: bot.Options{}}
	b := Spec{Cmd: selfCmd(t)}
	rep, err := Match(context.Background(), arena.Config{Seed: 100, Pairs: 2, Results: results, NameA: "builtin", NameB: "self-tbp"},
		Config{Think: 3 * time.Millisecond, MaxPieces: 25}, a, b)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := arena.ReadResults(results)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 || len(rep.Games) != 4 {
		t.Fatalf("%d records, %d games, want 4", len(recs), len(rep.Games))
	}
	for _, r := range recs {
		if !strings.Contains(string(r.Info), `"sides"`) {
			t.Fatalf("record without game info: %+v", r)
		}
	}
}

func TestSoloRunner(t *testing.T) {
	a := Spec{Options: bot.Options{}}
	rep, err := Solo(context.Background(), arena.Config{Seed: 1, Pairs: 2}, Config{Think: 2 * time.Millisecond, MaxPieces: 30}, &a, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.A.N != 2 {
		t.Fatalf("%+v", rep.A)
	}
}
