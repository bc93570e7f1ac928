// This file holds the perfect-clear finder form: a field and an sfinder
// pattern in, the success percentage and the minimal solutions out.

package api

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/yomi-ai/yomi/tetris/pc"
)

// PCRequest is the form: Field in sfinder's notation (rows top first, X
// or a piece letter filled, _ or . empty; may be empty), Pattern an
// sfinder pattern ("*p7", "T,[IOSZ]p3", …), Height the lines to clear
// (0: the field's rows, at least 4 for an empty field).
type PCRequest struct {
	Field     string `json:"field"`
	Pattern   string `json:"pattern"`
	Height    int    `json:"height,omitempty"`
	NoHold    bool   `json:"no_hold,omitempty"`
	Solutions int    `json:"solutions,omitempty"` // at most this many drawn (default 12, at most 100)
}

// PCResponse is the answer: Success of Total sequences have a perfect
// clear; Unique and Minimal count the distinct solutions and the smallest
// set of them covering every solvable sequence, of which Fields draws the
// first ones (rows top first, each placement's piece letter).
type PCResponse struct {
	Success int      `json:"success"`
	Total   int      `json:"total"`
	Percent float64  `json:"percent"`
	Height  int      `json:"height"`
	Unique  int      `json:"unique"`
	Minimal int      `json:"minimal"`
	Fields  []string `json:"fields"`
}

// MaxPCSequences bounds the pattern's sequences the form accepts (the
// finder's own bound; the time bound is the caller's context).
const MaxPCSequences = 5_000_000

// PC answers the form; ctx bounds the search.
func PC(ctx context.Context, req PCRequest) (*PCResponse, error) {
	var f pc.Field
	rows := 0
	if strings.TrimSpace(req.Field) != "" {
		var err error
		if f, rows, err = pc.ParseField(req.Field); err != nil {
			return nil, err
		}
	}
	h := req.Height
	if h == 0 {
		h = max(rows, 1)
		if f == 0 {
			h = max(h, 4)
		}
	}
	if h < 1 || h > pc.MaxHeight {
		return nil, fmt.Errorf("clear height %d outside 1..%d", h, pc.MaxHeight)
	}
	if uint64(f)>>(10*h) != 0 {
		return nil, fmt.Errorf("the field has blocks above the clear height %d", h)
	}
	if strings.TrimSpace(req.Pattern) == "" {
		return nil, errors.New("empty pattern")
	}
	pat, err := pc.ParsePattern(req.Pattern)
	if err != nil {
		return nil, err
	}
	if n := pat.Count(); n > MaxPCSequences {
		return nil, fmt.Errorf("the pattern has %d sequences, at most %d here", n, MaxPCSequences)
	}
	if _, err := pc.PiecesNeeded(f, h); err != nil {
		return nil, err
	}
	opt := pc.Options{Height: h, Hold: !req.NoHold}
	s, t, err := pc.Percent(ctx, f, pat, opt)
	if err != nil {
		return nil, err
	}
	out := &PCResponse{Success: s, Total: t, Height: h, Fields: []string{}}
	if t > 0 {
		out.Percent = 100 * float64(s) / float64(t)
	}
	if s == 0 {
		return out, nil
	}
	sols, _, err := pc.Paths(ctx, f, pat, opt)
	if err != nil {
		return nil, err
	}
	minimal := pc.Minimal(sols)
	out.Unique, out.Minimal = len(sols), len(minimal)
	n := req.Solutions
	if n <= 0 {
		n = 12
	}
	n = min(n, 100, len(minimal))
	for _, sol := range minimal[:n] {
		out.Fields = append(out.Fields, strings.TrimSpace(sol.Format(f, h)))
	}
	return out, nil
}
