// This file holds the controller's view of a game: GameStatus with the
// original's field names (spec §7, minus the Python `class` objects), the
// nextMove strategy reply, and Position, the compact form the AI searches.
package seigot

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// ShapeInfo is one {index, direction_range} entry; Index is nil for "None".
type ShapeInfo struct {
	Index          *int  `json:"index"`
	DirectionRange []int `json:"direction_range"`
}

// FieldInfo is GameStatus.field_info.
type FieldInfo struct {
	Width     int   `json:"width"`
	Height    int   `json:"height"`
	Backboard []int `json:"backboard"`
	Withblock []int `json:"withblock"`
}

// BlockInfo is GameStatus.block_info.
type BlockInfo struct {
	CurrentX         int                  `json:"currentX"`
	CurrentY         int                  `json:"currentY"`
	CurrentDirection int                  `json:"currentDirection"`
	CurrentShape     ShapeInfo            `json:"currentShape"`
	NextShape        ShapeInfo            `json:"nextShape"`
	NextShapeList    map[string]ShapeInfo `json:"nextShapeList"`
	HoldShape        ShapeInfo            `json:"holdShape"`
}

// JudgeInfo is GameStatus.judge_info.
type JudgeInfo struct {
	ElapsedTime        float64 `json:"elapsed_time"`
	GameTime           int     `json:"game_time"`
	GameoverCount      int     `json:"gameover_count"`
	AllBlockClearCount int     `json:"all_block_clear_count"`
	Score              int     `json:"score"`
	Line               int     `json:"line"`
	BlockIndex         int     `json:"block_index"`
	BlockNumMax        int     `json:"block_num_max"`
	Mode               string  `json:"mode"`
}

// DebugInfo is the part of GameStatus.debug_info the engine tracks.
type DebugInfo struct {
	DropDownScore       int            `json:"dropdownscore"`
	LineScore           int            `json:"linescore"`
	LineScoreTable      map[string]int `json:"line_score"`
	LineScoreStat       []int          `json:"line_score_stat"`
	RandomSeed          json.Number    `json:"random_seed"`
	ObstacleHeight      int            `json:"obstacle_height"`
	ObstacleProbability int            `json:"obstacle_probability"`
}

// GameStatus is what the game passes to GetNextMove, as JSON.
type GameStatus struct {
	FieldInfo FieldInfo `json:"field_info"`
	BlockInfo BlockInfo `json:"block_info"`
	JudgeInfo JudgeInfo `json:"judge_info"`
	DebugInfo DebugInfo `json:"debug_info"`
}

// Strategy is nextMove["strategy"] as the controller returns it.
type Strategy struct {
	Direction       int    `json:"direction"`
	X               int    `json:"x"`
	YOperation      int    `json:"y_operation"`
	YMoveBlockNum   int    `json:"y_moveblocknum"`
	UseHoldFunction string `json:"use_hold_function"`
}

// StrategyOf converts a Move to the reply format.
func StrategyOf(m Move) Strategy {
	s := Strategy{Direction: m.Direction, X: m.X, YOperation: m.YOperation, YMoveBlockNum: max(m.YMoveBlock, 1), UseHoldFunction: "n"}
	if m.Hold {
		s.UseHoldFunction = "y"
	}
	return s
}

// MoveOf converts a reply to a Move, rejecting values the game cannot take.
func MoveOf(s Strategy) (Move, error) {
	if s.YOperation != 0 && s.YOperation != 1 {
		return Move{}, fmt.Errorf("y_operation %d: want 0 or 1", s.YOperation)
	}
	if s.YOperation == 0 && s.YMoveBlockNum < 1 {
		return Move{}, fmt.Errorf("y_moveblocknum %d: want >= 1", s.YMoveBlockNum)
	}
	if s.UseHoldFunction != "y" && s.UseHoldFunction != "n" {
		return Move{}, fmt.Errorf("use_hold_function %q: want \"y\" or \"n\"", s.UseHoldFunction)
	}
	return Move{Direction: s.Direction, X: s.X, YOperation: s.YOperation, YMoveBlock: s.YMoveBlockNum, Hold: s.UseHoldFunction == "y"}, nil
}

func shapeInfo(s uint8, set bool) ShapeInfo {
	if !set {
		return ShapeInfo{}
	}
	i := int(s)
	r := DirectionRange(i)
	if r == nil {
		r = []int{0, 1, 2, 3}
	}
	return ShapeInfo{Index: &i, DirectionRange: r}
}

// Status builds the GameStatus the original would pass at this point of a
// tick (call it after BeginTick). elapsed is the reported elapsed_time.
func (g *Game) Status(elapsed float64) GameStatus {
	back := make([]int, Cells)
	with := make([]int, Cells)
	wb := g.WithBlock()
	for i := range Cells {
		back[i] = int(g.Board[i])
		with[i] = int(wb[i])
	}
	list := map[string]ShapeInfo{}
	for i := range ShapeListMax {
		list["element"+strconv.Itoa(i)] = shapeInfo(g.List[i], true)
	}
	max := g.Cfg.BlockNumMax
	if max <= 0 {
		max = -1
	}
	return GameStatus{
		FieldInfo: FieldInfo{Width: Width, Height: Height, Backboard: back, Withblock: with},
		BlockInfo: BlockInfo{CurrentX: g.X, CurrentY: g.Y, CurrentDirection: g.Dir,
			CurrentShape: shapeInfo(g.List[0], true), NextShape: shapeInfo(g.List[1], true),
			NextShapeList: list, HoldShape: shapeInfo(g.Hold, g.HoldSet)},
		JudgeInfo: JudgeInfo{ElapsedTime: elapsed, GameTime: 180, GameoverCount: g.Stats.GameOvers,
			AllBlockClearCount: g.Stats.AllClears, Score: g.Stats.Score, Line: g.Stats.Lines,
			BlockIndex: g.Stats.BlockIndex, BlockNumMax: max, Mode: "default"},
		DebugInfo: DebugInfo{DropDownScore: g.Stats.DropScore, LineScore: g.Stats.LineScore,
			LineScoreTable: map[string]int{"line1": 100, "line2": 300, "line3": 700, "line4": 1300,
				"gameover": -500, "all_block_clear": g.Cfg.AllClearScore},
			LineScoreStat: g.Stats.LineStat[:], RandomSeed: json.Number(strconv.FormatUint(g.Cfg.Seed, 10)),
			ObstacleHeight: g.Cfg.GarbageHeight, ObstacleProbability: obstacleProbability(g.Cfg.GarbageHeight)},
	}
}

func obstacleProbability(h int) int {
	if h > 0 {
		return 40
	}
	return 0
}

// Position is what the AI needs to choose a move.
type Position struct {
	Board      Board
	Cur        uint8                   // the piece to place (from the preview list head)
	X, Y, Dir  int                     // where it is now (y = 1 at spawn)
	Next       [ShapeListMax - 1]uint8 // previews, 0 when unknown
	Hold       uint8
	HoldSet    bool
	BlockIndex int // counted pieces including the current one
	BlockMax   int // the cap, 0 = none
	AllClear   int // all-clear bonus
	// FixedOrder is set at seed 0, where pieces cycle 1..7 and the whole
	// future is known.
	FixedOrder bool
}

// Position returns the AI's view of the game (call it after BeginTick).
func (g *Game) Position() Position {
	p := Position{Board: g.Board, Cur: g.Cur, X: g.X, Y: g.Y, Dir: g.Dir, Next: g.Previews(),
		Hold: g.Hold, HoldSet: g.HoldSet, BlockIndex: g.Stats.BlockIndex, AllClear: g.Cfg.AllClearScore,
		FixedOrder: Seed32(g.Cfg.Seed) == 0}
	if g.Cfg.BlockNumMax > 0 {
		p.BlockMax = g.Cfg.BlockNumMax
	}
	return p
}

// Position converts a decoded GameStatus, checking what the AI relies on.
func (s *GameStatus) Position() (Position, error) {
	var p Position
	f := s.FieldInfo
	if len(f.Backboard) != Cells {
		return p, fmt.Errorf("field_info.backboard has %d cells, want %d", len(f.Backboard), Cells)
	}
	for i, v := range f.Backboard {
		if v < 0 || v > 7 {
			return p, fmt.Errorf("backboard[%d] = %d: want 0..7", i, v)
		}
		p.Board[i] = uint8(v)
	}
	b := s.BlockInfo
	idx := func(si ShapeInfo, what string) (uint8, bool, error) {
		if si.Index == nil {
			return 0, false, nil
		}
		if *si.Index < 0 || *si.Index > 7 {
			return 0, false, fmt.Errorf("%s index %d: want 0..7", what, *si.Index)
		}
		return uint8(*si.Index), true, nil
	}
	var err error
	var ok bool
	if p.Cur, ok, err = idx(b.CurrentShape, "currentShape"); err != nil {
		return p, err
	} else if !ok || p.Cur == 0 {
		return p, fmt.Errorf("block_info.currentShape has no shape")
	}
	for i := range ShapeListMax - 1 {
		e, ok := b.NextShapeList["element"+strconv.Itoa(i+1)]
		if !ok {
			continue
		}
		if p.Next[i], _, err = idx(e, "nextShapeList"); err != nil {
			return p, err
		}
	}
	if p.Next[0] == 0 {
		if p.Next[0], _, err = idx(b.NextShape, "nextShape"); err != nil {
			return p, err
		}
	}
	if p.Hold, p.HoldSet, err = idx(b.HoldShape, "holdShape"); err != nil {
		return p, err
	}
	p.X, p.Y, p.Dir = b.CurrentX, b.CurrentY, b.CurrentDirection&3
	p.BlockIndex = s.JudgeInfo.BlockIndex
	if s.JudgeInfo.BlockNumMax > 0 {
		p.BlockMax = s.JudgeInfo.BlockNumMax
	}
	p.AllClear = s.DebugInfo.LineScoreTable["all_block_clear"]
	if seed, err := strconv.ParseFloat(s.DebugInfo.RandomSeed.String(), 64); err == nil && seed == 0 {
		p.FixedOrder = true
	}
	return p, nil
}
