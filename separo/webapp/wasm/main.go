//go:build js && wasm

// Command wasm is SEPARO's engine and AIs for the browser: built with GOOS=js
// GOARCH=wasm into ../static/separo.wasm, it runs in a Web Worker
// (static/worker.js) and exposes two JavaScript functions that take and
// return JSON strings: separoStep (api.Session.Step, so the AIs reuse their
// trees between moves) and separoBench (api.Bench).
package main

import (
	"context"
	"encoding/json"
	"syscall/js"

	"github.com/yomi-ai/yomi/separo/webapp/api"
)

func main() {
	// One session for the page: the AIs keep their trees between moves.
	sess := api.NewSession()
	js.Global().Set("separoStep", js.FuncOf(func(this js.Value, args []js.Value) any {
		var req api.Request
		if err := decode(args, &req); err != nil {
			return encode(nil, err)
		}
		return encode(sess.Step(context.Background(), req))
	}))
	js.Global().Set("separoBench", js.FuncOf(func(this js.Value, args []js.Value) any {
		var req api.BenchRequest
		if err := decode(args, &req); err != nil {
			return encode(nil, err)
		}
		return encode(api.Bench(req))
	}))
	select {} // keep the functions alive
}

func decode(args []js.Value, v any) error {
	if len(args) != 1 || args[0].Type() != js.TypeString {
		return errBadCall
	}
	return json.Unmarshal([]byte(args[0].String()), v)
}

type callError string

func (e callError) Error() string { return string(e) }

const errBadCall = callError("expected one JSON string argument")

func encode(v any, err error) string {
	if err != nil {
		b, _ := json.Marshal(map[string]string{"error": err.Error()})
		return string(b)
	}
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	return string(b)
}
