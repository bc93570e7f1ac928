// This file holds the seven shapes with the game's own coordinates (spec §2):
// base offsets, the rotation rule of Shape.getRotatedOffsets and the
// direction ranges reported to the controller.
package seigot

// Shape indices as the game numbers them (Shape.shapeI … Shape.shapeZ); 0 is "none".
const (
	ShapeNone = 0
	ShapeI    = 1
	ShapeL    = 2
	ShapeJ    = 3
	ShapeT    = 4
	ShapeO    = 5
	ShapeS    = 6
	ShapeZ    = 7
)

// ShapeNames maps a shape index to its letter ("" for none).
var ShapeNames = [8]string{"", "I", "L", "J", "T", "O", "S", "Z"}

// Offset is one cell of a shape relative to its reference point (y grows downward).
type Offset struct{ X, Y int }

// baseOffsets is Shape.shapeCoord: direction-0 offsets per shape index.
var baseOffsets = [8][4]Offset{
	{{0, 0}, {0, 0}, {0, 0}, {0, 0}},
	{{0, -1}, {0, 0}, {0, 1}, {0, 2}},
	{{0, -1}, {0, 0}, {0, 1}, {1, 1}},
	{{0, -1}, {0, 0}, {0, 1}, {-1, 1}},
	{{0, -1}, {0, 0}, {0, 1}, {1, 0}},
	{{0, 0}, {0, -1}, {1, 0}, {1, -1}},
	{{0, 0}, {0, -1}, {-1, 0}, {1, -1}},
	{{0, 0}, {0, -1}, {1, 0}, {-1, -1}},
}

// rotatedOffsets is getRotatedOffsets evaluated once: [shape][direction 0..3].
var rotatedOffsets = func() (t [8][4][4]Offset) {
	for s := range 8 {
		for d := range 4 {
			t[s][d] = rotate(s, d)
		}
	}
	return t
}()

// rotate applies the game's rotation rule for shape s and direction d (0..3).
func rotate(s, d int) [4]Offset {
	var out [4]Offset
	twoState := s == ShapeI || s == ShapeS || s == ShapeZ
	for i, o := range baseOffsets[s] {
		x, y := o.X, o.Y
		switch {
		case d == 0 || s == ShapeO:
			out[i] = Offset{x, y}
		case d == 1 || (d == 3 && twoState):
			out[i] = Offset{-y, x}
		case d == 2 && twoState:
			out[i] = Offset{x, y}
		case d == 2:
			out[i] = Offset{-x, -y}
		default: // d == 3, four-state shapes
			out[i] = Offset{y, -x}
		}
	}
	return out
}

// Offsets returns the four cells of shape s (0..7) in direction d (any int;
// taken mod 4 as the game's rotation counter is).
func Offsets(s, d int) [4]Offset { return rotatedOffsets[s&7][d&3] }

// DirectionRange is the direction_range the game reports for a shape:
// (0,1) for I, S, Z; (0,) for O; (0,1,2,3) otherwise.
func DirectionRange(s int) []int {
	switch s {
	case ShapeI, ShapeS, ShapeZ:
		return []int{0, 1}
	case ShapeO:
		return []int{0}
	case ShapeNone:
		return nil
	}
	return []int{0, 1, 2, 3}
}

// XRange returns the reference x values [lo, hi] at which shape s in
// direction d fits inside the 10 columns.
func XRange(s, d int) (lo, hi int) {
	minX, maxX := 0, 0
	for _, o := range Offsets(s, d) {
		minX = min(minX, o.X)
		maxX = max(maxX, o.X)
	}
	return -minX, Width - 1 - maxX
}
