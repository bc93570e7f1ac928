// This file turns a referee replay into what the viewer draws: every turn
// played again through codevs.Game.StepTraced, so each stage on each field
// (ojama row, pack landed, skill explosion, every chain) comes from the
// simulator itself, with the numbers after the turn and the time used.

package webapp

import (
	"fmt"
	"strings"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/protocol"
	"github.com/yomi-ai/yomi/codevs/referee"
	"github.com/yomi-ai/yomi/codevs/sim"
)

// View is a whole game for the viewer.
type View struct {
	Source string               `json:"source"` // file name, or the upload's
	Names  [2]string            `json:"names"`
	TimeMs int64                `json:"time_ms"` // each player's budget
	Result referee.ReplayResult `json:"result"`
	Turns  []TurnView           `json:"turns"`
	Rows   int                  `json:"rows"`   // rows in each field string (bottom first)
	Width  int                  `json:"width"`  // columns
	Danger int                  `json:"danger"` // a block at this height (0-based) kills
	// Check is "" when every turn record of the replay replayed exactly,
	// else the first difference.
	Check  string         `json:"check"`
	Limits map[string]int `json:"limits"` // rule constants the page labels
}

// TurnView is one turn: the pack and each player's half.
type TurnView struct {
	Turn    int           `json:"turn"`
	Pack    [4]int8       `json:"pack"` // a, b (top), c, d (bottom)
	Players [2]PlayerTurn `json:"players"`
}

// PlayerTurn is one player's turn: the move, every stage and the state
// after the turn.
type PlayerTurn struct {
	Move    string      `json:"move"`              // "x r" or "S"
	X       int         `json:"x"`                 // drop column (0..8)
	Rotated *[4]int8    `json:"rotated,omitempty"` // the pack as it falls (a, b, c, d); nil on a skill turn
	Before  string      `json:"before"`            // the field before the turn
	Frames  []FrameView `json:"frames"`
	After   string      `json:"after"` // the field after the turn
	codevsNumbers
	ThinkMs float64 `json:"think_ms"` // time charged this turn
	UsedMs  float64 `json:"used_ms"`  // time charged so far
}

type codevsNumbers struct {
	OjamaFell bool  `json:"ojama_fell"`
	Chains    int   `json:"chains"`
	Exploded  int   `json:"exploded"`
	Points    int64 `json:"points"`
	Sent      int   `json:"sent"`
	Ojama     int   `json:"ojama"` // stock after the turn
	Gauge     int   `json:"gauge"` // after the turn
	Score     int64 `json:"score"`
	Dead      bool  `json:"dead"`
}

// FrameView is a sim.Frame with the field as a string.
type FrameView struct {
	Stage  string   `json:"stage"`
	Chain  int      `json:"chain,omitempty"`
	Field  string   `json:"field"`
	Vanish [][2]int `json:"vanish,omitempty"`
	Pairs  [][4]int `json:"pairs,omitempty"`
}

const rows = sim.Height + 2

// field writes a board bottom row first, one character per cell: '.'
// empty, '1'..'9', '#' ojama.
func field(b *sim.Board) string {
	var sb strings.Builder
	for h := range rows {
		for x := range sim.Width {
			switch v := b.Cell[x][h]; {
			case v == 0:
				sb.WriteByte('.')
			case v == sim.Ojama:
				sb.WriteByte('#')
			default:
				sb.WriteByte('0' + byte(v))
			}
		}
	}
	return sb.String()
}

// BuildView plays the replay again and describes every turn.
func BuildView(rp *referee.Replay, source string) (*View, error) {
	tv, err := NewTurnViewer(rp.Packs)
	if err != nil {
		return nil, err
	}
	v := newView([2]string{rp.Players[0].Name, rp.Players[1].Name}, rp.TimeMs, source)
	v.Result = rp.Result
	for k, rec := range rp.Turns {
		var think [2]int64
		for i := range 2 {
			if t := rp.Players[i].ThinkNs; k < len(t) {
				think[i] = t[k]
			}
		}
		t, check, err := tv.Next(rec, think)
		if err != nil {
			return nil, err
		}
		if v.Check == "" {
			v.Check = check
		}
		v.Turns = append(v.Turns, t)
	}
	return v, nil
}

func newView(names [2]string, timeMs int64, source string) *View {
	return &View{Names: names, TimeMs: timeMs, Rows: rows, Width: sim.Width, Danger: sim.Danger, Source: source,
		Turns:  []TurnView{},
		Limits: map[string]int{"skill": codevs.SkillCost, "gauge": codevs.MaxGauge, "ojamaRow": codevs.OjamaRow}}
}

// TurnViewer plays a game's turns one at a time through the game's own
// turn loop with an observer; BuildView and the live game use it.
type TurnViewer struct {
	g    *codevs.Game
	used [2]float64
}

// NewTurnViewer starts a game on the packs.
func NewTurnViewer(packs []protocol.Pack) (*TurnViewer, error) {
	g, err := codevs.NewGame(codevs.SimPacks(packs))
	if err != nil {
		return nil, err
	}
	return &TurnViewer{g: g}, nil
}

// Next plays the turn of rec (its moves; thinkNs is the time each player
// was charged) and describes it. check is "" when the simulator gives the
// record's numbers, else the difference.
func (tv *TurnViewer) Next(rec referee.TurnRecord, thinkNs [2]int64) (t TurnView, check string, err error) {
	g := tv.g
	if rec.Turn != g.Turn {
		return t, "", fmt.Errorf("record of turn %d, want turn %d", rec.Turn, g.Turn)
	}
	var m [2]codevs.Move
	for i := range 2 {
		if m[i], err = protocol.ParseCommand(rec.Moves[i]); err != nil {
			return t, "", fmt.Errorf("turn %d player %d: %w", rec.Turn, i+1, err)
		}
	}
	pk := g.Packs[g.Turn]
	t = TurnView{Turn: g.Turn, Pack: [4]int8{pk.Top[0], pk.Top[1], pk.Bottom[0], pk.Bottom[1]}}
	var frames [2][]FrameView
	var obs [2]func(sim.Frame)
	for i := range 2 {
		t.Players[i].Before = field(&g.P[i].Board)
		obs[i] = func(f sim.Frame) {
			frames[i] = append(frames[i], FrameView{Stage: f.Stage, Chain: f.Chain, Field: field(&f.Board), Vanish: f.Vanish, Pairs: f.Pairs})
		}
	}
	h, err := g.StepTraced(m, obs)
	if err != nil {
		return t, "", fmt.Errorf("turn %d: %w", rec.Turn, err)
	}
	for i := range 2 {
		p := &t.Players[i]
		p.Move, p.Frames, p.After = m[i].String(), frames[i], field(&g.P[i].Board)
		if p.Frames == nil {
			p.Frames = []FrameView{}
		}
		if !m[i].Skill {
			q := pk.Rotate(m[i].R)
			p.X, p.Rotated = m[i].X, &[4]int8{q.Top[0], q.Top[1], q.Bottom[0], q.Bottom[1]}
		}
		p.codevsNumbers = codevsNumbers{OjamaFell: h[i].OjamaFell, Chains: h[i].Chains, Exploded: h[i].Exploded, Points: h[i].Points,
			Sent: h[i].Sent, Ojama: g.P[i].Ojama, Gauge: g.P[i].Gauge, Score: g.P[i].Score, Dead: g.P[i].Dead()}
		p.ThinkMs = float64(thinkNs[i]) / 1e6
		tv.used[i] += p.ThinkMs
		p.UsedMs = tv.used[i]
		if check == "" && (rec.Chains[i] != h[i].Chains || rec.Score[i] != g.P[i].Score || rec.Ojama[i] != g.P[i].Ojama || rec.Gauge[i] != g.P[i].Gauge) {
			check = fmt.Sprintf("turn %d player %d: the replay records chains %d, score %d, ojama %d, gauge %d; the simulator gives %d, %d, %d, %d",
				rec.Turn, i+1, rec.Chains[i], rec.Score[i], rec.Ojama[i], rec.Gauge[i], h[i].Chains, g.P[i].Score, g.P[i].Ojama, g.P[i].Gauge)
		}
	}
	return t, check, nil
}
