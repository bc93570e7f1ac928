// seigot viewer: streams games from the server (POST api/play: our AI in the
// exact engine; POST api/replay: a recorded game replayed in it) and shows
// them piece by piece, side by side. It applies no rule: boards, scores and
// what the controller saw all come from the engine.
"use strict";

const $ = (id) => document.getElementById(id);
const NAMES = ["", "I", "L", "J", "T", "O", "S", "Z"];
const COLORS = ["", "#26c6da", "#fb8c00", "#3949ab", "#8e24aa", "#fdd835", "#43a047", "#e53935"];
const CELL = 20;

// sides[i] = {header, ticks, done, stats, error, gen}
const sides = [null, null];
let piece = 0;      // the slider's piece
let follow = true;  // keep the slider at the newest piece while a game streams
let timer = null;

window.seigot = { sides, get piece() { return piece; }, setPiece };

function showError(err) {
  const e = $("error");
  if (err) { e.textContent = String(err.message || err); e.hidden = false; } else { e.hidden = true; }
}

// load streams a game into side i; a newer load of the same side wins.
async function load(i, path, body) {
  showError(null);
  const gen = (sides[i] ? sides[i].gen : 0) + 1;
  if (sides[i] && sides[i].abort) sides[i].abort.abort();
  const abort = new AbortController();
  const side = { header: null, ticks: [], done: false, stats: null, error: null, gen, abort };
  sides[i] = side;
  follow = true;
  render();
  try {
    const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal: abort.signal });
    if (!r.ok) { const j = await r.json().catch(() => ({})); throw new Error(j.error || "HTTP " + r.status); }
    const reader = r.body.getReader(), dec = new TextDecoder();
    let buf = "", lastRender = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl); buf = buf.slice(nl + 1);
        if (!line.trim()) continue;
        const m = JSON.parse(line);
        if (!side.header) side.header = m;
        else if (m.error) side.error = m.error;
        else if (m.done) { side.done = true; side.stats = m.stats; }
        else side.ticks.push(m);
      }
      if (sides[i] !== side) return;
      if (performance.now() - lastRender > 100) { lastRender = performance.now(); update(); }
    }
    if (side.error) throw new Error(side.error);
  } catch (err) {
    if (err.name !== "AbortError") showError(err);
  }
  if (sides[i] === side) update();
}

function maxPiece() {
  let m = 0;
  for (const s of sides) if (s && s.ticks.length) m = Math.max(m, s.ticks[s.ticks.length - 1].piece);
  return m;
}

function update() {
  const m = maxPiece();
  $("scrub").max = Math.max(m, 1);
  if (follow) piece = m;
  render();
}

function setPiece(k) {
  piece = Math.max(0, Math.min(maxPiece(), k));
  follow = piece === maxPiece() && sides.some((s) => s && !s.done);
  render();
}

// tickAt is the last tick of side s that counted at most k pieces.
function tickAt(s, k) {
  let t = null;
  for (const x of s.ticks) { if (x.piece > k) break; t = x; }
  return t;
}

function drawBoard(canvas, header, t) {
  const ctx = canvas.getContext("2d"), W = header.width, H = header.height;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const cells = t ? t.board : header.start;
  const fresh = new Set(t && t.new ? t.new : []);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const v = Number(cells[y * W + x]);
      if (!v) continue;
      ctx.fillStyle = COLORS[v] || "#999";
      ctx.fillRect(x * CELL + 1, y * CELL + 1, CELL - 2, CELL - 2);
      if (fresh.has(y * W + x)) { ctx.strokeStyle = "#fff"; ctx.lineWidth = 2; ctx.strokeRect(x * CELL + 2, y * CELL + 2, CELL - 4, CELL - 4); }
    }
  }
  ctx.strokeStyle = "#555"; ctx.setLineDash([4, 4]); ctx.lineWidth = 1;
  ctx.beginPath(); ctx.moveTo(0, 2 * CELL); ctx.lineTo(W * CELL, 2 * CELL); ctx.stroke(); ctx.setLineDash([]);
}

function piecesText(t) {
  if (!t) return "";
  const b = (s) => `<b style="color:${COLORS[s] || "inherit"}">${NAMES[s] || "·"}</b>`;
  return `now ${b(t.cur)}, hold ${t.hold ? b(t.hold) : "—"}, next ${t.previews.map(b).join(" ")}`;
}

function moveText(t) {
  if (!t) return "";
  if (t.holdonly) return "hold (first hold: the piece goes to the hold slot)";
  const m = t.move, parts = [];
  if (m.use_hold_function === "y") parts.push("swap with hold,");
  parts.push(`direction ${m.direction}, x ${m.x}, ${m.y_operation === 1 ? "hard drop" : "move down " + m.y_moveblocknum}`);
  if (t.lines) parts.push(`— ${t.lines === 4 ? "TETRIS" : t.lines + " line" + (t.lines > 1 ? "s" : "")}`);
  if (t.dropped) parts.push(`(+${t.dropped} drop)`);
  if (t.gameover) parts.push("— GAME OVER (−500)");
  if (t.allclear) parts.push("— all clear");
  return parts.join(" ");
}

function render() {
  $("scrub").value = piece;
  $("where").textContent = `piece ${piece} of ${sides.reduce((m, s) => Math.max(m, s && s.header ? s.header.cap : 0), 0) || 180}`;
  const scores = [];
  for (let i = 0; i < 2; i++) {
    const s = sides[i], el = $("side" + i);
    el.hidden = !s;
    if (!s) continue;
    const h = s.header;
    el.querySelector(".name").textContent = h ? `${h.name} — level ${h.level}, seed ${h.seed}` : "Starting…";
    let status = s.error ? "Error: " + s.error : s.done ? `Finished: ${s.stats.score} points` : `Playing… ${s.ticks.length ? s.ticks[s.ticks.length - 1].piece : 0} pieces`;
    if (h && h.kind === "recording") status += ` (scored ${h.score} in the real game)`;
    el.querySelector(".status").textContent = status;
    if (!h) continue;
    const t = tickAt(s, piece), st = t ? t.stats : { score: 0, lines: 0, line_stat: [0, 0, 0, 0], drop_score: 0, gameovers: 0, block_index: 0 };
    drawBoard(el.querySelector(".board"), h, t);
    el.querySelector(".score").textContent = st.score;
    el.querySelector(".lines").textContent = st.lines;
    el.querySelector(".linestat").textContent = st.line_stat.join(" / ");
    el.querySelector(".drop").textContent = st.drop_score;
    el.querySelector(".gameovers").textContent = st.gameovers;
    el.querySelector(".pieces").textContent = st.block_index;
    el.querySelector(".saw").innerHTML = piecesText(t);
    el.querySelector(".move").textContent = moveText(t);
    el.querySelector(".ms").textContent = t && h.kind === "ai" ? `${t.ms.toFixed(1)} ms` : "—";
    scores.push({ name: h.kind === "ai" ? "ours" : "recorded", score: st.score, have: !!t });
  }
  if (scores.length === 2 && scores[0].have && scores[1].have) {
    const d = scores[0].score - scores[1].score;
    $("diff").textContent = `After piece ${piece}: ${scores[0].name} ${scores[0].score}, ${scores[1].name} ${scores[1].score} (${d >= 0 ? "+" : ""}${d})`;
  } else $("diff").textContent = "";
}

function play() {
  if (timer) return;
  if (piece >= maxPiece()) piece = 0;
  follow = false;
  $("pause").textContent = "Pause";
  const tick = () => {
    if (piece >= maxPiece() && sides.every((s) => !s || s.done)) { stop(); return; }
    if (piece < maxPiece()) setPiece(piece + 1);
    timer = setTimeout(tick, Number($("speed").value));
  };
  timer = setTimeout(tick, Number($("speed").value));
}
function stop() { if (timer) clearTimeout(timer); timer = null; $("pause").textContent = "Play"; }

async function loadRecordings() {
  try {
    const r = await fetch("api/recordings");
    const list = await r.json();
    if (!r.ok) throw new Error(list.error || "HTTP " + r.status);
    for (const x of list) {
      const o = document.createElement("option");
      o.value = x.id; o.textContent = `${x.name} (${x.score})`; o.dataset.level = x.level; o.dataset.seed = x.seed;
      $("recording").append(o);
    }
    const p = new URLSearchParams(location.search);
    if (p.get("recording")) { $("recording").value = p.get("recording"); $("recording").dispatchEvent(new Event("change")); }
    if (p.get("level")) $("level").value = p.get("level");
    if (p.get("seed")) $("seed").value = p.get("seed");
    if (p.get("ai")) $("ai").value = p.get("ai");
    if (p.get("play")) $("play").click();
  } catch (err) { showError(err); }
}

$("play").addEventListener("click", () => {
  stop();
  load(0, "api/play", { level: Number($("level").value), seed: Math.max(0, Math.round(Number($("seed").value) || 0)), ai: $("ai").value });
});
$("recording").addEventListener("change", () => {
  stop();
  const o = $("recording").selectedOptions[0];
  if (!o.value) { if (sides[1] && sides[1].abort) sides[1].abort.abort(); sides[1] = null; render(); return; }
  // Our AI plays the recording's level and seed, for a fair comparison.
  $("level").value = o.dataset.level; $("seed").value = o.dataset.seed;
  load(1, "api/replay", { recording: o.value });
});
$("pause").addEventListener("click", () => (timer ? stop() : play()));
$("scrub").addEventListener("input", () => { stop(); setPiece(Number($("scrub").value)); });
document.addEventListener("keydown", (ev) => {
  if (ev.target instanceof HTMLInputElement && ev.target.type !== "range" || ev.target instanceof HTMLSelectElement) return;
  if (ev.key === "ArrowRight") { stop(); setPiece(piece + 1); ev.preventDefault(); }
  else if (ev.key === "ArrowLeft") { stop(); setPiece(piece - 1); ev.preventDefault(); }
});

loadRecordings();
