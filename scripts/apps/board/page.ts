// The board page for the projector: plain HTML, inline CSS and a small script that polls /api/state every
// two seconds and builds the tables with textContent only (a participant's name never becomes markup).
// No framework, no request to anything but the board itself; the CSP allows exactly this one script.
// Everything is sized in rem, and the script picks the root font size and the number of participant
// columns (1–3) so that the whole board fits the screen without scrolling; the font never goes below
// MIN_FONT_SCREEN_SHARE of the screen (20 px at 1280×720, 30 px at 1920×1080). Rows come in the
// projector order of progress.ts (stuck first).
import { createHash } from "node:crypto";
import QRCode from "qrcode";
import { escapeHtml } from "../../../lib/notebook/index.js";

export const POLL_MS = 2000;

/**
 * The smallest font: 1/36 of the screen height (1/64 of its width on a narrow screen) — 20 px at
 * 1280×720, as the slide decks' code text, which the room reads from the back; the board scales it up.
 */
export const MIN_FONT_SCREEN_SHARE = { height: 36, width: 64 } as const;
/** Where the fit stops growing the font (× the smallest). */
const MAX_FONT_FACTOR = 1.6;
const MAX_COLUMNS = 3;
/** localStorage key: the join line collapsed (key B or the button). */
const COLLAPSED_KEY = "klassen-board-beitritt-eingeklappt";

const SCRIPT = `
const POLL_MS = ${POLL_MS};
const $ = (id) => document.getElementById(id);
let lastView = null;
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
function ago(s) {
  if (s === null) return "noch keins";
  if (s < 60) return s + " s";
  if (s < 3600) return Math.floor(s / 60) + " min";
  return Math.floor(s / 3600) + " h";
}
const CELL_TITLE = { gruen: "alle Selbsttests bestanden", teil: "in Arbeit", rot: "ein Selbsttest scheitert", leer: "nicht begonnen" };
function cellText(c) {
  if (c.state === "leer") return "";
  if (c.state === "gruen") return "✅";
  return c.ok + "/" + c.total + (c.fail > 0 ? " ❌" : "");
}
const STATUS_TITLE = { haengt: "hängt", arbeitet: "in Arbeit", "nicht-begonnen": "nicht begonnen", fertig: "fertig" };
function table(v, rows) {
  const t = el("table", "tafel");
  const head = el("tr");
  head.append(el("th", "", "Name"));
  for (const a of v.aufgaben) {
    const th = el("th", a.rot > 0 ? "spalte-rot" : "", "Aufg. " + a.aufgabe);
    th.append(el("div", "klein", a.gruen + "✅ " + a.rot + "❌"));
    head.append(th);
  }
  head.append(el("th", "", "letztes ✅"));
  t.append(el("thead"), el("tbody", "zeilen"));
  t.tHead.append(head);
  for (const p of rows) {
    const tr = el("tr", "person " + p.progress.status);
    const name = el("td", "name", p.name);
    name.title = p.name + " – " + STATUS_TITLE[p.progress.status];
    tr.append(name);
    for (const c of p.cells) {
      const td = el("td", "zelle " + c.state, cellText(c));
      td.dataset.aufgabe = String(c.aufgabe);
      td.title = CELL_TITLE[c.state];
      tr.append(td);
    }
    tr.append(el("td", "zeit" + (p.progress.overdue ? " ueberfaellig" : ""), ago(p.lastOkAgoS)));
    t.tBodies[0].append(tr);
  }
  return t;
}
function columns(v, rows, count) {
  const per = Math.ceil(rows.length / count) || 1;
  const parts = [];
  for (let i = 0; i < count; i++) parts.push(table(v, rows.slice(i * per, (i + 1) * per)));
  $("spalten").replaceChildren(...parts);
  if (rows.length === 0) $("spalten").append(el("p", "hinweis", "Noch niemand beigetreten – wer npm run workshop mit --kurs startet, steht sofort hier (nicht begonnen)."));
}
function setFont(px) { document.documentElement.style.fontSize = px + "px"; }
const fitsWidth = () => document.documentElement.scrollWidth <= innerWidth;
const fits = () => fitsWidth() && document.documentElement.scrollHeight <= innerHeight;
/** The largest font (and fewest columns) at which everything is on the screen; else the least scrolling. */
function layout() {
  const v = lastView;
  if (!v) return;
  const rows = [...v.participants].sort((a, b) => a.rank - b.rank);
  const min = Math.min(innerHeight / ${MIN_FONT_SCREEN_SHARE.height}, innerWidth / ${MIN_FONT_SCREEN_SHARE.width});
  const max = min * ${MAX_FONT_FACTOR};
  $("zuviel").textContent = "";
  let best = null;
  let fallback = { count: 1, height: Infinity };
  for (let count = 1; count <= ${MAX_COLUMNS} && count <= Math.max(1, rows.length); count++) {
    columns(v, rows, count);
    setFont(min);
    if (fitsWidth() && document.documentElement.scrollHeight < fallback.height) fallback = { count, height: document.documentElement.scrollHeight };
    if (!fits()) continue;
    let lo = min, hi = max;
    setFont(hi);
    if (fits()) lo = hi;
    else for (let i = 0; i < 7; i++) { const mid = (lo + hi) / 2; setFont(mid); if (fits()) lo = mid; else hi = mid; }
    if (!best || lo > best.font + 0.5) best = { count, font: lo };
  }
  const chosen = best || { count: fallback.count, font: min };
  columns(v, rows, chosen.count);
  setFont(chosen.font);
  document.body.dataset.spalten = String(chosen.count);
  if (!best) $("zuviel").textContent = "Nicht alle Teilnehmenden passen auf den Bildschirm – weiter unten geht es weiter.";
}
function render(v) {
  lastView = v;
  const top = v.topFailing;
  $("top").textContent = top
    ? "Häufigstes ❌ gerade: Aufgabe " + top.aufgabe + " · „" + top.title + "“\u00a0– " + top.people + (top.people === 1 ? "\u00a0Person" : "\u00a0Personen")
    : "Gerade scheitert kein Selbsttest gehäuft.";
  $("top").title = top ? "Selbsttest " + top.check : "";
  $("anzahl").textContent = v.participants.length + " Teilnehmende";
  $("haengt-nach").textContent = String(v.stuckAfterMin);
  $("status").textContent = "";
  layout();
}
function collapse(on) {
  document.body.classList.toggle("eingeklappt", on);
  const button = $("beitritt-knopf");
  if (button) button.textContent = on ? "Beitritt zeigen (B)" : "Beitritt ausblenden (B)";
  try { localStorage.setItem("${COLLAPSED_KEY}", on ? "1" : ""); } catch (e) { /* private mode: not kept */ }
  layout();
}
if ($("beitritt")) {
  let stored = false;
  try { stored = localStorage.getItem("${COLLAPSED_KEY}") === "1"; } catch (e) { /* private mode */ }
  collapse(stored);
  $("beitritt-knopf").addEventListener("click", () => collapse(!document.body.classList.contains("eingeklappt")));
  document.addEventListener("keydown", (e) => {
    if ((e.key === "b" || e.key === "B") && !e.ctrlKey && !e.metaKey && !e.altKey) collapse(!document.body.classList.contains("eingeklappt"));
  });
}
addEventListener("resize", layout);
async function tick() {
  try {
    const r = await fetch("/api/state", { cache: "no-store" });
    if (!r.ok) throw new Error("HTTP " + r.status);
    render(await r.json());
  } catch (e) {
    $("status").textContent = "Board gerade nicht erreichbar – neuer Versuch in 2 s.";
    layout();
  }
}
tick();
setInterval(tick, POLL_MS);
`;

/** The CSP hash of the page's one inline script. */
export const SCRIPT_HASH = `sha256-${createHash("sha256").update(SCRIPT).digest("base64")}`;

export const PAGE_CSP = `default-src 'none'; script-src '${SCRIPT_HASH}'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const STYLE = `
html { font-size: 20px; }
* { box-sizing: border-box; }
body { font-family: system-ui, sans-serif; font-size: 1rem; margin: 0; padding: 0.3rem 0.5rem; background: #fff; color: #111; line-height: 1.2; }
header { display: flex; gap: 0.6rem; align-items: flex-start; }
.kopftext { flex: 1; min-width: 0; }
h1 { font-size: 1.3rem; margin: 0 0 0.15rem; }
.klein { font-size: 0.7rem; font-weight: normal; }
h1 .klein { font-size: 0.8rem; }
.warnung { background: #fff0c2; border: 0.12rem solid #b36b00; border-radius: 0.3rem; padding: 0.1rem 0.4rem; margin: 0.15rem 0; font-size: 0.8rem; }
.warnung code { white-space: nowrap; font-weight: bold; }
.beitritt { background: #eef3ff; padding: 0.15rem 0.4rem; border-radius: 0.3rem; margin: 0.15rem 0; }
.beitritt code { font-size: 0.9rem; }
.beitritt .stueck { white-space: nowrap; }
#beitritt-code, .kurz code { font-weight: bold; }
.beitritt .kurz { display: none; }
.eingeklappt .beitritt .lang, .eingeklappt #qr { display: none; }
.eingeklappt .beitritt .kurz { display: inline; }
button { font: inherit; font-size: 0.6rem; margin-left: 0.4rem; vertical-align: middle; }
#qr { margin: 0; text-align: center; }
#qr svg { display: block; width: 6rem; height: 6rem; }
#qr figcaption { font-size: 0.55rem; }
#legende { font-size: 0.7rem; margin: 0.1rem 0; }
.marke { display: inline-block; padding: 0 0.3rem; border-left: 0.4rem solid; }
#top { font-size: 0.9rem; font-weight: bold; color: #8a1020; margin: 0.1rem 0; }
#status, #zuviel { color: #8a1020; font-size: 0.8rem; }
.hinweis { font-size: 0.8rem; color: #555; margin: 0.3rem 0; align-self: center; }
#spalten { display: flex; gap: 0.5rem; align-items: flex-start; margin-top: 0.2rem; }
table { border-collapse: collapse; line-height: 1.15; }
th, td { border: 0.08rem solid #999; padding: 0.06rem 0.3rem; text-align: center; white-space: nowrap; }
th { background: #f2f2f2; font-size: 0.8rem; }
th.spalte-rot { background: #ffb3b3; }
td.name { text-align: left; font-weight: bold; max-width: 10.5em; overflow: hidden; text-overflow: ellipsis; border-left-width: 0.45rem; }
.haengt td.name, .marke.haengt { border-left-color: #c0001a; }
.haengt td.name { background: #ffd9d9; }
.arbeitet td.name, .marke.arbeitet { border-left-color: #e0a800; }
.nicht-begonnen td.name, .marke.nicht-begonnen { border-left-style: dashed; border-left-color: #888; }
.nicht-begonnen td.name { font-weight: normal; font-style: italic; color: #555; }
.fertig td.name, .marke.fertig { border-left-color: #1a8a3a; }
td.zelle { min-width: 3.2em; }
.gruen { background: #b9f0c6; }
.rot { background: #ffb3b3; font-weight: bold; }
.teil { background: #fff1a8; }
td.leer { background: repeating-linear-gradient(135deg, #fff 0 0.25rem, #eee 0.25rem 0.5rem); }
td.zeit { font-size: 0.85rem; }
td.ueberfaellig { background: #8a1020; color: #fff; font-weight: bold; }
`;

/** The join URL as a QR code (SVG, drawn here by the qrcode package; nothing is fetched). */
export function joinQrSvg(url: string): Promise<string> {
  return QRCode.toString(url, { type: "svg", margin: 4, errorCorrectionLevel: "M" });
}

export interface BoardPageOptions {
  /** Join URL, code and its QR code (SVG); only for the instructor's own browser (loopback). */
  join?: { url: string; code: string; qrSvg: string };
  /** Set when the board is bound to loopback: participants cannot reach it (reach.ts). */
  loopback?: { problem: string; fix: string; command: string };
}

function joinBlock(join: NonNullable<BoardPageOptions["join"]>): string {
  const url = escapeHtml(join.url);
  const code = escapeHtml(join.code);
  const piece = (html: string) => `<span class="stueck">${html}</span>`;
  const command = [
    piece("npm run workshop --"),
    piece(`--kurs <span id="beitritt-url">${url}</span>`),
    piece('--name "Dein Name"'),
    piece(`--code <span id="beitritt-code">${code}</span>`),
  ].join(" ");
  return `<div class="beitritt" id="beitritt"><span class="lang">Mitmachen: <code>${command}</code></span><span class="kurz">Beitrittscode: <code>${code}</code></span><button id="beitritt-knopf" type="button">Beitritt ausblenden (B)</button></div>`;
}

function loopbackBlock(loopback: NonNullable<BoardPageOptions["loopback"]>): string {
  const fix = escapeHtml(loopback.fix).replace(escapeHtml(loopback.command), `<code>${escapeHtml(loopback.command)}</code>`);
  return `<div class="warnung" id="nur-lokal" role="alert">⚠️ ${escapeHtml(loopback.problem)} ${fix}</div>`;
}

export function boardPage(options: BoardPageOptions = {}): string {
  const { join, loopback } = options;
  const qr = join ? `<figure id="qr">${join.qrSvg}<figcaption>Board-Adresse</figcaption></figure>` : "";
  return `<!doctype html>
<html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Klassen-Board</title><style>${STYLE}</style></head>
<body>
<header><div class="kopftext">
<h1>Klassen-Board – Selbsttests <span class="klein" id="anzahl"></span></h1>
${loopback ? loopbackBlock(loopback) : ""}
${join ? joinBlock(join) : ""}
<div id="legende">Oben zuerst: <span class="marke haengt">hängt</span> (❌ in der aktuellen Aufgabe oder seit <span id="haengt-nach">–</span> min kein ✅) · <span class="marke arbeitet">in Arbeit</span> · <span class="marke nicht-begonnen">nicht begonnen</span> · <span class="marke fertig">fertig</span></div>
<div id="top"></div><div id="status"></div><div id="zuviel"></div>
</div>${qr}</header>
<main id="spalten"></main>
<script>${SCRIPT}</script>
</body></html>
`;
}
