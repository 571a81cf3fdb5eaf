// The board page for the projector: plain HTML, inline CSS and a small script that polls /api/state every
// two seconds and builds the table with textContent only (a participant's name never becomes markup).
// No framework, no request to anything but the board itself; the CSP allows exactly this one script.
import { createHash } from "node:crypto";
import { escapeHtml } from "../../lib/notebook/escape-html.js";

export const POLL_MS = 2000;

const SCRIPT = `
const POLL_MS = ${POLL_MS};
const $ = (id) => document.getElementById(id);
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
function ago(s) {
  if (s === null) return "–";
  if (s < 60) return "vor " + s + " s";
  if (s < 3600) return "vor " + Math.floor(s / 60) + " min";
  return "vor " + Math.floor(s / 3600) + " h";
}
function cellText(c) {
  if (c.state === "leer") return "–";
  return c.ok + "/" + c.total + " ✅" + (c.fail > 0 ? " " + c.fail + " ❌" : "");
}
function render(v) {
  const head = $("kopf");
  head.replaceChildren(el("th", "", "Name"));
  for (const a of v.aufgaben) {
    const th = el("th", a.rot > 0 ? "spalte-rot" : "", "Aufgabe " + a.aufgabe);
    th.append(el("div", "klein", a.gruen + " fertig · " + a.rot + " rot"));
    head.append(th);
  }
  head.append(el("th", "", "letztes ✅"));
  const body = $("zeilen");
  body.replaceChildren();
  for (const p of v.participants) {
    const tr = el("tr");
    const name = el("td", "name", p.name);
    name.title = p.name;
    tr.append(name);
    for (const c of p.cells) {
      const td = el("td", "zelle " + c.state, cellText(c));
      td.dataset.aufgabe = String(c.aufgabe);
      tr.append(td);
    }
    tr.append(el("td", "zeit", ago(p.lastOkAgoS)));
    body.append(tr);
  }
  const top = v.topFailing;
  $("top").textContent = top
    ? "Häufigstes ❌ gerade: Aufgabe " + top.aufgabe + " · " + top.check + " – " + top.people + (top.people === 1 ? " Person" : " Personen")
    : "Gerade scheitert kein Selbsttest gehäuft.";
  $("anzahl").textContent = v.participants.length + " Teilnehmende";
  $("status").textContent = "";
}
async function tick() {
  try {
    const r = await fetch("/api/state", { cache: "no-store" });
    if (!r.ok) throw new Error("HTTP " + r.status);
    render(await r.json());
  } catch (e) {
    $("status").textContent = "Board gerade nicht erreichbar – neuer Versuch in 2 s.";
  }
}
tick();
setInterval(tick, POLL_MS);
`;

/** The CSP hash of the page's one inline script. */
export const SCRIPT_HASH = `sha256-${createHash("sha256").update(SCRIPT).digest("base64")}`;

export const PAGE_CSP = `default-src 'none'; script-src '${SCRIPT_HASH}'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const STYLE = `
body { font-family: system-ui, sans-serif; font-size: 28px; margin: 24px; background: #fff; color: #111; }
h1 { font-size: 40px; margin: 0 0 8px; }
.beitritt { font-size: 30px; background: #eef3ff; padding: 12px 16px; border-radius: 8px; margin-bottom: 12px; }
.beitritt code { font-size: 34px; font-weight: bold; }
#top { font-size: 32px; font-weight: bold; margin: 12px 0; color: #8a1020; }
#status { color: #8a1020; }
table { border-collapse: collapse; width: 100%; font-size: 28px; line-height: 1.2; }
th, td { border: 2px solid #999; padding: 4px 10px; text-align: center; white-space: nowrap; }
th { background: #f2f2f2; }
th.spalte-rot { background: #ffb3b3; }
td.name { text-align: left; font-weight: bold; max-width: 16ch; overflow: hidden; text-overflow: ellipsis; }
.klein { font-size: 20px; font-weight: normal; }
.gruen { background: #b9f0c6; }
.rot { background: #ffc2c2; }
.teil { background: #fff1a8; }
.leer { background: #f7f7f7; color: #777; }
`;

/** The page; `join` (URL and code) only for the instructor's own browser (loopback). */
export function boardPage(join: { url: string; code: string } | undefined): string {
  const joinBlock = join
    ? `<div class="beitritt">Mitmachen: <code>npm run workshop -- --kurs ${escapeHtml(join.url)} --name "Dein Name" --code ${escapeHtml(join.code)}</code></div>`
    : "";
  return `<!doctype html>
<html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Klassen-Board</title><style>${STYLE}</style></head>
<body>
<h1>Klassen-Board – Selbsttests <span class="klein" id="anzahl"></span></h1>
${joinBlock}
<div id="top"></div><div id="status"></div>
<table><thead><tr id="kopf"></tr></thead><tbody id="zeilen"></tbody></table>
<script>${SCRIPT}</script>
</body></html>
`;
}
