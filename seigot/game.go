// This file holds the game engine: the board, the preview list, hold, and one
// timer tick applying a nextMove exactly as game_manager.timerEvent does
// (spec §3–§9), including the spawn and first-hold quirks.
package seigot

import "fmt"

// Board dimensions (BoardData.width, BoardData.height).
const (
	Width  = 10
	Height = 22
	Cells  = Width * Height
)

// ShapeListMax is the length of the preview list including the current piece.
const ShapeListMax = 6

// Board is the locked cells, index x + 10*y, 0 = empty, else the shape index.
type Board [Cells]uint8

// Collides reports whether shape s in direction d at (x, y) leaves the board
// or overlaps a filled cell (BoardData.tryMove).
func (b *Board) Collides(s, d, x, y int) bool {
	for _, o := range Offsets(s, d) {
		cx, cy := x+o.X, y+o.Y
		if cx < 0 || cx >= Width || cy < 0 || cy >= Height || b[cx+cy*Width] != 0 {
			return true
		}
	}
	return false
}

// ClearLines removes full rows (removeFullLines) and returns how many.
func (b *Board) ClearLines() int {
	var nb Board
	ny := Height - 1
	lines := 0
	for y := Height - 1; y >= 0; y-- {
		full := true
		for x := range Width {
			if b[x+y*Width] == 0 {
				full = false
				break
			}
		}
		if full {
			lines++
			continue
		}
		copy(nb[ny*Width:ny*Width+Width], b[y*Width:y*Width+Width])
		ny--
	}
	if lines > 0 {
		*b = nb
	}
	return lines
}

// Empty reports whether no cell is filled.
func (b *Board) Empty() bool { return *b == Board{} }

// Config is a game's settings (start.py's per-level options).
type Config struct {
	Level         int    // 1..4 (informational; the fields below carry the rules)
	Seed          uint64 // the -r value; 0 = fixed order 1..7
	GarbageHeight int    // obstacle rows at the bottom (10 at levels 3–4)
	BlockNumMax   int    // piece cap (180), 0 or negative = none
	AllClearScore int    // bonus for a placement that empties the board (0 = March-2023 rules)
	MaxTicks      int    // stop after this many ticks (0 = no limit); a stand-in for the time limit
}

// LevelConfig returns the contest settings of a level (1–4) for seed.
// Level 4 uses the battle server's rules: level-3 garbage, 180 pieces (spec §11).
// allClear selects the post-contest all-clear bonus (spec §8).
func LevelConfig(level int, seed uint64, allClear bool) (Config, error) {
	if level < 1 || level > 4 {
		return Config{}, fmt.Errorf("level %d: want 1..4", level)
	}
	c := Config{Level: level, Seed: seed, GarbageHeight: GarbageHeight(level), BlockNumMax: 180}
	if allClear {
		c.AllClearScore = 500
		if level >= 3 {
			c.AllClearScore = 4000
		}
	}
	return c, nil
}

// Move is one nextMove strategy (plus the force-reset option).
type Move struct {
	Direction  int  // target direction (absolute)
	X          int  // target reference x
	YOperation int  // 1 = hard drop, 0 = move down
	YMoveBlock int  // rows to move down when YOperation == 0
	Hold       bool // use_hold_function == "y"
	ForceReset bool // option force_reset_field
}

// Stats are the judge and debug counters of a game.
type Stats struct {
	Score      int    `json:"score"`
	Lines      int    `json:"lines"`
	LineStat   [4]int `json:"line_stat"` // placements clearing 1, 2, 3, 4 lines
	GameOvers  int    `json:"gameovers"`
	AllClears  int    `json:"all_clears"`
	DropScore  int    `json:"drop_score"`
	LineScore  int    `json:"line_score"`
	BlockIndex int    `json:"block_index"` // counted pieces
	Ticks      int    `json:"ticks"`
}

// Game is the whole game state; it is a value (copying it copies the game).
type Game struct {
	Cfg   Config
	Board Board
	// List is BoardData.ShapeList: List[0] is the current piece's shape once
	// play has started, List[1..5] the previews.
	List      [ShapeListMax]uint8
	Hold      uint8 // held shape (0 with HoldSet false = empty)
	HoldSet   bool  // the hold slot has been used (it then always holds a piece)
	Cur       uint8 // current shape (0 = none after a failed spawn)
	X, Y, Dir int
	Stats     Stats
	Done      bool
	tryCnt    int
	draws     Draws
}

// NewGame starts a game as Game_Manager.start does: clear() (garbage draws),
// then createNewPiece() (six piece draws).
func NewGame(cfg Config) *Game {
	g := &Game{Cfg: cfg, draws: NewDraws(cfg.Seed)}
	g.clear()
	for i := 1; i < ShapeListMax; i++ {
		g.List[i] = uint8(g.draws.Piece())
	}
	g.createNewPiece()
	return g
}

func (g *Game) clear() {
	g.Cur, g.X, g.Y, g.Dir = 0, -1, -1, 0
	g.Board = Board{}
	if g.Cfg.GarbageHeight > 0 {
		g.draws.Garbage((*[Cells]uint8)(&g.Board), g.Cfg.GarbageHeight)
	}
}

// createNewPiece spawns List[1] at (5,1) with the tryMoveNext counter quirk.
func (g *Game) createNewPiece() bool {
	next := int(g.List[1])
	ok := !g.Board.Collides(next, 0, 5, 1)
	if !ok {
		g.tryCnt++
		if g.tryCnt >= 2 {
			g.tryCnt = 0
			ok = true
		}
	}
	if !ok {
		g.Cur, g.X, g.Y, g.Dir = 0, -1, -1, 0
		return false
	}
	copy(g.List[:], g.List[1:])
	g.List[ShapeListMax-1] = uint8(g.draws.Piece())
	g.Cur, g.X, g.Y, g.Dir = g.List[0], 5, 1, 0
	return true
}

// merge writes the current piece into the board (mergePiece). Python's
// negative list indices are reproduced for the "none" piece at (-1,-1).
func (g *Game) merge() {
	for _, o := range Offsets(int(g.Cur), g.Dir) {
		i := g.X + o.X + (g.Y+o.Y)*Width
		if i < 0 {
			i += Cells
		}
		if i >= 0 && i < Cells {
			g.Board[i] = g.Cur
		}
	}
	g.Cur, g.X, g.Y, g.Dir = 0, -1, -1, 0
}

func (g *Game) fits(d, x, y int) bool { return !g.Board.Collides(int(g.Cur), d, x, y) }

// lock merges, clears and spawns; it returns the lines removed.
func (g *Game) lock() int {
	g.merge()
	n := g.Board.ClearLines()
	g.createNewPiece()
	return n
}

// TickResult says what one tick did.
type TickResult struct {
	Lines    int  // lines removed this tick
	Dropped  int  // rows fallen in a hard drop (the drop bonus)
	GameOver bool // the field was reset (-500)
	AllClear bool // the all-clear bonus was awarded
	HoldOnly bool // a first hold ended the tick early
}

// Counted reports whether the next tick will count a piece (currentY <= 1).
func (g *Game) Counted() bool { return g.Y <= 1 }

// BeginTick performs step 1 of a tick: the block_index increment. The
// controller then sees the state (as GameStatus does) and ApplyMove finishes
// the tick. Tick does both.
func (g *Game) BeginTick() {
	if g.Y <= 1 {
		g.Stats.BlockIndex++
	}
}

// Tick runs one timer tick with move m: BeginTick then ApplyMove.
func (g *Game) Tick(m Move) TickResult {
	g.BeginTick()
	return g.ApplyMove(m)
}

// ApplyMove performs steps 3–9 of a tick (spec §4) after BeginTick.
func (g *Game) ApplyMove(m Move) TickResult {
	var r TickResult
	g.Stats.Ticks++
	if m.Hold {
		if !g.HoldSet {
			g.Hold, g.HoldSet = g.Cur, true
			g.createNewPiece()
			r.HoldOnly = true
			g.checkTickLimit()
			return r
		}
		g.Hold, g.Cur = g.Cur, g.Hold
		g.X, g.Y, g.Dir = 5, 1, 0
	}
	for k := 0; g.Dir != m.Direction && k < 4; k++ {
		nd := (g.Dir + 1) % 4
		if !g.fits(nd, g.X, g.Y) {
			break
		}
		g.Dir = nd
	}
	for k := 0; g.X != m.X && k < 5; k++ {
		nx := g.X + 1
		if g.X > m.X {
			nx = g.X - 1
		}
		if !g.fits(g.Dir, nx, g.Y) {
			break
		}
		g.X = nx
	}
	if m.YOperation == 1 {
		for g.fits(g.Dir, g.X, g.Y+1) {
			g.Y++
			r.Dropped++
		}
		r.Lines = g.lock()
	} else {
		for k := 0; ; {
			if !g.fits(g.Dir, g.X, g.Y+1) {
				r.Lines = g.lock()
				break
			}
			g.Y++
			k++
			if k >= m.YMoveBlock {
				break
			}
		}
	}
	g.score(&r)
	if g.Y < 1 || m.ForceReset {
		r.GameOver = true
		g.Stats.GameOvers++
		g.Stats.Score -= 500
		g.clear()
		g.createNewPiece()
	}
	if g.Cfg.BlockNumMax > 0 && g.Stats.BlockIndex == g.Cfg.BlockNumMax {
		g.Done = true
	}
	g.checkTickLimit()
	return r
}

func (g *Game) checkTickLimit() {
	if g.Cfg.MaxTicks > 0 && g.Stats.Ticks >= g.Cfg.MaxTicks {
		g.Done = true
	}
}

// LineScore is the score for clearing n lines at once (n²−n+1)×100.
func LineScore(n int) int {
	if n <= 0 || n > 4 {
		return 0
	}
	return (n*n - n + 1) * 100
}

func (g *Game) score(r *TickResult) {
	ls := LineScore(r.Lines)
	g.Stats.DropScore += r.Dropped
	g.Stats.LineScore += ls
	g.Stats.Score += ls + r.Dropped
	g.Stats.Lines += r.Lines
	if r.Lines > 0 {
		g.Stats.LineStat[r.Lines-1]++
		if g.Board.Empty() {
			r.AllClear = true
			g.Stats.Score += g.Cfg.AllClearScore
			g.Stats.AllClears++
		}
	}
}

// Previews returns the five preview shapes (List[1..5]).
func (g *Game) Previews() [ShapeListMax - 1]uint8 {
	var p [ShapeListMax - 1]uint8
	copy(p[:], g.List[1:])
	return p
}

// WithBlock returns the board with the current piece drawn in (getDataWithCurrentBlock).
func (g *Game) WithBlock() Board {
	b := g.Board
	if g.Cur == 0 {
		return b
	}
	for _, o := range Offsets(int(g.Cur), g.Dir) {
		i := g.X + o.X + (g.Y+o.Y)*Width
		if i >= 0 && i < Cells {
			b[i] = g.Cur
		}
	}
	return b
}
