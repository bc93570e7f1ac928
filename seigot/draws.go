// This file holds the game's random draws: piece choice and garbage rows (spec §10).
package seigot

// Draws is the game's single random stream: piece indices and garbage cells.
type Draws struct {
	rs     RandomState
	seed32 uint32
	cycle  int
}

// NewDraws seeds the stream from the game's -r value.
func NewDraws(num uint64) Draws {
	s := Seed32(num)
	return Draws{rs: NewRandomState(s), seed32: s}
}

// Piece returns the next shape index 1..7 (getNewShapeIndex); seed 0 cycles 1..7 without the RNG.
func (d *Draws) Piece() int {
	if d.seed32 == 0 {
		d.cycle = d.cycle%7 + 1
		return d.cycle
	}
	return d.rs.Randint(1, 8)
}

// Garbage fills the bottom height rows of a 10x22 board (row-major, top to bottom) as
// addobstacle does: each cell is filled with probability 40/99 with a colour 1..7 drawn at once.
// board[y*10+x] is set to the colour or 0.
func (d *Draws) Garbage(board *[220]uint8, height int) {
	for y := 0; y < 22; y++ {
		for x := 0; x < 10; x++ {
			if y < 22-height {
				continue
			}
			board[y*10+x] = 0
			if d.rs.Randint(1, 100) <= 40 {
				board[y*10+x] = uint8(d.rs.Randint(1, 8))
			}
		}
	}
}
