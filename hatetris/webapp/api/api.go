// Package api is what HATETRIS's page asks of the exact engine, shared by the
// WebAssembly build (the page's own engine, wasm/main.go) and the server
// (POST api/check): a Timeline of one game whose every state the hatetris
// package computes, and Check, which replays a replay string and reports its
// score.
//
// Start with Sessions.Do, the one call the page makes, and Request.
package api

import (
	"errors"
	"fmt"
	"strings"

	"github.com/yomi-ai/yomi/hatetris"
	"github.com/yomi-ai/yomi/hatetris/replay"
)

// Bounds on what a request may ask for, so a page (or anyone posting to the
// server) cannot make the engine run for long or hold much memory.
const (
	// MaxReplayBytes bounds a replay string: the longest upstream record
	// (3711 lines) is about 60 KB as Base2048.
	MaxReplayBytes = 1 << 20
	// MaxMoves bounds the moves of a timeline (the 3711-line record has
	// about 140 000).
	MaxMoves = 1 << 20
)

// State is what the page draws: the well after Pos moves of a timeline.
type State struct {
	Pos    int        `json:"pos"`    // moves applied to reach this state
	Total  int        `json:"total"`  // moves in the timeline (the last state's Pos)
	Well   [20]uint16 `json:"well"`   // rows, top first; bit x = column x
	Piece  string     `json:"piece"`  // the falling piece ("" after game over)
	Cells  [20]uint16 `json:"cells"`  // the falling piece's cells, in the well's layout
	Score  int        `json:"score"`  // lines cleared
	Over   bool       `json:"over"`   // game over
	Spawns int        `json:"spawns"` // pieces spawned so far, the falling one included
	AI     string     `json:"ai"`     // "hatetris" or "mild"
	// Replay is the timeline's moves up to Pos in Base2048, the original's
	// form, for copying (Request.WithReplay asks for it).
	Replay string `json:"replay,omitempty"`
	// Encoding is how a loaded replay was written (op "load" only).
	Encoding string `json:"encoding,omitempty"`
}

// frame is one state of a timeline, kept compact (a long record has 10⁵).
type frame struct {
	well   hatetris.Well
	piece  hatetris.Well
	score  int32
	spawns int32
	p      hatetris.Piece
	over   bool
}

// Timeline is one game: its moves and the state after each, computed by the
// exact engine; Pos is the state shown. Playing a move after stepping back
// (undo) drops the later moves, as in the original.
type Timeline struct {
	ai     hatetris.AIKind
	moves  []hatetris.Move
	frames []frame // frames[i]: after moves[:i]
	game   *hatetris.Game
	pos    int
}

// NewTimeline starts a game against the AI: one state, the first piece.
func NewTimeline(ai hatetris.AIKind) *Timeline {
	t := &Timeline{ai: ai, game: hatetris.NewGame(ai)}
	t.frames = append(t.frames, t.snap())
	return t
}

func (t *Timeline) snap() frame {
	g := t.game
	return frame{well: g.Well, piece: g.PieceRows(), score: int32(g.Score), spawns: int32(g.Pieces), p: g.Piece, over: g.Over}
}

// Load replays moves from the start; moves after game over are dropped. Pos
// stays at the start.
func Load(ai hatetris.AIKind, moves []hatetris.Move) (*Timeline, error) {
	if len(moves) > MaxMoves {
		return nil, fmt.Errorf("replay has %d moves, more than %d", len(moves), MaxMoves)
	}
	t := NewTimeline(ai)
	t.frames = make([]frame, 1, len(moves)+1)
	t.frames[0] = t.snap()
	for _, m := range moves {
		if !t.game.Apply(m) {
			break
		}
		t.moves = append(t.moves, m)
		t.frames = append(t.frames, t.snap())
	}
	return t, nil
}

// Apply plays one move at Pos (dropping any moves after Pos first) and moves
// Pos to the new state. After game over it changes nothing.
func (t *Timeline) Apply(m hatetris.Move) {
	if t.frames[t.pos].over {
		return
	}
	if t.pos < len(t.moves) {
		// The game's enemy remembers wells, so rebuild it for the prefix.
		t.moves = t.moves[:t.pos]
		t.frames = t.frames[:t.pos+1]
		t.game = hatetris.NewGame(t.ai)
		t.game.Play(t.moves)
	}
	t.game.Apply(m)
	t.moves = append(t.moves, m)
	t.frames = append(t.frames, t.snap())
	t.pos = len(t.moves)
}

// Seek shows the state after i moves (clamped to the timeline).
func (t *Timeline) Seek(i int) { t.pos = max(0, min(i, len(t.moves))) }

// SeekPiece shows the first state of the next piece (delta > 0: the state
// right after the current piece locked) or of the current one, or, if Pos
// is already there, of the previous one (delta < 0); the game's end counts
// as a piece's start.
func (t *Timeline) SeekPiece(delta int) {
	i := t.pos
	if delta > 0 {
		cur := t.frames[i].spawns
		for i < len(t.moves) && t.frames[i].spawns == cur && !t.frames[i].over {
			i++
		}
	} else if i > 0 {
		i-- // leave the current piece's first state, if Pos is on it
		cur := t.frames[i].spawns
		for i > 0 && t.frames[i-1].spawns == cur {
			i--
		}
	}
	t.pos = i
}

// Pos returns the index of the state shown.
func (t *Timeline) Pos() int { return t.pos }

// Len returns the number of moves in the timeline.
func (t *Timeline) Len() int { return len(t.moves) }

// Moves returns the timeline's moves up to Pos.
func (t *Timeline) Moves() []hatetris.Move { return t.moves[:t.pos] }

// State returns the state at Pos.
func (t *Timeline) State() State {
	f := &t.frames[t.pos]
	s := State{Pos: t.pos, Total: len(t.moves), Well: f.well, Cells: f.piece, Score: int(f.score), Over: f.over, Spawns: int(f.spawns), AI: t.ai.String()}
	if !f.over {
		s.Piece = f.p.String()
	}
	return s
}

// Request is one call of the page. Op is one of:
//
//	new    start a game against AI (TL "play" by default)
//	move   play Move ("L", "R", "D" or "U") at the shown state
//	undo   step back one move; redo: forward one move
//	load   replace the timeline with Replay (any of the four encodings)
//	seek   show the state after At moves
//	next   show the next piece's first state; prev: the current or previous piece's
//	state  show the current state
type Request struct {
	Op         string `json:"op"`
	TL         string `json:"tl,omitempty"` // which timeline: "play", "view", "search"
	AI         string `json:"ai,omitempty"`
	Move       string `json:"move,omitempty"`
	Replay     string `json:"replay,omitempty"`
	At         int    `json:"at,omitempty"`
	WithReplay bool   `json:"withReplay,omitempty"` // include State.Replay
}

// Sessions holds a page's timelines by name (a page has a few).
type Sessions struct {
	tls map[string]*Timeline
}

// NewSessions returns an empty set of timelines.
func NewSessions() *Sessions { return &Sessions{tls: map[string]*Timeline{}} }

// maxTimelines bounds the names a page may use.
const maxTimelines = 8

// Do carries out one request and returns the resulting state.
func (s *Sessions) Do(req Request) (State, error) {
	name := req.TL
	if name == "" {
		name = "play"
	}
	if len(name) > 32 {
		return State{}, errors.New("timeline name longer than 32 bytes")
	}
	t := s.tls[name]
	var enc replay.Encoding
	switch req.Op {
	case "new", "load":
		ai, err := hatetris.ParseAI(req.AI)
		if err != nil {
			return State{}, err
		}
		if t == nil && len(s.tls) >= maxTimelines {
			return State{}, fmt.Errorf("too many timelines (at most %d)", maxTimelines)
		}
		if req.Op == "new" {
			t = NewTimeline(ai)
		} else {
			var ms []hatetris.Move
			ms, enc, err = DecodeReplay(req.Replay)
			if err != nil {
				return State{}, err
			}
			if t, err = Load(ai, ms); err != nil {
				return State{}, err
			}
		}
		s.tls[name] = t
	default:
		if t == nil {
			return State{}, fmt.Errorf("no game %q: start one with op new or load", name)
		}
		switch req.Op {
		case "move":
			m, err := hatetris.ParseMoves(req.Move)
			if err != nil || len(m) != 1 {
				return State{}, fmt.Errorf("bad move %q: want L, R, D or U", req.Move)
			}
			t.Apply(m[0])
		case "undo":
			t.Seek(t.pos - 1)
		case "redo":
			t.Seek(t.pos + 1)
		case "seek":
			t.Seek(req.At)
		case "next":
			t.SeekPiece(1)
		case "prev":
			t.SeekPiece(-1)
		case "state":
		default:
			return State{}, fmt.Errorf("unknown op %q", req.Op)
		}
	}
	st := t.State()
	st.Encoding = string(enc)
	if req.WithReplay {
		r, err := EncodeReplay(t.Moves())
		if err != nil {
			return State{}, err
		}
		st.Replay = r
	}
	return st, nil
}

// DecodeReplay reads a replay in any of the four encodings (detected as the
// original does), within the size bounds.
func DecodeReplay(s string) ([]hatetris.Move, replay.Encoding, error) {
	if len(s) > MaxReplayBytes {
		return nil, "", fmt.Errorf("replay is %d bytes, more than %d", len(s), MaxReplayBytes)
	}
	if strings.TrimSpace(s) == "" {
		return nil, "", errors.New("empty replay")
	}
	ms, enc, err := replay.Decode(s)
	if err != nil {
		return nil, "", err
	}
	if len(ms) > MaxMoves {
		return nil, "", fmt.Errorf("replay has %d moves, more than %d", len(ms), MaxMoves)
	}
	return ms, enc, nil
}

// EncodeReplay writes moves as Base2048 (an empty game is the empty string).
func EncodeReplay(ms []hatetris.Move) (string, error) {
	if len(ms) == 0 {
		return "", nil
	}
	return replay.Encode(ms, replay.Base2048)
}

// CheckRequest asks the server to replay a replay.
type CheckRequest struct {
	Replay string `json:"replay"`
	AI     string `json:"ai,omitempty"` // "hatetris" (default) or "mild"
}

// CheckResult is the outcome of a replay under the exact engine.
type CheckResult struct {
	Score    int    `json:"score"`
	Moves    int    `json:"moves"`  // moves played (those after game over are not)
	Spawns   int    `json:"spawns"` // pieces given
	Over     bool   `json:"over"`
	Encoding string `json:"encoding"`
	AI       string `json:"ai"`
	Replay   string `json:"replay"` // the moves played, in Base2048
}

// Check replays req.Replay against the AI from the empty well.
func Check(req CheckRequest) (CheckResult, error) {
	ai, err := hatetris.ParseAI(req.AI)
	if err != nil {
		return CheckResult{}, err
	}
	ms, enc, err := DecodeReplay(req.Replay)
	if err != nil {
		return CheckResult{}, err
	}
	g := hatetris.NewGame(ai)
	n := g.Play(ms)
	r, err := EncodeReplay(ms[:n])
	if err != nil {
		return CheckResult{}, err
	}
	return CheckResult{Score: g.Score, Moves: n, Spawns: g.Pieces, Over: g.Over, Encoding: string(enc), AI: ai.String(), Replay: r}, nil
}
