// This file holds the start-of-game draw order: garbage, then pieces.

package seigot

import "fmt"

// GarbageHeight is the number of garbage rows a level starts with (10 at
// levels 3 and 4, none below).
func GarbageHeight(level int) int {
	if level >= 3 {
		return 10
	}
	return 0
}

// Start is what a game draws before play: the garbage rows (bottom
// GarbageHeight rows, top first; nil without garbage) and the first pieces.
type Start struct {
	Pieces  []int     `json:"pieces"`
	Garbage [][10]int `json:"garbage"`
}

// Sequence returns the first n current pieces of a game started with -r
// seed at level (1–4) and its initial garbage, in the original's draw order
// (spec §10): clear() draws the garbage, then every spawn draws one piece.
// Game overs (which redraw garbage at levels 3–4) are not modelled here.
func Sequence(seed uint64, level, n int) (Start, error) {
	if level < 0 || level > 4 {
		return Start{}, fmt.Errorf("level %d: want 0..4", level)
	}
	if n < 0 {
		return Start{}, fmt.Errorf("n = %d: want n >= 0", n)
	}
	d := NewDraws(seed)
	var st Start
	if h := GarbageHeight(level); h > 0 {
		var board [220]uint8
		d.Garbage(&board, h)
		st.Garbage = make([][10]int, h)
		for r := range h {
			y := 22 - h + r
			for x := range 10 {
				st.Garbage[r][x] = int(board[y*10+x])
			}
		}
	}
	st.Pieces = make([]int, n)
	for i := range st.Pieces {
		st.Pieces[i] = d.Piece()
	}
	return st, nil
}
