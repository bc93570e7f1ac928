// Command genwasm writes records.json (the viewer's list) into HATETRIS's
// page's static directory, then builds the WebAssembly binary beside it with
// wasmbuild.Generate (wasm_exec.js and the fingerprint file that
// TestWasmFresh checks). Run it with `go generate ./hatetris/webapp`.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/yomi-ai/yomi/hatetris/webapp/internal/gen"
	"github.com/yomi-ai/yomi/internal/wasmbuild"
)

// mainPackage is the WebAssembly program.
const mainPackage = "github.com/yomi-ai/yomi/hatetris/webapp/wasm"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "genwasm:", err)
		os.Exit(1)
	}
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
	sum, err := wasmbuild.Generate(static, "hatetris.wasm", mainPackage)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "genwasm: %s, sources %s, %s (%d bytes)\n", filepath.Join(static, "hatetris.wasm"), sum.Sources[:12], gen.RecordsFile, len(recs))
	return nil
}
