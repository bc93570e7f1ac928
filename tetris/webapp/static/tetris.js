// Guideline Tetris page: the game runs on the Go engine compiled to
// WebAssembly (tetrisCall); this file draws it, turns keys into inputs
// (DAS, ARR, soft-drop factor, lock delay) and drives the bots, which
// speak the Tetris Bot Protocol to a Web Worker (tbp-worker.js) or to the
// server (POST api/bot).
"use strict";

const COLORS = { I: "#31c7ef", O: "#f7d308", T: "#ad4d9c", L: "#ef7921", J: "#5a65ad", S: "#42b642", Z: "#ef2029", G: "#6b6b6b" };
const SHAPES = { // north cells, for the hold and queue previews only
  I: [[-1, 0], [0, 0], [1, 0], [2, 0]], O: [[0, 0], [1, 0], [0, 1], [1, 1]], T: [[-1, 0], [0, 0], [1, 0], [0, 1]],
  L: [[-1, 0], [0, 0], [1, 0], [1, 1]], J: [[-1, 0], [0, 0], [1, 0], [-1, 1]], S: [[-1, 0], [0, 0], [0, 1], [1, 1]],
  Z: [[-1, 1], [0, 1], [0, 0], [1, 0]],
};
const CELL = 20, ROWS = 22;
const GRAVITY_MS = 1000, LOCK_MS = 500, LOCK_RESETS = 15;

const ACTIONS = [
  ["left", "Move left"], ["right", "Move right"], ["soft", "Soft drop"], ["hard", "Hard drop"],
  ["cw", "Rotate clockwise"], ["ccw", "Rotate counter-clockwise"], ["180", "Rotate 180°"], ["hold", "Hold"],
  ["pause", "Pause"], ["restart", "Rematch"],
];
const DEFAULT_HANDLING = {
  keys: { left: "ArrowLeft", right: "ArrowRight", soft: "ArrowDown", hard: "Space", cw: "ArrowUp", ccw: "KeyZ",
    "180": "KeyA", hold: "KeyC", pause: "Escape", restart: "KeyR" },
  das: 133, arr: 10, sdf: 20, allow180: false,
};
const STORE = "yomi.tetris.handling";

function loadHandling() {
  try {
    const h = JSON.parse(localStorage.getItem(STORE) || "null");
    if (h && h.keys) return { ...DEFAULT_HANDLING, ...h, keys: { ...DEFAULT_HANDLING.keys, ...h.keys } };
  } catch (e) { /* a broken entry: defaults */ }
  return structuredClone(DEFAULT_HANDLING);
}
let H = loadHandling();

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// --- the engine -----------------------------------------------------------

function call(op, req) {
  const out = JSON.parse(self.tetrisCall(op, JSON.stringify(req || {})));
  if (out && out.error) throw new Error(out.error);
  return out;
}

async function loadEngine() {
  const go = new Go();
  let inst;
  try {
    inst = (await WebAssembly.instantiateStreaming(fetch("tetris.wasm"), go.importObject)).instance;
  } catch (e) {
    const buf = await (await fetch("tetris.wasm")).arrayBuffer();
    inst = (await WebAssembly.instantiate(buf, go.importObject)).instance;
  }
  go.run(inst);
}

// --- bots: the same TBP conversation with a Worker or the server ----------

class WorkerBot {
  constructor(pc) {
    this.pc = pc;
    this.w = new Worker("tbp-worker.js");
    this.waiting = null;
    this.w.onmessage = (e) => {
      if (e.data.type === "suggestion" && this.waiting) {
        const w = this.waiting;
        this.waiting = null;
        w(e.data);
      }
    };
    this.w.postMessage({ type: "rules", randomizer: "seven_bag", perfect_clear: pc });
  }
  begin(start) { this.w.postMessage(start); }
  played(move, fresh) {
    this.w.postMessage({ type: "play", move });
    for (const piece of fresh) this.w.postMessage({ type: "new_piece", piece });
  }
  async suggest(thinkMs) {
    await sleep(thinkMs); // it thinks in the background meanwhile
    return new Promise((resolve) => { this.waiting = resolve; this.w.postMessage({ type: "suggest" }); });
  }
  close() { this.w.terminate(); }
}

class ServerBot {
  constructor(pc, kind) {
    this.pc = pc;
    this.kind = kind || "yomi"; // or "external": the server's TBP bot command
    this.session = "";
    this.queue = [{ type: "rules", randomizer: "seven_bag", perfect_clear: pc }];
    this.lastStart = null;
  }
  begin(start) { this.lastStart = start; this.queue.push(start); }
  played(move, fresh) {
    this.queue.push({ type: "play", move });
    for (const piece of fresh) this.queue.push({ type: "new_piece", piece });
  }
  async suggest(thinkMs) {
    const messages = this.queue.splice(0);
    messages.push({ type: "suggest" });
    const r = await fetch("api/bot", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ session: this.session, bot: this.kind, messages, think_ms: Math.round(thinkMs) }),
    });
    const body = await r.json();
    if (!r.ok) {
      const err = new Error(body.error || r.statusText);
      err.restart = r.status === 404; // expired: the game starts a fresh session from the position
      this.session = "";
      this.queue = [{ type: "rules", randomizer: "seven_bag", perfect_clear: this.pc }];
      throw err;
    }
    this.session = body.session;
    return body.messages.find((m) => m.type === "suggestion");
  }
  close() {}
}

const newBot = (pc, kind) => (kind === "external" || window.TETRIS_BOT === "server" ? new ServerBot(pc, kind) : new WorkerBot(pc));

// --- the game ---------------------------------------------------------------

const G = {
  mode: "versus", seed: 1, sides: [], over: false, paused: false,
  clock: 0, // game time in ms (stops while paused)
  last: 0, status: "", serial: 0,
};

function sideKinds(mode) {
  switch (mode) {
    case "watch": return ["bot", "bot"];
    case "solo-bot": return ["bot"];
    case "solo": return ["human"];
  }
  return ["human", "bot"];
}

function sideName(mode, i) {
  const k = sideKinds(mode)[i];
  if (k === "human") return "You";
  if (i === 1 && $("bot1").value === "external") return `TBP bot (${window.TETRIS_EXTERNAL})`;
  return mode === "watch" ? `Yomi ${i === 0 ? "A" : "B"}` : "Yomi";
}

function newGame(seed) {
  for (const s of G.sides) if (s.bot) s.bot.close();
  G.serial++;
  G.mode = $("mode").value;
  G.seed = seed;
  $("seed").value = String(seed);
  const kinds = sideKinds(G.mode);
  call("new", { seed, sides: kinds.length, allow180: !!H.allow180 });
  G.sides = kinds.map((kind, i) => ({
    kind, name: sideName(G.mode, i), view: null, turn: null, clearText: "", clearAt: -1e9,
    // human
    dir: 0, dasT: 0, arrT: 0, softHeld: false, softT: 0, gravT: 0, lockT: 0, resets: 0, lowest: 99,
    // bot
    bot: null, pps: 1, pc: false, suggestion: null, asking: false, due: 0, lag: 50, plan: [], info: null,
  }));
  G.over = false;
  G.paused = false;
  G.clock = 0;
  $("pause").textContent = "Pause";
  buildBoards();
  G.sides.forEach((s, i) => {
    if (s.kind !== "bot") return;
    s.pps = Math.max(0.1, Number($(`pps${i}`).value) || 1);
    s.pc = $(`pc${i}`).checked;
    s.bot = newBot(s.pc, i === 1 ? $("bot1").value : "yomi");
    s.bot.begin(call("start", { side: i }));
    s.due = 1000 / s.pps;
    ask(i);
  });
  setStatus(G.mode === "versus" ? "Go! Keys: " + keySummary() : "");
  refresh();
}

function setStatus(t) { G.status = t; $("status").textContent = t; }

function keySummary() {
  const k = H.keys;
  const name = (c) => c.replace(/^Key/, "").replace(/^Arrow/, "").replace(/^Digit/, "");
  return `${name(k.left)}/${name(k.right)} move, ${name(k.soft)} soft drop, ${name(k.hard)} hard drop, ${name(k.cw)}/${name(k.ccw)} rotate` +
    (H.allow180 ? `, ${name(k["180"])} 180` : "") + `, ${name(k.hold)} hold, ${name(k.pause)} pause, ${name(k.restart)} rematch`;
}

// ask requests side i's next move: the bot thinks until the move is due.
function ask(i) {
  const s = G.sides[i], serial = G.serial;
  if (G.over || s.asking) return;
  s.asking = true;
  // Think until the move is due, less the time answers take beyond the
  // thinking (measured: a loaded server or machine answers late).
  const think = Math.max(20, Math.min(2000, s.due - G.clock - s.lag));
  const sent = performance.now();
  s.bot.suggest(think).then((sug) => {
    if (serial !== G.serial) return;
    s.lag = 0.7 * s.lag + 0.3 * Math.max(0, performance.now() - sent - think);
    s.asking = false;
    s.suggestion = sug || { moves: [] };
  }, (err) => {
    if (serial !== G.serial) return;
    s.asking = false;
    if (err.restart) {
      s.bot.begin(call("start", { side: i }));
      setTimeout(() => ask(i), 100);
    } else {
      setStatus(`${s.name}: ${err.message}`);
    }
  });
}

// botStep plays side i's suggested move once it is due.
function botStep(i) {
  const s = G.sides[i];
  if (!s.suggestion || G.clock < s.due) return;
  const sug = s.suggestion;
  s.suggestion = null;
  let turn = null, move = null;
  for (const m of sug.moves || []) {
    try { turn = call("play", { side: i, move: m }); move = m; break; } catch (e) { /* try the next one */ }
  }
  if (!turn) {
    endGame(`${s.name} had no valid move and forfeits.`, i);
    return;
  }
  s.plan = sug.plan || [];
  s.info = sug.move_info || null;
  afterTurn(i, turn);
  if (G.over) return;
  if (turn.garbage_rows > 0) s.bot.begin(call("start", { side: i }));
  else s.bot.played(move, turn.fresh || []);
  // Keep to the schedule when a move came late, without bunching moves.
  s.due = Math.max(G.clock, s.due + 1000 / s.pps);
  ask(i);
}

function afterTurn(i, turn) {
  const s = G.sides[i];
  s.turn = turn;
  const bits = [];
  if (turn.perfect_clear) bits.push("PERFECT CLEAR");
  if (turn.kind !== "none" && turn.lines > 0) bits.push(turn.kind.replace("tspin", "T-spin"));
  else if (turn.kind.includes("tspin")) bits.push(turn.kind.replace("tspin", "T-spin"));
  if (turn.b2b) bits.push("B2B");
  if (turn.combo > 1) bits.push(`${turn.combo - 1} combo`);
  if (turn.attack > 0) bits.push(`${turn.attack} attack`);
  if (bits.length) { s.clearText = bits.join(" · "); s.clearAt = G.clock; }
  if (turn.death) {
    const other = G.sides.length === 2 ? G.sides[1 - i].name : null;
    endGame(other ? `${s.name}: ${turn.death}. ${other} wins!` : `Game over (${turn.death}).`, i);
  }
}

function endGame(text, loser) {
  G.over = true;
  setStatus(text + ` Seed ${G.seed}: press Rematch to replay it.`);
  G.loser = loser;
}

// --- a person's inputs ---------------------------------------------------------

function human() { return G.sides.findIndex((s) => s.kind === "human"); }

function input(i, action) {
  const r = call("input", { side: i, action });
  const s = G.sides[i];
  if (r.moved && action !== "down" && action !== "sonic") {
    // a move or turn on the ground restarts the lock delay (15 times)
    if (s.lockT > 0 && s.resets < LOCK_RESETS) { s.lockT = 0; s.resets++; }
  }
  if (action === "hold" && r.moved) newPiece(s);
  return r;
}

function newPiece(s) { s.lockT = 0; s.resets = 0; s.gravT = 0; s.softT = 0; }

function lock(i) {
  const s = G.sides[i];
  const turn = call("lock", { side: i });
  newPiece(s);
  afterTurn(i, turn);
}

function shift(i, s, times) {
  for (let n = 0; n < times; n++) if (!input(i, s.dir < 0 ? "left" : "right").moved) break;
}

function humanStep(i, dt) {
  const s = G.sides[i];
  if (s.dir !== 0) {
    s.dasT += dt;
    if (s.dasT >= H.das) {
      if (H.arr <= 0) shift(i, s, 10);
      else {
        s.arrT += dt;
        const n = Math.floor(s.arrT / H.arr);
        s.arrT -= n * H.arr;
        shift(i, s, n);
      }
    }
  }
  if (s.softHeld) {
    if (H.sdf <= 0) input(i, "sonic");
    else {
      s.softT += dt;
      const per = GRAVITY_MS / H.sdf;
      while (s.softT >= per) { s.softT -= per; if (!input(i, "down").moved) { s.softT = 0; break; } }
    }
  }
  s.gravT += dt;
  while (s.gravT >= GRAVITY_MS) { s.gravT -= GRAVITY_MS; input(i, "down"); }
}

function groundedStep(i, dt) {
  const s = G.sides[i];
  const v = call("view", { side: i });
  const fall = v.falling || [], ghost = v.ghost || [];
  const grounded = fall.length > 0 && fall.every((c, k) => c[1] === ghost[k][1]);
  if (!grounded) { s.lockT = 0; return; }
  s.lockT += dt;
  if (s.lockT >= LOCK_MS) lock(i);
}

function keyAction(code) {
  for (const [a] of ACTIONS) if (H.keys[a] === code) return a;
  return null;
}

let capture = null; // the action whose key the settings dialog is waiting for

function onKeyDown(e) {
  if (capture) {
    e.preventDefault();
    H.keys[capture] = e.code;
    capture = null;
    fillSettings();
    return;
  }
  if ($("settings").open || e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA" || e.target.tagName === "SELECT") return;
  const a = keyAction(e.code);
  if (!a) return;
  e.preventDefault();
  if (e.repeat) return;
  if (a === "pause") { togglePause(); return; }
  if (a === "restart") { newGame(G.seed); return; }
  const i = human();
  if (i < 0 || G.over || G.paused) return;
  const s = G.sides[i];
  switch (a) {
    case "left": case "right":
      s.dir = a === "left" ? -1 : 1; s.dasT = 0; s.arrT = 0;
      input(i, a);
      break;
    case "soft": s.softHeld = true; s.softT = 0; if (H.sdf <= 0) input(i, "sonic"); else input(i, "down"); break;
    case "hard": lock(i); break;
    case "cw": case "ccw": case "180": input(i, a); break;
    case "hold": input(i, "hold"); break;
  }
  refresh();
}

function onKeyUp(e) {
  const a = keyAction(e.code);
  const i = human();
  if (!a || i < 0) return;
  const s = G.sides[i];
  if ((a === "left" && s.dir < 0) || (a === "right" && s.dir > 0)) {
    s.dir = 0;
    // the other direction still held takes over (last pressed wins)
  }
  if (a === "soft") s.softHeld = false;
}

function togglePause() {
  if (G.over) return;
  G.paused = !G.paused;
  $("pause").textContent = G.paused ? "Resume" : "Pause";
  setStatus(G.paused ? "Paused." : "");
}

// --- the loop ----------------------------------------------------------------

function frame(now) {
  const dt = Math.min(100, now - (G.last || now));
  G.last = now;
  if (!G.over && !G.paused && G.sides.length) {
    G.clock += dt;
    try {
      G.sides.forEach((s, i) => {
        if (G.over) return;
        if (s.kind === "human") { humanStep(i, dt); if (!G.over) groundedStep(i, dt); }
        else botStep(i);
      });
    } catch (e) {
      setStatus("Error: " + e.message);
      G.over = true;
    }
  }
  refresh();
  // A death outside a lock (a hold whose piece cannot spawn) ends the game too.
  G.sides.forEach((s, i) => {
    if (!G.over && s.view && s.view.death) {
      const other = G.sides.length === 2 ? G.sides[1 - i].name : null;
      endGame(other ? `${s.name}: ${s.view.death}. ${other} wins!` : `Game over (${s.view.death}).`, i);
    }
  });
  requestAnimationFrame(frame);
}

// --- drawing -------------------------------------------------------------------

function buildBoards() {
  const root = $("boards");
  root.innerHTML = "";
  G.sides.forEach((s, i) => {
    const d = document.createElement("div");
    d.className = "side";
    d.id = `side${i}`;
    d.innerHTML = `<h2>${s.name}</h2>
      <canvas class="hold" width="${4 * 16 + 8}" height="${2 * 16 + 12}"></canvas>
      <canvas class="meter" width="8" height="${ROWS * CELL}"></canvas>
      <canvas class="board" width="${10 * CELL}" height="${ROWS * CELL}"></canvas>
      <canvas class="queue" width="${4 * 16 + 8}" height="${5 * 48}"></canvas>
      <div class="clear"></div><div class="stats"></div>`;
    root.appendChild(d);
    s.el = {
      hold: d.querySelector(".hold"), meter: d.querySelector(".meter"), board: d.querySelector(".board"),
      queue: d.querySelector(".queue"), stats: d.querySelector(".stats"), clear: d.querySelector(".clear"),
    };
  });
}

function drawCell(ctx, x, y, size, color, alpha) {
  ctx.globalAlpha = alpha ?? 1;
  ctx.fillStyle = color;
  ctx.fillRect(x + 1, y + 1, size - 2, size - 2);
  ctx.globalAlpha = 1;
}

function boardXY(c) { return [c[0] * CELL, (ROWS - 1 - c[1]) * CELL]; }

function drawPiece(canvas, piece, dim) {
  const ctx = canvas.getContext("2d");
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  if (!piece) return;
  drawMini(ctx, piece, 4, 6, dim ? 0.35 : 1);
}

function drawMini(ctx, piece, ox, oy, alpha) {
  const sz = 16;
  const xs = SHAPES[piece].map((c) => c[0]), ys = SHAPES[piece].map((c) => c[1]);
  const w = Math.max(...xs) - Math.min(...xs) + 1;
  const left = ox + ((4 - w) * sz) / 2 - Math.min(...xs) * sz;
  for (const [x, y] of SHAPES[piece]) drawCell(ctx, left + x * sz, oy + (1 - y) * sz, sz, COLORS[piece], alpha);
}

function outline(ctx, cells, color, width, label) {
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  for (const c of cells) {
    const [x, y] = boardXY(c);
    ctx.strokeRect(x + 2.5, y + 2.5, CELL - 5, CELL - 5);
  }
  if (label) {
    const [x, y] = boardXY(cells[0]);
    ctx.fillStyle = color;
    ctx.font = "11px sans-serif";
    ctx.fillText(label, x + 7, y + 16);
  }
}

function refresh() {
  G.sides.forEach((s, i) => {
    let v;
    try { v = call("view", { side: i }); } catch (e) { return; }
    s.view = v;
    if (!s.el) return;
    const ctx = s.el.board.getContext("2d");
    ctx.clearRect(0, 0, s.el.board.width, s.el.board.height);
    ctx.fillStyle = "#181b22";
    ctx.fillRect(0, 0, 10 * CELL, 2 * CELL);
    ctx.strokeStyle = "#1c1f27";
    for (let x = 1; x < 10; x++) { ctx.beginPath(); ctx.moveTo(x * CELL, 0); ctx.lineTo(x * CELL, ROWS * CELL); ctx.stroke(); }
    v.cells.forEach((row, y) => {
      for (let x = 0; x < 10; x++) {
        const c = row[x];
        if (c !== ".") drawCell(ctx, x * CELL, (ROWS - 1 - y) * CELL, CELL, COLORS[c], y >= 20 ? 0.6 : 1);
      }
    });
    if (v.piece && s.kind === "human") {
      for (const c of v.ghost) { const [x, y] = boardXY(c); drawCell(ctx, x, y, CELL, COLORS[v.piece], 0.25); }
      for (const c of v.falling) { const [x, y] = boardXY(c); drawCell(ctx, x, y, CELL, COLORS[v.piece]); }
    }
    if (s.kind === "bot" && $("showplan").checked && !G.over) {
      // The chosen move (white) once the bot has answered, else the plan
      // of its last answer; then the placements it expects next (numbered).
      let moves = s.plan.slice(0, 3);
      if (s.suggestion && s.suggestion.moves && s.suggestion.moves.length) {
        moves = [s.suggestion.moves[0], ...(s.suggestion.plan || []).slice(0, 3)];
      }
      if (moves.length) {
        try {
          const cells = call("cells", { side: i, moves });
          const chosen = !!s.suggestion;
          cells.forEach((cs, k) => {
            const first = k === 0 && chosen;
            outline(ctx, cs, first ? "#fff" : "rgba(255,255,255,0.5)", first ? 2 : 1, first ? "" : String(k + 1));
          });
        } catch (e) { /* a plan off the board: not drawn */ }
      }
    }
    drawPiece(s.el.hold, v.hold, v.hold_used);
    const q = s.el.queue.getContext("2d");
    q.clearRect(0, 0, s.el.queue.width, s.el.queue.height);
    (v.queue || []).slice(0, 5).forEach((p, k) => drawMini(q, p, 4, 6 + k * 48, 1));
    const m = s.el.meter.getContext("2d");
    m.clearRect(0, 0, 8, ROWS * CELL);
    m.fillStyle = "#e33";
    m.fillRect(0, (ROWS - Math.min(v.incoming, ROWS)) * CELL, 8, Math.min(v.incoming, ROWS) * CELL);
    const secs = G.clock / 1000;
    const st = v.stats;
    const pps = secs > 0 ? st.pieces / secs : 0, apm = secs > 0 ? (st.attack * 60) / secs : 0;
    let text = `Pieces ${st.pieces} · PPS ${pps.toFixed(2)} · APM ${apm.toFixed(1)} · Attack ${st.attack} · Sent ${st.sent} · Lines ${st.lines}` +
      (st.perfect_clears ? ` · PCs ${st.perfect_clears}` : "") + (v.incoming ? ` · Incoming ${v.incoming}` : "");
    if (s.kind === "bot" && s.info) text += ` · ${(s.info.nodes || 0).toLocaleString()} nodes, depth ${s.info.depth || 0}`;
    s.el.stats.textContent = text;
    s.el.clear.textContent = G.clock - s.clearAt < 2000 ? s.clearText : "";
  });
}

// --- settings ------------------------------------------------------------------

function fillSettings() {
  const t = $("keytable");
  t.innerHTML = "";
  for (const [a, label] of ACTIONS) {
    const tr = document.createElement("tr");
    const b = document.createElement("button");
    b.textContent = capture === a ? "press a key…" : H.keys[a];
    b.onclick = () => { capture = a; fillSettings(); };
    tr.innerHTML = `<td>${label}</td>`;
    const td = document.createElement("td");
    td.appendChild(b);
    tr.appendChild(td);
    t.appendChild(tr);
  }
  $("h-das").value = H.das;
  $("h-arr").value = H.arr;
  $("h-sdf").value = H.sdf;
  $("h-180").checked = H.allow180;
}

function readSettings() {
  H.das = Math.max(0, Number($("h-das").value) || 0);
  H.arr = Math.max(0, Number($("h-arr").value) || 0);
  H.sdf = Math.max(0, Number($("h-sdf").value) || 0);
  H.allow180 = $("h-180").checked;
}

// --- the perfect-clear finder form ---------------------------------------------

const PC = { h: 4, cells: new Set() };
for (let y = 0; y < 4; y++) for (let x = 0; x < 10; x++) if (x < 4 || (y < 2 && x >= 8)) PC.cells.add(`${x},${y}`);

function pcText() {
  const rows = [];
  for (let y = PC.h - 1; y >= 0; y--) {
    let r = "";
    for (let x = 0; x < 10; x++) r += PC.cells.has(`${x},${y}`) ? "X" : "_";
    rows.push(r);
  }
  return rows.join("\n");
}

function pcDraw() {
  const c = $("pc-canvas"), ctx = c.getContext("2d"), sz = 24;
  c.height = PC.h * sz + 1;
  ctx.clearRect(0, 0, c.width, c.height);
  ctx.strokeStyle = "#2c3040";
  for (let y = 0; y < PC.h; y++) for (let x = 0; x < 10; x++) {
    ctx.strokeRect(x * sz + 0.5, (PC.h - 1 - y) * sz + 0.5, sz, sz);
    if (PC.cells.has(`${x},${y}`)) drawCell(ctx, x * sz, (PC.h - 1 - y) * sz, sz, COLORS.G);
  }
}

function pcFromText() {
  const rows = $("pc-field-text").value.split(/[\s,/]+/).filter((r) => r.length);
  PC.cells.clear();
  rows.forEach((r, i) => {
    const y = rows.length - 1 - i;
    for (let x = 0; x < Math.min(10, r.length); x++) if (!"_.".includes(r[x])) PC.cells.add(`${x},${y}`);
  });
  pcDraw();
}

async function pcFind() {
  const req = { field: pcText(), pattern: $("pc-pattern").value, height: PC.h, no_hold: !$("pc-hold").checked };
  $("pc-result").textContent = "Searching…";
  $("pc-solutions").innerHTML = "";
  let res;
  try {
    if (window.TETRIS_BOT === "server") {
      const r = await fetch("api/pc", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(req) });
      res = await r.json();
      if (!r.ok) throw new Error(res.error || r.statusText);
    } else {
      await sleep(20); // let "Searching…" show: the search runs on this page
      res = call("pc", { pc: req });
    }
  } catch (e) {
    $("pc-result").textContent = "Error: " + e.message;
    return;
  }
  $("pc-result").textContent = `Perfect clear in ${res.success} of ${res.total} sequences (${res.percent.toFixed(2)} %)` +
    (res.success ? ` · ${res.unique} distinct solutions, ${res.minimal} cover every solvable sequence` +
      (res.fields.length < res.minimal ? ` (the first ${res.fields.length} drawn)` : "") : "");
  for (const f of res.fields) {
    const rows = f.split("\n"), sz = 12;
    const c = document.createElement("canvas");
    c.width = 10 * sz; c.height = rows.length * sz;
    c.className = "pcsol";
    const ctx = c.getContext("2d");
    rows.forEach((r, i) => { for (let x = 0; x < 10; x++) if (r[x] !== "_") drawCell(ctx, x * sz, i * sz, sz, COLORS[r[x] === "X" ? "G" : r[x]]); });
    c.title = f;
    $("pc-solutions").appendChild(c);
  }
}

// --- start-up ------------------------------------------------------------------

function setup() {
  document.querySelectorAll("nav button").forEach((b) => b.onclick = () => {
    document.querySelectorAll("nav button").forEach((o) => o.classList.toggle("active", o === b));
    $("tab-play").hidden = b.dataset.tab !== "play";
    $("tab-pc").hidden = b.dataset.tab !== "pc";
  });
  const q = new URLSearchParams(location.search);
  if (q.get("bot") === "worker") window.TETRIS_BOT = "worker"; // the export's Worker bot under yomi serve too
  if (q.get("mode")) $("mode").value = q.get("mode");
  for (const k of ["pps0", "pps1"]) if (q.get(k)) $(k).value = q.get(k);
  if (q.get("pc0")) $("pc0").checked = q.get("pc0") === "1";
  if (q.get("pc1")) $("pc1").checked = q.get("pc1") === "1";
  const labels = () => {
    const m = $("mode").value;
    $("pps0-label").textContent = m === "watch" ? "Yomi A" : m === "solo-bot" ? "Yomi" : "(you)";
    $("pps1-label").textContent = m === "watch" ? "Yomi B" : "Yomi";
    $("pps0").disabled = $("pc0").disabled = !(m === "watch" || m === "solo-bot");
    $("pps1").disabled = $("pc1").disabled = !(m === "watch" || m === "versus");
  };
  $("mode").onchange = () => {
    if ($("mode").value === "solo-bot") $("pc0").checked = true;
    labels();
    newGame(randomSeed());
  };
  if (window.TETRIS_EXTERNAL) {
    const o = document.createElement("option");
    o.value = "external";
    o.textContent = `TBP bot: ${window.TETRIS_EXTERNAL}`;
    $("bot1").appendChild(o);
    $("bot1").hidden = false;
    if (q.get("bot1") === "external") $("bot1").value = "external";
  }
  $("bot1").onchange = () => newGame(randomSeed());
  labels();
  $("new").onclick = () => newGame(randomSeed());
  $("rematch").onclick = () => newGame(Number($("seed").value) || G.seed);
  $("pause").onclick = togglePause;
  for (const k of ["pps0", "pps1"]) $(k).onchange = () => {
    const i = k === "pps0" ? 0 : 1, s = G.sides[i];
    if (s && s.kind === "bot") s.pps = Math.max(0.1, Number($(k).value) || 1);
  };
  $("settings-open").onclick = () => { fillSettings(); $("settings").showModal(); };
  $("settings-close").onclick = () => { capture = null; $("settings").close(); };
  $("settings-save").onclick = () => {
    readSettings();
    localStorage.setItem(STORE, JSON.stringify(H));
    capture = null;
    $("settings").close();
    $("keyhint").textContent = "";
  };
  $("settings-defaults").onclick = () => { H = structuredClone(DEFAULT_HANDLING); fillSettings(); };
  document.addEventListener("keydown", onKeyDown);
  document.addEventListener("keyup", onKeyUp);
  $("pc-canvas").onclick = (e) => {
    const r = e.target.getBoundingClientRect();
    const x = Math.floor((e.clientX - r.left) / 24), y = PC.h - 1 - Math.floor((e.clientY - r.top) / 24);
    if (x < 0 || x > 9 || y < 0 || y >= PC.h) return;
    const k = `${x},${y}`;
    if (PC.cells.has(k)) PC.cells.delete(k); else PC.cells.add(k);
    $("pc-field-text").value = pcText();
    pcDraw();
  };
  $("pc-field-text").oninput = pcFromText;
  $("pc-height").onchange = () => { PC.h = Number($("pc-height").value); $("pc-field-text").value = pcText(); pcDraw(); };
  $("pc-clear").onclick = () => { PC.cells.clear(); $("pc-field-text").value = pcText(); pcDraw(); };
  $("pc-find").onclick = pcFind;
  $("pc-field-text").value = pcText();
  pcDraw();
  const seed = q.get("seed") !== null ? Number(q.get("seed")) : randomSeed();
  newGame(seed);
  requestAnimationFrame(frame);
}

function randomSeed() { return Math.floor(Math.random() * 1e9); }

// For tests and curious people: the game as the page sees it.
window.tetrisPage = {
  state: () => ({
    mode: G.mode, seed: G.seed, over: G.over, paused: G.paused, status: G.status, clock: G.clock,
    sides: G.sides.map((s) => ({ kind: s.kind, name: s.name, view: s.view, turn: s.turn, plan: s.plan })),
  }),
  ready: false,
};

loadEngine().then(() => { setup(); window.tetrisPage.ready = true; }, (e) => setStatus("Could not load the engine: " + e));
