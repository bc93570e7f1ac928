// Command genwasm builds HATETRIS's WebAssembly binary into the page's static
// directory, copies the toolchain's wasm_exec.js beside it, writes the
// fingerprint file that TestWasmFresh checks and records.json (the viewer's
// list). Run it with `go generate ./hatetris/webapp`.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/yomi-ai/yomi/hatetris/webapp/internal/gen"
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
		return fmt.Errorf("run me from hatetris/webapp (go generate ./hatetris/webapp): %v", err)
	}
	recs, err := gen.Records("..")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(static, gen.RecordsFile), recs, 0o644); err != nil {
		return err
	}
	wasmPath := filepath.Join(static, "hatetris.wasm")
	build := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", wasmPath, gen.MainPackage)
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
	src, err := gen.Sources(".")
	if err != nil {
		return err
	}
	ver, _ := goEnv("GOVERSION")
	if ver == "" {
		ver = runtime.Version()
	}
	sum := gen.Sum{Sources: src, Wasm: gen.FileSHA256(bin), Go: ver}
	if err := os.WriteFile(filepath.Join(static, gen.SumFile), []byte(sum.Format()), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "genwasm: %s (%d KiB), sources %s, %s (%d bytes)\n", wasmPath, len(bin)/1024, src[:12], gen.RecordsFile, len(recs))
	return nil
}
