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

class WorkerEngine {
  constructor() {
    this.name = "worker";
    this.next = 1;
    this.pending = new Map();
    try {
      this.worker = new Worker("worker.js");
    } catch (err) { // e.g. a page opened from file://
      this.broken = new Error("cannot start the Web Worker (" + err.message + "); serve the page over HTTP, e.g. `yomi serve`");
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
  call(op, req) {
    if (this.broken) return Promise.reject(this.broken);
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

// Expose a little for tests and the console.
window.separo = { get state() { return state; }, get busy() { return busy; }, engine, newGame, pointOf };

function player(color) { return $(color === 0 ? "red" : "blue").value; }
function moveTime() { return Math.round(1000 * Math.min(60, Math.max(0.05, Number($("movetime").value) || 1))); }
function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }

function showError(err) {
  const e = $("error");
  if (err) { e.textContent = String(err.message || err); e.hidden = false; } else { e.hidden = true; }
}

async function newGame() {
  const g = ++game;
  gameId = Array.from({ length: 4 }, () => Math.floor(Math.random() * 2 ** 32).toString(16).padStart(8, "0")).join("");
  sel = []; pointer = null;
  const size = Math.min(19, Math.max(5, Math.round(Number($("size").value) || 9)));
  $("size").value = size;
  showError(null);
  try {
    busy = true;
    const s = await engine.step({ size, moves: [] });
    if (g !== game) return;
    state = s;
  } catch (err) { showError(err); return; } finally { if (g === game) busy = false; }
  $("engine").textContent = ENGINE_NOTE;
  render();
  loop(g);
}

// loop lets AIs play while it is an AI's turn; it returns when a human must move
// or the game is over. Human moves call it again.
async function loop(g) {
  while (g === game && state && !state.over && !busy) {
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
    busy = false; state = s; render();
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
    state = s;
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

function line(x1, y1, x2, y2) { ctx.beginPath(); ctx.moveTo(x1, y1); ctx.lineTo(x2, y2); ctx.stroke(); }

function render() {
  if (!state) return;
  const n = state.size, c = cellPx();
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.strokeStyle = "#8d7650"; ctx.lineWidth = 1; ctx.setLineDash([]);
  for (let i = 0; i < n; i++) { line(px(0), px(i), px(n - 1), px(i)); line(px(i), px(0), px(i), px(n - 1)); }
  if ($("guide").checked) {
    ctx.setLineDash([4, 4]); ctx.lineWidth = 3;
    for (const color of [0, 1]) {
      ctx.strokeStyle = COLORS[color] + "55";
      for (const m of state.legal[color] || []) { line(px(m[0]), px(m[1]), px(m[2]), px(m[3])); line(px(m[2]), px(m[3]), px(m[4]), px(m[5])); }
    }
    ctx.setLineDash([]);
  }
  ctx.lineWidth = Math.max(3, c / 9); ctx.lineCap = "round";
  for (const r of state.roots) { ctx.strokeStyle = COLORS[r[4]]; line(px(r[0]), px(r[1]), px(r[2]), px(r[3])); }
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
    if (sel.length === 2) line(px(sel[0].x), px(sel[0].y), px(sel[1].x), px(sel[1].y));
    const from = sel[sel.length - 1];
    if (pointer && !taps) line(px(from.x), px(from.y), pointer.cx, pointer.cy);
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
  $("status").textContent = status;
}

$("newgame").addEventListener("click", newGame);
$("guide").addEventListener("change", render);
for (const id of ["red", "blue"]) $(id).addEventListener("change", () => { render(); if (state && !busy) loop(game); });
newGame();
