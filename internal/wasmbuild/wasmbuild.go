// Package wasmbuild builds the web pages' committed WebAssembly binaries and
// tells whether one is stale without rebuilding it: beside each binary
// NAME.wasm a file NAME.wasm.sum records a fingerprint of the Go sources it
// was built from (Sources) and the binary's SHA-256. Generate writes both
// (with the toolchain's wasm_exec.js); Check is the pages' freshness test.
// The fingerprint and the .sum format must not change: the committed .sum
// files would all turn stale.
package wasmbuild

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// ExecJS is the name of Go's JavaScript glue that Generate copies beside the
// binary; it must come from the toolchain that built the binary.
const ExecJS = "wasm_exec.js"

// SumFile is the name of the fingerprint file of the binary wasmName.
func SumFile(wasmName string) string { return wasmName + ".sum" }

// wasmEnv is the environment of the go commands: the binary's target.
func wasmEnv() []string {
	return append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
}

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

// Sources returns a SHA-256 over every file of every package of the main
// module that mainPackage depends on when built for js/wasm (names and
// contents), plus the path@version of every other module it uses. moduleDir
// is any directory inside the module.
func Sources(moduleDir, mainPackage string) (string, error) {
	cmd := exec.Command("go", "list", "-deps", "-json", mainPackage)
	cmd.Dir = moduleDir
	cmd.Env = wasmEnv()
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

// Sum is the content of a .sum file.
type Sum struct {
	Sources string // Sources() when the binary was built
	Wasm    string // SHA-256 of the binary
	Go      string // toolchain that built it (informational)
}

// Format renders s as the lines of a .sum file.
func (s Sum) Format() string {
	return fmt.Sprintf("sources %s\nwasm %s\ngo %s\n", s.Sources, s.Wasm, s.Go)
}

// ParseSum reads a .sum file's content.
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

// Check reports (as an error) whether static, a page's files, lacks
// wasmName, its .sum file or wasm_exec.js, or whether the binary differs from
// the one the .sum file records or was built from other sources than those
// of mainPackage now. It runs go list in the current directory, which must
// be inside the module.
func Check(static fs.FS, wasmName, mainPackage string) error {
	sumText, err := fs.ReadFile(static, SumFile(wasmName))
	if err != nil {
		return err
	}
	sum, err := ParseSum(string(sumText))
	if err != nil {
		return fmt.Errorf("%s: %v", SumFile(wasmName), err)
	}
	bin, err := fs.ReadFile(static, wasmName)
	if err != nil {
		return err
	}
	if got := FileSHA256(bin); got != sum.Wasm {
		return fmt.Errorf("%s has SHA-256 %s but %s records %s", wasmName, got, SumFile(wasmName), sum.Wasm)
	}
	src, err := Sources(".", mainPackage)
	if err != nil {
		return err
	}
	if src != sum.Sources {
		return fmt.Errorf("%s is stale (sources %s, built from %s)", wasmName, short(src), short(sum.Sources))
	}
	if _, err := fs.Stat(static, ExecJS); err != nil {
		return err
	}
	return nil
}

// short abbreviates a fingerprint for messages.
func short(h string) string { return h[:min(12, len(h))] }

// Generate builds mainPackage for js/wasm into staticDir/wasmName, copies the
// toolchain's wasm_exec.js beside it and writes the .sum file that Check
// reads. The go commands run in the current directory, which must be inside
// the module. It returns what it wrote to the .sum file.
func Generate(staticDir, wasmName, mainPackage string) (Sum, error) {
	wasmPath := filepath.Join(staticDir, wasmName)
	build := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", wasmPath, mainPackage)
	build.Env = wasmEnv()
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		return Sum{}, fmt.Errorf("go build: %v", err)
	}
	root, err := goEnv("GOROOT")
	if err != nil {
		return Sum{}, err
	}
	var glue []byte
	for _, p := range []string{"lib/wasm/wasm_exec.js", "misc/wasm/wasm_exec.js"} {
		if glue, err = os.ReadFile(filepath.Join(root, p)); err == nil {
			break
		}
	}
	if err != nil {
		return Sum{}, fmt.Errorf("%s not found under %s: %v", ExecJS, root, err)
	}
	if err := os.WriteFile(filepath.Join(staticDir, ExecJS), glue, 0o644); err != nil {
		return Sum{}, err
	}
	bin, err := os.ReadFile(wasmPath)
	if err != nil {
		return Sum{}, err
	}
	src, err := Sources(".", mainPackage)
	if err != nil {
		return Sum{}, err
	}
	ver, _ := goEnv("GOVERSION")
	if ver == "" {
		ver = runtime.Version()
	}
	sum := Sum{Sources: src, Wasm: FileSHA256(bin), Go: ver}
	if err := os.WriteFile(filepath.Join(staticDir, SumFile(wasmName)), []byte(sum.Format()), 0o644); err != nil {
		return Sum{}, err
	}
	return sum, nil
}

func goEnv(key string) (string, error) {
	out, err := exec.Command("go", "env", key).Output()
	return strings.TrimSpace(string(out)), err
}
