// Package webapp is the arena's web page: open a match's results file
// (upload one, or pick one from the directories the server was given) and
// see what `yomi arena report` says of it — W/L/D, pentanomial counts,
// Elo and nElo with intervals, LOS, the SPRT's LLR over the games as a plot,
// and score statistics and histograms for score games. Every number comes
// from the arena package on the server (BuildReport); the page only draws.
//
// Start with Handler.
package webapp

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/yomi-ai/yomi/arena"
	"github.com/yomi-ai/yomi/web"
)

//go:embed static
var staticFS embed.FS

// Options configures Handler.
type Options struct {
	// Dirs are directories whose *.jsonl results files the page may open
	// by name (`yomi serve --results-dir`); none means uploads only.
	Dirs []string
}

// maxUpload bounds an uploaded results file.
const maxUpload = 32 << 20

// File is a results file the server offers.
type File struct {
	ID    string `json:"id"`   // what the page sends back: "dir index/name"
	Dir   string `json:"dir"`  // the directory as given
	Name  string `json:"name"` // file name
	Bytes int64  `json:"bytes"`
}

// ReportRequest is the body of POST api/report: a file the server offers
// (File) or an uploaded one (Name and Text), and optionally an SPRT.
type ReportRequest struct {
	File string `json:"file,omitempty"`
	Name string `json:"name,omitempty"`
	Text string `json:"text,omitempty"`
	// SPRT, if set, is [elo0, elo1] (normalized model, α = β = 0.05, as
	// `yomi arena report --sprt elo0,elo1`).
	SPRT *[2]float64 `json:"sprt,omitempty"`
}

// Handler returns the page and its API, to be mounted with its prefix
// stripped: GET / and the static files, GET api/files, POST api/report.
func Handler(opt Options) http.Handler {
	mux := http.NewServeMux()
	static, _ := fs.Sub(staticFS, "static")
	mux.Handle("GET /", http.FileServerFS(static))
	mux.HandleFunc("GET /api/files", func(w http.ResponseWriter, r *http.Request) {
		files, err := listFiles(opt.Dirs)
		if err != nil {
			web.WriteJSON(w, http.StatusInternalServerError, errorBody{err.Error()})
			return
		}
		web.WriteJSON(w, http.StatusOK, files)
	})
	mux.HandleFunc("POST /api/report", func(w http.ResponseWriter, r *http.Request) {
		var req ReportRequest
		if !web.ReadJSON(w, r, maxUpload+4096, &req) {
			return
		}
		rep, status, err := report(opt, req)
		if err != nil {
			web.WriteJSON(w, status, errorBody{err.Error()})
			return
		}
		web.WriteJSON(w, http.StatusOK, rep)
	})
	return mux
}

func report(opt Options, req ReportRequest) (*Report, int, error) {
	var s *arena.SPRT
	if req.SPRT != nil {
		sp := arena.DefaultSPRT()
		sp.Elo0, sp.Elo1 = req.SPRT[0], req.SPRT[1]
		if err := sp.Validate(); err != nil {
			return nil, http.StatusBadRequest, fmt.Errorf("SPRT: %v", err)
		}
		s = &sp
	}
	var text []byte
	name := req.Name
	switch {
	case req.File != "" && req.Text != "":
		return nil, http.StatusBadRequest, fmt.Errorf("give either file or text, not both")
	case req.File != "":
		files, err := listFiles(opt.Dirs)
		if err != nil {
			return nil, http.StatusInternalServerError, err
		}
		i := slices.IndexFunc(files, func(f File) bool { return f.ID == req.File })
		if i < 0 {
			return nil, http.StatusNotFound, fmt.Errorf("no results file %q here", req.File)
		}
		f := files[i]
		if text, err = os.ReadFile(filepath.Join(f.Dir, f.Name)); err != nil {
			return nil, http.StatusInternalServerError, err
		}
		name = f.Name
	case req.Text != "":
		text = []byte(req.Text)
	default:
		return nil, http.StatusBadRequest, fmt.Errorf("no results file given")
	}
	if name == "" {
		name = "upload"
	}
	games, err := arena.ParseResults(bytes.NewReader(text), name)
	if err != nil {
		return nil, http.StatusBadRequest, err
	}
	rep, err := BuildReport(name, games, s)
	if err != nil {
		return nil, http.StatusBadRequest, fmt.Errorf("%s: %v", name, err)
	}
	return rep, http.StatusOK, nil
}

// listFiles lists the *.jsonl files directly in each directory; the page
// can open only these, by ID.
func listFiles(dirs []string) ([]File, error) {
	files := []File{}
	for i, d := range dirs {
		ents, err := os.ReadDir(d)
		if err != nil {
			return nil, fmt.Errorf("results directory: %v", err)
		}
		for _, e := range ents {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
				continue
			}
			info, err := e.Info()
			if err != nil {
				continue
			}
			files = append(files, File{ID: fmt.Sprintf("%d/%s", i, e.Name()), Dir: d, Name: e.Name(), Bytes: info.Size()})
		}
	}
	return files, nil
}

type errorBody struct {
	Error string `json:"error"`
}
