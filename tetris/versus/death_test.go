// death_test.go checks that a bot that places a piece entirely above row
// 20 dies of a lock out (the move generator leaves such placements out,
// so they used to be reported as impossible moves), while a floating
// placement stays an impossible move, and that the built-in player does
// its search bookkeeping inside Move, not in Played.

package versus

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/yomi-ai/yomi/tetris"
	"github.com/yomi-ai/yomi/tetris/bot"
	"github.com/yomi-ai/yomi/tetris/movegen"
)

// fixed suggests one placement.
type fixed struct{ pl tetris.Placement }

func (f fixed) Begin(*tetris.Player) error { return nil }
func (f fixed) Close() error               { return nil }
func (f fixed) Played(*tetris.Player, tetris.Placement, bool, []tetris.Piece) error {
	return nil
}
func (f fixed) Move(context.Context, *tetris.Player, time.Duration) ([]tetris.Placement, MoveInfo, error) {
	return []tetris.Placement{f.pl}, MoveInfo{}, nil
}

func TestLockOutIsADeath(t *testing.T) {
	tests := []struct {
		name      string
		y         int8
		wantDeath tetris.Death
		wantLoss  string
	}{
		{"resting above row 20", 20, tetris.LockOut, ""},
		{"floating above row 20", 22, tetris.Alive, "impossible move"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Config{}
			cfg.fill()
			p := tetris.NewPlayer(cfg.Rules, 1, 1)
			// columns 0..3 filled up to row 19 (column 9 open: no line
			// clears), so the current piece can rest on them at y = 20
			for y := range 20 {
				for x := range 4 {
					p.Board.Set(x, y)
				}
			}
			pl := tetris.Placement{Piece: p.Current, Rot: tetris.North, X: 1, Y: tc.y}
			if !p.Board.FitsPlacement(pl) {
				t.Fatalf("setup: %v does not fit", pl)
			}
			var rec SideRecord
			_, loss := turn(context.Background(), &cfg, movegen.New(movegen.OptionsFor(&cfg.Rules)), fixed{pl}, p, &rec)
			if p.Death != tc.wantDeath || !strings.Contains(loss, tc.wantLoss) || (tc.wantLoss == "" && loss != "") {
				t.Fatalf("death %v, loss %q; want %v, %q", p.Death, loss, tc.wantDeath, tc.wantLoss)
			}
		})
	}
}

func TestBuiltinWorksOnlyInMove(t *testing.T) {
	cfg := Config{}
	cfg.fill()
	p := tetris.NewPlayer(cfg.Rules, 3, 3)
	b := &Builtin{b: bot.New(bot.Options{Seed: 1})}
	defer b.Close()
	if err := b.Begin(p); err != nil {
		t.Fatal(err)
	}
	if st := b.b.State(); st.QLen != 0 {
		t.Fatalf("Begin reset the search off the clock: %d pieces", st.QLen)
	}
	moves, _, err := b.Move(context.Background(), p, 5*time.Millisecond)
	if err != nil || len(moves) == 0 {
		t.Fatalf("move: %v %v", moves, err)
	}
	tr, err := p.Play(moves[0])
	if err != nil {
		t.Fatal(err)
	}
	before := b.b.State()
	if err := b.Played(p, moves[0], tr.Hold, p.Queue[len(p.Queue)-1:]); err != nil {
		t.Fatal(err)
	}
	if after := b.b.State(); after.Board != before.Board || after.QLen != before.QLen {
		t.Fatal("Played advanced the search off the clock")
	}
	if _, _, err := b.Move(context.Background(), p, 5*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if st := b.b.State(); st.Board.Board != p.Board {
		t.Fatalf("Move did not catch up with the played move:\n%v\nwant\n%v", st.Board.Board.String(), p.Board.String())
	}
}
