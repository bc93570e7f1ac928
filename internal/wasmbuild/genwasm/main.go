// Command genwasm builds a web page's WebAssembly binary into the page's
// static directory with wasmbuild.Generate. Pages run it from go:generate in
// their webapp directory, e.g.
//
//	go run github.com/yomi-ai/yomi/internal/wasmbuild/genwasm -wasm separo.wasm github.com/yomi-ai/yomi/separo/webapp/wasm
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/yomi-ai/yomi/internal/wasmbuild"
)

func main() {
	static := flag.String("static", "static", "the page's static `directory` (it must hold index.html)")
	wasm := flag.String("wasm", "", "the binary's file `name` in the static directory (required)")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: genwasm [-static DIR] -wasm NAME.wasm MAIN-PACKAGE")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *wasm == "" || flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*static, *wasm, flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, "genwasm:", err)
		os.Exit(1)
	}
}

func run(static, wasm, mainPackage string) error {
	if _, err := os.Stat(filepath.Join(static, "index.html")); err != nil {
		return fmt.Errorf("run me from the page's webapp directory (go generate ./PAGE/webapp): %v", err)
	}
	sum, err := wasmbuild.Generate(static, wasm, mainPackage)
	if err != nil {
		return err
	}
	fi, err := os.Stat(filepath.Join(static, wasm))
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "genwasm: %s (%d KiB), sources %s\n", filepath.Join(static, wasm), fi.Size()/1024, sum.Sources[:12])
	return nil
}
