// Package webapp is seigot/tetris's viewer: watch our AI play any level and
// seed in the exact engine on the server, streamed tick by tick (board,
// score, lines, drop bonus and the pieces it saw: current, previews, hold),
// next to a game recorded in the real game (the 2023 winner's level-1 and
// level-2 moves) replayed in the same engine, piece by piece.
//
// Start with Handler; Play and Replay produce the ticks.
package webapp

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/yomi-ai/yomi/seigot"
	"github.com/yomi-ai/yomi/seigot/ai"
	"github.com/yomi-ai/yomi/web"
)

//go:embed static
var staticFS embed.FS

// Tick is one timer tick: what the controller saw, its move and what the
// tick did.
type Tick struct {
	N        int             `json:"n"`     // tick number, from 0
	Piece    int             `json:"piece"` // counted pieces so far
	Cur      uint8           `json:"cur"`   // shape about to be placed (seigot.ShapeNames)
	Previews [5]uint8        `json:"previews"`
	Hold     uint8           `json:"hold"` // held shape, 0 when none
	Move     seigot.Strategy `json:"move"`
	// Board is the board after the tick, row 0 (top) first, one character
	// per cell: '0' empty, '1'..'7' the shape (garbage cells carry random
	// shapes, as in the game).
	Board    string       `json:"board"`
	New      []int        `json:"new,omitempty"` // cells the piece filled (ticks that cleared no line)
	Lines    int          `json:"lines"`
	Dropped  int          `json:"dropped"` // drop bonus of this tick
	GameOver bool         `json:"gameover,omitempty"`
	AllClear bool         `json:"allclear,omitempty"`
	HoldOnly bool         `json:"holdonly,omitempty"`
	Stats    seigot.Stats `json:"stats"`
	Ms       float64      `json:"ms,omitempty"` // the AI's decision time
}

// Header opens a stream of ticks.
type Header struct {
	Kind   string `json:"kind"` // "ai" or "recording"
	Name   string `json:"name"`
	Level  int    `json:"level"`
	Seed   uint64 `json:"seed"`
	Cap    int    `json:"cap"`             // piece cap
	Score  int    `json:"score,omitempty"` // a recording's score in the real game
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Start  string `json:"start"` // the board before the first tick (garbage at levels 3-4)
}

// Options configures Handler.
type Options struct {
	// MaxGames is how many AI games may play at once (default 2); more
	// requests wait.
	MaxGames int
}

func board(b *seigot.Board) string {
	var sb strings.Builder
	for _, c := range b {
		sb.WriteByte('0' + min(c, 9))
	}
	return sb.String()
}

// step runs one tick with the move m decides and reports it.
func step(g *seigot.Game, n int, decide func(*seigot.Game) (seigot.Move, time.Duration)) Tick {
	g.BeginTick()
	t := Tick{N: n, Piece: g.Stats.BlockIndex, Cur: g.Cur, Previews: g.Previews()}
	if g.HoldSet {
		t.Hold = g.Hold
	}
	before := g.Board
	m, d := decide(g)
	r := g.ApplyMove(m)
	t.Move, t.Ms = seigot.StrategyOf(m), float64(d.Microseconds())/1000
	t.Board, t.Lines, t.Dropped, t.GameOver, t.AllClear, t.HoldOnly = board(&g.Board), r.Lines, r.Dropped, r.GameOver, r.AllClear, r.HoldOnly
	if r.Lines == 0 && !r.GameOver {
		for i := range g.Board {
			if before[i] == 0 && g.Board[i] != 0 {
				t.New = append(t.New, i)
			}
		}
	}
	t.Stats = g.Stats
	return t
}

// AIConfig returns the search settings of the named AI at level, as
// `yomi seigot play --ai NAME` builds them: beam (the level's), fast,
// nohold or greedy.
func AIConfig(name string, level int) (ai.Config, error) {
	c := ai.LevelConfig(level)
	switch name {
	case "beam", "":
	case "fast":
		c = ai.FastConfig(level)
	case "nohold":
		c.NoHold = true
	case "greedy":
		c.Width, c.Depth = 1, 1
	default:
		return c, fmt.Errorf("AI %q: want beam, fast, nohold or greedy", name)
	}
	return c, nil
}

// Play plays a whole game of cfg with our AI, as ai.Play does, calling emit
// after every tick; it stops early when ctx ends or emit fails.
func Play(ctx context.Context, cfg seigot.Config, pl *ai.Player, emit func(Tick) error) (seigot.Stats, error) {
	g := seigot.NewGame(cfg)
	decide := func(g *seigot.Game) (seigot.Move, time.Duration) {
		pos := g.Position()
		t0 := time.Now()
		m := pl.Decide(ctx, &pos)
		return m, time.Since(t0)
	}
	for n := 0; !g.Done; n++ {
		if err := ctx.Err(); err != nil {
			return g.Stats, err
		}
		if err := emit(step(g, n, decide)); err != nil {
			return g.Stats, err
		}
	}
	return g.Stats, nil
}

// Replay plays a recorded move list in the engine (as `yomi seigot replay`),
// calling emit after every tick, until the cap or the end of the moves.
func Replay(cfg seigot.Config, moves []seigot.Move, emit func(Tick) error) (seigot.Stats, error) {
	g := seigot.NewGame(cfg)
	for n, m := range moves {
		if g.Done {
			break
		}
		if err := emit(step(g, n, func(*seigot.Game) (seigot.Move, time.Duration) { return m, 0 })); err != nil {
			return g.Stats, err
		}
	}
	return g.Stats, nil
}

// PlayRequest is the body of POST api/play.
type PlayRequest struct {
	Level    int    `json:"level"`
	Seed     uint64 `json:"seed"`
	AI       string `json:"ai"`
	AllClear bool   `json:"all_clear,omitempty"`
}

// ReplayRequest is the body of POST api/replay: a committed recording.
type ReplayRequest struct {
	Recording string `json:"recording"`
}

// Handler returns the page and its API, to be mounted with its prefix
// stripped: GET / and the static files, GET api/recordings, and POST
// api/play and api/replay, which answer a stream of JSON lines (a Header,
// then one Tick per tick, then {"done":true,"stats":…} or {"error":…}).
func Handler(opt Options) http.Handler {
	if opt.MaxGames <= 0 {
		opt.MaxGames = 2
	}
	sem := make(chan struct{}, opt.MaxGames)
	mux := http.NewServeMux()
	static, _ := fs.Sub(staticFS, "static")
	mux.Handle("GET /", http.FileServerFS(static))
	mux.HandleFunc("GET /api/recordings", func(w http.ResponseWriter, r *http.Request) {
		recs := seigot.Recordings()
		for i := range recs {
			recs[i].Moves = nil
		}
		web.WriteJSON(w, http.StatusOK, recs)
	})
	mux.HandleFunc("POST /api/play", func(w http.ResponseWriter, r *http.Request) {
		var req PlayRequest
		if !decode(w, r, &req) {
			return
		}
		cfg, err := seigot.LevelConfig(req.Level, req.Seed, req.AllClear)
		if err != nil {
			web.WriteJSON(w, http.StatusBadRequest, errorBody{err.Error()})
			return
		}
		c, err := AIConfig(req.AI, req.Level)
		if err != nil {
			web.WriteJSON(w, http.StatusBadRequest, errorBody{err.Error()})
			return
		}
		select {
		case sem <- struct{}{}:
			defer func() { <-sem }()
		case <-r.Context().Done():
			return
		}
		name := req.AI
		if name == "" {
			name = "beam"
		}
		stream(w, cfg, Header{Kind: "ai", Name: "Yomi (" + name + ")", Level: req.Level, Seed: req.Seed, Cap: cfg.BlockNumMax},
			func(emit func(Tick) error) (seigot.Stats, error) { return Play(r.Context(), cfg, ai.New(c), emit) })
	})
	mux.HandleFunc("POST /api/replay", func(w http.ResponseWriter, r *http.Request) {
		var req ReplayRequest
		if !decode(w, r, &req) {
			return
		}
		recs := seigot.Recordings()
		i := slices.IndexFunc(recs, func(x seigot.Recording) bool { return x.ID == req.Recording })
		if i < 0 {
			web.WriteJSON(w, http.StatusNotFound, errorBody{fmt.Sprintf("no recording %q", req.Recording)})
			return
		}
		rec := recs[i]
		cfg, _ := seigot.LevelConfig(rec.Level, rec.Seed, false)
		stream(w, cfg, Header{Kind: "recording", Name: rec.Name, Level: rec.Level, Seed: rec.Seed, Cap: cfg.BlockNumMax, Score: rec.Score},
			func(emit func(Tick) error) (seigot.Stats, error) { return Replay(cfg, rec.Moves, emit) })
	})
	return mux
}

// stream writes the header, every tick as it comes, and the end line.
func stream(w http.ResponseWriter, cfg seigot.Config, h Header, run func(emit func(Tick) error) (seigot.Stats, error)) {
	h.Width, h.Height = seigot.Width, seigot.Height
	h.Start = board(&seigot.NewGame(cfg).Board)
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-store")
	enc := json.NewEncoder(w)
	fl, _ := w.(http.Flusher)
	flush := func() {
		if fl != nil {
			fl.Flush()
		}
	}
	enc.Encode(h)
	flush()
	last := time.Now()
	stats, err := run(func(t Tick) error {
		if err := enc.Encode(t); err != nil {
			return err // the client went away
		}
		if time.Since(last) > 50*time.Millisecond {
			flush()
			last = time.Now()
		}
		return nil
	})
	if err != nil {
		enc.Encode(errorBody{err.Error()})
	} else {
		enc.Encode(struct {
			Done  bool         `json:"done"`
			Stats seigot.Stats `json:"stats"`
		}{true, stats})
	}
	flush()
}

func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	return web.ReadJSON(w, r, 4096, v)
}

type errorBody struct {
	Error string `json:"error"`
}
