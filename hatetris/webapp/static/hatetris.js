// HATETRIS page: play against the AI with the original's keys, view replays,
// watch a server search. It knows no rules: every state it draws comes from
// Yomi's exact engine, compiled to WebAssembly (hatetris.wasm) and called
// synchronously through hatetrisDo (hatetris/webapp/api).
"use strict";

const $ = (id) => document.getElementById(id);
const HEIGHT = 20, WIDTH = 10, BAR = 4;
const SERVER = !!window.HATETRIS_SERVER;

let ready = false;
let activeTab = "play";
let play = null;    // the game being played (api.State)
let view = null;    // the replay being viewed
let search = null;  // the best line of the search being watched
let searchStatus = null;
let records = [];

// Expose the states for tests and the console.
window.hatetris = {
  get ready() { return ready; }, get play() { return play; }, get view() { return view; },
  get search() { return search; }, get searchStatus() { return searchStatus; }, get records() { return records; },
  tab: selectTab,
};

function showError(msg) {
  const e = $("error");
  e.textContent = msg;
  e.hidden = !msg;
}

// call runs one request on the engine and returns the new state.
function call(req) {
  const out = JSON.parse(self.hatetrisDo(JSON.stringify(req)));
  if (out.error) throw new Error(out.error);
  return out;
}

async function loadEngine() {
  const go = new Go();
  let inst;
  try {
    inst = (await WebAssembly.instantiateStreaming(fetch("hatetris.wasm"), go.importObject)).instance;
  } catch (e) { // hosts that do not serve application/wasm
    const buf = await (await fetch("hatetris.wasm")).arrayBuffer();
    inst = (await WebAssembly.instantiate(buf, go.importObject)).instance;
  }
  go.run(inst); // main sets hatetrisDo and then waits forever
}

// ---- the well ---------------------------------------------------------------

function makeWell(table) {
  for (let y = 0; y < HEIGHT; y++) {
    const tr = table.insertRow();
    if (y === BAR - 1) tr.className = "bar";
    for (let x = 0; x < WIDTH; x++) tr.insertCell();
  }
}

function drawWell(table, st) {
  for (let y = 0; y < HEIGHT; y++) {
    const cells = table.rows[y].cells;
    for (let x = 0; x < WIDTH; x++) {
      const c = st && (st.cells[y] >> x) & 1 ? "p" : st && (st.well[y] >> x) & 1 ? "f" : "";
      if (cells[x].className !== c) cells[x].className = c;
    }
  }
}

function describe(st) {
  if (st.over) return "Game over after " + st.spawns + " pieces.";
  if (st.pos === st.total && st.total > 0 && st !== play) return "End of the replay (no game over), piece " + st.spawns + ": " + st.piece;
  return "Piece " + st.spawns + ": " + st.piece;
}

// ---- tabs -------------------------------------------------------------------

function selectTab(name) {
  activeTab = name;
  for (const b of document.querySelectorAll("#tabs button")) b.setAttribute("aria-selected", String(b.dataset.tab === name));
  for (const p of document.querySelectorAll(".pane")) p.hidden = p.id !== name;
}

// ---- play -------------------------------------------------------------------

let checked = ""; // the replay last sent to the server's check

function playDo(req) {
  try {
    play = call(Object.assign({ tl: "play", withReplay: true }, req));
  } catch (e) {
    showError(e.message);
    return;
  }
  drawWell($("play-well"), play);
  $("play-score").textContent = play.score;
  $("play-status").textContent = describe(play);
  $("play-replay").value = play.replay;
  if (play.over) serverCheck(play);
  else $("play-check").textContent = "";
}

function newGame() {
  playDo({ op: "new", ai: $("play-ai").value });
  $("play-new").blur(); // arrows go to the game, not to a focused control
}

// serverCheck has the server replay a finished game, which must agree.
async function serverCheck(st) {
  if (!SERVER || st.replay === checked) return;
  checked = st.replay;
  try {
    const r = await postJSON("api/check", { replay: st.replay, ai: st.ai });
    $("play-check").textContent = r.score === st.score
      ? "Checked by the server: " + r.score + " lines, game over."
      : "The server's replay scores " + r.score + ", not " + st.score + "!";
  } catch (e) {
    $("play-check").textContent = "Server check failed: " + e.message;
  }
}

const KEYS = { ArrowLeft: "L", Left: "L", ArrowRight: "R", Right: "R", ArrowDown: "D", Down: "D", ArrowUp: "U", Up: "U" };

document.addEventListener("keydown", (e) => {
  if (activeTab !== "play" || !play) return;
  const t = e.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
  if (e.ctrlKey && (e.key === "z" || e.key === "y")) {
    e.preventDefault();
    playDo({ op: e.key === "z" ? "undo" : "redo" });
    return;
  }
  const m = KEYS[e.key];
  if (!m || e.ctrlKey || e.altKey || e.metaKey) return;
  e.preventDefault();
  if (!play.over) playDo({ op: "move", move: m });
});

async function copyText(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    const was = button.textContent;
    button.textContent = "Copied!";
    setTimeout(() => { button.textContent = was; }, 1500);
  } catch (e) { // no clipboard (e.g. not a secure context): select it for Ctrl+C
    showError("Cannot copy here: select the text and press Ctrl+C.");
  }
}

// ---- replay viewer ----------------------------------------------------------

let timer = null;

function viewDo(req) {
  try {
    view = call(Object.assign({ tl: "view" }, req));
  } catch (e) {
    showError(e.message);
    $("view-status").textContent = "";
    return false;
  }
  showError("");
  drawWell($("view-well"), view);
  $("view-score").textContent = view.score;
  $("view-status").textContent = describe(view);
  const scrub = $("view-scrub");
  scrub.max = view.total;
  scrub.value = view.pos;
  $("view-pos").textContent = "move " + view.pos + " / " + view.total + (view.encoding ? " · " + view.encoding : "");
  if (view.pos >= view.total) pause();
  return true;
}

function loadReplay(text, ai, at) {
  pause();
  $("view-input").value = text;
  $("view-ai").value = ai || "hatetris";
  // A long record takes the engine a moment (the 3711-line game: 138 449
  // moves); say so before the page's thread is busy.
  $("view-status").textContent = "Replaying…";
  view = null; // the transport buttons wait for the new replay
  setTimeout(() => {
    if (viewDo({ op: "load", replay: text, ai: $("view-ai").value }) && at) viewDo({ op: "seek", at });
  }, 20);
}

function pause() {
  if (timer) clearInterval(timer);
  timer = null;
  $("view-play").textContent = "▶ Play";
}

function togglePlay() {
  if (timer) { pause(); return; }
  if (!view) return;
  if (view.pos >= view.total) viewDo({ op: "seek", at: 0 });
  const speed = Number($("view-speed").value) || 50;
  const every = Math.max(16, 1000 / speed), n = Math.max(1, Math.round(speed * every / 1000));
  timer = setInterval(() => viewDo({ op: "seek", at: view.pos + n }), every);
  $("view-play").textContent = "⏸ Pause";
}

function share() {
  const text = $("view-input").value.trim();
  if (!text) return;
  const p = new URLSearchParams();
  p.set("replay", text);
  if ($("view-ai").value !== "hatetris") p.set("ai", $("view-ai").value);
  if (view && view.pos > 0) p.set("at", String(view.pos));
  history.replaceState(null, "", "#" + p.toString());
  copyText(location.href, $("view-share"));
}

// fromFragment loads a replay shared as #replay=...&ai=...
function fromFragment() {
  const p = new URLSearchParams(location.hash.slice(1));
  const r = p.get("replay");
  if (!r) return false;
  selectTab("view");
  loadReplay(r, p.get("ai"), Number(p.get("at")) || 0);
  return true;
}

async function loadRecords() {
  try {
    records = await (await fetch("records.json")).json();
  } catch (e) {
    return;
  }
  const sel = $("view-records");
  const groups = {};
  records.forEach((r, i) => {
    if (!groups[r.group]) {
      groups[r.group] = document.createElement("optgroup");
      groups[r.group].label = r.group === "Yomi" ? "Yomi's records" : "Upstream records";
      sel.append(groups[r.group]);
    }
    const o = document.createElement("option");
    o.value = String(i);
    o.textContent = r.name;
    groups[r.group].append(o);
  });
}

// ---- search -----------------------------------------------------------------

let searchLine = "";
let pollTimer = null;

async function postJSON(url, body) {
  const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const j = await r.json().catch(() => ({ error: "HTTP " + r.status }));
  if (!r.ok || j.error) throw new Error(j.error || "HTTP " + r.status);
  return j;
}

async function startSearch() {
  showError("");
  try {
    const st = await postJSON("api/search", {
      eval: $("search-eval").value, width: Number($("search-width").value), seconds: Number($("search-seconds").value),
      quiescence: $("search-quiet").checked, ai: $("search-ai").value,
    });
    searchLine = "";
    showSearch(st);
  } catch (e) {
    showError(e.message);
  }
}

async function poll() {
  if (!searchStatus) return;
  try {
    const r = await fetch("api/search/" + searchStatus.id);
    const st = await r.json();
    if (!r.ok) throw new Error(st.error || "HTTP " + r.status);
    showSearch(st);
  } catch (e) {
    showError(e.message);
    clearInterval(pollTimer);
    pollTimer = null;
  }
}

function showSearch(st) {
  searchStatus = st;
  const p = $("search-progress");
  p.value = st.running ? Math.min(1, st.elapsedMs / st.limitMs) : 1;
  const state = st.running ? "running" : st.error ? "failed: " + st.error : st.stopped ? "stopped (time limit or Stop)" : "done: the beam died";
  $("search-stats").textContent = "depth " + st.depth + " · beam " + st.beam + " · " + st.wells + " wells · " +
    (st.elapsedMs / 1000).toFixed(1) + " s of " + (st.limitMs / 1000).toFixed(0) + " · " + state;
  if (st.line && st.line !== searchLine) {
    searchLine = st.line;
    try {
      search = call({ tl: "search", op: "load", replay: st.line, ai: st.ai });
      search = call({ tl: "search", op: "seek", at: search.total });
      drawWell($("search-well"), search);
      $("search-score").textContent = search.score;
    } catch (e) {
      showError(e.message);
    }
  }
  $("search-start").disabled = st.running;
  $("search-stop").disabled = !st.running;
  $("search-open").disabled = !searchLine;
  if (st.running && !pollTimer) pollTimer = setInterval(poll, 300);
  if (!st.running && pollTimer) {
    clearInterval(pollTimer);
    pollTimer = null;
  }
}

// ---- start ------------------------------------------------------------------

for (const t of ["play-well", "view-well", "search-well"]) makeWell($(t));
for (const b of document.querySelectorAll("#tabs button")) b.addEventListener("click", () => selectTab(b.dataset.tab));
$("play-new").addEventListener("click", newGame);
$("play-copy").addEventListener("click", () => copyText($("play-replay").value, $("play-copy")));
$("play-open").addEventListener("click", () => {
  if (!play || !play.replay) return;
  selectTab("view");
  loadReplay(play.replay, play.ai, play.pos);
});
$("view-load").addEventListener("click", () => loadReplay($("view-input").value, $("view-ai").value));
$("view-records").addEventListener("change", (e) => {
  const r = records[Number(e.target.value)];
  if (r && e.target.value !== "") loadReplay(r.replay, r.ai);
});
$("view-share").addEventListener("click", share);
$("view-play").addEventListener("click", togglePlay);
$("view-first").addEventListener("click", () => { pause(); view && viewDo({ op: "seek", at: 0 }); });
$("view-last").addEventListener("click", () => { pause(); view && viewDo({ op: "seek", at: view.total }); });
$("view-back").addEventListener("click", () => { pause(); view && viewDo({ op: "seek", at: view.pos - 1 }); });
$("view-step").addEventListener("click", () => { pause(); view && viewDo({ op: "seek", at: view.pos + 1 }); });
$("view-prevpiece").addEventListener("click", () => { pause(); view && viewDo({ op: "prev" }); });
$("view-nextpiece").addEventListener("click", () => { pause(); view && viewDo({ op: "next" }); });
$("view-scrub").addEventListener("input", (e) => { pause(); view && viewDo({ op: "seek", at: Number(e.target.value) }); });
$("search-start").addEventListener("click", startSearch);
$("search-stop").addEventListener("click", () => searchStatus && postJSON("api/search/" + searchStatus.id + "/stop", {}).then(showSearch, (e) => showError(e.message)));
$("search-open").addEventListener("click", () => {
  if (!searchLine) return;
  selectTab("view");
  loadReplay(searchLine, searchStatus.ai);
});
window.addEventListener("hashchange", fromFragment);
if (!SERVER) {
  $("search-off").hidden = false;
  for (const el of $("search-form").elements) el.disabled = true;
}

loadEngine().then(async () => {
  ready = true;
  $("loading").hidden = true;
  newGame();
  await loadRecords();
  fromFragment();
}, (e) => showError("Cannot load the engine: " + e.message));
