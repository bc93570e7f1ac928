// match.go runs matches through the arena runner: Match plays game pairs
// on shared piece and garbage seeds with sides swapped (W/L/D,
// pentanomial, Elo with its interval, SPRT) and Solo scores one or two
// players over a fixed seed set; both write JSON-lines game records.

package versus

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/yomi-ai/yomi/arena"
)

// garbageSeedOf derives a game's garbage seed from its seed.
func garbageSeedOf(seed uint64) uint64 { return seed*0x9e3779b97f4a7c15 + 0x2545f4914f6cdd1d }

// Match plays A against B: cfg.Pairs seeds from cfg.Seed (or cfg.Seeds),
// each twice with sides swapped, through arena.RunPairs.
func Match(ctx context.Context, cfg arena.Config, game Config, a, b Spec) (*arena.PairReport, error) {
	if cfg.NameA == "" {
		cfg.NameA = a.String()
	}
	if cfg.NameB == "" {
		cfg.NameB = b.String()
	}
	cfg.NameA, cfg.NameB = game.tagged(cfg.NameA), game.tagged(cfg.NameB)
	if cfg.GameTimeout == 0 {
		cfg.GameTimeout = time.Duration(game.maxPiecesOr(1000)*2) * (game.Think + 2*time.Second)
	}
	return arena.RunPairs(ctx, cfg, PairPlay(game, a, b))
}

// PairPlay is the game Match plays on each seed: A against B, A on side 1
// when swapped; side i's bot gets seed 2·seed+i.
func PairPlay(game Config, a, b Spec) arena.PlayFunc {
	grace := game.Think + 2*time.Second
	return func(ctx context.Context, seed uint64, swapped bool) (arena.Outcome, error) {
		specs := [2]Spec{a, b}
		if swapped {
			specs = [2]Spec{b, a}
		}
		var players [2]Player
		for i := range players {
			p, err := specs[i].Open(ctx, seed*2+uint64(i), grace)
			if err != nil {
				for j := range i {
					players[j].Close()
				}
				// a bot that cannot start loses this game, not the match
				res := arena.Win
				if (i == 0) != swapped {
					res = arena.Loss
				}
				return arena.Outcome{Result: res, Reason: fmt.Sprintf("side %d failed to start: %v", i, err)}, nil
			}
			players[i] = p
		}
		defer func() {
			for _, p := range players {
				p.Close()
			}
		}()
		rec, err := PlayVersus(ctx, game, players, seed, garbageSeedOf(seed))
		if err != nil {
			return arena.Outcome{}, err
		}
		out := arena.Outcome{Result: arena.Draw, Reason: rec.Reason, Info: rec}
		aSide := 0
		if swapped {
			aSide = 1
		}
		switch rec.Winner {
		case aSide:
			out.Result = arena.Win
		case 1 - aSide:
			out.Result = arena.Loss
		}
		return out, nil
	}
}

// tagged appends the rule set to a player's match name unless it is the
// default (CC1's battle rules), so that a results file never mixes games
// played under different rules (the runner refuses other names) while
// files of default-rule matches stay as they were.
func (c Config) tagged(name string) string {
	switch {
	case c.Rules.QueueSize == 0 || c.Rules.Name == "cc1":
		return name
	case c.Rules.Name == "":
		return name + " [custom rules]"
	}
	return name + " [" + c.Rules.Name + "]"
}

func (c Config) maxPiecesOr(d int) int {
	if c.MaxPieces > 0 {
		return c.MaxPieces
	}
	return d
}

// Solo plays A (and B if cfg.NameB is set, with spec b) alone on every
// seed; the score is attack per piece.
func Solo(ctx context.Context, cfg arena.Config, game Config, a, b *Spec) (*arena.ScoreReport, error) {
	if cfg.NameA == "" {
		cfg.NameA = a.String()
	}
	if b != nil && cfg.NameB == "" {
		cfg.NameB = b.String()
	}
	cfg.NameA = game.tagged(cfg.NameA)
	if b != nil {
		cfg.NameB = game.tagged(cfg.NameB)
	}
	return arena.RunScores(ctx, cfg, SoloPlay(game, a, b))
}

// SoloPlay is the game Solo plays on each seed: player 0 is A, 1 is B.
func SoloPlay(game Config, a *Spec, b *Spec) arena.ScoreFunc {
	grace := game.Think + 2*time.Second
	return func(ctx context.Context, seed uint64, player int) (arena.ScoreOutcome, error) {
		spec := a
		if player == 1 {
			spec = b
		}
		if spec == nil {
			return arena.ScoreOutcome{}, fmt.Errorf("versus: no player %d", player)
		}
		p, err := spec.Open(ctx, seed, grace)
		if err != nil {
			return arena.ScoreOutcome{Reason: fmt.Sprintf("failed to start: %v", err)}, nil
		}
		defer p.Close()
		rec, err := PlaySolo(ctx, game, p, seed)
		if err != nil {
			return arena.ScoreOutcome{}, err
		}
		return arena.ScoreOutcome{Score: rec.AttackPerPiece, Reason: rec.Side.Loss, Info: rec}, nil
	}
}

// Job kinds of versus and solo games on the job fabric.
const (
	MatchKind = "tetris.versus"
	SoloKind  = "tetris.solo"
)

// MatchSpec is a match as a fabric worker rebuilds it: the game settings
// and the players (B is nil in a one-player solo run).
type MatchSpec struct {
	Game Config `json:"game"`
	A    Spec   `json:"a"`
	B    *Spec  `json:"b,omitempty"`
}

// PairFactory rebuilds Match's game from a MatchSpec (arena.PairHandler).
func PairFactory(b json.RawMessage) (arena.PlayFunc, error) {
	var s MatchSpec
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	if s.B == nil {
		return nil, fmt.Errorf("versus: a match needs two players")
	}
	return PairPlay(s.Game, s.A, *s.B), nil
}

// SoloFactory rebuilds Solo's game from a MatchSpec (arena.ScoreHandler).
func SoloFactory(b json.RawMessage) (arena.ScoreFunc, error) {
	var s MatchSpec
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	return SoloPlay(s.Game, &s.A, s.B), nil
}
