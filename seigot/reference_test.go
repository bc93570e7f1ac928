// This file holds a slow, straightforward re-statement of the original
// game's rules (a line-by-line reading of board_manager.py and
// game_manager.timerEvent, with lists and maps instead of tables) and the
// differential test that plays random move sequences in both it and Game.
package seigot

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// refGame mirrors BoardData + Game_Manager with Python-like structures.
type refGame struct {
	backBoard    []int
	shapeList    []int // ShapeList; -1 = the initial placeholder
	nextShape    int   // -1 = None
	current      int
	hold         int // -1 = None
	cx, cy, cd   int
	tryCnt       int
	draws        Draws
	garbage      int
	allClear     int
	blockNumMax  int
	blockIndex   int
	score, line  int
	stat         [4]int
	resets       int
	allClears    int
	dropScore    int
	finished     bool
	ticksElapsed int
}

func refCoords(shape, dir, x, y int) [][2]int {
	base := map[int][][2]int{
		0: {{0, 0}, {0, 0}, {0, 0}, {0, 0}},
		1: {{0, -1}, {0, 0}, {0, 1}, {0, 2}},
		2: {{0, -1}, {0, 0}, {0, 1}, {1, 1}},
		3: {{0, -1}, {0, 0}, {0, 1}, {-1, 1}},
		4: {{0, -1}, {0, 0}, {0, 1}, {1, 0}},
		5: {{0, 0}, {0, -1}, {1, 0}, {1, -1}},
		6: {{0, 0}, {0, -1}, {-1, 0}, {1, -1}},
		7: {{0, 0}, {0, -1}, {1, 0}, {-1, -1}},
	}[shape]
	var out [][2]int
	for _, c := range base {
		xx, yy := c[0], c[1]
		switch {
		case dir == 0 || shape == 5:
		case dir == 1:
			xx, yy = -yy, xx
		case dir == 2 && (shape == 1 || shape == 6 || shape == 7):
		case dir == 2:
			xx, yy = -xx, -yy
		case dir == 3 && (shape == 1 || shape == 6 || shape == 7):
			xx, yy = -yy, xx
		case dir == 3:
			xx, yy = yy, -xx
		}
		out = append(out, [2]int{x + xx, y + yy})
	}
	return out
}

func (r *refGame) tryMove(shape, dir, x, y int) bool {
	for _, c := range refCoords(shape, dir, x, y) {
		if c[0] >= 10 || c[0] < 0 || c[1] >= 22 || c[1] < 0 {
			return false
		}
		if r.backBoard[c[0]+c[1]*10] > 0 {
			return false
		}
	}
	return true
}

func (r *refGame) newIndex() int { return r.draws.Piece() }

func (r *refGame) createNewPiece() {
	if r.nextShape == -1 {
		r.shapeList = append(r.shapeList, -1)
		for range 5 {
			r.shapeList = append(r.shapeList, r.newIndex())
		}
		r.nextShape = r.shapeList[1]
	}
	ok := r.tryMove(r.nextShape, 0, 5, 1)
	if !ok {
		r.tryCnt++
		if r.tryCnt >= 2 {
			r.tryCnt = 0
			ok = true
		}
	}
	if ok {
		r.cx, r.cy, r.cd = 5, 1, 0
		r.shapeList = r.shapeList[1:]
		r.shapeList = append(r.shapeList, r.newIndex())
		r.current = r.shapeList[0]
		r.nextShape = r.shapeList[1]
	} else {
		r.current, r.cx, r.cy, r.cd = 0, -1, -1, 0
	}
}

func (r *refGame) clear() {
	r.current, r.cx, r.cy, r.cd = 0, -1, -1, 0
	r.backBoard = make([]int, 220)
	for y := 0; y < 22; y++ {
		for x := 0; x < 10; x++ {
			if y < 22-r.garbage {
				continue
			}
			if r.draws.rs.Randint(1, 100) <= 40 {
				r.backBoard[x+y*10] = r.draws.rs.Randint(1, 8)
			}
		}
	}
}

func (r *refGame) merge() {
	for _, c := range refCoords(r.current, r.cd, r.cx, r.cy) {
		i := c[0] + c[1]*10
		if i < 0 {
			i += 220 // Python negative index
		}
		r.backBoard[i] = r.current
	}
	r.current, r.cx, r.cy, r.cd = 0, -1, -1, 0
}

func (r *refGame) removeFullLines() int {
	nb := make([]int, 220)
	ny := 21
	lines := 0
	for y := 21; y >= 0; y-- {
		cnt := 0
		for x := 0; x < 10; x++ {
			if r.backBoard[x+y*10] > 0 {
				cnt++
			}
		}
		if cnt < 10 {
			for x := 0; x < 10; x++ {
				nb[x+ny*10] = r.backBoard[x+y*10]
			}
			ny--
		} else {
			lines++
		}
	}
	if lines > 0 {
		r.backBoard = nb
	}
	return lines
}

func (r *refGame) moveDown() (int, int) {
	if r.tryMove(r.current, r.cd, r.cx, r.cy+1) {
		r.cy++
		return 0, 1
	}
	r.merge()
	n := r.removeFullLines()
	r.createNewPiece()
	return n, 0
}

func (r *refGame) tick(m Move) {
	if r.cy <= 1 {
		r.blockIndex++
	}
	r.ticksElapsed++
	if m.Hold {
		if r.hold == -1 {
			r.hold = r.current
			r.createNewPiece()
			return
		}
		r.hold, r.current = r.current, r.hold
		r.cx, r.cy, r.cd = 5, 1, 0
	}
	for k := 0; r.cd != m.Direction && k < 4; k++ {
		if !r.tryMove(r.current, (r.cd+1)%4, r.cx, r.cy) {
			break
		}
		r.cd = (r.cd + 1) % 4
	}
	for k := 0; r.cx != m.X && k < 5; k++ {
		if r.cx > m.X {
			if !r.tryMove(r.current, r.cd, r.cx-1, r.cy) {
				break
			}
			r.cx--
		} else {
			if !r.tryMove(r.current, r.cd, r.cx+1, r.cy) {
				break
			}
			r.cx++
		}
	}
	removed, dropped := 0, 0
	if m.YOperation == 1 {
		for r.tryMove(r.current, r.cd, r.cx, r.cy+1) {
			r.cy++
			dropped++
		}
		r.merge()
		removed = r.removeFullLines()
		r.createNewPiece()
	} else {
		k := 0
		for {
			var moved int
			removed, moved = r.moveDown()
			if moved < 1 {
				break
			}
			k++
			if k >= m.YMoveBlock {
				break
			}
		}
	}
	ls := map[int]int{1: 100, 2: 300, 3: 700, 4: 1300}[removed]
	r.dropScore += dropped
	r.score += ls + dropped
	r.line += removed
	if removed > 0 {
		r.stat[removed-1]++
		if slices.Max(r.backBoard) == 0 {
			r.score += r.allClear
			r.allClears++
		}
	}
	if r.cy < 1 || m.ForceReset {
		r.resets++
		r.score -= 500
		r.clear()
		r.createNewPiece()
	}
	if r.blockNumMax > 0 && r.blockIndex == r.blockNumMax {
		r.finished = true
	}
}

func newRef(c Config) *refGame {
	r := &refGame{nextShape: -1, hold: -1, draws: NewDraws(c.Seed), garbage: c.GarbageHeight,
		allClear: c.AllClearScore, blockNumMax: c.BlockNumMax}
	r.clear()
	r.createNewPiece()
	return r
}

// diff returns "" when g and r agree on every observable.
func (r *refGame) diff(g *Game) string {
	for i := range 220 {
		if int(g.Board[i]) != r.backBoard[i] {
			return fmt.Sprintf("board cell %d: %d vs ref %d", i, g.Board[i], r.backBoard[i])
		}
	}
	for i := range ShapeListMax {
		if int(g.List[i]) != r.shapeList[i] {
			return fmt.Sprintf("list %v vs ref %v", g.List, r.shapeList)
		}
	}
	hold := -1
	if g.HoldSet {
		hold = int(g.Hold)
	}
	got := fmt.Sprint(int(g.Cur), g.X, g.Y, g.Dir, hold, g.tryCnt, g.Stats.Score, g.Stats.Lines,
		g.Stats.LineStat, g.Stats.GameOvers, g.Stats.AllClears, g.Stats.DropScore, g.Stats.BlockIndex, g.Done)
	want := fmt.Sprint(r.current, r.cx, r.cy, r.cd, r.hold, r.tryCnt, r.score, r.line,
		r.stat, r.resets, r.allClears, r.dropScore, r.blockIndex, r.finished)
	if got != want {
		return fmt.Sprintf("state %s vs ref %s", got, want)
	}
	return ""
}

func randomMove(rng *rand.Rand) Move {
	m := Move{Direction: rng.IntN(4), X: rng.IntN(10), YOperation: 1, YMoveBlock: 1 + rng.IntN(3)}
	if rng.IntN(5) == 0 {
		m.YOperation = 0
		m.YMoveBlock = 1 + rng.IntN(25)
	}
	if rng.IntN(12) == 0 {
		m.Direction = rng.IntN(8) - 2
		m.X = rng.IntN(16) - 3
	}
	m.Hold = rng.IntN(8) == 0
	m.ForceReset = rng.IntN(300) == 0
	return m
}

func TestDifferentialAgainstReference(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 15
	}
	for gi := range games {
		level := 1 + gi%4
		seed := uint64(gi * 7919)
		if gi%5 == 0 {
			seed = 0
		}
		cfg, _ := LevelConfig(level, seed, gi%2 == 0)
		cfg.BlockNumMax = 0
		if gi%3 == 0 {
			cfg.BlockNumMax = 150
		}
		g := NewGame(cfg)
		r := newRef(cfg)
		if d := r.diff(g); d != "" {
			t.Fatalf("game %d at start: %s", gi, d)
		}
		rng := rand.New(rand.NewPCG(uint64(gi), 42))
		for tick := 0; tick < 600 && !g.Done; tick++ {
			m := randomMove(rng)
			g.Tick(m)
			r.tick(m)
			if d := r.diff(g); d != "" {
				t.Fatalf("game %d (level %d seed %d) tick %d move %+v: %s", gi, level, seed, tick, m, d)
			}
		}
	}
}
