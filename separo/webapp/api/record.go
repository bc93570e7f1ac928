// This file holds game records as text: the page's export, and the parser
// behind its paste box, which also reads the output of `yomi separo game`.

package api

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/yomi-ai/yomi/separo"
)

// FormatRecord writes a game as the page exports it, in the notation of
// separo/notation.go and the block format of separo/testdata/games.txt:
//
//	size 9
//	moves R:88-77-67 B:08-17-27 …
func FormatRecord(size int, notation []string) string {
	return fmt.Sprintf("size %d\nmoves %s\n", size, strings.Join(notation, " "))
}

// recordMove is one move of a parsed record with its colour, or -1 when the
// record leaves the colour implied.
type recordMove struct {
	color int
	move  Move
	text  string
}

// ParseRecord reads a game record: "size N" (optional; 0 is returned
// without one), then moves "R:x1y1-x2y2-x3y3" or "x1y1-x2y2-x3y3", separated
// by spaces or lines, optionally after "moves" or move numbers ("12" or
// "12."). Lines starting with '#' are comments. It also reads what
// `yomi separo game` prints: its board diagram (rows of R, B and .) and its
// result line ("Red (…) 6 - Blue (…) 5: …") are skipped. Legality is checked
// when the moves are replayed.
func ParseRecord(text string) (size int, moves []recordMove, err error) {
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "Red (") || isDiagram(line) {
			continue
		}
		f := strings.Fields(line)
		if f[0] == "size" {
			if len(f) != 2 {
				return 0, nil, fmt.Errorf("line %d: want \"size N\"", n+1)
			}
			s, err := strconv.Atoi(f[1])
			if err != nil || s < MinSize || s > MaxSize {
				return 0, nil, fmt.Errorf("line %d: board size %q: want %d..%d", n+1, f[1], MinSize, MaxSize)
			}
			if len(moves) > 0 {
				return 0, nil, fmt.Errorf("line %d: size after the moves", n+1)
			}
			size = s
			continue
		}
		for _, tok := range f {
			if tok == "moves" || tok == "end" || isMoveNumber(tok) {
				continue
			}
			rm := recordMove{color: -1, text: tok}
			var m separo.Move
			if len(tok) > 2 && tok[1] == ':' {
				var c separo.Color
				c, m, err = separo.ParseColoredMove(tok)
				rm.color = int(c)
			} else {
				m, err = separo.ParseMove(tok)
			}
			if err != nil {
				return 0, nil, fmt.Errorf("line %d: %v", n+1, strings.TrimPrefix(err.Error(), "separo: "))
			}
			rm.move = toMove(m)
			moves = append(moves, rm)
		}
	}
	if len(moves) > MaxSize*MaxSize {
		return 0, nil, fmt.Errorf("%d moves is more than any game can have", len(moves))
	}
	return size, moves, nil
}

func isMoveNumber(s string) bool {
	s = strings.TrimSuffix(s, ".")
	_, err := strconv.ParseUint(s, 10, 16)
	return err == nil
}

// isDiagram reports whether line is a row of `yomi separo game`'s board.
func isDiagram(line string) bool {
	for _, f := range strings.Fields(line) {
		if f != "R" && f != "B" && f != "." {
			return false
		}
	}
	return true
}

// notation writes m in the engine's notation with its colour's prefix.
func notation(color int, m Move) string {
	return "RB"[color:color+1] + ":" + fromMove(m).String()
}
