// A vote (patterns/vote.ts) as a small HTML table: one row per outcome key with its votes, runs and
// answer, the winner highlighted, red-flagged runs in a last row, the verdict below.
import type { VoteResult } from "../patterns/vote.js";
import { mathSafeHtml } from "../notebook/math-safe.js";
import { escapeHtml, htmlTable, shortCell, type HtmlColumn } from "./html.js";
import { countText } from "../util.js";

const COLUMNS: readonly HtmlColumn[] = [
  { title: "Ergebnis (Schlüssel)", width: "22%" },
  { title: "Stimmen", align: "right", width: "10%" },
  { title: "Läufe", width: "14%" },
  { title: "Antwort" },
];

/** The vote as an HTML table; the winner's row green and bold, the red-flagged runs' row red. */
export function voteHtml(
  result: Pick<VoteResult, "decision" | "runs" | "redFlagged" | "runsUsed" | "runsSaved">,
): string {
  const { tally, winner } = result.decision;
  const rows = tally.map((t) => [
    `<code>${escapeHtml(t.key)}</code>`,
    String(t.count),
    t.runs.map((r) => r + 1).join(", "),
    shortCell(t.final),
  ]);
  const flagged = result.runs.filter((r) => r.key === null);
  if (flagged.length > 0)
    rows.push([
      "ungültig",
      String(flagged.length),
      flagged.map((r) => r.run + 1).join(", "),
      shortCell(flagged[0]?.redFlag ?? ""),
    ]);
  const rowStyle = (i: number) =>
    i < tally.length ? (tally[i]?.key === winner ? "background:#e6f4ea;font-weight:bold" : undefined) : "color:#a00";
  const verdict = winner ? `Gewinner: <code>${escapeHtml(winner)}</code>` : "Kein Gewinner – nichts übernommen";
  const table = htmlTable(COLUMNS, rows, { className: "kit-vote-table", rowStyle });
  return mathSafeHtml(
    `${table}<p>${verdict}; ${countText(result.runsUsed, "Lauf", "Läufe")}, ${result.runsSaved} gespart.</p>`,
  );
}
