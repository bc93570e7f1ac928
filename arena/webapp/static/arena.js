// Arena page: lists the results files the server offers, sends one (or an
// upload) to POST api/report and draws the answer. It computes no
// statistics: every number comes from the arena package on the server; the
// page formats, scales and draws.
"use strict";

const $ = (id) => document.getElementById(id);
const SVGNS = "http://www.w3.org/2000/svg";
const COLORS = ["#b3312c", "#1565c0"];
let report = null; // the last api/report answer

window.arena = { get report() { return report; }, open, busy: false };

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

async function loadFiles() {
  try {
    const r = await fetch("api/files");
    const files = await r.json();
    if (!r.ok) throw new Error(files.error || "HTTP " + r.status);
    const sel = $("files");
    if (files.length) sel.replaceChildren();
    for (const f of files) {
      const o = document.createElement("option");
      o.value = f.id; o.textContent = `${f.name} (${f.dir}, ${(f.bytes / 1024).toFixed(1)} KiB)`;
      sel.append(o);
    }
    const want = new URLSearchParams(location.search).get("file");
    if (want && files.some((f) => f.id === want || f.name === want)) {
      sel.value = files.find((f) => f.id === want || f.name === want).id;
      open({ file: sel.value });
    }
  } catch (err) { showError(err); }
}

function sprt() {
  if (!$("usesprt").checked) return undefined;
  return [Number($("elo0").value), Number($("elo1").value)];
}

// open asks the server for the report of a file it offers ({file}) or of an
// upload ({name, text}).
async function open(src) {
  showError(null);
  window.arena.busy = true;
  $("status").textContent = "Computing…";
  try {
    report = await post("api/report", { ...src, sprt: sprt() });
    render(report);
    $("status").textContent = `${report.name}: ${report.games} game records.`;
  } catch (err) {
    $("status").textContent = "";
    showError(err);
  } finally { window.arena.busy = false; }
}

let lastSource = null;
$("open").addEventListener("click", () => { if ($("files").value) { lastSource = { file: $("files").value }; open(lastSource); } });
$("upload").addEventListener("change", async () => {
  const f = $("upload").files[0];
  if (!f) return;
  lastSource = { name: f.name, text: await f.text() };
  open(lastSource);
});
for (const id of ["usesprt", "elo0", "elo1"]) $(id).addEventListener("change", () => { if (lastSource) open(lastSource); });

// ---- drawing --------------------------------------------------------------------

function rows(tbody, data) {
  $(tbody).querySelector("tbody").replaceChildren(...data.map((cells) => {
    const tr = document.createElement("tr");
    cells.forEach((c, i) => { const td = document.createElement(i === 0 ? "th" : "td"); td.textContent = c; tr.append(td); });
    return tr;
  }));
}

function el(name, attrs, text) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function render(r) {
  $("result").hidden = false;
  const summary = r.kind === "pair" ? r.pair.summary : r.score.duels;
  const nameA = r.kind === "pair" ? r.pair.summary.nameA : r.score.nameA;
  const nameB = r.kind === "pair" ? r.pair.summary.nameB : r.score.nameB;
  $("title").textContent = `${nameA} vs ${nameB || "(alone)"} — ${r.kind === "pair" ? "two-player games" : "score games, seed duels"}`;
  if (summary) {
    const w = summary.wdl, n = w.W + w.L + w.D, pts = w.W + w.D / 2;
    rows("wdl", [["Games", n], ["Wins", w.W], ["Losses", w.L], ["Draws", w.D], ["Points", `${pts.toFixed(1)} (${n ? (100 * pts / n).toFixed(2) : "nan"} %)`]]);
    const p = summary.ptnml;
    $("ptnml").hidden = !p;
    if (p) rows("ptnml", [["0 (LL)", p.LL], ["½ (LD)", p.LD], ["1 (DD+WL)", p.DD + p.WL], ["1½ (WD)", p.WD], ["2 (WW)", p.WW]]);
  }
  $("wdl").hidden = !summary;
  rows("estimates", (r.estimates || []).map((e) => [e.model, e.n, e.score + " %", `${e.elo} ± ${e.eloErr}`, `${e.nElo} ± ${e.nEloErr}`, e.los + " %", e.draw + " %"]));
  $("estimates").hidden = !(r.estimates || []).length;
  $("sprtbox").hidden = !r.sprt;
  if (r.sprt) {
    const s = r.sprt;
    const verdict = s.verdict === "H1" || /H1/.test(s.verdict) ? "H1 accepted" : /H0/.test(s.verdict) ? "H0 accepted" : "continue";
    $("sprt").innerHTML = "";
    $("sprt").append(`LLR ${fmt(s.llr)} (${(100 * s.progress).toFixed(1)} %) of bounds (${fmt(s.lower)}, ${fmt(s.upper)}) for elo0 ${fmt(s.elo0)}, elo1 ${fmt(s.elo1)} (${s.model}, α ${s.alpha}, β ${s.beta}): `);
    const b = document.createElement("span"); b.className = "verdict"; b.textContent = verdict; $("sprt").append(b);
    drawLLR(r);
  }
  $("scorebox").hidden = r.kind !== "score";
  if (r.kind === "score") {
    rows("samples", r.samples.map((s) => [s.name, s.n, s.mean, s.ci95, s.sd, s.median, s.min, s.max]));
    const p = r.score.paired;
    $("paired").textContent = p ? `Mean difference bootstrap 95 % interval [${fmt(p.bootstrap95[0])}, ${fmt(p.bootstrap95[1])}]; seed duels +${p.duels.W} −${p.duels.L} =${p.duels.D}, sign test p = ${p.signP === null ? "nan" : p.signP.toPrecision(3)}.` : "";
    drawHist(r.histograms || []);
  }
  $("text").textContent = r.text;
}

function fmt(x) { return x === null || x === undefined ? "—" : Number(x).toFixed(2); }

// drawLLR plots the LLR after each prefix of the games against the bounds.
function drawLLR(r) {
  const svg = $("llr"), W = 640, H = 260, L = 44, R = 10, T = 10, B = 28;
  svg.replaceChildren();
  const pts = r.llr || [], s = r.sprt, n = r.games;
  const ys = pts.map((p) => p.llr).concat([s.lower, s.upper, 0]);
  const lo = Math.min(...ys), hi = Math.max(...ys), pad = (hi - lo) * 0.05 || 1;
  const x = (g) => L + (W - L - R) * g / Math.max(1, n), y = (v) => T + (H - T - B) * (hi + pad - v) / (hi - lo + 2 * pad);
  for (const [v, label, dash] of [[s.upper, "H1 bound", "6 4"], [s.lower, "H0 bound", "6 4"], [0, "0", "2 3"]]) {
    svg.append(el("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: "#999", "stroke-dasharray": dash }));
    svg.append(el("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end" }, v === 0 ? "0" : fmt(v)));
    if (v !== 0) svg.append(el("text", { x: W - R - 4, y: y(v) - 4, "text-anchor": "end" }, label));
  }
  svg.append(el("line", { x1: L, x2: W - R, y1: H - B, y2: H - B, stroke: "#444" }));
  for (const g of [0, Math.round(n / 2), n]) svg.append(el("text", { x: x(g), y: H - B + 16, "text-anchor": "middle" }, String(g)));
  svg.append(el("text", { x: (W + L) / 2, y: H - 2, "text-anchor": "middle" }, "games"));
  if (pts.length) {
    const d = pts.map((p, i) => `${i ? "L" : "M"}${x(p.games).toFixed(1)},${y(p.llr).toFixed(1)}`).join(" ");
    svg.append(el("path", { d, fill: "none", stroke: COLORS[0], "stroke-width": 2, id: "llrpath" }));
  }
}

// drawHist draws each player's score histogram as bars side by side.
function drawHist(hs) {
  const svg = $("hist"), W = 640, H = 240, L = 34, R = 10, T = 22, B = 30;
  svg.replaceChildren();
  if (!hs.length) return;
  const bins = hs[0].counts.length, top = Math.max(1, ...hs.flatMap((h) => h.counts));
  const bw = (W - L - R) / bins, y = (c) => T + (H - T - B) * (1 - c / top);
  hs.forEach((h, k) => {
    h.counts.forEach((c, i) => {
      if (c) svg.append(el("rect", { x: L + i * bw + k * bw / hs.length + 1, y: y(c), width: bw / hs.length - 2, height: H - B - y(c), fill: COLORS[k] }));
    });
    svg.append(el("text", { x: L + 8 + k * 160, y: 14, fill: COLORS[k] }, "■ " + h.name));
  });
  svg.append(el("line", { x1: L, x2: W - R, y1: H - B, y2: H - B, stroke: "#444" }));
  const lo = hs[0].lo, hi = hs[0].hi;
  for (const f of [0, 0.5, 1]) svg.append(el("text", { x: L + f * (W - L - R), y: H - B + 16, "text-anchor": "middle" }, Number(lo + f * (hi - lo)).toFixed(0)));
  svg.append(el("text", { x: L - 4, y: y(top) + 4, "text-anchor": "end" }, String(top)));
  svg.append(el("text", { x: (W + L) / 2, y: H - 2, "text-anchor": "middle" }, "score"));
}

loadFiles();
