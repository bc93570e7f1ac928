//go:build js && wasm

// Command wasm is HATETRIS's exact engine for the browser: built with
// GOOS=js GOARCH=wasm into ../static/hatetris.wasm, it runs on the page's own
// thread (the game is small) and exposes two JavaScript functions that take
// and return JSON strings: hatetrisDo (api.Sessions.Do: play, undo, load a
// replay, seek) and hatetrisCheck (api.Check).
package main

import (
	"encoding/json"
	"syscall/js"

	"github.com/yomi-ai/yomi/hatetris/webapp/api"
)

func main() {
	sess := api.NewSessions()
	js.Global().Set("hatetrisDo", js.FuncOf(func(this js.Value, args []js.Value) any {
		var req api.Request
		if err := decode(args, &req); err != nil {
			return encode(nil, err)
		}
		return encode(sess.Do(req))
	}))
	js.Global().Set("hatetrisCheck", js.FuncOf(func(this js.Value, args []js.Value) any {
		var req api.CheckRequest
		if err := decode(args, &req); err != nil {
			return encode(nil, err)
		}
		return encode(api.Check(req))
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
