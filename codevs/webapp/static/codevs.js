// CODE VS Reborn replay viewer: asks the server for a replay played again
// through the simulator (POST api/view) and steps through it. It applies no
// rule itself: every field, vanishing cell, pair and number comes from the
// server; the page only chooses which stage to draw.
"use strict";

const $ = (id) => document.getElementById(id);
const CELL = 25;
// Block colours by value; ojama is grey.
const COLORS = { 1: "#e53935", 2: "#fb8c00", 3: "#fdd835", 4: "#7cb342", 5: "#f5f5f5", 6: "#26a69a", 7: "#29b6f6", 8: "#5c6bc0", 9: "#ab47bc", "#": "#757575" };

let view = null;       // the last api/view answer
let pos = { turn: 0, step: 0 };
let timer = null;      // playing when set

window.codevs = { get view() { return view; }, get pos() { return pos; }, go, busy: false };

function showError(err) {
  const e = $("error");
  if (err) { e.textContent = String(err.message || err); e.hidden = false; } else { e.hidden = true; }
}

async function post(path, body) {
  const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const j = await r.json().catch(() => ({ error: "HTTP " + r.status }));
  if (!r.ok || j.error) throw new Error(j.error || "HTTP " + r.status);
  return j;
}

async function loadList() {
  try {
    const r = await fetch("api/replays");
    const list = await r.json();
    if (!r.ok) throw new Error(list.error || "HTTP " + r.status);
    const sel = $("replays");
    if (list.length) sel.replaceChildren();
    for (const f of list) {
      const o = document.createElement("option");
      o.value = f.id; o.textContent = f.match ? `${f.match} — ${f.path}` : `${f.path} (${f.dir})`;
      sel.append(o);
    }
    const want = new URLSearchParams(location.search).get("replay");
    const hit = want && list.find((f) => f.id === want || f.path === want);
    if (hit) { sel.value = hit.id; open({ file: hit.id }); }
  } catch (err) { showError(err); }
}

function showTitle() {
  const r = view.result;
  if (!r) { $("title").textContent = `${view.names[0]} vs ${view.names[1]}: playing, turn ${view.turns.length}…`; return; }
  const who = r.winner < 0 ? "draw" : `${view.names[r.winner]} (player ${r.winner + 1}) wins`;
  $("title").textContent = `${view.names[0]} vs ${view.names[1]}: ${who} after ${r.turns} turns — ${r.reason}`;
}

async function open(src) {
  showError(null);
  stop();
  stopLive();
  window.codevs.busy = true;
  $("status").textContent = "Replaying…";
  try {
    view = await post("api/view", src);
    $("viewer").hidden = false;
    showTitle();
    $("check").textContent = view.check ? "Warning: " + view.check : `Every recorded turn replayed exactly (${view.turns.length} turns, ${(view.time_ms / 1000).toFixed(0)} s per player).`;
    $("scrub").max = Math.max(0, view.turns.length - 1);
    $("status").textContent = `${view.source}: ${view.turns.length} turns.`;
    go(0, 0);
  } catch (err) {
    $("status").textContent = "";
    showError(err);
  } finally { window.codevs.busy = false; }
}

// ---- live games -------------------------------------------------------------------

let liveAbort = null;
function stopLive() { if (liveAbort) liveAbort.abort(); liveAbort = null; $("livestop").hidden = true; }

// startLive asks the server to referee a game and shows each turn as it comes;
// the view follows the newest turn unless the user moved away from it.
async function startLive() {
  showError(null);
  stop();
  stopLive();
  const ctrl = new AbortController();
  liveAbort = ctrl;
  $("livestop").hidden = false;
  $("status").textContent = "Starting the AIs…";
  const body = { p1: $("p1").value, p2: $("p2").value, seed: Math.max(0, Math.round(Number($("liveseed").value) || 0)), time_ms: Math.round(1000 * (Number($("livetime").value) || 20)) };
  try {
    const r = await fetch("api/live", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal: ctrl.signal });
    if (!r.ok) { const j = await r.json().catch(() => ({})); throw new Error(j.error || "HTTP " + r.status); }
    const reader = r.body.getReader(), dec = new TextDecoder();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl); buf = buf.slice(nl + 1);
        if (!line.trim()) continue;
        const m = JSON.parse(line);
        if (m.error) throw new Error(m.error);
        if (m.names) {
          view = m; view.result = null; view.live = true;
          $("viewer").hidden = false; $("check").textContent = "Live: every turn is the simulator's, as the referee plays it.";
          showTitle();
        } else if (m.turn) {
          const atEnd = !view.turns.length || (pos.turn === view.turns.length - 1 && pos.step === steps(pos.turn) - 1);
          view.turns.push(m.turn);
          $("scrub").max = Math.max(0, view.turns.length - 1);
          showTitle();
          if (atEnd && !timer) go(view.turns.length - 1, -1); else render();
          $("status").textContent = `Live: turn ${m.turn.turn} played.`;
        } else if (m.result) {
          view.result = m.result; showTitle();
          $("status").textContent = `Live game over after ${m.result.turns} turns.`;
        }
      }
    }
  } catch (err) {
    if (err.name !== "AbortError") showError(err);
  } finally { if (liveAbort === ctrl) { liveAbort = null; $("livestop").hidden = true; } }
}

async function loadPlayers() {
  try {
    const r = await fetch("api/players");
    const names = await r.json();
    if (!r.ok || !names.length) return;
    for (const id of ["p1", "p2"]) {
      for (const n of names) { const o = document.createElement("option"); o.value = o.textContent = n; $(id).append(o); }
    }
    if (names.length > 1) $("p2").value = names[names.length - 1];
    $("liveform").hidden = false;
  } catch (err) { showError(err); }
}
$("live").addEventListener("click", startLive);
$("livestop").addEventListener("click", stopLive);

// ---- stepping ------------------------------------------------------------------

// stages lists what player i shows in a turn: the field before (pack hovering),
// each simulator frame, and the field after.
function stages(t, i) {
  const p = view.turns[t].players[i];
  return [{ stage: "before", field: p.before }, ...p.frames, { stage: "after", field: p.after }];
}
function steps(t) { return Math.max(stages(t, 0).length, stages(t, 1).length); }

// go shows turn t at step s (negative s counts from the end).
function go(t, s) {
  if (!view || !view.turns.length) { if (view) render0(); return; }
  t = Math.max(0, Math.min(view.turns.length - 1, t));
  const n = steps(t);
  if (s < 0) s = n + s;
  pos = { turn: t, step: Math.max(0, Math.min(n - 1, s)) };
  render();
}
function next() {
  const n = steps(pos.turn);
  if (pos.step + 1 < n) go(pos.turn, pos.step + 1);
  else if (pos.turn + 1 < view.turns.length) go(pos.turn + 1, 0);
  else { stop(); return false; }
  return true;
}
function prev() {
  if (pos.step > 0) go(pos.turn, pos.step - 1);
  else if (pos.turn > 0) go(pos.turn - 1, -1);
}
function play() {
  if (timer || !view) return;
  $("play").textContent = "Pause";
  const tick = () => { if (next()) timer = setTimeout(tick, Number($("speed").value)); };
  timer = setTimeout(tick, Number($("speed").value));
}
function stop() { if (timer) clearTimeout(timer); timer = null; $("play").textContent = "Play"; }

// ---- drawing -------------------------------------------------------------------------

function drawField(canvas, st, p, i) {
  const ctx = canvas.getContext("2d"), W = view.width, R = view.rows, H = canvas.height;
  const x0 = 0, y = (h) => H - 8 - (h + 1) * CELL;
  ctx.clearRect(0, 0, canvas.width, H);
  ctx.fillStyle = "#2b2f31";
  ctx.fillRect(x0, y(view.danger - 1), W * CELL, view.danger * CELL);
  const cell = (x, h, v, alpha) => {
    ctx.globalAlpha = alpha;
    ctx.fillStyle = COLORS[v] || "#fff";
    ctx.fillRect(x0 + x * CELL + 1, y(h) + 1, CELL - 2, CELL - 2);
    ctx.fillStyle = v === "#" ? "#ddd" : "#111";
    ctx.font = "bold 15px system-ui, sans-serif"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    if (v !== "#") ctx.fillText(v, x0 + x * CELL + CELL / 2, y(h) + CELL / 2 + 1);
    ctx.globalAlpha = 1;
  };
  for (let h = 0; h < R; h++) for (let x = 0; x < W; x++) { const v = st.field[h * W + x]; if (v !== ".") cell(x, h, v, 1); }
  // The death height.
  ctx.strokeStyle = "#ef5350"; ctx.setLineDash([5, 4]); ctx.lineWidth = 1.5;
  ctx.beginPath(); ctx.moveTo(0, y(view.danger - 1)); ctx.lineTo(W * CELL, y(view.danger - 1)); ctx.stroke(); ctx.setLineDash([]);
  // The pack hovering above its column before it lands.
  if ((st.stage === "before" || st.stage === "ojama") && p.rotated) {
    const [a, b, c, d] = p.rotated;
    [[0, 1, a], [1, 1, b], [0, 0, c], [1, 0, d]].forEach(([dx, dh, v]) => { if (v) cell(p.x + dx, R - 2 + dh, String(v), 0.85); });
  }
  if (st.stage === "before" && p.move === "S") {
    ctx.fillStyle = "#fff"; ctx.font = "bold 16px system-ui"; ctx.textAlign = "center";
    ctx.fillText("SKILL", W * CELL / 2, y(R - 1) + CELL / 2);
  }
  const center = (x, h) => [x0 + x * CELL + CELL / 2, y(h) + CELL / 2];
  for (const [x, h] of st.vanish || []) {
    ctx.strokeStyle = "#ffeb3b"; ctx.lineWidth = 3;
    ctx.strokeRect(x0 + x * CELL + 2, y(h) + 2, CELL - 4, CELL - 4);
  }
  for (const [x1, h1, x2, h2] of st.pairs || []) {
    const [ax, ay] = center(x1, h1), [bx, by] = center(x2, h2);
    ctx.strokeStyle = "#d50000"; ctx.lineWidth = 3;
    if (st.stage === "explode") { ctx.beginPath(); ctx.arc(ax, ay, CELL * 0.7, 0, 2 * Math.PI); ctx.stroke(); continue; }
    ctx.beginPath(); ctx.moveTo(ax, ay); ctx.lineTo(bx, by); ctx.stroke();
  }
}

function describe(st, p) {
  switch (st.stage) {
    case "before": return p.move === "S" ? "uses the skill" : `drops the pack at column ${p.x} (move ${p.move})`;
    case "ojama": return "a row of ojama fell";
    case "pack": return "the pack landed";
    case "explode": return `skill: ${st.vanish.length} blocks around the 5s explode`;
    case "vanish": return `chain ${st.chain}: ${st.vanish.length} blocks vanish (${(st.pairs || []).length} pairs summing to 10)`;
    default: return "turn over";
  }
}

// render0 shows an empty game (a live game before its first turn).
function render0() { $("where").textContent = "waiting for the first turn"; $("stage").textContent = ""; }

function render() {
  if (!view.turns.length) { render0(); return; }
  const t = pos.turn, tv = view.turns[t], last = pos.step === steps(t) - 1;
  $("scrub").value = t;
  $("where").textContent = `Turn ${tv.turn} of ${view.turns.length - 1}, step ${pos.step + 1}/${steps(t)}`;
  const captions = [];
  for (let i = 0; i < 2; i++) {
    const side = $("side" + i), p = tv.players[i], ss = stages(t, i);
    const st = ss[Math.min(pos.step, ss.length - 1)];
    // Numbers: after this turn once it is over, else after the previous one.
    const prevP = t > 0 ? view.turns[t - 1].players[i] : { score: 0, ojama: 0, gauge: 0, used_ms: 0 };
    const shown = last ? p : prevP;
    side.querySelector(".name").textContent = `Player ${i + 1}: ${view.names[i]}`;
    side.querySelector(".score").textContent = shown.score;
    side.querySelector(".ojama").textContent = shown.ojama + (p.ojama_fell && (st.stage !== "before") ? " (a row of 10 fell this turn)" : "");
    side.querySelector(".gauge").value = shown.gauge;
    side.querySelector(".gaugev").textContent = `${shown.gauge}${shown.gauge >= view.limits.skill ? " (skill ready)" : ""}`;
    side.querySelector(".time").textContent = `${(shown.used_ms / 1000).toFixed(2)} s of ${(view.time_ms / 1000).toFixed(0)} s` + (last ? ` (this turn ${(p.think_ms / 1000).toFixed(3)} s)` : "");
    side.querySelector(".turn").textContent = last ? `move ${p.move}: +${p.points} points, sent ${p.sent} ojama${p.dead ? ", DEAD" : ""}` : `move ${p.move}`;
    let chains = "";
    if (st.stage === "vanish") chains = `chain ${st.chain}`;
    else if (st.stage === "explode") chains = `skill: ${st.vanish.length} blocks`;
    else if (last && (p.chains || p.exploded)) chains = (p.exploded ? `skill ${p.exploded} blocks, ` : "") + `${p.chains} chain${p.chains === 1 ? "" : "s"}`;
    const ce = side.querySelector(".chains");
    ce.textContent = chains; ce.dataset.chains = last ? p.chains : (st.stage === "vanish" ? st.chain : 0);
    drawField(side.querySelector(".field"), st, p, i);
    captions.push(`${view.names[i]}: ${describe(st, p)}`);
  }
  $("stage").textContent = captions.join(" · ");
}

// ---- controls --------------------------------------------------------------------------

$("open").addEventListener("click", () => { if ($("replays").value) open({ file: $("replays").value }); });
$("upload").addEventListener("change", async () => {
  const f = $("upload").files[0];
  if (f) open({ name: f.name, text: await f.text() });
});
$("play").addEventListener("click", () => (timer ? stop() : play()));
$("next").addEventListener("click", () => { stop(); next(); });
$("prev").addEventListener("click", () => { stop(); prev(); });
$("nextturn").addEventListener("click", () => { stop(); go(pos.turn + 1, -1); });
$("prevturn").addEventListener("click", () => { stop(); go(pos.turn - 1, -1); });
$("scrub").addEventListener("input", () => { stop(); go(Number($("scrub").value), -1); });
document.addEventListener("keydown", (ev) => {
  if (!view || ev.target instanceof HTMLInputElement && ev.target.type !== "range" || ev.target instanceof HTMLSelectElement) return;
  if (ev.key === "ArrowRight") { stop(); ev.shiftKey ? go(pos.turn + 1, -1) : next(); ev.preventDefault(); }
  else if (ev.key === "ArrowLeft") { stop(); ev.shiftKey ? go(pos.turn - 1, -1) : prev(); ev.preventDefault(); }
  else if (ev.key === " ") { timer ? stop() : play(); ev.preventDefault(); }
});

loadList();
loadPlayers();
