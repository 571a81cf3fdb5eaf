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
import { BOARD_INSTRUCTOR_HEADER, BOARD_JOIN_INFO_PATH, INSTRUCTOR_FRAGMENT } from "./instructor.js";

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
/** sessionStorage key: the instructor's key from the link, for this tab (a reload keeps it). */
const INSTRUCTOR_KEY_STORE = "klassen-board-kursleitung";

const SCRIPT = `
const POLL_MS = ${POLL_MS};
const $ = (id) => document.getElementById(id);
/** The key of the instructor's link (#${INSTRUCTOR_FRAGMENT}=…): kept for this tab, taken off the address bar. */
function instructorKey() {
  const m = /^#${INSTRUCTOR_FRAGMENT}=([A-Za-z0-9_-]+)$/.exec(location.hash);
  let key = m ? m[1] : "";
  try {
    if (m) sessionStorage.setItem("${INSTRUCTOR_KEY_STORE}", key);
    else key = sessionStorage.getItem("${INSTRUCTOR_KEY_STORE}") || "";
  } catch (e) { /* private mode: the key lives as long as the page */ }
  if (m) history.replaceState(null, "", location.pathname + location.search);
  return key;
}
const INSTRUCTOR_KEY = instructorKey();
// The link pasted into a tab that shows the board already: take the key and start over as the instructor.
addEventListener("hashchange", () => { if (location.hash.startsWith("#${INSTRUCTOR_FRAGMENT}=") && instructorKey()) location.reload(); });
const INSTRUCTOR = document.body.dataset.kursleitung === "1" || INSTRUCTOR_KEY !== "";
const KLASSENRAUM = document.body.dataset.klassenraum === "1";
let lastView = null;
/** The chosen layout (columns, font) and the data it was chosen for; a poll with the same shape keeps it. */
let chosen = null;
let shapeKey = "";
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
  return c.ok + "/" + c.total;
}
function cellTitle(c) {
  return CELL_TITLE[c.state] + (c.open > 0 ? " – " + c.open + " noch offen (noch nicht gelöst)" : "");
}
const STATUS_TITLE = { haengt: "hängt", zurueck: "zurück (vor der Aufgabe der Klasse)", arbeitet: "in Arbeit", "nicht-begonnen": "nicht begonnen", fertig: "fertig" };
function lastCell(p) {
  if (p.progress.status === "nicht-begonnen") {
    const td = el("td", "zeit neu", "dabei " + ago(p.joinedAgoS));
    td.title = "seit " + ago(p.joinedAgoS) + " auf dem Board, noch kein Selbsttest gelaufen";
    return td;
  }
  return el("td", "zeit" + (p.progress.overdue ? " ueberfaellig" : ""), ago(p.lastOkAgoS));
}
/** The Aufgaben shown: up to the class's or the furthest anyone has reached (later ones are empty for all). */
function shownAufgaben(v) {
  const reached = Math.max(1, v.classAufgabe ? v.classAufgabe.aufgabe : 1, ...v.participants.map((p) => p.progress.aufgabe || 1));
  return v.aufgaben.filter((a) => a.aufgabe <= reached);
}
function table(v, rows) {
  const t = el("table", "tafel");
  const head = el("tr");
  head.append(el("th", "name-kopf", "Name"));
  const klasse = v.classAufgabe ? v.classAufgabe.aufgabe : null;
  const shown = shownAufgaben(v);
  for (const a of shown) {
    const th = el("th", "aufgabe-kopf" + (a.rot > 0 ? " spalte-rot" : "") + (a.aufgabe === klasse ? " klasse" : ""), "Aufg. " + a.aufgabe);
    th.title = a.gruen + " mit allen ✅, " + a.rot + " mit ❌";
    head.append(th);
  }
  head.append(el("th", "zeit-kopf", "letztes ✅"));
  t.append(el("thead"), el("tbody", "zeilen"));
  t.tHead.append(head);
  const raised = new Set(v.hands.map((h) => h.name));
  for (const p of rows) {
    const tr = el("tr", "person " + p.progress.status);
    const name = el("td", "name");
    if (raised.has(p.name)) name.append(el("span", "hand", "✋"));
    name.append(el("span", "name-text", p.name));
    name.title = p.name + " – " + STATUS_TITLE[p.progress.status];
    tr.append(name);
    for (const c of p.cells.slice(0, shown.length)) {
      const td = el("td", "zelle " + c.state, cellText(c));
      if (c.fail > 0) td.append(el("span", "kreuz", "❌"));
      td.dataset.aufgabe = String(c.aufgabe);
      td.title = cellTitle(c);
      tr.append(td);
    }
    tr.append(lastCell(p));
    t.tBodies[0].append(tr);
  }
  return t;
}
/** An instructor's post; a refusal (an old link, a participant's tab) is shown in German above the tables. */
async function instructorPost(path, body) {
  const headers = { "content-type": "application/json" };
  if (INSTRUCTOR_KEY) headers["${BOARD_INSTRUCTOR_HEADER}"] = INSTRUCTOR_KEY;
  try {
    const r = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
    const fehler = r.ok ? "" : ((await r.json().catch(() => ({}))).fehler || "HTTP " + r.status);
    $("kursleitung-fehler").textContent = fehler ? "⚠️ " + fehler : "";
  } catch (e) { /* the next poll says the board is unreachable */ }
  tick();
}
function lower(name) {
  instructorPost("/api/hilfe-erledigt", { name });
}
function setClass(aufgabe) {
  instructorPost("/api/klassen-aufgabe", { aufgabe });
}
function hands(v) {
  const box = $("hilfe");
  box.replaceChildren();
  box.hidden = v.hands.length === 0;
  if (v.hands.length === 0) return;
  box.append(el("span", "hilfe-titel", "✋ Hand gehoben" + (INSTRUCTOR ? " (Klick oder Taste H: erledigt)" : "") + ": "));
  for (const h of v.hands) {
    const item = el(INSTRUCTOR ? "button" : "span", "hand-eintrag");
    if (INSTRUCTOR) { item.type = "button"; item.title = "erledigt – " + h.name; item.addEventListener("click", () => lower(h.name)); }
    item.append(el("b", "", h.name), document.createTextNode(" · " + ago(h.waitingS) + (h.question ? " · „" + h.question + "“" : "")));
    box.append(item);
  }
}
function columns(v, rows, count) {
  const per = Math.ceil(rows.length / count) || 1;
  const parts = [];
  for (let i = 0; i < count; i++) parts.push(table(v, rows.slice(i * per, (i + 1) * per)));
  $("spalten").replaceChildren(...parts);
  $("spalten").style.setProperty("--spalten", String(count));
  if (rows.length === 0) $("spalten").append(el("p", "hinweis", KLASSENRAUM ? "Noch niemand angemeldet – wer sich im Browser am Hub anmeldet, steht sofort hier (nicht begonnen)." : "Noch niemand beigetreten – wer npm run workshop mit --kurs startet, steht sofort hier (nicht begonnen)."));
}
function setFont(px) { document.documentElement.style.fontSize = px + "px"; }
const fitsWidth = () => document.documentElement.scrollWidth <= innerWidth;
/** Every name whole: at most two lines, and at most a fifth of them (the long ones) on two. */
function namesFit() {
  const lines = [...document.querySelectorAll("#spalten .name-text")].map((n) => n.getClientRects().length);
  const wrapped = lines.filter((n) => n > 1).length;
  return lines.every((n) => n <= 2) && wrapped <= Math.max(1, Math.floor(lines.length / 5));
}
const fits = () => fitsWidth() && document.documentElement.scrollHeight <= innerHeight && namesFit();
function sortedRows(v) { return [...v.participants].sort((a, b) => a.rank - b.rank); }
/** The largest font (and fewest columns) at which everything is on the screen; else the least scrolling. */
function layout() {
  const v = lastView;
  if (!v) return;
  document.body.dataset.layouts = String(Number(document.body.dataset.layouts || 0) + 1);
  const rows = sortedRows(v);
  const min = Math.min(innerHeight / ${MIN_FONT_SCREEN_SHARE.height}, innerWidth / ${MIN_FONT_SCREEN_SHARE.width});
  const max = min * ${MAX_FONT_FACTOR};
  $("zuviel").textContent = "";
  let best = null;
  let fallback = { count: 1, height: Infinity };
  for (let count = 1; count <= ${MAX_COLUMNS} && count <= Math.max(1, rows.length); count++) {
    columns(v, rows, count);
    setFont(min);
    if (fitsWidth() && namesFit() && document.documentElement.scrollHeight < fallback.height) fallback = { count, height: document.documentElement.scrollHeight };
    if (!fits()) continue;
    let lo = min, hi = max;
    setFont(hi);
    if (fits()) lo = hi;
    else for (let i = 0; i < 7; i++) { const mid = (lo + hi) / 2; setFont(mid); if (fits()) lo = mid; else hi = mid; }
    if (!best || lo > best.font + 0.5) best = { count, font: lo };
  }
  chosen = best || { count: fallback.count, font: min };
  columns(v, rows, chosen.count);
  setFont(chosen.font);
  document.body.dataset.spalten = String(chosen.count);
  if (!best) $("zuviel").textContent = "Nicht alle Teilnehmenden passen auf den Bildschirm – weiter unten geht es weiter.";
}
/** What decides the layout: the rows in order, their states, the raised hands; not the times. */
function shapeOf(v) {
  return JSON.stringify([sortedRows(v).map((p) => [p.name, p.progress.status, p.cells.map((c) => c.state + c.ok + c.fail)]), v.hands.map((h) => [h.name, h.question]), v.classAufgabe, $("status").textContent]);
}
/** A poll with the same shape: the same layout with the new times, the scroll position kept. */
function refresh() {
  const v = lastView;
  const x = scrollX, y = scrollY;
  columns(v, sortedRows(v), chosen.count);
  if (!fits() && !$("zuviel").textContent) layout();
  scrollTo(x, y);
}
function render(v) {
  lastView = v;
  const top = v.topFailing;
  $("top").textContent = top
    ? "Häufigstes ❌ gerade: Aufgabe " + top.aufgabe + " · „" + top.title + "“\\u00a0– " + top.people + (top.people === 1 ? "\\u00a0Person" : "\\u00a0Personen")
    : "Gerade scheitert kein Selbsttest gehäuft.";
  $("top").title = top ? "Selbsttest " + top.check : "";
  $("anzahl").textContent = v.participants.length + " Teilnehmende";
  $("stand").textContent = shownAufgaben(v).filter((a) => a.gruen + a.rot > 0).map((a) => "Aufg. " + a.aufgabe + ": " + a.gruen + "✅ " + a.rot + "❌").join(" · ");
  const k = v.classAufgabe;
  $("klasse").textContent = k
    ? "Klasse in Aufgabe " + k.aufgabe + (k.by === "kursleitung" ? " (festgelegt" + (INSTRUCTOR ? "; 0 = automatisch)" : ")") : " (die meisten" + (INSTRUCTOR ? "; Tasten 1–4 legen fest)" : ")"))
    : "";
  $("haengt-nach").textContent = String(v.stuckAfterMin);
  $("status").textContent = "";
  hands(v);
  const shape = shapeOf(v);
  if (chosen && shape === shapeKey) refresh();
  else layout();
  shapeKey = shape;
}
function collapse(on) {
  document.body.classList.toggle("eingeklappt", on);
  const button = $("beitritt-knopf");
  if (button) button.textContent = on ? "Beitritt zeigen (B)" : "Beitritt ausblenden (B)";
  try { localStorage.setItem("${COLLAPSED_KEY}", on ? "1" : ""); } catch (e) { /* private mode: not kept */ }
  layout();
}
function setUpJoin() {
  let stored = false;
  try { stored = localStorage.getItem("${COLLAPSED_KEY}") === "1"; } catch (e) { /* private mode */ }
  collapse(stored);
  $("beitritt-knopf").addEventListener("click", () => collapse(!document.body.classList.contains("eingeklappt")));
}
if ($("beitritt")) setUpJoin();
// The instructor's link on another machine: the join line and QR code come from the board (the key opens them).
else if (INSTRUCTOR_KEY) {
  fetch("${BOARD_JOIN_INFO_PATH}", { headers: { "${BOARD_INSTRUCTOR_HEADER}": INSTRUCTOR_KEY }, cache: "no-store" })
    .then((r) => (r.ok ? r.json() : null))
    .then((j) => {
      if (!j || $("beitritt")) return;
      $("legende").insertAdjacentHTML("beforebegin", j.beitritt);
      document.querySelector("header").insertAdjacentHTML("beforeend", j.qr);
      setUpJoin();
    }, () => undefined);
}
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if ((e.key === "b" || e.key === "B") && $("beitritt")) collapse(!document.body.classList.contains("eingeklappt"));
  if (!INSTRUCTOR) return;
  if ((e.key === "h" || e.key === "H") && lastView && lastView.hands.length > 0) lower(lastView.hands[0].name);
  if (/^[1-4]$/.test(e.key)) setClass(Number(e.key));
  if (e.key === "0") setClass(null);
});
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
.warnung { background: #fff0c2; border: 0.12rem solid #b36b00; border-radius: 0.3rem; padding: 0.1rem 0.4rem; margin: 0.15rem 0; font-size: 0.7rem; }
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
#top { font-size: 0.9rem; font-weight: bold; color: #8a1020; }
.zeile { margin: 0.1rem 0; }
#status, #zuviel { color: #8a1020; font-size: 0.8rem; }
.hinweis { font-size: 0.8rem; color: #555; margin: 0.3rem 0; align-self: center; }
#spalten { display: grid; grid-template-columns: repeat(var(--spalten, 1), minmax(0, 1fr)); gap: 0.5rem; align-items: start; margin-top: 0.2rem; }
table { border-collapse: collapse; line-height: 1.15; width: 100%; }
th, td { border: 0.08rem solid #999; padding: 0.06rem 0.2rem; text-align: center; white-space: nowrap; width: 1%; }
th { background: #f2f2f2; font-size: 0.8rem; }
th.spalte-rot { background: #ffb3b3; }
th.klasse { outline: 0.15rem solid #1f4fbf; outline-offset: -0.15rem; }
th.name-kopf { width: auto; text-align: left; }
th.zeit-kopf, th.aufgabe-kopf { white-space: normal; font-size: 0.7rem; }
#stand { font-size: 0.7rem; margin-right: 0.5rem; }
td.name { width: auto; text-align: left; font-weight: bold; white-space: normal; overflow-wrap: anywhere; border-left-width: 0.45rem; }
.hand { margin-right: 0.2rem; }
.haengt td.name, .marke.haengt { border-left-color: #c0001a; }
.haengt td.name { background: #ffd9d9; }
.zurueck td.name, .marke.zurueck { border-left-color: #7a3db8; }
.zurueck td.name { background: #efe3fb; }
.arbeitet td.name, .marke.arbeitet { border-left-color: #e0a800; }
.nicht-begonnen td.name, .marke.nicht-begonnen { border-left-style: dashed; border-left-color: #888; }
.nicht-begonnen td.name { font-weight: normal; font-style: italic; color: #555; }
.fertig td.name, .marke.fertig { border-left-color: #1a8a3a; }
td.zelle { min-width: 2.5em; }
.kreuz { font-size: 0.65em; margin-left: 0.1em; vertical-align: 0.1em; }
.gruen { background: #b9f0c6; }
.rot { background: #ffb3b3; font-weight: bold; }
.teil { background: #fff1a8; }
td.leer { background: repeating-linear-gradient(135deg, #fff 0 0.25rem, #eee 0.25rem 0.5rem); }
td.zeit { font-size: 0.85rem; }
td.ueberfaellig { background: #8a1020; color: #fff; font-weight: bold; }
td.neu { color: #555; font-style: italic; font-size: 0.6rem; }
#klasse { font-size: 0.8rem; font-weight: normal; color: #1f4fbf; }
#hilfe { background: #fff6d6; border: 0.1rem solid #e0a800; border-radius: 0.3rem; padding: 0.1rem 0.4rem; margin: 0.15rem 0; font-size: 0.85rem; }
.hilfe-titel { font-weight: bold; }
.hand-eintrag { display: inline-block; font: inherit; font-size: 0.85rem; margin: 0.05rem 0.3rem 0.05rem 0; padding: 0 0.3rem; background: #fff; border: 0.08rem solid #e0a800; border-radius: 0.2rem; color: inherit; }
button.hand-eintrag { cursor: pointer; }
#kursleitung-fehler { color: #b00020; font-weight: bold; font-size: 0.85rem; }
#kursleitung-fehler:empty { display: none; }
`;

/** The join URL as a QR code (SVG, drawn here by the qrcode package; nothing is fetched). */
export function joinQrSvg(url: string): Promise<string> {
  return QRCode.toString(url, { type: "svg", margin: 4, errorCorrectionLevel: "M" });
}

export interface BoardPageOptions {
  /** Join URL, code and its QR code (SVG); for the instructor's browser on this machine (the instructor's link
   * elsewhere gets them from BOARD_JOIN_INFO_PATH). In Klassenraum mode (`hub`) the URL is the hub's login page,
   * which participants open in their browser. */
  join?: { url: string; code: string; qrSvg: string; hub?: boolean };
  /** Set when the board is bound to loopback: participants cannot reach it (reach.ts). */
  loopback?: { problem: string; fix: string; command: string };
  /** The instructor's own browser (loopback, not in Klassenraum mode): may lower hands (click, key H) and set the
   * class's Aufgabe (keys 0–4); elsewhere the instructor's link (instructor.ts) does that. */
  instructor?: boolean;
  /** Klassenraum mode: participants sign in at the hub in their browser (`npm run klassenraum`). */
  klassenraum?: boolean;
}

/** The join line and the QR code (HTML) for the instructor's page; the board sends them to the instructor's link too. */
export function joinHtml(join: NonNullable<BoardPageOptions["join"]>): { beitritt: string; qr: string } {
  const caption = join.hub ? "Anmeldeseite" : "Board-Adresse";
  return { beitritt: joinBlock(join), qr: `<figure id="qr">${join.qrSvg}<figcaption>${caption}</figcaption></figure>` };
}

function joinBlock(join: NonNullable<BoardPageOptions["join"]>): string {
  const url = escapeHtml(join.url);
  const code = escapeHtml(join.code);
  const piece = (html: string) => `<span class="stueck">${html}</span>`;
  const short = `<span class="kurz">Beitrittscode: <code>${code}</code></span>`;
  const button = '<button id="beitritt-knopf" type="button">Beitritt ausblenden (B)</button>';
  if (join.hub) {
    const login = [
      piece(`Anmelden im Browser: <code><span id="beitritt-url">${url}</span></code>`),
      piece(`mit Namen und Beitrittscode <code><span id="beitritt-code">${code}</span></code>`),
    ].join(" ");
    return `<div class="beitritt" id="beitritt"><span class="lang">${login}</span>${short}${button}</div>`;
  }
  const command = [
    piece("npm run workshop --"),
    piece(`--kurs <span id="beitritt-url">${url}</span>`),
    piece('--name "Vorname"'),
    piece(`--code <span id="beitritt-code">${code}</span>`),
  ].join(" ");
  return `<div class="beitritt" id="beitritt"><span class="lang">Mitmachen: <code>${command}</code></span>${short}${button}</div>`;
}

function loopbackBlock(loopback: NonNullable<BoardPageOptions["loopback"]>): string {
  const fix = escapeHtml(loopback.fix).replace(
    escapeHtml(loopback.command),
    `<code>${escapeHtml(loopback.command)}</code>`,
  );
  return `<div class="warnung" id="nur-lokal" role="alert">⚠️ ${escapeHtml(loopback.problem)} ${fix}</div>`;
}

export function boardPage(options: BoardPageOptions = {}): string {
  const { join, loopback, instructor } = options;
  const klassenraum = options.klassenraum ?? join?.hub;
  const qr = join ? joinHtml(join).qr : "";
  return `<!doctype html>
<html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Klassen-Board</title><style>${STYLE}</style></head>
<body${instructor ? ' data-kursleitung="1"' : ""}${klassenraum ? ' data-klassenraum="1"' : ""}>
<header><div class="kopftext">
<h1>Klassen-Board – Selbsttests <span class="klein" id="anzahl"></span> <span id="klasse"></span></h1>
${loopback ? loopbackBlock(loopback) : ""}
${join ? joinHtml(join).beitritt : ""}
<div id="legende">Oben zuerst: <span class="marke haengt">hängt</span> (❌ oder seit <span id="haengt-nach">–</span> min kein ✅) · <span class="marke zurueck">zurück</span> (vor der Aufgabe der Klasse) · <span class="marke arbeitet">in Arbeit</span> · <span class="marke nicht-begonnen">nicht begonnen</span> · <span class="marke fertig">fertig</span></div>
<div id="hilfe" hidden></div>
<div id="kursleitung-fehler" role="alert"></div>
<div class="zeile"><span id="stand"></span> <span id="top"></span></div><div id="status"></div><div id="zuviel"></div>
</div>${qr}</header>
<main id="spalten"></main>
<script>${SCRIPT}</script>
</body></html>
`;
}
