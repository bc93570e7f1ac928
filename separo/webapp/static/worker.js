// SEPARO Web Worker: runs the Go engine and AIs compiled to WebAssembly, so the
// page works without a server. Messages: {id, op: "step"|"bench", req} -> {id, res} or {id, error}.
// From file:// the page builds this worker from a Blob (wasm_exec.js and this
// file, with SEPARO_BLOB set) and sends the binary first as {wasm: bytes}.
if (!self.SEPARO_BLOB) importScripts("wasm_exec.js");

let gotWasm;
const wasmBytes = new Promise((resolve) => { gotWasm = resolve; });

const ready = (async () => {
  const go = new Go();
  let inst;
  if (self.SEPARO_BLOB) {
    inst = (await WebAssembly.instantiate(await wasmBytes, go.importObject)).instance;
  } else {
    try {
      inst = (await WebAssembly.instantiateStreaming(fetch("separo.wasm"), go.importObject)).instance;
    } catch (e) {
      // Hosts that do not serve application/wasm: fall back to a plain fetch.
      const buf = await (await fetch("separo.wasm")).arrayBuffer();
      inst = (await WebAssembly.instantiate(buf, go.importObject)).instance;
    }
  }
  go.run(inst);
})();

onmessage = async (e) => {
  if (e.data.wasm) { gotWasm(e.data.wasm); return; }
  const { id, op, req } = e.data;
  try {
    await ready;
    const fn = op === "bench" ? self.separoBench : self.separoStep;
    const out = JSON.parse(fn(JSON.stringify(req)));
    if (out.error) postMessage({ id, error: out.error });
    else postMessage({ id, res: out });
  } catch (err) {
    postMessage({ id, error: String(err) });
  }
};
