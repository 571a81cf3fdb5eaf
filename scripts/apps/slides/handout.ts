// The printable notes handout of a deck (`npm run slides -- --notizen`): one row per slide — its number,
// its title, the slide itself small (its text, code, outputs and pictures as on the slide, in small type)
// and its speaker notes — as one self-contained HTML file (no request; print it from the browser, A4).
import { escapeHtml } from "../../../lib/notebook/index.js";
import type { Slide } from "./deck.js";

const CSS = `
body { font-family: "DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif; font-size: 11pt; color: #1d1d1f; margin: 12mm; }
h1 { font-size: 18pt; margin: 0 0 4mm 0; color: #0b3d91; }
.slide { display: grid; grid-template-columns: 42% 1fr; gap: 5mm; border-top: 1px solid #c5ccd3; padding: 3mm 0;
  break-inside: avoid; page-break-inside: avoid; }
.slide h2 { grid-column: 1 / -1; font-size: 12pt; margin: 0; color: #0b3d91; }
.slide h2 .n { color: #5a6570; font-weight: normal; margin-right: 2mm; }
.slide h2 .t { color: #5a6570; font-weight: normal; float: right; font-size: 10pt; }
.mini { font-size: 7pt; line-height: 1.25; max-height: 62mm; overflow: hidden; border: 1px solid #d5dae0; padding: 2mm;
  background: #fdfdfb; }
.mini h1, .mini h2, .mini h3 { font-size: 9pt; margin: 0 0 1mm 0; color: #0b3d91; }
.mini p, .mini li { margin: 0.5mm 0; }
.mini pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 1mm 0; font-size: 6.5pt; }
.mini pre .line { display: block; }
.mini pre.code { background: #f0f2f5; border-left: 2px solid #0b3d91; padding-left: 1mm; }
.mini pre.out { border-left: 2px solid #9aa5b1; padding-left: 1mm; }
.mini svg, .mini img { max-width: 100%; height: auto; max-height: 45mm; }
.mini table { font-size: 6.5pt !important; border-collapse: collapse; }
.mini table * { font-size: 6.5pt !important; }
.notes { font-size: 10.5pt; }
.notes p, .notes li { margin: 1mm 0; }
.none { color: #a33; font-style: italic; }
@page { size: A4; margin: 12mm; }
@media print { body { margin: 0; } }
`;

/** Minutes:seconds of a slide's timing ("1:20"). */
const clock = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;

/** The handout of `slides` (their notes attached) as one HTML file. */
export function handoutHtml(title: string, slides: Slide[]): string {
  const rows = slides.flatMap((stack, h) =>
    stack.map((sub, v) => {
      const number = stack.length > 1 ? `${h + 1}.${v + 1}` : `${h + 1}`;
      const timing = sub.timing === undefined ? "" : `<span class="t">≈ ${clock(sub.timing)} min</span>`;
      const mini = sub.blocks.map((b) => b.html).join("\n");
      const notes = sub.notes.length > 0 ? sub.notes.join("\n") : `<p class="none">Keine Notizen zu dieser Folie.</p>`;
      return `<section class="slide"><h2><span class="n">${number}</span>${escapeHtml(sub.title)}${timing}</h2>
<div class="mini">${mini}</div>
<div class="notes">${notes}</div></section>`;
    }),
  );
  return `<!doctype html>
<html lang="de">
<head>
<meta charset="utf-8">
<title>Sprechernotizen: ${escapeHtml(title)}</title>
<style>${CSS}</style>
</head>
<body>
<h1>Sprechernotizen: ${escapeHtml(title)}</h1>
${rows.join("\n")}
</body>
</html>
`;
}
