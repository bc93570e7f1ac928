// game.go holds the game loops: PlayVersus (two players, guideline versus
// with garbage and CC1's timing model, every placement checked against the
// move generator) and PlaySolo (one player, no garbage), with their
// records.

package versus

import (
	"context"
	"fmt"
	"time"

	"github.com/yomi-ai/yomi/tetris"
	"github.com/yomi-ai/yomi/tetris/movegen"
)

// Config configures a game.
type Config struct {
	Rules     tetris.Rules  // game rules (DefaultRules: CC1's battle; tetris.NamedRules for others)
	Think     time.Duration // clock increment per move, equal for both sides (see turn)
	MaxPieces int           // a versus game where both sides placed this many pieces is a draw (default 1000); solo length
	Record    bool          // keep every move in the record
}

func (c *Config) fill() {
	if c.MaxPieces <= 0 {
		c.MaxPieces = 1000
	}
	if c.Rules.QueueSize == 0 {
		c.Rules = tetris.DefaultRules()
	}
}

// SideRecord is one side's part of a game record.
type SideRecord struct {
	Pieces        int      `json:"pieces"`
	Attack        int      `json:"attack"`
	Sent          int      `json:"sent"`
	Lines         int      `json:"lines"`
	GarbageLines  int      `json:"garbage_lines"`
	PerfectClears int      `json:"perfect_clears"`
	Ticks         int      `json:"ticks"`                // game time in 60 Hz ticks (timing model)
	Nodes         int64    `json:"nodes"`                // sum of the nodes the bot reported per move
	Death         string   `json:"death,omitempty"`      // block out, lock out, top out
	Loss          string   `json:"loss,omitempty"`       // why this side lost, if it did
	Moves         []string `json:"moves,omitempty"`      // with Config.Record
	Fallbacks     int      `json:"fallbacks,omitempty"`  // moves where its first suggestion was invalid
	Restarts      int      `json:"restarts,omitempty"`   // mid-game starts after garbage
	WallMillis    int64    `json:"wall_ms,omitempty"`    // wall time spent in its Move calls
	LateMillis    int64    `json:"late_ms,omitempty"`    // of which past the think time (answering after its clock stopped)
	MaxHeightSeen int      `json:"max_height,omitempty"` // tallest stack it had
}

// Record is one game's outcome.
type Record struct {
	Rules       string        `json:"rules"`  // the rule set's name (tetris.NamedRules)
	Winner      int           `json:"winner"` // 0 or 1, −1 for a draw
	Reason      string        `json:"reason"`
	Sides       [2]SideRecord `json:"sides"`
	PieceSeed   uint64        `json:"piece_seed"`
	GarbageSeed uint64        `json:"garbage_seed"`
}

// turn runs one side's move: ask, validate (piece and reachability by the
// move generator, spin included), play, and tell the player. It returns a
// loss reason (empty if the side goes on).
//
// The side's clock runs for cfg.Think from the start of its Move, and that
// time holds all its work since its last move: the built-in bot catches
// up inside Move, a TBP bot is stopped outside it and reads start, play,
// new_piece and garbage when resumed. The clock stops when the side is
// asked for its answer (the built-in search's deadline; suggest sent to a
// TBP bot); producing and delivering the answer (for TBP, the reply's
// round trip) counts on neither side's clock and is recorded as late time.
func turn(ctx context.Context, cfg *Config, g *movegen.Generator, pl Player, p *tetris.Player, rec *SideRecord) (tetris.Turn, string) {
	start := time.Now()
	moves, info, err := pl.Move(ctx, p, cfg.Think)
	wall := time.Since(start)
	rec.WallMillis += wall.Milliseconds()
	if wall > cfg.Think {
		rec.LateMillis += (wall - cfg.Think).Milliseconds()
	}
	if err != nil {
		return tetris.Turn{}, fmt.Sprintf("bot failed: %v", err)
	}
	rec.Nodes += info.Nodes
	var chosen tetris.Placement
	var mv movegen.Move
	found := false
	for i, m := range moves {
		if _, err := p.Choice(m.Piece); err != nil {
			continue
		}
		gm, ok := g.Find(&p.Board, m)
		if !ok {
			continue
		}
		chosen, mv, found = m, gm, true
		if i > 0 {
			rec.Fallbacks++
		}
		break
	}
	if !found && len(moves) > 0 && locksOut(p, moves[0]) {
		// a legal placement the move generator leaves out because it
		// locks out: the bot chose to die, a lock out, not an impossible move
		chosen, mv, found = moves[0], movegen.Move{Placement: moves[0]}, true
	}
	if !found {
		if len(moves) == 0 {
			if !anySafe(g, p) {
				return tetris.Turn{}, "lock out (no move suggested: every placement locks out)"
			}
			return tetris.Turn{}, "no move suggested"
		}
		return tetris.Turn{}, fmt.Sprintf("impossible move %v", moves[0])
	}
	holdWasEmpty := p.Hold == tetris.NoPiece
	t, err := p.Play(chosen)
	if err != nil {
		return t, fmt.Sprintf("illegal move %v: %v", chosen, err)
	}
	rec.Ticks += int(mv.Time) + cfg.Rules.Timing.Delay(t.Lock.Lines)
	if t.Hold {
		rec.Ticks++ // hold = +1 (spec §16)
	}
	if cfg.Record {
		h := ""
		if t.Hold {
			h = " hold"
		}
		rec.Moves = append(rec.Moves, chosen.String()+h)
	}
	if p.Death != tetris.Alive {
		return t, ""
	}
	if h := p.Board.MaxHeight(); h > rec.MaxHeightSeen {
		rec.MaxHeightSeen = h
	}
	fresh := 1
	if t.Hold && holdWasEmpty {
		fresh = 2
	}
	fresh = min(fresh, len(p.Queue))
	newPieces := p.Queue[len(p.Queue)-fresh:]
	switch gt, ok := pl.(garbageTaker); {
	case len(t.Garbage) == 0:
		err = pl.Played(p, chosen, t.Hold, newPieces)
	case ok:
		var restarted bool
		restarted, err = gt.PlayedGarbage(p, chosen, t.Hold, newPieces, t.Garbage)
		if restarted {
			rec.Restarts++
		}
	default:
		rec.Restarts++
		err = pl.Begin(p)
	}
	if err != nil {
		return t, fmt.Sprintf("bot failed: %v", err)
	}
	return t, ""
}

// garbageTaker is a Player that can be told of garbage rows without a
// restart (a TBP bot with the garbage extension).
type garbageTaker interface {
	// PlayedGarbage is Played followed by the garbage rows inserted
	// (holes, bottom-most last); it reports whether it restarted instead.
	PlayedGarbage(p *tetris.Player, pl tetris.Placement, hold bool, fresh []tetris.Piece, holes []int8) (restarted bool, err error)
}

// locksOut reports whether pl is a legal placement for p (its piece is the
// current or the hold one, it fits and rests on the stack) with every
// cell at y ≥ 20, which the move generator does not list.
func locksOut(p *tetris.Player, pl tetris.Placement) bool {
	if _, err := p.Choice(pl.Piece); err != nil {
		return false
	}
	if !p.Board.FitsPlacement(pl) || !p.Board.Grounded(pl) || (pl.Spin != tetris.SpinNone && pl.Piece != tetris.T) {
		return false
	}
	for _, c := range pl.Cells() {
		if c.Y < tetris.Visible {
			return false
		}
	}
	return true
}

func finish(rec *SideRecord, p *tetris.Player) {
	rec.Pieces = p.Stats.Pieces
	rec.Attack = p.Stats.Attack
	rec.Sent = p.Stats.Sent
	rec.Lines = p.Stats.Lines
	rec.GarbageLines = p.Stats.GarbageLines
	rec.PerfectClears = p.Stats.PerfectClears
	if p.Death != tetris.Alive {
		rec.Death = p.Death.String()
	}
}

// PlayVersus plays one game between players[0] and players[1] on the
// given piece and garbage seeds (both sides get the same pieces and the
// same garbage holes). The side whose game time is behind moves next
// (side 0 on ties); a clearing lock's attack reaches the opponent's
// garbage queue at once and is dealt at its next non-clearing lock (CC1).
// A side that dies, crashes, hangs or plays an impossible move loses.
func PlayVersus(ctx context.Context, cfg Config, players [2]Player, pieceSeed, garbageSeed uint64) (rec Record, err error) {
	cfg.fill()
	rec = Record{Rules: cfg.Rules.Name, Winner: -1, PieceSeed: pieceSeed, GarbageSeed: garbageSeed}
	g := movegen.New(movegen.OptionsFor(&cfg.Rules))
	var ps [2]*tetris.Player
	for i := range ps {
		ps[i] = tetris.NewPlayer(cfg.Rules, pieceSeed, garbageSeed)
		if err := players[i].Begin(ps[i]); err != nil {
			rec.Winner, rec.Reason = 1-i, fmt.Sprintf("side %d failed to start: %v", i, err)
			rec.Sides[i].Loss = rec.Reason
			return rec, nil
		}
	}
	defer func() {
		for i := range ps {
			finish(&rec.Sides[i], ps[i])
		}
	}()
	for {
		if err := ctx.Err(); err != nil {
			return rec, err
		}
		if ps[0].Stats.Pieces >= cfg.MaxPieces && ps[1].Stats.Pieces >= cfg.MaxPieces {
			rec.Reason = fmt.Sprintf("both placed %d pieces", cfg.MaxPieces)
			return rec, nil
		}
		i := 0
		if rec.Sides[1].Ticks < rec.Sides[0].Ticks || ps[0].Stats.Pieces >= cfg.MaxPieces {
			i = 1
		}
		if ps[1].Stats.Pieces >= cfg.MaxPieces {
			i = 0
		}
		t, loss := turn(ctx, &cfg, g, players[i], ps[i], &rec.Sides[i])
		if loss == "" && ps[i].Death != tetris.Alive {
			loss = ps[i].Death.String()
		}
		if loss != "" {
			if ctx.Err() != nil {
				return rec, ctx.Err()
			}
			rec.Winner, rec.Reason = 1-i, fmt.Sprintf("side %d: %s", i, loss)
			rec.Sides[i].Loss = loss
			return rec, nil
		}
		ps[1-i].ReceiveGarbage(t.Sent)
	}
}

// SoloRecord is one solo game's outcome.
type SoloRecord struct {
	Side           SideRecord `json:"side"`
	AttackPerPiece float64    `json:"attack_per_piece"`
	PiecesPerSec   float64    `json:"pieces_per_second"` // in game time (60 Hz ticks of the timing model)
	PCPer100       float64    `json:"pc_per_100"`
	Died           bool       `json:"died"`
	Seed           uint64     `json:"seed"`
	Rules          string     `json:"rules"` // the rule set's name (tetris.NamedRules)
}

// PlaySolo plays cfg.MaxPieces pieces (or until death or failure) alone,
// without garbage, on seed's pieces.
func PlaySolo(ctx context.Context, cfg Config, pl Player, seed uint64) (SoloRecord, error) {
	cfg.fill()
	r := SoloRecord{Seed: seed, Rules: cfg.Rules.Name}
	g := movegen.New(movegen.OptionsFor(&cfg.Rules))
	p := tetris.NewPlayer(cfg.Rules, seed, seed)
	if err := pl.Begin(p); err != nil {
		r.Side.Loss = err.Error()
		r.Died = true
		return r, nil
	}
	for p.Stats.Pieces < cfg.MaxPieces && p.Death == tetris.Alive {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		if _, loss := turn(ctx, &cfg, g, pl, p, &r.Side); loss != "" {
			if ctx.Err() != nil {
				return r, ctx.Err()
			}
			r.Side.Loss = loss
			break
		}
	}
	finish(&r.Side, p)
	r.Died = p.Death != tetris.Alive || r.Side.Loss != ""
	if n := r.Side.Pieces; n > 0 {
		r.AttackPerPiece = float64(r.Side.Attack) / float64(n)
		r.PCPer100 = 100 * float64(r.Side.PerfectClears) / float64(n)
		if r.Side.Ticks > 0 {
			r.PiecesPerSec = float64(n) / (float64(r.Side.Ticks) / 60)
		}
	}
	return r, nil
}

// anySafe reports whether p has a reachable placement (hold included) that
// does not lock out.
func anySafe(g *movegen.Generator, p *tetris.Player) bool {
	next := tetris.NoPiece
	if len(p.Queue) > 0 {
		next = p.Queue[0]
	}
	for _, m := range g.Turn(nil, &p.Board, p.Current, p.Hold, next, p.Rules.Hold) {
		for _, c := range m.Placement.Cells() {
			if c.Y < 20 {
				return true
			}
		}
	}
	return false
}
