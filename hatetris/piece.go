// This file holds the seven pieces and their orientations in HATETRIS's own
// rotation system (no kicks), derived from the 4×4 pictures of the original.

package hatetris

import (
	"fmt"
	"math/bits"
)

// Piece is one of the seven tetrominoes. The numbering is the enemy AI's
// ranking order (S first, the worst piece for the player; ties go to the
// lower number).
type Piece uint8

// The pieces, in the enemy AI's ranking order.
const (
	S Piece = iota
	Z
	O
	I
	L
	J
	T
	// NumPieces is the number of pieces.
	NumPieces = 7
)

// String returns the piece's letter.
func (p Piece) String() string {
	if p < NumPieces {
		return string("SZOILJT"[p])
	}
	return fmt.Sprintf("Piece(%d)", uint8(p))
}

// ParsePiece reads a piece letter (S Z O I L J T, either case).
func ParsePiece(s string) (Piece, error) {
	if len(s) == 1 {
		for p := Piece(0); p < NumPieces; p++ {
			c := s[0] &^ 0x20
			if c == "SZOILJT"[p] {
				return p, nil
			}
		}
	}
	return 0, fmt.Errorf("hatetris: unknown piece %q (want one of S Z O I L J T)", s)
}

// shape is one orientation of a piece: the bounding box of its cells inside
// the 4×4 picture and its rows (bit 0 = leftmost column of the box).
type shape struct {
	xMin, yMin, xDim, yDim int
	rows                   [4]uint16
	class                  int // orientations with equal boxes and rows share a class
	// cellRow/cellCol list the four cells relative to the box corner (xMin, yMin).
	cellRow, cellCol [4]uint8
	// yOff converts a box row Y to the cells' top row ya; free masks the
	// columns inside the walls and xShift converts them to box columns X.
	yOff   int
	free   uint16
	xShift uint8
	// Every row of a tetromino is one run of cells: row i is runLen[i]+1
	// cells starting runOff[i] columns into the box (see runs).
	runLen, runOff [4]uint8
}

// pictures are the orientations as drawn by the original, rows top to bottom.
var pictures = [NumPieces][4]string{
	S: {"......##.##.....", ".....#...##...#.", ".....##.##......", ".#...##...#....."},
	Z: {".....##...##....", "......#..##..#..", "....##...##.....", "..#..##..#......"},
	O: {".....##..##.....", ".....##..##.....", ".....##..##.....", ".....##..##....."},
	I: {"....####........", "..#...#...#...#.", "........####....", ".#...#...#...#.."},
	L: {".....###.#......", ".....##...#...#.", "......#.###.....", ".#...#...##....."},
	J: {".....##..#...#..", "....###...#.....", "..#...#..##.....", ".....#...###...."},
	T: {".....###..#.....", "......#..##...#.", ".....#..###.....", ".#...##..#......"},
}

// shapes[p][o] is orientation o of piece p; computed once from pictures and
// never changed afterwards.
var shapes = buildShapes()

func buildShapes() (s [NumPieces][4]shape) {
	for p := range pictures {
		for o, pic := range pictures[p] {
			xMin, yMin, xMax, yMax := 4, 4, -1, -1
			for i := 0; i < 16; i++ {
				if pic[i] == '#' {
					x, y := i%4, i/4
					xMin, yMin = min(xMin, x), min(yMin, y)
					xMax, yMax = max(xMax, x), max(yMax, y)
				}
			}
			sh := shape{xMin: xMin, yMin: yMin, xDim: xMax - xMin + 1, yDim: yMax - yMin + 1}
			sh.yOff = yMin - yBias
			sh.free = 1<<(Width+1-sh.xDim) - 1
			sh.xShift = uint8(xBias - xMin)
			for i := 0; i < 16; i++ {
				if pic[i] == '#' {
					sh.rows[i/4-yMin] |= 1 << (i%4 - xMin)
				}
			}
			for i := 0; i < sh.yDim; i++ {
				off := bits.TrailingZeros16(sh.rows[i])
				n := bits.OnesCount16(sh.rows[i])
				if sh.rows[i] != (1<<n-1)<<off {
					panic("hatetris: piece row is not one run")
				}
				sh.runLen[i], sh.runOff[i] = uint8(n-1), uint8(off)
			}
			k := 0
			for i := 0; i < sh.yDim; i++ {
				for b := 0; b < 4; b++ {
					if sh.rows[i]>>b&1 != 0 {
						sh.cellRow[k], sh.cellCol[k] = uint8(i), uint8(b)
						k++
					}
				}
			}
			sh.class = o
			for q := 0; q < o; q++ {
				if s[p][q].xDim == sh.xDim && s[p][q].yDim == sh.yDim && s[p][q].rows == sh.rows {
					sh.class = s[p][q].class
					break
				}
			}
			s[p][o] = sh
		}
	}
	return s
}
