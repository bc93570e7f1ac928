// Package webapp is CODE VS Reborn's replay viewer: open a referee replay
// (replay.json from `yomi codevs referee --log-dir` or from each game of
// `yomi codevs match --log-dir`), by upload or from the log directories the
// server was given, and watch both fields side by side — packs falling,
// chains resolving step by step with the pairs that make blocks vanish,
// chain counts and scores, ojama stock and drops, skill gauges and
// explosions, and the time each player used.
//
// Start with BuildView, which plays the replay again through the game's own
// simulator (codevs.Game.StepTraced), then Handler.
package webapp

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/codevs/referee"
	"github.com/yomi-ai/yomi/web"
)

//go:embed static
var staticFS embed.FS

// Options configures Handler.
type Options struct {
	// LogDirs are directories holding replay.json files, directly or one
	// or two levels down (a match's --log-dir has s<seed>_g<game>/); none
	// means uploads only.
	LogDirs []string
	// Players names the AI commands (shell command lines, speaking the
	// contest protocol) that live games may use; none disables live games.
	Players map[string]string
}

// maxReplay bounds an uploaded replay (a 500-turn game is about 200 KiB).
const maxReplay = 8 << 20

// Replay is a replay file the server offers.
type Replay struct {
	ID    string `json:"id"`    // what the page sends back: "dir index/relative path"
	Dir   string `json:"dir"`   // the log directory as given
	Path  string `json:"path"`  // relative to Dir
	Bytes int64  `json:"bytes"` // file size
	// Match describes the game from a results file (*.jsonl) in Dir when
	// Path is a match's s<seed>_g<game>/replay.json: "A vs B, seed S game
	// G: A win (reason)".
	Match string `json:"match,omitempty"`
}

// ViewRequest is the body of POST api/view: a replay the server offers
// (File) or an uploaded one (Name and Text).
type ViewRequest struct {
	File string `json:"file,omitempty"`
	Name string `json:"name,omitempty"`
	Text string `json:"text,omitempty"`
}

// Handler returns the viewer and its API, to be mounted with its prefix
// stripped: GET / and the static files, GET api/replays, POST api/view,
// GET api/players and POST api/live (one live game at a time).
func Handler(opt Options) http.Handler {
	liveSem := make(chan struct{}, 1)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/players", func(w http.ResponseWriter, r *http.Request) {
		web.WriteJSON(w, http.StatusOK, opt.players())
	})
	mux.HandleFunc("POST /api/live", func(w http.ResponseWriter, r *http.Request) {
		var req LiveRequest
		if !web.ReadJSON(w, r, 4096, &req) {
			return
		}
		select {
		case liveSem <- struct{}{}:
			defer func() { <-liveSem }()
		default:
			web.WriteJSON(w, http.StatusTooManyRequests, errorBody{"a live game is already running on this server"})
			return
		}
		live(w, r, opt, req)
	})
	static, _ := fs.Sub(staticFS, "static")
	mux.Handle("GET /", http.FileServerFS(static))
	mux.HandleFunc("GET /api/replays", func(w http.ResponseWriter, r *http.Request) {
		list, err := listReplays(opt.LogDirs)
		if err != nil {
			web.WriteJSON(w, http.StatusInternalServerError, errorBody{err.Error()})
			return
		}
		web.WriteJSON(w, http.StatusOK, list)
	})
	mux.HandleFunc("POST /api/view", func(w http.ResponseWriter, r *http.Request) {
		var req ViewRequest
		if !web.ReadJSON(w, r, maxReplay+4096, &req) {
			return
		}
		v, status, err := view(opt, req)
		if err != nil {
			web.WriteJSON(w, status, errorBody{err.Error()})
			return
		}
		web.WriteJSON(w, http.StatusOK, v)
	})
	return mux
}

func view(opt Options, req ViewRequest) (*View, int, error) {
	var data []byte
	name := req.Name
	switch {
	case req.File != "" && req.Text != "":
		return nil, http.StatusBadRequest, fmt.Errorf("give either file or text, not both")
	case req.File != "":
		list, err := listReplays(opt.LogDirs)
		if err != nil {
			return nil, http.StatusInternalServerError, err
		}
		i := slices.IndexFunc(list, func(r Replay) bool { return r.ID == req.File })
		if i < 0 {
			return nil, http.StatusNotFound, fmt.Errorf("no replay %q here", req.File)
		}
		if data, err = os.ReadFile(filepath.Join(list[i].Dir, list[i].Path)); err != nil {
			return nil, http.StatusInternalServerError, err
		}
		name = list[i].Path
	case req.Text != "":
		data = []byte(req.Text)
	default:
		return nil, http.StatusBadRequest, fmt.Errorf("no replay given")
	}
	if name == "" {
		name = "upload"
	}
	rp, err := referee.ReadReplay(bytes.NewReader(data))
	if err != nil {
		return nil, http.StatusBadRequest, fmt.Errorf("%s: %v (want the replay.json the referee writes with --log-dir)", name, err)
	}
	v, err := BuildView(rp, name)
	if err != nil {
		return nil, http.StatusBadRequest, fmt.Errorf("%s: %v", name, err)
	}
	return v, http.StatusOK, nil
}

// listReplays finds the replay.json files in each directory, up to two
// levels down; the page can open only these, by ID.
func listReplays(dirs []string) ([]Replay, error) {
	out := []Replay{}
	for i, d := range dirs {
		root := os.DirFS(d)
		err := fs.WalkDir(root, ".", func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if e.IsDir() {
				if strings.Count(p, "/") >= 2 {
					return fs.SkipDir
				}
				return nil
			}
			if e.Name() != "replay.json" {
				return nil
			}
			info, err := e.Info()
			if err != nil {
				return nil
			}
			out = append(out, Replay{ID: fmt.Sprintf("%d/%s", i, p), Dir: d, Path: p, Bytes: info.Size()})
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("log directory: %v", err)
		}
		labelMatches(d, out)
	}
	return out, nil
}

// labelMatches sets Replay.Match for the games of dir's results files.
func labelMatches(dir string, list []Replay) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	games := map[string]arena.GameRecord{}
	for _, f := range files {
		recs, err := arena.ReadResults(f)
		if err != nil {
			continue // not a results file, or torn: the replays still open
		}
		for _, g := range recs {
			games[fmt.Sprintf("s%d_g%d/replay.json", g.Seed, g.Game)] = g
		}
	}
	for i := range list {
		g, ok := games[list[i].Path]
		if !ok || list[i].Dir != dir {
			continue
		}
		list[i].Match = fmt.Sprintf("%s vs %s, seed %d game %d: %s %s", g.NameA, g.NameB, g.Seed, g.Game, g.NameA, g.Result)
		reason := g.Reason
		if reason == "" {
			var info struct{ Reason string }
			if json.Unmarshal(g.Info, &info) == nil {
				reason = info.Reason // the referee's, e.g. "player 2 died"
			}
		}
		if reason != "" {
			list[i].Match += " (" + reason + ")"
		}
	}
}

type errorBody struct {
	Error string `json:"error"`
}
