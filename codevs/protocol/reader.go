// Reader: the AI side of the protocol, a whitespace-tolerant token reader for
// the game-start block and the per-turn blocks.

package protocol

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// maxToken bounds one token so garbage input cannot grow memory.
const maxToken = 64

// SyntaxError reports malformed input: the 1-based line of the offending
// token, what was being read and why it is wrong.
type SyntaxError struct {
	Line int
	What string // e.g. "pack 12 bottom row", "turn 3 opponent field row 5"
	Msg  string
}

// Error formats the error with its line and what was being read.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d: %s: %s", e.Line, e.What, e.Msg)
}

// Reader reads the referee's output as an AI does: whitespace-separated
// tokens, any mix of spaces, tabs, CR and newlines between them.
type Reader struct {
	br      *bufio.Reader
	line    int // line of the next unread byte, 1-based
	tokLine int // line of the last token
	tok     [maxToken]byte
}

// NewReader returns a Reader on r.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReader(r), line: 1}
}

// Line returns the line number of the last token read.
func (r *Reader) Line() int { return r.tokLine }

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f'
}

// token returns the next token (valid until the next call), io.EOF when only
// whitespace remains, or an error for an over-long token.
func (r *Reader) token() ([]byte, error) {
	var c byte
	var err error
	for {
		if c, err = r.br.ReadByte(); err != nil {
			return nil, err
		}
		if !isSpace(c) {
			break
		}
		if c == '\n' {
			r.line++
		}
	}
	r.tokLine = r.line
	n := 0
	for {
		if n == maxToken {
			return nil, &SyntaxError{Line: r.tokLine, What: "token", Msg: fmt.Sprintf("longer than %d bytes", maxToken)}
		}
		r.tok[n] = c
		n++
		if c, err = r.br.ReadByte(); err != nil {
			if err == io.EOF {
				return r.tok[:n], nil
			}
			return nil, err
		}
		if isSpace(c) {
			if c == '\n' {
				r.line++
			}
			return r.tok[:n], nil
		}
	}
}

// where names what is being read; it is formatted only for an error.
type where struct {
	prefix string // e.g. "turn 3 own"
	item   string // e.g. "time", "field row"
	n      int    // row or pack number when item wants one
}

func (w where) String() string {
	s := w.item
	if w.prefix != "" {
		s = w.prefix + " " + w.item
	}
	switch w.item {
	case "field row":
		s += fmt.Sprintf(" %d", w.n)
	case "top row", "bottom row":
		s = fmt.Sprintf("pack %d %s", w.n, w.item)
	case "pack":
		s = fmt.Sprintf("pack %d", w.n)
	}
	return s
}

// int reads one integer in [lo, hi].
func (r *Reader) int(w where, lo, hi int64) (int64, error) {
	t, err := r.token()
	if err != nil {
		return 0, r.wrap(err, w.String())
	}
	v, ok := smallInt(t)
	if !ok {
		var perr error
		if v, perr = strconv.ParseInt(string(t), 10, 64); perr != nil {
			return 0, &SyntaxError{Line: r.tokLine, What: w.String(), Msg: fmt.Sprintf("want an integer, got %q", t)}
		}
	}
	if v < lo || v > hi {
		return 0, &SyntaxError{Line: r.tokLine, What: w.String(), Msg: fmt.Sprintf("%d out of range %d..%d", v, lo, hi)}
	}
	return v, nil
}

// smallInt parses a plain run of up to 18 decimal digits without
// allocating; anything else is left to strconv.
func smallInt(t []byte) (int64, bool) {
	if len(t) == 0 || len(t) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range t {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

// end reads the "END" token.
func (r *Reader) end(w where) error {
	t, err := r.token()
	if err != nil {
		return r.wrap(err, w.String())
	}
	if string(t) != "END" {
		return &SyntaxError{Line: r.tokLine, What: w.String(), Msg: fmt.Sprintf("want END, got %q", t)}
	}
	return nil
}

// wrap turns a read error inside a block into a SyntaxError; EOF there is
// unexpected.
func (r *Reader) wrap(err error, what string) error {
	var se *SyntaxError
	if errors.As(err, &se) {
		se.What = what
		return se
	}
	if err == io.EOF {
		return &SyntaxError{Line: r.line, What: what, Msg: "unexpected end of input"}
	}
	return fmt.Errorf("line %d: %s: %w", r.line, what, err)
}

// ReadStart reads the game-start block: Turns packs, each two rows of two
// cells (0–9) and END. io.EOF means the input was empty.
func (r *Reader) ReadStart() ([]Pack, error) {
	packs := make([]Pack, Turns)
	for i := range packs {
		for row := 0; row < 2; row++ {
			for col := 0; col < 2; col++ {
				v, err := r.int(where{item: [2]string{"top row", "bottom row"}[row], n: i}, 0, 9)
				if err != nil {
					var se *SyntaxError
					if i == 0 && row == 0 && col == 0 && errors.As(err, &se) && se.Msg == "unexpected end of input" {
						return nil, io.EOF
					}
					return nil, err
				}
				if row == 0 {
					packs[i].Top[col] = int8(v)
				} else {
					packs[i].Bottom[col] = int8(v)
				}
			}
		}
		if err := r.end(where{item: "pack", n: i}); err != nil {
			return nil, err
		}
	}
	return packs, nil
}

// ReadTurn reads one turn block. It returns io.EOF when the input ends
// cleanly before the block (the game is over).
func (r *Reader) ReadTurn() (Turn, error) {
	var t Turn
	tok, err := r.token()
	if err == io.EOF {
		return t, io.EOF
	}
	if err != nil {
		return t, r.wrap(err, "turn number")
	}
	v, perr := strconv.ParseInt(string(tok), 10, 64)
	if perr != nil || v < 0 || v >= Turns {
		return t, &SyntaxError{Line: r.tokLine, What: "turn number", Msg: fmt.Sprintf("want an integer 0..%d, got %q", Turns-1, tok)}
	}
	t.Turn = int(v)
	if err := r.player(&t.Me, t.Turn, "own"); err != nil {
		return t, err
	}
	if err := r.player(&t.Opp, t.Turn, "opponent"); err != nil {
		return t, err
	}
	return t, nil
}

func (r *Reader) player(p *Player, turn int, side string) error {
	w := where{prefix: fmt.Sprintf("turn %d %s", turn, side), item: "time"}
	var err error
	if p.TimeMs, err = r.int(w, 0, MaxTime); err != nil {
		return err
	}
	var v int64
	w.item = "ojama stock"
	if v, err = r.int(w, 0, 1<<31-1); err != nil {
		return err
	}
	p.Ojama = int(v)
	w.item = "skill gauge"
	if v, err = r.int(w, 0, 100); err != nil {
		return err
	}
	p.Gauge = int(v)
	w.item = "score"
	if p.Score, err = r.int(w, 0, MaxTime); err != nil {
		return err
	}
	w.item = "field row"
	for row := 0; row < Rows; row++ {
		w.n = row + 1
		for col := 0; col < Cols; col++ {
			v, err := r.int(w, 0, Ojama)
			if err != nil {
				return err
			}
			if v == 10 {
				return &SyntaxError{Line: r.tokLine, What: w.String(), Msg: "cell value 10 does not exist (0-9 or 11)"}
			}
			p.Field[row][col] = int8(v)
		}
	}
	w.item = "field"
	return r.end(w)
}
