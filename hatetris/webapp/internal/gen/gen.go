// Package gen makes the generated files of HATETRIS's page: the fingerprint
// of the Go sources the WebAssembly binary is built from (so a test can tell
// a stale binary without rebuilding it) and records.json, the replays the
// page's viewer lists (Yomi's records and the upstream record games).
package gen

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// MainPackage is the import path of the WebAssembly program.
const MainPackage = "github.com/yomi-ai/yomi/hatetris/webapp/wasm"

// SumFile is the name, inside the page's static directory, of the file that
// records the fingerprint of the sources and the binary's checksum.
const SumFile = "hatetris.wasm.sum"

type listed struct {
	ImportPath string
	Dir        string
	Standard   bool
	GoFiles    []string
	SFiles     []string
	EmbedFiles []string
	Module     *struct {
		Path    string
		Version string
		Main    bool
	}
}

// Sources returns a SHA-256 over every file of every package of this module
// that MainPackage depends on when built for js/wasm (names and contents),
// plus the path@version of every other module it uses. moduleDir is any
// directory inside the module.
func Sources(moduleDir string) (string, error) {
	cmd := exec.Command("go", "list", "-deps", "-json", MainPackage)
	cmd.Dir = moduleDir
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go list: %v: %s", err, stderr.String())
	}
	var pkgs []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return "", err
		}
		pkgs = append(pkgs, p)
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].ImportPath < pkgs[j].ImportPath })
	h := sha256.New()
	mods := map[string]bool{}
	for _, p := range pkgs {
		switch {
		case p.Standard:
			continue
		case p.Module != nil && !p.Module.Main:
			mods[p.Module.Path+"@"+p.Module.Version] = true
			continue
		}
		files := append(append(append([]string{}, p.GoFiles...), p.SFiles...), p.EmbedFiles...)
		sort.Strings(files)
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join(p.Dir, f))
			if err != nil {
				return "", err
			}
			fmt.Fprintf(h, "%s/%s %d\n", p.ImportPath, f, len(b))
			h.Write(b)
		}
	}
	var lines []string
	for m := range mods {
		lines = append(lines, m)
	}
	sort.Strings(lines)
	for _, l := range lines {
		fmt.Fprintln(h, "module "+l)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Sum is the content of SumFile.
type Sum struct {
	Sources string // Sources() when the binary was built
	Wasm    string // SHA-256 of hatetris.wasm
	Go      string // toolchain that built it (informational)
}

// Format renders s as the lines of SumFile.
func (s Sum) Format() string {
	return fmt.Sprintf("sources %s\nwasm %s\ngo %s\n", s.Sources, s.Wasm, s.Go)
}

// ParseSum reads SumFile's content.
func ParseSum(text string) (Sum, error) {
	var s Sum
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		k, v, ok := strings.Cut(line, " ")
		if !ok {
			return s, fmt.Errorf("bad line %q", line)
		}
		switch k {
		case "sources":
			s.Sources = v
		case "wasm":
			s.Wasm = v
		case "go":
			s.Go = v
		}
	}
	if s.Sources == "" || s.Wasm == "" {
		return s, fmt.Errorf("incomplete sum file")
	}
	return s, nil
}

// FileSHA256 returns the hex SHA-256 of a byte slice.
func FileSHA256(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

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
