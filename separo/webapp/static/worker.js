// SEPARO Web Worker: runs the Go engine and AIs compiled to WebAssembly, so the
// page works without a server. Messages: {id, op: "step"|"bench", req} -> {id, res} or {id, error}.
importScripts("wasm_exec.js");

const ready = (async () => {
  const go = new Go();
  let inst;
  try {
    inst = (await WebAssembly.instantiateStreaming(fetch("separo.wasm"), go.importObject)).instance;
  } catch (e) {
    // Hosts that do not serve application/wasm: fall back to a plain fetch.
    const buf = await (await fetch("separo.wasm")).arrayBuffer();
    inst = (await WebAssembly.instantiate(buf, go.importObject)).instance;
  }
  go.run(inst);
})();

onmessage = async (e) => {
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
