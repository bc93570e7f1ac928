//go:build js && wasm

// Command wasm is the Guideline Tetris page's Go side for the browser:
// built with GOOS=js GOARCH=wasm into ../static/tetris.wasm. On the page it
// exposes tetrisCall(op, json) → json, the game (api.Game) and the
// perfect-clear finder; in a Web Worker (static/tbp-worker.js) tbpBegin()
// makes it Yomi's bot speaking the Tetris Bot Protocol: tbpMessage(json)
// takes a frontend message, replies go to the global tbpPost(json), and
// the bot thinks between messages in slices that let the Worker's message
// loop run.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"syscall/js"
	"time"

	"github.com/yomi-ai/yomi/tetris/bot"
	"github.com/yomi-ai/yomi/tetris/webapp/api"
)

// The Worker bot's bounds per position: think time and nodes (memory:
// about 150 bytes a node, so ≈75 MB).
const (
	maxThink = 5 * time.Second
	maxNodes = 500_000
)

func main() {
	var game *api.Game
	js.Global().Set("tetrisCall", js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) != 2 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString {
			return encode(nil, errors.New("tetrisCall(op, json)"))
		}
		var req struct {
			api.Config
			Side   int           `json:"side"`
			Action string        `json:"action"`
			Move   api.Move      `json:"move"`
			Moves  []api.Move    `json:"moves"`
			PC     api.PCRequest `json:"pc"`
		}
		if err := json.Unmarshal([]byte(args[1].String()), &req); err != nil {
			return encode(nil, err)
		}
		op := args[0].String()
		if game == nil && op != "new" && op != "pc" {
			return encode(nil, errors.New("no game: call new first"))
		}
		switch op {
		case "new":
			g, err := api.NewGame(req.Config)
			if err == nil {
				game = g
			}
			return encode(map[string]bool{"ok": err == nil}, err)
		case "input":
			moved, err := game.Input(req.Side, req.Action)
			return encode(map[string]bool{"moved": moved, "grounded": game.Grounded(req.Side)}, err)
		case "lock":
			return encode(game.Lock(req.Side))
		case "play":
			return encode(game.Play(req.Side, req.Move))
		case "view":
			return encode(game.View(req.Side))
		case "start":
			return encode(game.Start(req.Side))
		case "cells":
			return encode(game.PlanCells(req.Side, req.Moves))
		case "pc":
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			return encode(api.PC(ctx, req.PC))
		}
		return encode(nil, errors.New("unknown op "+op))
	}))
	js.Global().Set("tbpBegin", js.FuncOf(func(this js.Value, args []js.Value) any {
		beginTBP()
		return nil
	}))
	select {} // keep the functions alive
}

// beginTBP makes this instance a TBP bot: info now, then one reply per
// message that asks for one.
func beginTBP() {
	var mu sync.Mutex
	s := api.NewBotSession(bot.Options{Threads: 1, Seed: 1, Reserve: 16 << 20, MaxNodes: maxNodes})
	var until time.Time // think until then (set by each position change)
	post := func(m api.Message) {
		b, _ := json.Marshal(m)
		js.Global().Call("tbpPost", string(b))
	}
	post(s.Info())
	js.Global().Set("tbpMessage", js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) != 1 || args[0].Type() != js.TypeString {
			return nil
		}
		m, err := api.Decode([]byte(args[0].String()))
		if err != nil {
			js.Global().Get("console").Call("warn", "tbp: ignored: "+err.Error())
			return nil
		}
		mu.Lock()
		out, err := s.Handle(context.Background(), m)
		switch m.Type {
		case "start", "play", "new_piece":
			until = time.Now().Add(maxThink)
		}
		mu.Unlock()
		if err != nil {
			js.Global().Get("console").Call("warn", "tbp: "+m.Type+": "+err.Error())
		}
		for _, r := range out {
			post(r)
		}
		return nil
	}))
	go func() {
		for {
			mu.Lock()
			busy := s.Active() && time.Now().Before(until) && s.Nodes() < maxNodes
			if busy {
				s.Think(context.Background(), bot.Budget{Duration: api.ThinkSlice})
			}
			mu.Unlock()
			// Sleeping hands the thread back to the Worker's event loop,
			// which delivers the messages that arrived meanwhile.
			if busy {
				time.Sleep(time.Millisecond)
			} else {
				time.Sleep(20 * time.Millisecond)
			}
		}
	}()
}

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
