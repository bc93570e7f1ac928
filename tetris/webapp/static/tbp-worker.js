// Yomi's Tetris bot as a Tetris Bot Protocol Web Worker: start it with
// new Worker("tbp-worker.js") and exchange TBP messages (plain objects)
// through postMessage, as tbp-spec describes for the web. The bot (Go
// compiled to WebAssembly, tetris.wasm beside this file) sends info at
// once, answers rules with ready, thinks in the background after start,
// play and new_piece, and answers suggest at once. Its suggestions carry
// a "plan" (the placements it expects next), a Yomi extension; rules may
// carry "perfect_clear": true to turn its perfect-clear mode on.
importScripts("wasm_exec.js");

const pending = [];
let ready = false;
self.tbpPost = (json) => postMessage(JSON.parse(json));

onmessage = (e) => {
  const json = JSON.stringify(e.data);
  if (ready) self.tbpMessage(json);
  else pending.push(json);
  if (e.data && e.data.type === "quit") self.close(); // TBP: quit ends the bot
};

(async () => {
  const go = new Go();
  let inst;
  try {
    inst = (await WebAssembly.instantiateStreaming(fetch("tetris.wasm"), go.importObject)).instance;
  } catch (e) {
    // Hosts that do not serve application/wasm: fall back to a plain fetch.
    const buf = await (await fetch("tetris.wasm")).arrayBuffer();
    inst = (await WebAssembly.instantiate(buf, go.importObject)).instance;
  }
  go.run(inst);
  self.tbpBegin();
  ready = true;
  for (const json of pending.splice(0)) self.tbpMessage(json);
})();
