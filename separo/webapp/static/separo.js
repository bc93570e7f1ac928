// SEPARO page: draws the board, takes moves by mouse (drag s1 -> s2 -> s3) or
// touch (three taps) and runs the game loop. It knows no rules: every state,
// legal-move list and score comes from the engine, which is the Go code either
// on the server (POST api/step) or compiled to WebAssembly in a Web Worker.
"use strict";

const COLORS = ["#c62828", "#1565c0"];
const NAMES = ["Red", "Blue"];
const PLAYER_NAMES = { human: "Human", random: "Random", naive: "Naive MC", uct: "UCT MC", yomi: "Yomi" };
const MARGIN = 30, SPAN = 480;

// ---- engines ----------------------------------------------------------------

class ServerEngine {
  constructor() { this.name = "server"; }
  async step(req) {
    const r = await fetch("api/step", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(req) });
    const j = await r.json().catch(() => ({ error: "HTTP " + r.status }));
    if (!r.ok || j.error) throw new Error(j.error || "HTTP " + r.status);
    return j;
  }
}

// loadScript adds a <script> (which, unlike fetch, works from file://).
function loadScript(src) {
  return new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = src; s.onload = resolve; s.onerror = () => reject(new Error("cannot load " + src));
    document.head.append(s);
  });
}

class WorkerEngine {
  constructor() {
    this.name = "worker";
    this.next = 1;
    this.pending = new Map();
    this.started = location.protocol === "file:" ? this.startFromFile() : Promise.resolve(this.start(() => new Worker("worker.js")));
  }
  // startFromFile builds the worker from the generated scripts of an export
  // opened as a file: browsers refuse worker.js and separo.wasm from disk.
  async startFromFile() {
    await Promise.all([loadScript("worker-src.js"), loadScript("separo-wasm.js")]);
    this.start(() => new Worker(URL.createObjectURL(new Blob([window.SEPARO_WORKER_SRC], { type: "text/javascript" }))));
    if (this.broken) return;
    const bin = Uint8Array.from(atob(window.SEPARO_WASM_B64), (c) => c.charCodeAt(0));
    this.worker.postMessage({ wasm: bin }, [bin.buffer]);
  }
  start(make) {
    try {
      this.worker = make();
    } catch (err) {
      this.broken = new Error("cannot start the Web Worker (" + err.message + ")");
      return;
    }
    this.worker.onmessage = (e) => {
      const p = this.pending.get(e.data.id);
      if (!p) return;
      this.pending.delete(e.data.id);
      if (e.data.error) p.reject(new Error(e.data.error)); else p.resolve(e.data.res);
    };
    this.worker.onerror = (e) => {
      for (const p of this.pending.values()) p.reject(new Error("worker: " + e.message));
      this.pending.clear();
    };
  }
  async call(op, req) {
    await this.started;
    if (this.broken) throw this.broken;
    return new Promise((resolve, reject) => {
      const id = this.next++;
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, req });
    });
  }
  step(req) { return this.call("step", req); }
  bench(req) { return this.call("bench", req); }
}

// ---- page state -------------------------------------------------------------

const $ = (id) => document.getElementById(id);
const canvas = $("board"), ctx = canvas.getContext("2d");
const params = new URLSearchParams(location.search);
const engine = (params.get("engine") || window.SEPARO_ENGINE) === "server" ? new ServerEngine() : new WorkerEngine();
const ENGINE_NOTE = engine.name === "server" ? "The AI runs on the server." : "The AI runs in your browser (WebAssembly in a Web Worker).";
$("engine").textContent = ENGINE_NOTE;

let state = null;  // last engine response
let game = 0;      // generation: bumped by New game to stop old loops
let gameId = "";   // names the game to the server so its AIs keep their trees
let busy = false;  // a request is in flight
let sel = [];      // points chosen so far for the human move: [s1], [s1, s2]
let pointer = null; // canvas coordinates of the mouse while dragging
let taps = false;  // true when the current selection comes from touch taps
let line = { moves: [], notation: [] }; // the longest line seen from the start: Redo walks along it
let paused = false; // reviewing (after Undo, Redo, a click in the move list or Load): AIs wait for Continue

// Expose a little for tests and the console.
window.separo = {
  get state() { return state; }, get busy() { return busy; }, get paused() { return paused; }, get line() { return line; },
  engine, newGame, pointOf, undo, redo, goTo, exportGame, loadRecord, resume,
};

function player(color) { return $(color === 0 ? "red" : "blue").value; }
function moveTime() { return Math.round(1000 * Math.min(60, Math.max(0.05, Number($("movetime").value) || 1))); }
function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }

function showError(err) {
  const e = $("error");
  if (err) { e.textContent = String(err.message || err); e.hidden = false; } else { e.hidden = true; }
}

function newGameId() {
  return Array.from({ length: 4 }, () => Math.floor(Math.random() * 2 ** 32).toString(16).padStart(8, "0")).join("");
}

// setState shows an engine response and keeps the line for Redo unless the
// game left it (a different move was played).
function setState(s) {
  state = s;
  const n = s.moves.length;
  const onLine = n <= line.moves.length && s.moves.every((m, i) => m.every((v, j) => v === line.moves[i][j]));
  if (!onLine) line = { moves: s.moves.slice(), notation: s.notation.slice() };
}

async function newGame() {
  const g = ++game;
  gameId = newGameId();
  sel = []; pointer = null; paused = false;
  line = { moves: [], notation: [] };
  const size = Math.min(19, Math.max(5, Math.round(Number($("size").value) || 9)));
  $("size").value = size;
  showError(null);
  try {
    busy = true;
    const s = await engine.step({ size, moves: [] });
    if (g !== game) return;
    setState(s);
  } catch (err) { showError(err); return; } finally { if (g === game) busy = false; }
  $("engine").textContent = ENGINE_NOTE;
  render();
  loop(g);
}

// ---- history: undo, redo, the move list, export and paste ----------------------

// sideAt is the side that made move k of the line (the side to move before it).
function sideAt(k) { return k < line.notation.length ? (line.notation[k][0] === "R" ? 0 : 1) : state.turn; }
function oneHuman() { return (player(0) === "human") !== (player(1) === "human"); }

// goTo shows the position after the line's first k moves and pauses the AIs
// (a search in flight is abandoned).
async function goTo(k) {
  if (!state) return;
  k = Math.max(0, Math.min(line.moves.length, k));
  const g = ++game;
  sel = []; pointer = null; paused = true; busy = true;
  showError(null);
  try {
    const s = await engine.step({ size: state.size, moves: line.moves.slice(0, k) });
    if (g !== game) return;
    setState(s);
  } catch (err) { showError(err); } finally { if (g === game) busy = false; }
  render();
}

// undo takes back one move or, against one AI, back to the human's previous turn.
function undo() {
  if (!state || !state.moves.length) return Promise.resolve();
  let k = state.moves.length - 1;
  if (oneHuman()) while (k > 0 && player(sideAt(k)) !== "human") k--;
  return goTo(k);
}

// redo replays the next move of the line or, against one AI, up to the human's next turn.
function redo() {
  if (!state || state.moves.length >= line.moves.length) return Promise.resolve();
  let k = state.moves.length + 1;
  if (oneHuman()) while (k < line.moves.length && player(sideAt(k)) !== "human") k++;
  return goTo(k);
}

// resume lets the AIs play on from the position shown.
function resume() {
  paused = false;
  render();
  if (state && !busy) loop(game);
}

// exportGame puts the game up to the position shown into the text box (in the
// engine's notation) and offers it as a file and on the clipboard.
function exportGame() {
  if (!state) return;
  const box = $("record");
  box.value = state.record;
  box.select();
  const a = $("download");
  if (a.href) URL.revokeObjectURL(a.href);
  a.href = URL.createObjectURL(new Blob([state.record], { type: "text/plain" }));
  a.hidden = false;
  if (navigator.clipboard) navigator.clipboard.writeText(state.record).catch(() => {});
  $("recordnote").textContent = `Exported ${state.moves.length} moves (also copied to the clipboard if the browser allowed it).`;
}

// loadRecord replays the game in the text box (the engine checks every move)
// and shows its last position, paused.
async function loadRecord() {
  const text = $("record").value;
  if (!text.trim()) { showError(new Error("Paste a game into the box first (one exported here, or the output of `yomi separo game`).")); return; }
  const g = ++game;
  gameId = newGameId();
  sel = []; pointer = null; busy = true;
  showError(null);
  try {
    const s = await engine.step({ size: state ? state.size : 9, moves: [], record: text });
    if (g !== game) return;
    line = { moves: [], notation: [] };
    setState(s);
    paused = true;
    $("size").value = s.size;
    $("recordnote").textContent = `Loaded ${s.moves.length} moves on ${s.size}×${s.size}.`;
  } catch (err) {
    if (g === game) showError(new Error("Cannot load the game: " + err.message));
  } finally { if (g === game) busy = false; }
  render();
}

// loop lets AIs play while it is an AI's turn; it returns when a human must move
// or the game is over. Human moves call it again.
async function loop(g) {
  while (g === game && state && !state.over && !busy && !paused) {
    const who = player(state.turn);
    if (who === "human") { render(); return; }
    busy = true; render();
    let s;
    try {
      s = await engine.step({ size: state.size, moves: state.moves, ai: who, movetime_ms: moveTime(), seed: Math.floor(Math.random() * 2 ** 31), game: gameId });
    } catch (err) {
      if (g === game) { busy = false; showError(err); render(); }
      return;
    }
    if (g !== game) return;
    busy = false; setState(s); render();
    if (s.ai) $("engine").textContent = `${ENGINE_NOTE} Last AI move: ${NAMES[s.ai.color]} (${PLAYER_NAMES[s.ai.name]}) in ${(s.ai.millis / 1000).toFixed(2)} s.`;
    await sleep(100);
  }
}

async function playHuman(move) {
  if (busy || !state) return;
  const g = game;
  busy = true;
  try {
    const s = await engine.step({ size: state.size, moves: state.moves, play: move });
    if (g !== game) return;
    setState(s);
    paused = false;
  } catch (err) { showError(err); } finally { if (g === game) busy = false; }
  sel = []; render();
  loop(g);
}

// ---- geometry and input -------------------------------------------------------

function cellPx() { return SPAN / (state.size - 1); }
function px(x) { return MARGIN + x * cellPx(); }

// pointOf maps a pointer event to the nearest intersection, or null when off the board.
function pointOf(ev) {
  const r = canvas.getBoundingClientRect();
  const cx = (ev.clientX - r.left) * canvas.width / r.width, cy = (ev.clientY - r.top) * canvas.height / r.height;
  const c = cellPx(), x = Math.round((cx - MARGIN) / c), y = Math.round((cy - MARGIN) / c);
  if (x < 0 || y < 0 || x >= state.size || y >= state.size) return null;
  if (Math.hypot(cx - px(x), cy - px(y)) > 0.45 * c) return null;
  return { x, y, cx, cy };
}

function humanMoves() {
  if (!state || state.over || busy || player(state.turn) !== "human") return [];
  return state.legal[state.turn] || [];
}
function matches(m, pts) {
  return pts.every((p, i) => m[2 * i] === p.x && m[2 * i + 1] === p.y);
}

canvas.addEventListener("pointerdown", (ev) => {
  if (!state) return;
  const p = pointOf(ev), moves = humanMoves();
  if (ev.pointerType === "touch") { tap(p, moves); ev.preventDefault(); return; }
  if (ev.button !== 0) return;
  taps = false;
  sel = p && moves.some((m) => matches(m, [p])) ? [p] : [];
  pointer = sel.length ? { cx: p.cx, cy: p.cy } : null;
  render();
});

canvas.addEventListener("pointermove", (ev) => {
  if (ev.pointerType === "touch" || taps || !sel.length) return;
  const p = pointOf(ev), moves = humanMoves();
  const r = canvas.getBoundingClientRect();
  pointer = { cx: (ev.clientX - r.left) * canvas.width / r.width, cy: (ev.clientY - r.top) * canvas.height / r.height };
  if (sel.length === 1 && p && moves.some((m) => matches(m, [sel[0], p]))) sel = [sel[0], p];
  render();
});

canvas.addEventListener("pointerup", (ev) => {
  if (ev.pointerType === "touch" || taps) return;
  const p = pointOf(ev), moves = humanMoves();
  const chosen = sel.length === 2 && p ? moves.find((m) => matches(m, [sel[0], sel[1], p])) : undefined;
  sel = []; pointer = null;
  if (chosen) playHuman(chosen); else render();
});

canvas.addEventListener("pointerleave", (ev) => {
  if (ev.pointerType === "touch" || taps) return;
  sel = []; pointer = null; render();
});

// tap handles touch input: three taps s1, s2, s3; a tap that does not continue
// a legal move starts again from that point.
function tap(p, moves) {
  taps = true;
  if (!p) { sel = []; render(); return; }
  const next = [...sel, p];
  if (next.length === 3) {
    const chosen = moves.find((m) => matches(m, next));
    if (chosen) { sel = []; playHuman(chosen); return; }
  } else if (moves.some((m) => matches(m, next))) {
    sel = next; render(); return;
  }
  sel = moves.some((m) => matches(m, [p])) ? [p] : [];
  render();
}

// ---- drawing ------------------------------------------------------------------

function seg(x1, y1, x2, y2) { ctx.beginPath(); ctx.moveTo(x1, y1); ctx.lineTo(x2, y2); ctx.stroke(); }

// drawRegions fills the triangles of color's scoring regions, one hue per region.
function drawRegions(color) {
  const labels = state.regions[color], g = state.size - 1;
  for (let cx = 0; cx < g; cx++) {
    for (let cy = 0; cy < g; cy++) {
      const x0 = px(cx), y0 = px(cy), x1 = px(cx + 1), y1 = px(cy + 1), mx = (x0 + x1) / 2, my = (y0 + y1) / 2;
      const tris = [[x0, y0, x1, y0], [x1, y0, x1, y1], [x1, y1, x0, y1], [x0, y1, x0, y0]]; // N, E, S, W
      for (let t = 0; t < 4; t++) {
        const l = labels[4 * (cx * g + cy) + t];
        if (l < 0) continue;
        ctx.fillStyle = `hsla(${(l * 137.5 + 40) % 360}, 75%, 55%, 0.45)`;
        const [ax, ay, bx, by] = tris[t];
        ctx.beginPath(); ctx.moveTo(ax, ay); ctx.lineTo(bx, by); ctx.lineTo(mx, my); ctx.closePath(); ctx.fill();
      }
    }
  }
}

function renderMoves() {
  const ol = $("movelist"), n = state.moves.length;
  ol.replaceChildren(...line.notation.map((text, i) => {
    const li = document.createElement("li");
    if (i > 0 && text[0] === line.notation[i - 1][0]) li.dataset.pass = (text[0] === "R" ? "Blue" : "Red") + " passes";
    const b = document.createElement("button");
    b.type = "button"; b.textContent = text;
    b.className = (text[0] === "R" ? "red" : "blue") + (i === n - 1 ? " current" : "") + (i >= n ? " future" : "");
    b.title = `Show the position after move ${i + 1}`;
    b.addEventListener("click", () => goTo(i + 1));
    li.append(b);
    return li;
  }));
  const cur = ol.querySelector(".current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
  $("undo").disabled = n === 0;
  $("redo").disabled = n >= line.moves.length;
  $("continue").hidden = !(paused && !state.over && player(state.turn) !== "human");
  $("ply").textContent = line.moves.length ? `Move ${n} of ${line.moves.length}` : "No moves yet";
}

function renderScoreNote() {
  const show = $("regions").value;
  let text = "";
  if (show !== "off") {
    const c = Number(show), k = state.score[c];
    text = `Shaded: ${NAMES[c]}'s ${k} scoring region${k === 1 ? "" : "s"}, one colour each. `;
  }
  $("scorewhy").textContent = text;
}

function render() {
  if (!state) return;
  const n = state.size, c = cellPx();
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.strokeStyle = "#8d7650"; ctx.lineWidth = 1; ctx.setLineDash([]);
  if ($("regions").value !== "off") drawRegions(Number($("regions").value));
  for (let i = 0; i < n; i++) { seg(px(0), px(i), px(n - 1), px(i)); seg(px(i), px(0), px(i), px(n - 1)); }
  if ($("guide").checked) {
    ctx.setLineDash([4, 4]); ctx.lineWidth = 3;
    for (const color of [0, 1]) {
      ctx.strokeStyle = COLORS[color] + "55";
      for (const m of state.legal[color] || []) { seg(px(m[0]), px(m[1]), px(m[2]), px(m[3])); seg(px(m[2]), px(m[3]), px(m[4]), px(m[5])); }
    }
    ctx.setLineDash([]);
  }
  ctx.lineWidth = Math.max(3, c / 9); ctx.lineCap = "round";
  for (const r of state.roots) { ctx.strokeStyle = COLORS[r[4]]; seg(px(r[0]), px(r[1]), px(r[2]), px(r[3])); }
  const rad = Math.max(5, c / 4);
  for (const s of state.stones) {
    ctx.fillStyle = COLORS[s[2]]; ctx.beginPath(); ctx.arc(px(s[0]), px(s[1]), rad, 0, 2 * Math.PI); ctx.fill();
  }
  if (state.last) { // mark the last move's s3
    const m = state.last; ctx.strokeStyle = "#fff"; ctx.lineWidth = 2;
    ctx.beginPath(); ctx.arc(px(m[4]), px(m[5]), rad / 2, 0, 2 * Math.PI); ctx.stroke();
  }
  // The human's selection so far.
  if (sel.length) {
    const col = COLORS[state.turn];
    ctx.strokeStyle = col; ctx.lineWidth = Math.max(3, c / 9); ctx.setLineDash([6, 4]);
    if (sel.length === 2) seg(px(sel[0].x), px(sel[0].y), px(sel[1].x), px(sel[1].y));
    const from = sel[sel.length - 1];
    if (pointer && !taps) seg(px(from.x), px(from.y), pointer.cx, pointer.cy);
    ctx.setLineDash([]);
    for (const p of sel) { ctx.beginPath(); ctx.arc(px(p.x), px(p.y), rad * 1.3, 0, 2 * Math.PI); ctx.stroke(); }
    if (pointer && !taps && sel.length === 2) {
      ctx.setLineDash([3, 3]); ctx.beginPath(); ctx.arc(pointer.cx, pointer.cy, rad, 0, 2 * Math.PI); ctx.stroke(); ctx.setLineDash([]);
    }
  }
  $("redname").textContent = PLAYER_NAMES[player(0)];
  $("bluename").textContent = PLAYER_NAMES[player(1)];
  $("redscore").textContent = state.score[0];
  $("bluescore").textContent = state.score[1];
  let status = state.status;
  if (!state.over && busy && player(state.turn) !== "human") status += " (thinking…)";
  else if (!state.over && paused && player(state.turn) !== "human") status += " (paused: Continue lets the AI play)";
  $("status").textContent = status;
  renderMoves();
  renderScoreNote();
}

// fileNote explains how to serve an exported site that was opened as a file:
// browsers refuse a file:// page its Web Worker and the WebAssembly engine.
function fileNote() {
  const dir = decodeURIComponent(location.pathname).replace(/\/separo\/(index\.html)?$/, "") || ".";
  return "This page was opened as a file (file://) and could not start the Web Worker that runs the " +
    "WebAssembly engine. Serve the exported folder over HTTP instead, for example:\n\n" +
    `    python3 -m http.server 8000 --directory '${dir}'\n\n` +
    "then open http://localhost:8000/separo/ (any static web server will do). Or run `yomi serve` and open " +
    "http://127.0.0.1:8080/separo/, where the AI runs on the server.";
}

$("newgame").addEventListener("click", newGame);
$("guide").addEventListener("change", render);
$("regions").addEventListener("change", render);
$("undo").addEventListener("click", undo);
$("redo").addEventListener("click", redo);
$("continue").addEventListener("click", resume);
$("export").addEventListener("click", exportGame);
$("load").addEventListener("click", loadRecord);
document.addEventListener("keydown", (ev) => {
  if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLTextAreaElement || ev.target instanceof HTMLSelectElement) return;
  if (ev.key === "ArrowLeft") undo(); else if (ev.key === "ArrowRight") redo();
});
for (const id of ["red", "blue"]) $(id).addEventListener("change", () => { render(); if (state && !busy) loop(game); });
if (location.protocol === "file:" && engine.name === "worker") {
  // An export opened as a file: the worker is built from generated scripts;
  // if that fails (another browser, a partial copy), say how to serve it.
  engine.started.then(() => { if (engine.broken) throw engine.broken; return newGame(); })
    .catch((err) => { $("status").textContent = "Cannot run from a file."; showError(new Error(err.message + "\n\n" + fileNote())); });
} else {
  newGame();
}
