// messages.go holds the Tetris Bot Protocol's messages (spec §22): one Go
// type per message type in each direction, the shared Move, Location,
// MoveInfo, Randomizer and Board types, conversions to and from the engine's
// types, and the line codec (Encode, DecodeFrontend, DecodeBot).

package tbp

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/yomi-ai/yomi/tetris"
)

// Message is any TBP message; Type returns its "type" attribute.
type Message interface {
	Type() string
}

// Frontend → bot messages.

// Rules tells the bot the game's rules; it answers Ready or Error.
type Rules struct {
	Randomizer string `json:"randomizer,omitempty"` // uniform, seven_bag, general_bag, unknown ("" = unknown)
	Garbage    string `json:"garbage,omitempty"`    // "general": Garbage messages will be sent (tbp-spec PR #2 extension)
}

// Start gives the bot a position (a new game, or mid-game after garbage)
// and starts its calculation.
type Start struct {
	Hold       *string     `json:"hold"`  // a piece letter, or nil (null) for an empty hold
	Queue      []string    `json:"queue"` // Queue[0] is the piece to place now
	Combo      int         `json:"combo"`
	BackToBack bool        `json:"back_to_back"`
	Board      Board       `json:"board"`
	Randomizer *Randomizer `json:"randomizer,omitempty"`
}

// Suggest asks for the bot's move as soon as possible.
type Suggest struct{}

// Play tells the bot which move was played (hold inferred from the piece).
type Play struct {
	Move Move `json:"move"`
}

// NewPiece appends a newly revealed piece to the queue.
type NewPiece struct {
	Piece string `json:"piece"`
}

// Stop ends the calculation until the next Start.
type Stop struct{}

// Quit asks the bot to exit.
type Quit struct{}

// Garbage appends rows at the bottom of the board (tbp-spec PR #2
// extension, sent only after Rules.Garbage = "general"): Rows are top to
// bottom, the last one becomes the new bottom row.
type Garbage struct {
	Rows [][]Cell `json:"rows"`
}

// Bot → frontend messages.

// Info is the bot's first message.
type Info struct {
	Name     string   `json:"name"`
	Version  string   `json:"version"`
	Author   string   `json:"author"`
	Features []string `json:"features"`
}

// Ready accepts the rules.
type Ready struct{}

// Error rejects the rules; Reason is "unsupported_rules".
type Error struct {
	Reason string `json:"reason"`
}

// Suggestion answers Suggest: moves in preference order (none = forfeit).
type Suggestion struct {
	Moves    []Move    `json:"moves"`
	MoveInfo *MoveInfo `json:"move_info,omitempty"`
}

// Unknown is a message of a type this package does not know; receivers
// ignore it.
type Unknown struct {
	Name string // its "type" attribute
}

// Shared types.

// Location is a piece's type, orientation and center (TBP convention,
// equal to the engine's origin).
type Location struct {
	Type        string `json:"type"`
	Orientation string `json:"orientation"`
	X           int    `json:"x"`
	Y           int    `json:"y"`
}

// Move is a final location and its spin status.
type Move struct {
	Location Location `json:"location"`
	Spin     string   `json:"spin"` // none, mini, full
}

// MoveInfo is the optional search report in a Suggestion.
type MoveInfo struct {
	Nodes int64   `json:"nodes,omitempty"`
	NPS   float64 `json:"nps,omitempty"`
	Depth int     `json:"depth,omitempty"`
	Extra string  `json:"extra,omitempty"`
}

// Randomizer is the randomizer state at the end of a Start's queue.
type Randomizer struct {
	Type       string         `json:"type"`                  // uniform, seven_bag, general_bag
	BagState   []string       `json:"bag_state,omitempty"`   // seven_bag: pieces still in the bag
	CurrentBag map[string]int `json:"current_bag,omitempty"` // general_bag
	FilledBag  map[string]int `json:"filled_bag,omitempty"`  // general_bag
}

// Type returns "rules".
func (Rules) Type() string { return "rules" }

// Type returns "start".
func (Start) Type() string { return "start" }

// Type returns "suggest".
func (Suggest) Type() string { return "suggest" }

// Type returns "play".
func (Play) Type() string { return "play" }

// Type returns "new_piece".
func (NewPiece) Type() string { return "new_piece" }

// Type returns "stop".
func (Stop) Type() string { return "stop" }

// Type returns "quit".
func (Quit) Type() string { return "quit" }

// Type returns "garbage".
func (Garbage) Type() string { return "garbage" }

// Type returns "info".
func (Info) Type() string { return "info" }

// Type returns "ready".
func (Ready) Type() string { return "ready" }

// Type returns "error".
func (Error) Type() string { return "error" }

// Type returns "suggestion".
func (Suggestion) Type() string { return "suggestion" }

// Type returns the unknown message's "type" attribute.
func (u Unknown) Type() string { return u.Name }

// Encode returns m as one JSON line (without the newline), with "type"
// first.
func Encode(m Message) ([]byte, error) {
	if _, ok := m.(Unknown); ok {
		return nil, errors.New("tbp: cannot encode an unknown message")
	}
	body, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	head := fmt.Sprintf(`{"type":%q`, m.Type())
	if string(body) == "{}" {
		return []byte(head + "}"), nil
	}
	return append([]byte(head+","), body[1:]...), nil
}

// DecodeFrontend parses one line sent by a frontend. Unknown types give
// Unknown (to be ignored); malformed JSON or a known type with malformed
// attributes gives an error. Unknown attributes are ignored.
func DecodeFrontend(line []byte) (Message, error) {
	name, err := typeOf(line)
	if err != nil {
		return nil, err
	}
	switch name {
	case "rules":
		return decodeAs[Rules](line)
	case "start":
		m, err := decodeAs[Start](line)
		if err == nil && len(m.Board) != tetris.Height {
			err = fmt.Errorf("tbp: start: board has %d rows, want %d", len(m.Board), tetris.Height)
		}
		return m, err
	case "suggest":
		return Suggest{}, nil
	case "play":
		return decodeAs[Play](line)
	case "new_piece":
		return decodeAs[NewPiece](line)
	case "stop":
		return Stop{}, nil
	case "quit":
		return Quit{}, nil
	case "garbage":
		m, err := decodeAs[Garbage](line)
		if err == nil {
			for i, r := range m.Rows {
				if len(r) != tetris.Width {
					return m, fmt.Errorf("tbp: garbage: row %d has %d cells, want %d", i, len(r), tetris.Width)
				}
			}
		}
		return m, err
	}
	return Unknown{Name: name}, nil
}

// DecodeBot parses one line sent by a bot (see DecodeFrontend).
func DecodeBot(line []byte) (Message, error) {
	name, err := typeOf(line)
	if err != nil {
		return nil, err
	}
	switch name {
	case "info":
		return decodeAs[Info](line)
	case "ready":
		return Ready{}, nil
	case "error":
		return decodeAs[Error](line)
	case "suggestion":
		return decodeAs[Suggestion](line)
	}
	return Unknown{Name: name}, nil
}

func typeOf(line []byte) (string, error) {
	var head struct {
		Type *string `json:"type"`
	}
	if err := json.Unmarshal(line, &head); err != nil {
		return "", fmt.Errorf("tbp: bad message: %v", err)
	}
	if head.Type == nil {
		return "", errors.New(`tbp: bad message: no "type" attribute`)
	}
	return *head.Type, nil
}

func decodeAs[T Message](line []byte) (T, error) {
	var m T
	if err := json.Unmarshal(line, &m); err != nil {
		return m, fmt.Errorf("tbp: bad %s message: %v", m.Type(), err)
	}
	return m, nil
}
