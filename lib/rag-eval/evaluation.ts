// Retrieval evaluation on a Q&A set: each question names the document and the passage that answers it.
// A retrieved chunk is a hit when it comes from that document and covers at least half of the passage
// (or the passage covers at least half of the chunk, for passages longer than a chunk).
import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";
import type { CorpusDocument } from "../rag/chunking.js";
import { IndexStoreError, RagFileNotFoundError, RagInputError } from "../rag/errors.js";
import { errorText } from "../util.js";

/** One question of the Q&A set and where its answer stands. */
export interface QaItem {
  id: string;
  question: string;
  document: string;
  passage: string;
  answer: string;
}

// Public types are plain interfaces (no zod in the declarations notebooks type-check against);
// `satisfies` ties the schema's output to them.
const qaSchema = z.array(
  z.object({
    id: z.union([z.string(), z.number()]).transform(String),
    question: z.string().min(1),
    document: z.string().min(1),
    passage: z.string().min(1),
    answer: z.string(),
  }),
) satisfies z.ZodType<QaItem[]>;

export interface PassageLocation {
  document: string;
  start: number;
  end: number;
}

/** Reads and validates a Q&A file (JSON array of { id, question, document, passage, answer }). */
export function loadQaSet(file: string): QaItem[] {
  if (!existsSync(file)) throw new RagFileNotFoundError(file, "Q&A-Datei");
  try {
    return qaSchema.parse(JSON.parse(readFileSync(file, "utf8")));
  } catch (error) {
    throw new IndexStoreError(file, `keine gültige Q&A-Liste: ${errorText(error).slice(0, 400)}`);
  }
}

/** Where `passage` is in `text`: exact match first, then ignoring differences in whitespace. */
export function locatePassage(text: string, passage: string): { start: number; end: number } | undefined {
  const exact = text.indexOf(passage);
  if (exact !== -1) return { start: exact, end: exact + passage.length };
  // Collapse whitespace runs on both sides and map positions back to the original text.
  const map: number[] = [];
  let normalized = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? "";
    if (/\s/u.test(ch)) {
      if (normalized.endsWith(" ")) continue;
      normalized += " ";
    } else normalized += ch;
    map.push(i);
  }
  const needle = passage.trim().replace(/\s+/gu, " ");
  const at = normalized.indexOf(needle);
  if (at === -1 || needle === "") return undefined;
  const start = map[at] ?? 0;
  const end = (map[at + needle.length - 1] ?? start) + 1;
  return { start, end };
}

/** Locates every item's passage; throws RagInputError listing the items whose passage is not found. */
export function locatePassages(items: readonly QaItem[], documents: readonly CorpusDocument[]): PassageLocation[] {
  const missing: string[] = [];
  const located = items.map((item) => {
    const doc = documents.find((d) => d.name === item.document);
    const where = doc ? locatePassage(doc.text, item.passage) : undefined;
    if (!where) missing.push(`${item.id} (${doc ? "Passage nicht im Dokument" : `Dokument ${item.document} fehlt`})`);
    return { document: item.document, start: where?.start ?? 0, end: where?.end ?? 0 };
  });
  if (missing.length > 0) {
    throw new RagInputError(`Q&A-Einträge passen nicht zum Korpus: ${missing.join(", ")}.`, missing);
  }
  return located;
}

/** Whether a chunk (document + offsets) substantially overlaps the passage. */
export function isHit(chunk: { document: string; start: number; end: number }, passage: PassageLocation): boolean {
  if (chunk.document !== passage.document) return false;
  const overlap = Math.min(chunk.end, passage.end) - Math.max(chunk.start, passage.start);
  if (overlap <= 0) return false;
  return overlap >= 0.5 * (passage.end - passage.start) || overlap >= 0.5 * (chunk.end - chunk.start);
}

export interface RetrievalMetrics {
  questions: number;
  hitAt1: number;
  hitAt3: number;
  hitAt5: number;
  /** Mean reciprocal rank of the first hit within the ranked list (0 when none). */
  mrr: number;
}

/** Metrics from the 1-based rank of the first hit per question (0 = no hit in the list). */
export function retrievalMetrics(firstHitRanks: readonly number[]): RetrievalMetrics {
  const n = firstHitRanks.length;
  const share = (k: number) => (n === 0 ? 0 : firstHitRanks.filter((r) => r >= 1 && r <= k).length / n);
  const mrr = n === 0 ? 0 : firstHitRanks.reduce((sum, r) => sum + (r >= 1 ? 1 / r : 0), 0) / n;
  return { questions: n, hitAt1: share(1), hitAt3: share(3), hitAt5: share(5), mrr };
}

/** 1-based rank of the first hit among `ranked` chunks, 0 if none. */
export function firstHitRank(
  ranked: ReadonlyArray<{ document: string; start: number; end: number }>,
  passage: PassageLocation,
): number {
  const i = ranked.findIndex((c) => isHit(c, passage));
  return i === -1 ? 0 : i + 1;
}

/** A metric as German text: three decimals, decimal comma ("0,250"). */
export const formatMetric = (x: number) =>
  x.toLocaleString("de-DE", { minimumFractionDigits: 3, maximumFractionDigits: 3 });

/** A plain-text table: one row per method. */
export function formatMetricsTable(
  rows: ReadonlyArray<{ method: string; metrics: RetrievalMetrics }>,
  mrrDepth: number,
): string {
  const header = ["Methode", "Fragen", "hit@1", "hit@3", "hit@5", `MRR@${mrrDepth}`];
  const body = rows.map(({ method, metrics: m }) => [
    method,
    String(m.questions),
    formatMetric(m.hitAt1),
    formatMetric(m.hitAt3),
    formatMetric(m.hitAt5),
    formatMetric(m.mrr),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    "| " + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(" | ") + " |";
  const rule = "|" + widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : "-".repeat(w + 1) + ":")).join("|") + "|";
  return [line(header), rule, ...body.map(line)].join("\n");
}
