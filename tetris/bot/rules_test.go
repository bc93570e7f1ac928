// rules_test.go checks the bot's adapter over the shared engine and move
// generator against the spec's vectors: kick tables (§4.2), the TSD spin
// case (§25.2) and empty-board placement counts (§25.3), plus the
// placement generator against a slow reference built on engine primitives.

package bot

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/yomi-ai/yomi/tetris"
)

func TestKickTables(t *testing.T) {
	tests := []struct {
		p    Piece
		a, b Rot
		want string
	}{
		{T, North, East, "(0,0) (-1,0) (-1,1) (0,-2) (-1,-2)"},
		{T, East, North, "(0,0) (1,0) (1,-1) (0,2) (1,2)"},
		{T, East, South, "(0,0) (1,0) (1,-1) (0,2) (1,2)"},
		{T, South, East, "(0,0) (-1,0) (-1,1) (0,-2) (-1,-2)"},
		{T, South, West, "(0,0) (1,0) (1,1) (0,-2) (1,-2)"},
		{T, West, South, "(0,0) (-1,0) (-1,-1) (0,2) (-1,2)"},
		{T, West, North, "(0,0) (-1,0) (-1,-1) (0,2) (-1,2)"},
		{T, North, West, "(0,0) (1,0) (1,1) (0,-2) (1,-2)"},
		{I, North, East, "(1,0) (-1,0) (2,0) (-1,-1) (2,2)"},
		{I, East, North, "(-1,0) (1,0) (-2,0) (1,1) (-2,-2)"},
		{I, East, South, "(0,-1) (-1,-1) (2,-1) (-1,1) (2,-2)"},
		{I, South, East, "(0,1) (1,1) (-2,1) (1,-1) (-2,2)"},
		{I, South, West, "(-1,0) (1,0) (-2,0) (1,1) (-2,-2)"},
		{I, West, South, "(1,0) (-1,0) (2,0) (-1,-1) (2,2)"},
		{I, West, North, "(0,1) (1,1) (-2,1) (1,-1) (-2,2)"},
		{I, North, West, "(0,-1) (-1,-1) (2,-1) (-1,1) (2,-2)"},
		{O, North, East, "(0,1)"},
		{O, East, South, "(1,0)"},
		{O, South, West, "(0,-1)"},
		{O, West, North, "(-1,0)"},
	}
	for _, tc := range tests {
		got := ""
		for i, k := range tetris.Kicks(tc.p, tc.a, tc.b) {
			if i > 0 {
				got += " "
			}
			got += fmt.Sprintf("(%d,%d)", k.X, k.Y)
		}
		if got != tc.want {
			t.Errorf("%v %v->%v: got %s want %s", tc.p, tc.a, tc.b, got, tc.want)
		}
	}
}

func TestEmptyBoardCounts(t *testing.T) {
	want := map[Piece]int{I: 17, O: 9, T: 34, L: 34, J: 34, S: 17, Z: 17}
	g := NewGenerator()
	var b Board
	for p, n := range want {
		ms := g.Placements(nil, &b, p)
		if len(ms) != n {
			t.Errorf("%v: %d placements, want %d", p, len(ms), n)
		}
	}
}

func TestSpinCheckerTSD(t *testing.T) {
	b := mustField(t, "X__XX_X___", "X___XXXXXX", "XX_XXXXXXX")
	g := NewGenerator()
	found := false
	for _, m := range g.Placements(nil, &b, T) {
		if m.Rot == South && m.X == 2 && m.Y == 1 {
			if m.Spin != SpinFull {
				t.Fatalf("T south (2,1): spin %v, want full", m.Spin)
			}
			c := b
			res := lockMove(&c, T, m.Rot, 2, 1, m.Spin)
			if res.Kind != KindTspin2 || res.Attack != 4 {
				t.Fatalf("lock: %+v, want TSD with attack 4", res)
			}
			found = true
		}
	}
	if !found {
		t.Fatal("TSD placement not generated")
	}
}

// placementKey identifies a placement by its covered cells and spin.
func placementKey(p Piece, r Rot, x, y int, spin Spin) uint64 {
	y0, m := tetris.Placement{Piece: p, Rot: r, X: int8(x), Y: int8(y)}.CellMask()
	return m | uint64(y0)<<40 | uint64(spin)<<48
}

// refPlacements is a slow breadth-first reference: every (rot,x,y,spin)
// reachable from spawn by shifts, rotations and sonic drops (CC's 0G input set);
// placements are states that cannot move down, keyed by cells and spin.
func refPlacements(b *Board, p Piece) map[uint64]bool {
	out := map[uint64]bool{}
	sx, sy, ok := Spawn(b, p)
	if !ok {
		return out
	}
	type st struct {
		r    Rot
		x, y int
		s    Spin
	}
	seen := map[st]bool{}
	q := []st{{North, sx, sy, SpinNone}}
	seen[q[0]] = true
	add := func(s st) {
		if !seen[s] {
			seen[s] = true
			q = append(q, s)
		}
	}
	for len(q) > 0 {
		s := q[0]
		q = q[1:]
		if !b.Fits(p, s.r, s.x, s.y-1) {
			above := true
			for _, c := range tetris.PieceCells(p, s.r) {
				if s.y+int(c.Y) < 20 {
					above = false
				}
			}
			if !above {
				out[placementKey(p, s.r, s.x, s.y, s.s)] = true
			}
		} else {
			y := s.y - 1
			for b.Fits(p, s.r, s.x, y-1) {
				y--
			}
			add(st{s.r, s.x, y, SpinNone})
		}
		for _, dx := range []int{-1, 1} {
			if b.Fits(p, s.r, s.x+dx, s.y) {
				add(st{s.r, s.x + dx, s.y, SpinNone})
			}
		}
		if p == O {
			continue
		}
		for _, nr := range []Rot{s.r.Cw(), s.r.Ccw()} {
			nx, ny, k, ok := b.Rotate(p, s.r, s.x, s.y, nr)
			if !ok {
				continue
			}
			sp := SpinNone
			if p == T {
				sp = b.TSpin(nr, nx, ny, k, tetris.FifthKickAlways)
			}
			add(st{nr, nx, ny, sp})
		}
	}
	return out
}

func randomBoard(rng *rand.Rand) Board {
	var b Board
	h := rng.IntN(12)
	for y := 0; y < h; y++ {
		b.Rows[y] = uint16(rng.IntN(1 << 10))
		if b.Rows[y] == fullRow {
			b.Rows[y] = 0x1FF
		}
	}
	return b
}

func TestPlacementsMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	g := NewGenerator()
	n := 300
	if testing.Short() {
		n = 60
	}
	for i := range n {
		b := randomBoard(rng)
		for p := range Piece(7) {
			ref := refPlacements(&b, p)
			got := map[uint64]bool{}
			for _, m := range g.Placements(nil, &b, p) {
				k := placementKey(p, m.Rot, int(m.X), int(m.Y), m.Spin)
				if got[k] {
					t.Fatalf("board %d piece %v: duplicate %+v", i, p, m)
				}
				got[k] = true
				if !ref[k] {
					t.Fatalf("board %d piece %v: %+v not in reference", i, p, m)
				}
			}
			if len(got) != len(ref) {
				t.Fatalf("board %d piece %v: %d placements, reference %d", i, p, len(got), len(ref))
			}
		}
	}
}

func TestFastPlacementsSubset(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	g := NewGenerator()
	var empty Board
	want := map[Piece]int{I: 17, O: 9, T: 34, L: 34, J: 34, S: 17, Z: 17}
	for p, n := range want {
		if got := len(g.FastPlacements(nil, &empty, p)); got != n {
			t.Errorf("fast %v on empty board: %d placements, want %d", p, got, n)
		}
	}
	missed, total := 0, 0
	for i := range 200 {
		b := randomBoard(rng)
		for p := range Piece(7) {
			ref := refPlacements(&b, p)
			fast := g.FastPlacements(nil, &b, p)
			for _, m := range fast {
				k := placementKey(p, m.Rot, int(m.X), int(m.Y), m.Spin)
				if !ref[k] {
					t.Fatalf("board %d piece %v: fast placement %+v not reachable", i, p, m)
				}
			}
			missed += len(ref) - len(fast)
			total += len(ref)
		}
	}
	t.Logf("fast mode found %d of %d placements", total-missed, total)
	if missed*20 > total {
		t.Fatalf("fast mode misses too much: %d of %d", missed, total)
	}
}
