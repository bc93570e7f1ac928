// This file holds Game, which applies a list of moves exactly as the original
// does: the piece moves L, R, D, U; a blocked D locks it; the enemy then
// chooses the next piece.

package hatetris

import "fmt"

// Move is one input: L, R, D or U. The numeric values are the replay codecs'
// move codes.
type Move uint8

// The four moves.
const (
	Left Move = iota
	Right
	Down
	Up
)

// String returns the move's letter.
func (m Move) String() string { return string("LRDU"[m&3]) }

// MovesString writes moves as letters (the raw replay form).
func MovesString(ms []Move) string {
	b := make([]byte, len(ms))
	for i, m := range ms {
		b[i] = "LRDU"[m&3]
	}
	return string(b)
}

// Game is a HATETRIS game in progress.
type Game struct {
	Well   Well
	Score  int
	Piece  Piece // the falling piece
	X, Y   int   // its box corner
	O      int   // its orientation
	Over   bool
	Moves  int // moves applied (moves after game over are not counted)
	Pieces int // pieces spawned, including the falling one
	// History holds, for each spawned piece, the well at its spawn.
	History []Well
	// Spawned holds the pieces in the order they were given.
	Spawned []Piece
	enemy   *Enemy
}

// NewGame starts a game against the given AI: the first piece is the AI's
// choice for the empty well.
func NewGame(kind AIKind) *Game {
	g := &Game{enemy: NewEnemy(kind)}
	g.spawn()
	return g
}

func (g *Game) spawn() {
	g.History = append(g.History, g.Well)
	g.Piece = g.enemy.Next(&g.Well)
	g.Spawned = append(g.Spawned, g.Piece)
	g.X, g.Y, g.O = (Width-4)/2, 0, 0
	g.Pieces++
}

// fits reports whether the falling piece fits at (x, y, o).
func (g *Game) fits(x, y, o int) bool {
	sh := &shapes[g.Piece][o]
	xa, ya := x+sh.xMin, y+sh.yMin
	if xa < 0 || xa+sh.xDim > Width || ya < 0 || ya+sh.yDim > Height {
		return false
	}
	for i := 0; i < sh.yDim; i++ {
		if g.Well[ya+i]&(sh.rows[i]<<xa) != 0 {
			return false
		}
	}
	return true
}

// Apply plays one move. After game over it does nothing and returns false.
func (g *Game) Apply(m Move) bool {
	if g.Over {
		return false
	}
	g.Moves++
	x, y, o := g.X, g.Y, g.O
	switch m {
	case Left:
		x--
	case Right:
		x++
	case Down:
		y++
	case Up:
		o = (o + 1) & 3
	}
	if g.fits(x, y, o) {
		g.X, g.Y, g.O = x, y, o
		return true
	}
	if m != Down {
		return true
	}
	sh := &shapes[g.Piece][g.O]
	g.Score += g.Well.place(sh, g.X+sh.xMin, g.Y+sh.yMin)
	if g.Well.Over() {
		g.Over = true
		return true
	}
	g.spawn()
	return true
}

// Play applies moves in order and reports how many were consumed before game
// over (all of them if the game did not end).
func (g *Game) Play(moves []Move) int {
	for i, m := range moves {
		if !g.Apply(m) {
			return i
		}
	}
	return len(moves)
}

// ParseMoves reads a raw move string of L, R, D, U.
func ParseMoves(s string) ([]Move, error) {
	ms := make([]Move, len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case 'L':
			ms[i] = Left
		case 'R':
			ms[i] = Right
		case 'D':
			ms[i] = Down
		case 'U':
			ms[i] = Up
		default:
			return nil, fmt.Errorf("hatetris: move %d: bad character %q (want L, R, D or U)", i+1, s[i])
		}
	}
	return ms, nil
}

// PieceRows returns the falling piece's cells as rows in the well's layout
// (all zero after game over), for drawing it.
func (g *Game) PieceRows() Well {
	var piece Well
	if !g.Over {
		sh := &shapes[g.Piece][g.O]
		for i := 0; i < sh.yDim; i++ {
			piece[g.Y+sh.yMin+i] = sh.rows[i] << (g.X + sh.xMin)
		}
	}
	return piece
}

// Drawing returns the well as String draws it, with the falling piece drawn
// as '@' while the game is running.
func (g *Game) Drawing() string {
	w := g.Well
	piece := g.PieceRows()
	s := []byte(w.String())
	// Rows are Width+1 bytes; the bar line is inserted before row Bar.
	for y := 0; y < Height; y++ {
		off := y * (Width + 1)
		if y >= Bar {
			off += Width + 1
		}
		for x := 0; x < Width; x++ {
			if piece[y]>>x&1 != 0 {
				s[off+x] = '@'
			}
		}
	}
	return string(s)
}
