// convert.go holds the board and cell wire types and the conversions
// between TBP's strings and the engine's pieces, orientations, spins,
// placements, boards and bag states.

package tbp

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/yomi-ai/yomi/tetris"
)

// Cell is one board cell: 0 for empty (JSON null), otherwise the letter
// of the piece that filled it or 'G' for garbage.
type Cell byte

// MarshalJSON writes null or a one-letter string.
func (c Cell) MarshalJSON() ([]byte, error) {
	if c == 0 {
		return []byte("null"), nil
	}
	if !validCell(byte(c)) {
		return nil, fmt.Errorf("tbp: invalid cell %q", byte(c))
	}
	return []byte{'"', byte(c), '"'}, nil
}

// UnmarshalJSON reads null or one of "I","O","T","L","J","S","Z","G".
func (c *Cell) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*c = 0
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("tbp: cell must be null or a letter, got %s", b)
	}
	if len(s) != 1 || !validCell(s[0]) {
		return fmt.Errorf("tbp: cell must be null or one of IOTLJSZG, got %q", s)
	}
	*c = Cell(s[0])
	return nil
}

func validCell(b byte) bool { return strings.IndexByte("IOTLJSZG", b) >= 0 }

// Board is TBP's board: 40 rows of 10 cells, Board[0] the bottom row.
type Board [][]Cell

// UnmarshalJSON reads the rows and checks that each has 10 cells (the row
// count is checked by DecodeFrontend).
func (b *Board) UnmarshalJSON(data []byte) error {
	var rows [][]Cell
	if err := json.Unmarshal(data, &rows); err != nil {
		return err
	}
	for i, r := range rows {
		if len(r) != tetris.Width {
			return fmt.Errorf("tbp: board row %d has %d cells, want %d", i, len(r), tetris.Width)
		}
	}
	*b = rows
	return nil
}

// GarbageRows returns the garbage message (tbp-spec PR #2) for rows
// inserted at the bottom with the given holes, bottom-most last (the order
// of tetris.Turn.Garbage and of the message's rows): each row is full of
// "G" but for its hole.
func GarbageRows(holes []int8) Garbage {
	rows := make([][]Cell, len(holes))
	for i, h := range holes {
		row := make([]Cell, tetris.Width)
		for x := range row {
			if x != int(h) {
				row[x] = 'G'
			}
		}
		rows[i] = row
	}
	return Garbage{Rows: rows}
}

// BoardFrom converts an engine board; filled cells become "G" (the engine
// does not remember which piece filled a cell).
func BoardFrom(b *tetris.Board) Board {
	out := make(Board, tetris.Height)
	for y := range out {
		row := make([]Cell, tetris.Width)
		for x := range row {
			if b.Occupied(x, y) {
				row[x] = 'G'
			}
		}
		out[y] = row
	}
	return out
}

// Engine converts b to an engine board: rows beyond 40 and cells beyond 10
// are an error.
func (b Board) Engine() (tetris.Board, error) {
	var out tetris.Board
	if len(b) > tetris.Height {
		return out, fmt.Errorf("tbp: board has %d rows, want at most %d", len(b), tetris.Height)
	}
	for y, row := range b {
		if len(row) != tetris.Width {
			return out, fmt.Errorf("tbp: board row %d has %d cells, want %d", y, len(row), tetris.Width)
		}
		for x, c := range row {
			if c != 0 {
				out.Set(x, y)
			}
		}
	}
	return out, nil
}

// PieceName returns a piece's letter.
func PieceName(p tetris.Piece) string { return p.String() }

// ParsePiece reads an upper-case piece letter.
func ParsePiece(s string) (tetris.Piece, error) {
	if len(s) != 1 || strings.IndexByte("IOTLJSZ", s[0]) < 0 {
		return tetris.NoPiece, fmt.Errorf("tbp: unknown piece %q", s)
	}
	return tetris.ParsePiece(s)
}

// ParsePieces reads a queue or bag state.
func ParsePieces(ss []string) ([]tetris.Piece, error) {
	out := make([]tetris.Piece, len(ss))
	for i, s := range ss {
		p, err := ParsePiece(s)
		if err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

// PieceNames converts pieces to letters.
func PieceNames(ps []tetris.Piece) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

var orientations = [4]string{"north", "east", "south", "west"}
var spins = [3]string{"none", "mini", "full"}

// MoveFrom converts an engine placement.
func MoveFrom(pl tetris.Placement) Move {
	return Move{
		Location: Location{Type: pl.Piece.String(), Orientation: orientations[pl.Rot&3], X: int(pl.X), Y: int(pl.Y)},
		Spin:     spins[pl.Spin],
	}
}

// Placement converts m to an engine placement, checking every field (the
// coordinates must be within the 10×40 board's range; whether the piece
// fits is the frontend's check).
func (m Move) Placement() (tetris.Placement, error) {
	var pl tetris.Placement
	p, err := ParsePiece(m.Location.Type)
	if err != nil {
		return pl, err
	}
	rot := -1
	for i, o := range orientations {
		if o == m.Location.Orientation {
			rot = i
		}
	}
	if rot < 0 {
		return pl, fmt.Errorf("tbp: unknown orientation %q", m.Location.Orientation)
	}
	spin := -1
	for i, s := range spins {
		if s == m.Spin {
			spin = i
		}
	}
	if spin < 0 {
		return pl, fmt.Errorf("tbp: unknown spin %q", m.Spin)
	}
	if m.Location.X < -2 || m.Location.X > tetris.Width+1 || m.Location.Y < -2 || m.Location.Y > tetris.Height+1 {
		return pl, fmt.Errorf("tbp: location (%d,%d) is off the board", m.Location.X, m.Location.Y)
	}
	return tetris.Placement{Piece: p, Rot: tetris.Rot(rot), X: int8(m.Location.X), Y: int8(m.Location.Y), Spin: tetris.Spin(spin)}, nil
}

// SevenBag returns the seven_bag randomizer state for the pieces left in
// the bag.
func SevenBag(left tetris.PieceSet) *Randomizer {
	return &Randomizer{Type: "seven_bag", BagState: PieceNames(left.Pieces())}
}

// BagSet returns the set of pieces left in a seven_bag state (0 and no
// error when r is not a seven_bag state).
func (r *Randomizer) BagSet() (tetris.PieceSet, error) {
	if r == nil || r.Type != "seven_bag" {
		return 0, nil
	}
	ps, err := ParsePieces(r.BagState)
	if err != nil {
		return 0, err
	}
	var s tetris.PieceSet
	for _, p := range ps {
		s = s.With(p)
	}
	return s, nil
}
