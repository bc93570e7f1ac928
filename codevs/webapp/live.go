// This file holds live games: the server runs the referee between two AI
// commands it was configured with and streams every turn as it is played,
// described exactly as a replay's turns are (TurnViewer).

package webapp

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"time"

	"github.com/yomi-ai/yomi/codevs"
	"github.com/yomi-ai/yomi/codevs/protocol"
	"github.com/yomi-ai/yomi/codevs/referee"
	"github.com/yomi-ai/yomi/web"
)

// LiveRequest is the body of POST api/live.
type LiveRequest struct {
	P1     string `json:"p1"`      // names from GET api/players
	P2     string `json:"p2"`      //
	Seed   uint64 `json:"seed"`    // pack seed (client profile)
	TimeMs int64  `json:"time_ms"` // each player's budget (default 30 s, at most 180 s)
}

// LiveEnd closes a live stream.
type LiveEnd struct {
	Result referee.ReplayResult `json:"result"`
}

// players lists the live players' names, sorted.
func (o Options) players() []string {
	names := make([]string, 0, len(o.Players))
	for n := range o.Players {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// live runs one game and streams it: a View without turns (names, budget,
// rule constants), then {"turn": TurnView} per turn, then LiveEnd or
// {"error": …}.
func live(w http.ResponseWriter, r *http.Request, opt Options, req LiveRequest) {
	for _, p := range []string{req.P1, req.P2} {
		if _, ok := opt.Players[p]; !ok {
			web.WriteJSON(w, http.StatusBadRequest, errorBody{fmt.Sprintf("unknown player %q (want one of %q)", p, opt.players())})
			return
		}
	}
	if req.TimeMs == 0 {
		req.TimeMs = 30000
	}
	if req.TimeMs < 100 || req.TimeMs > 180000 {
		web.WriteJSON(w, http.StatusBadRequest, errorBody{fmt.Sprintf("time_ms %d: want 100..180000", req.TimeMs)})
		return
	}
	packs, err := codevs.PacksForSeed(req.Seed, codevs.ProfileClient)
	if err != nil {
		web.WriteJSON(w, http.StatusBadRequest, errorBody{err.Error()})
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-store")
	enc := json.NewEncoder(w)
	fl, _ := w.(http.Flusher)
	send := func(v any) {
		enc.Encode(v)
		if fl != nil {
			fl.Flush()
		}
	}
	var tv *TurnViewer
	var streamErr error
	cfg := referee.Config{
		Cmd: [2]string{opt.Players[req.P1], opt.Players[req.P2]}, Packs: packs,
		Time: time.Duration(req.TimeMs) * time.Millisecond, Sequential: true,
		OnStart: func(names [2]string, pp []protocol.Pack) {
			tv, streamErr = NewTurnViewer(pp)
			send(newView(names, req.TimeMs, fmt.Sprintf("live: %s vs %s, pack seed %d", req.P1, req.P2, req.Seed)))
		},
		OnRecord: func(rec referee.TurnRecord, think [2]int64) {
			if streamErr != nil {
				return
			}
			var t TurnView
			if t, _, streamErr = tv.Next(rec, think); streamErr == nil {
				send(struct {
					Turn TurnView `json:"turn"`
				}{t})
			}
		},
	}
	res, err := referee.Play(r.Context(), cfg)
	switch {
	case err != nil:
		send(errorBody{err.Error()})
	case streamErr != nil:
		send(errorBody{streamErr.Error()})
	default:
		if tv == nil { // no names: the game ended before it began
			send(newView(res.Names, req.TimeMs, "live"))
		}
		send(LiveEnd{Result: res.Replay.Result})
	}
}
