// Package gen makes records.json, the replays HATETRIS's page's viewer lists
// (Yomi's records and the upstream record games). The page's WebAssembly
// binary is built by package wasmbuild.
package gen

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Record is one replay the viewer lists.
type Record struct {
	Name   string `json:"name"`
	Group  string `json:"group"` // "Yomi" or "upstream"
	AI     string `json:"ai"`
	Score  int    `json:"score"`
	Replay string `json:"replay"`
}

// RecordsFile is the name of the list inside the page's static directory.
const RecordsFile = "records.json"

// Records builds records.json from hatetrisDir (the hatetris package's
// directory): Yomi's records (records/<score>-<method>.txt, best first) and
// each upstream run of replay/testdata once, in its Base2048 form where it
// has one.
func Records(hatetrisDir string) ([]byte, error) {
	var out []Record
	files, err := filepath.Glob(filepath.Join(hatetrisDir, "records", "*.txt"))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		base := strings.TrimSuffix(filepath.Base(f), ".txt")
		scoreText, method, ok := strings.Cut(base, "-")
		score, err := strconv.Atoi(scoreText)
		if !ok || err != nil {
			return nil, fmt.Errorf("%s: name is not <score>-<method>.txt", f)
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		out = append(out, Record{Name: fmt.Sprintf("%d lines: %s", score, strings.ReplaceAll(method, "-", " ")), Group: "Yomi",
			AI: "hatetris", Score: score, Replay: strings.TrimSpace(string(b))})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	type vector struct {
		AI            string `json:"ai"`
		Name          string `json:"name"`
		ExpectedScore int    `json:"expectedScore"`
		Encoding      string `json:"encoding"`
		Replay        string `json:"replay"`
	}
	var up []Record
	seen := map[string]int{}
	for _, name := range []string{"replays.json", "replays_extra.json"} {
		b, err := os.ReadFile(filepath.Join(hatetrisDir, "replay", "testdata", name))
		if err != nil {
			return nil, err
		}
		var vs []vector
		if err := json.Unmarshal(b, &vs); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		for _, v := range vs {
			r := Record{Name: fmt.Sprintf("%d lines: %s", v.ExpectedScore, v.Name), Group: "upstream", AI: v.AI, Score: v.ExpectedScore, Replay: v.Replay}
			if v.AI == "mild" {
				r.Name += " (Mild, a loop)"
			}
			if i, ok := seen[v.Name]; ok {
				if v.Encoding == "base2048" {
					up[i] = r
				}
				continue
			}
			seen[v.Name] = len(up)
			up = append(up, r)
		}
	}
	sort.SliceStable(up, func(i, j int) bool { return up[i].Score > up[j].Score })
	out = append(out, up...)
	b, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
