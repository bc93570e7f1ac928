// Package protocol speaks the CODE VS Reborn stdin/stdout format in both
// directions, byte for byte as the official client wrote it.
//
// Referee → AI: the game-start block (AppendStart: 500 packs, each "a b\n",
// "c d\n", "END\n") followed by one 43-line block per turn (AppendTurn).
// AI → referee: its name once at start-up (ValidName), then one command line
// per turn, "x r" or "S" (ParseCommand, Command.String).
//
// Reading is token based and tolerant of any whitespace (spaces, tabs, CR,
// blank lines), as every public contest AI reads it; anything else gives a
// *SyntaxError naming the line and the reason. Start with Reader for the AI
// side and AppendStart/AppendTurn for the referee side.
package protocol

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Protocol dimensions.
const (
	Turns   = 500 // packs in the start block, turns in a game
	Rows    = 16  // field rows shown, top row first
	Cols    = 10  // field columns
	Ojama   = 11  // cell value of an ojama block
	MaxX    = 8   // largest legal pack position
	MaxR    = 3   // largest legal rotation
	MaxTime = 1<<53 - 1
)

// Pack is a 2×2 pack as sent: Top = first line "a b", Bottom = second line
// "c d"; 0 is an empty cell. It has the same layout as sim.Pack, so the two
// convert to each other.
type Pack struct{ Top, Bottom [2]int8 }

// Field is one player's visible field: Field[0] is the top row (row 16),
// Field[15] the bottom row; values 0, 1–9 or 11 (ojama).
type Field [Rows][Cols]int8

// Player is one player's part of a turn block.
type Player struct {
	TimeMs int64 // remaining thinking time in ms
	Ojama  int   // ojama stock before this turn's drop
	Gauge  int   // skill gauge at the end of the previous turn, 0..100
	Score  int64 // cumulative score at the end of the previous turn
	Field  Field // field at the end of the previous turn
}

// Turn is one per-turn block: the turn number, then the receiving AI's own
// state, then the opponent's.
type Turn struct {
	Turn    int
	Me, Opp Player
}

// Command is one answer: a pack drop at column X with rotation R, or the
// skill when Skill is set.
type Command struct {
	Skill bool
	X, R  int
}

// String formats the command as an AI prints it: "x r" or "S".
func (c Command) String() string {
	if c.Skill {
		return "S"
	}
	return strconv.Itoa(c.X) + " " + strconv.Itoa(c.R)
}

// ErrEmpty is returned by ParseCommand for a line holding only whitespace.
var ErrEmpty = errors.New("empty line")

// ParseCommand parses one answer line. Leading, trailing and repeated
// whitespace (including a CR) is ignored; the line must then be "S" or two
// decimal integers x r with 0 ≤ x ≤ 8 and 0 ≤ r ≤ 3. Whether the skill is
// allowed (gauge ≥ 80) is the game's business, not the protocol's.
func ParseCommand(line string) (Command, error) {
	f := strings.Fields(line)
	switch {
	case len(f) == 0:
		return Command{}, ErrEmpty
	case len(f) == 1 && f[0] == "S":
		return Command{Skill: true}, nil
	case len(f) != 2:
		return Command{}, fmt.Errorf("want \"x r\" or \"S\", got %q", clip(line))
	}
	x, err := parseSmall(f[0])
	if err != nil {
		return Command{}, fmt.Errorf("bad x %q in %q: %v", clip(f[0]), clip(line), err)
	}
	r, err := parseSmall(f[1])
	if err != nil {
		return Command{}, fmt.Errorf("bad r %q in %q: %v", clip(f[1]), clip(line), err)
	}
	if x < 0 || x > MaxX {
		return Command{}, fmt.Errorf("x = %d out of range 0..%d in %q", x, MaxX, clip(line))
	}
	if r < 0 || r > MaxR {
		return Command{}, fmt.Errorf("r = %d out of range 0..%d in %q", r, MaxR, clip(line))
	}
	return Command{X: x, R: r}, nil
}

// parseSmall parses an optionally signed decimal integer (as Java's
// Integer.parseInt does), refusing anything that is not one.
func parseSmall(s string) (int, error) {
	v, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return 0, errors.New("out of range")
		}
		return 0, errors.New("not a decimal integer")
	}
	return int(v), nil
}

// clip shortens s for an error message.
func clip(s string) string {
	const max = 40
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}

// ValidName checks an AI's start-up name line: not empty after trimming and
// free of the characters the client forbids (\ / : * ? " < > |) and of
// control characters.
func ValidName(name string) error {
	n := strings.TrimSpace(name)
	if n == "" {
		return errors.New("empty AI name")
	}
	for _, c := range n {
		if strings.ContainsRune(`\/:*?"<>|`, c) || c < 0x20 || c == 0x7f {
			return fmt.Errorf("AI name %q contains %q, which the client forbids", clip(n), c)
		}
	}
	return nil
}

// AppendStart appends the game-start block for packs (normally 500 of them):
// per pack "a b\n", "c d\n", "END\n".
func AppendStart(dst []byte, packs []Pack) []byte {
	for _, p := range packs {
		dst = strconv.AppendInt(dst, int64(p.Top[0]), 10)
		dst = append(dst, ' ')
		dst = strconv.AppendInt(dst, int64(p.Top[1]), 10)
		dst = append(dst, '\n')
		dst = strconv.AppendInt(dst, int64(p.Bottom[0]), 10)
		dst = append(dst, ' ')
		dst = strconv.AppendInt(dst, int64(p.Bottom[1]), 10)
		dst = append(dst, '\n', 'E', 'N', 'D', '\n')
	}
	return dst
}

// AppendTurn appends one turn block: the turn number, the receiver's time,
// stock, gauge, score (one per line), its 16 field rows top first, "END",
// then the same for the opponent without the turn number.
func AppendTurn(dst []byte, t *Turn) []byte {
	dst = strconv.AppendInt(dst, int64(t.Turn), 10)
	dst = append(dst, '\n')
	dst = appendPlayer(dst, &t.Me)
	dst = appendPlayer(dst, &t.Opp)
	return dst
}

func appendPlayer(dst []byte, p *Player) []byte {
	dst = strconv.AppendInt(dst, p.TimeMs, 10)
	dst = append(dst, '\n')
	dst = strconv.AppendInt(dst, int64(p.Ojama), 10)
	dst = append(dst, '\n')
	dst = strconv.AppendInt(dst, int64(p.Gauge), 10)
	dst = append(dst, '\n')
	dst = strconv.AppendInt(dst, p.Score, 10)
	dst = append(dst, '\n')
	for _, row := range p.Field {
		for x, v := range row {
			if x > 0 {
				dst = append(dst, ' ')
			}
			dst = strconv.AppendInt(dst, int64(v), 10)
		}
		dst = append(dst, '\n')
	}
	return append(dst, 'E', 'N', 'D', '\n')
}
