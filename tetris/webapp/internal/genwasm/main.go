// Command genwasm builds the Tetris page's WebAssembly binary into the page's static
// directory, copies the toolchain's wasm_exec.js beside it and writes the
// fingerprint file that TestWasmFresh checks. Run it with
// `go generate ./tetris/webapp` (it works from the webapp directory).
package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/yomi-ai/yomi/tetris/webapp/internal/wasmsrc"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "genwasm:", err)
		os.Exit(1)
	}
}

func goEnv(key string) (string, error) {
	out, err := exec.Command("go", "env", key).Output()
	return strings.TrimSpace(string(out)), err
}

func run() error {
	static := "static"
	if _, err := os.Stat(filepath.Join(static, "index.html")); err != nil {
		return fmt.Errorf("run me from tetris/webapp (go generate ./tetris/webapp): %v", err)
	}
	wasmPath := filepath.Join(static, "tetris.wasm")
	build := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", wasmPath, wasmsrc.MainPackage)
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go build: %v", err)
	}
	root, err := goEnv("GOROOT")
	if err != nil {
		return err
	}
	var glue []byte
	for _, p := range []string{"lib/wasm/wasm_exec.js", "misc/wasm/wasm_exec.js"} {
		if glue, err = os.ReadFile(filepath.Join(root, p)); err == nil {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("wasm_exec.js not found under %s: %v", root, err)
	}
	if err := os.WriteFile(filepath.Join(static, "wasm_exec.js"), glue, 0o644); err != nil {
		return err
	}
	bin, err := os.ReadFile(wasmPath)
	if err != nil {
		return err
	}
	src, err := wasmsrc.Sources(".")
	if err != nil {
		return err
	}
	ver, _ := goEnv("GOVERSION")
	if ver == "" {
		ver = runtime.Version()
	}
	sum := wasmsrc.Sum{Sources: src, Wasm: wasmsrc.FileSHA256(bin), Go: ver}
	if err := os.WriteFile(filepath.Join(static, wasmsrc.SumFile), []byte(sum.Format()), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "genwasm: %s (%d KiB), sources %s\n", wasmPath, len(bytes.TrimSpace(bin))/1024, src[:12])
	return nil
}
