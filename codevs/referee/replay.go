// The JSON replay a game leaves in its log directory, and VerifyReplay,
// which plays it again through codevs.Game and checks every recorded number.

package referee

import (
	"fmt"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/protocol"
)

// Replay is a whole game: the packs, what each AI answered and how long it
// thought, and the state after every turn. Unlike the official client's
// replays it holds the packs, so it can be played again.
type Replay struct {
	Version int   `json:"version"`
	TimeMs  int64 `json:"time_ms"` // each player's budget
	// TurnLimitMs is the per-answer limit (0: none); Sequential tells
	// whether the players were asked one after the other.
	TurnLimitMs int64           `json:"turn_limit_ms"`
	Sequential  bool            `json:"sequential"`
	Packs       []protocol.Pack `json:"packs"`
	Players     [2]ReplayPlayer `json:"players"`
	Turns       []TurnRecord    `json:"turns"`
	Result      ReplayResult    `json:"result"`
}

// ReplayPlayer is one AI's side of a replay.
type ReplayPlayer struct {
	Name    string `json:"name"`
	Command string `json:"command"`
	// Outputs holds each turn's answer line as received (the last one may
	// be the illegal line that ended the game; "" when none came).
	Outputs []string `json:"outputs"`
	ThinkNs []int64  `json:"think_ns"` // time charged per turn
}

// ReplayResult is how the game ended.
type ReplayResult struct {
	Winner int       `json:"winner"` // 0: player 1, 1: player 2, -1: draw
	Reason string    `json:"reason"`
	Turns  int       `json:"turns"`
	Faults [2]string `json:"faults"`
}

// TurnRecord is one turn: both moves and what followed, per player.
type TurnRecord struct {
	Turn     int       `json:"turn"`
	Moves    [2]string `json:"moves"`
	Chains   [2]int    `json:"chains"`
	Exploded [2]int    `json:"exploded"`
	Sent     [2]int    `json:"sent"`
	Ojama    [2]int    `json:"ojama"` // stocks after the turn
	Gauge    [2]int    `json:"gauge"`
	Score    [2]int64  `json:"score"`
	Dead     [2]bool   `json:"dead"`
}

func turnRecord(turn int, ans [2]answer, h [2]codevs.Half, g *codevs.Game) TurnRecord {
	r := TurnRecord{Turn: turn}
	for i := range 2 {
		r.Moves[i] = ans[i].move.String()
		r.Chains[i] = h[i].Chains
		r.Exploded[i] = h[i].Exploded
		r.Sent[i] = h[i].Sent
		r.Ojama[i] = g.P[i].Ojama
		r.Gauge[i] = g.P[i].Gauge
		r.Score[i] = g.P[i].Score
		r.Dead[i] = g.P[i].Dead()
	}
	return r
}

// VerifyReplay plays the replay's moves again and checks every turn record
// and, for a game that ended by the rules (not by a fault), the result.
func VerifyReplay(rp *Replay) error {
	g, err := codevs.NewGame(codevs.SimPacks(rp.Packs))
	if err != nil {
		return err
	}
	for k, rec := range rp.Turns {
		if rec.Turn != g.Turn {
			return fmt.Errorf("record %d is turn %d, want %d", k, rec.Turn, g.Turn)
		}
		var m [2]codevs.Move
		for i := range 2 {
			if m[i], err = protocol.ParseCommand(rec.Moves[i]); err != nil {
				return fmt.Errorf("turn %d player %d: %w", rec.Turn, i+1, err)
			}
		}
		h, err := g.Step(m)
		if err != nil {
			return fmt.Errorf("turn %d: %w", rec.Turn, err)
		}
		if got := turnRecord(rec.Turn, [2]answer{{move: m[0]}, {move: m[1]}}, h, g); got != rec {
			return fmt.Errorf("turn %d: replayed %+v, recorded %+v", rec.Turn, got, rec)
		}
	}
	if g.Turn != rp.Result.Turns {
		return fmt.Errorf("%d turns replayed, result says %d", g.Turn, rp.Result.Turns)
	}
	if rp.Result.Faults == [2]string{} {
		if !g.Over {
			return fmt.Errorf("game not over after %d turns and no fault recorded", g.Turn)
		}
		if g.Result.Winner != rp.Result.Winner {
			return fmt.Errorf("replayed winner %d, recorded %d", g.Result.Winner, rp.Result.Winner)
		}
	}
	return nil
}
