// Package wasmsrc fingerprints the Go sources that the Tetris page's WebAssembly
// binary is built from, so a test can tell whether the committed binary is
// stale without rebuilding it.
package wasmsrc

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
	"strings"
)

// MainPackage is the import path of the WebAssembly program.
const MainPackage = "github.com/yomi-ai/yomi/tetris/webapp/wasm"

// SumFile is the name, inside the page's static directory, of the file that
// records the fingerprint of the sources and the binary's checksum.
const SumFile = "tetris.wasm.sum"

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
	var lines []string
	h := sha256.New()
	dec := json.NewDecoder(bytes.NewReader(out))
	var pkgs []listed
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
	for _, p := range pkgs {
		switch {
		case p.Standard:
			continue
		case p.Module != nil && !p.Module.Main:
			lines = append(lines, "module "+p.Module.Path+"@"+p.Module.Version)
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
	sort.Strings(lines)
	for _, l := range dedup(lines) {
		fmt.Fprintln(h, l)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func dedup(s []string) []string {
	var out []string
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// Sum is the content of SumFile.
type Sum struct {
	Sources string // Sources() when the binary was built
	Wasm    string // SHA-256 of tetris.wasm
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
