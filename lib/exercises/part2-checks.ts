// Self-checks for Aufgabe 2 (RAG): a sentence chunker with overlap, hit@k, and the smallest useful k.
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { loadConfig } from "../config.js";
import { splitSentences } from "../rag/sentences.js";
import { defineCheck } from "./check-runner.js";
import { countText, germanNumber } from "../util.js";
import { showValue } from "./show.js";

/** The participant's function: group sentences into chunks of at most `maxChars`, `overlap` sentences shared with the next. */
export type ChunkSentencesFn = (
  sentences: string[],
  maxChars: number,
  overlap: number,
) => string[][] | Promise<string[][]>;

/** Retrieval outcome for one question: chunk ids best first, and the ids that answer it. */
export interface RetrievalResult {
  question: string;
  retrieved: string[];
  relevant: string[];
}

/** The participant's function: the share of questions whose passage is among the first k results (0–1). */
export type HitAtKFn = (results: RetrievalResult[], k: number) => number | Promise<number>;
/** The participant's function: the smallest k whose hit@k reaches `target`, or null. */
export type SmallestKFn = (results: RetrievalResult[], target: number) => number | null | Promise<number | null>;

// ---------------------------------------------------------------------------------------------
// Task 1: chunkSentences

const S = [
  "Der Laternenbilch lebt im Bayerischen Wald.", // 43
  "Er ist nachtaktiv.", // 18
  "Seine Ohrpinsel leuchten schwach grün.", // 38
  "Im Winter hält er Winterschlaf.", // 31
  "Man sieht ihn am besten im August.", // 34
];
const pick = (...ids: number[]) => ids.map((i) => S[i] as string);

const chunkLength = (chunk: readonly string[]) => chunk.join(" ").length;

function isChunkList(value: unknown): value is string[][] {
  return Array.isArray(value) && value.every((c) => Array.isArray(c) && c.every((s) => typeof s === "string"));
}

function startsAt(sentences: readonly string[], chunk: readonly string[], at: number): boolean {
  return chunk.every((s, i) => sentences[at + i] === s);
}

/**
 * The first rule a chunk list breaks (German), or undefined: consecutive whole sentences, every sentence
 * covered in order, each chunk adds a new sentence, ≤ maxChars unless a single sentence, greedy packing,
 * and the overlap is as many of the last `overlap` sentences as fit together with the next new one.
 */
export function chunkProblem(
  value: unknown,
  sentences: readonly string[],
  maxChars: number,
  overlap: number,
): string | undefined {
  if (!isChunkList(value))
    return "Erwartet wird eine Liste von Chunks, jeder Chunk eine Liste von Sätzen (string[][]).";
  if (sentences.length === 0) return value.length === 0 ? undefined : "Ohne Sätze gibt es keine Chunks: erwartet [].";
  if (value.length === 0) return `Keine Chunks, obwohl es ${countText(sentences.length, "Satz", "Sätze")} gibt.`;
  let prevStart = -1;
  let prevEnd = -1; // index of the last sentence of the previous chunk
  for (let i = 0; i < value.length; i++) {
    const chunk = value[i] as string[];
    const label = `Chunk ${i + 1}`;
    if (chunk.length === 0) return `${label} ist leer.`;
    let start = -1;
    if (i === 0) start = startsAt(sentences, chunk, 0) ? 0 : -1;
    else {
      for (let at = prevStart + 1; at <= prevEnd + 1; at++) {
        if (startsAt(sentences, chunk, at)) {
          start = at;
          break;
        }
      }
    }
    if (start === -1) {
      return i === 0
        ? `${label} beginnt nicht mit dem ersten Satz oder ist keine Folge aufeinanderfolgender, unveränderter Sätze.`
        : `${label} ist keine Folge aufeinanderfolgender, unveränderter Sätze, die an Chunk ${i} anschließt (Sätze übersprungen, verändert oder doppelt?).`;
    }
    const end = start + chunk.length - 1;
    if (end <= prevEnd)
      return `${label} bringt keinen neuen Satz – jeder Chunk muss mindestens einen neuen Satz enthalten.`;
    if (chunk.length > 1 && chunkLength(chunk) > maxChars) {
      return `${label} hat ${chunkLength(chunk)} Zeichen (Sätze mit Leerzeichen verbunden), erlaubt sind ${maxChars}.`;
    }
    if (i > 0) {
      const shared = prevEnd - start + 1;
      if (shared > overlap)
        return `${label} wiederholt ${countText(shared, "Satz", "Sätze")} des vorigen Chunks, erlaubt sind höchstens ${overlap}.`;
      const prevLength = prevEnd - prevStart + 1;
      if (shared < Math.min(overlap, prevLength)) {
        const oneMore = sentences.slice(start - 1, prevEnd + 2);
        if (chunkLength(oneMore) <= maxChars) {
          return `${label} wiederholt nur ${countText(shared, "Satz", "Sätze")} des vorigen Chunks; ${shared + 1} hätten zusammen mit dem nächsten neuen Satz noch in ${maxChars} Zeichen gepasst.`;
        }
      }
    }
    const next = sentences[end + 1];
    const isLast = i === value.length - 1;
    if (!isLast && next !== undefined && chunkLength([...chunk, next]) <= maxChars) {
      return `${label} ist nicht voll: der nächste Satz „${next.slice(0, 40)}…“ hätte noch hineingepasst.`;
    }
    prevStart = start;
    prevEnd = end;
  }
  if (prevEnd !== sentences.length - 1)
    return `Die Chunks enden bei Satz ${prevEnd + 1} von ${sentences.length}; es fehlen Sätze am Ende.`;
  return undefined;
}

let corpusCache: string[] | undefined;

/** The first 40 sentences of the Laternenbilch text (headings removed), split like Teil 2 does. */
export function corpusSentences(): string[] {
  if (!corpusCache) {
    const text = readFileSync(join(loadConfig().root, "data", "corpus", "laternenbilch.md"), "utf8");
    const body = text
      .split("\n")
      .filter((line) => !/^\s*#/u.test(line))
      .join("\n");
    corpusCache = splitSentences(body)
      .map((s) => s.trim())
      .filter((s) => s !== "")
      .slice(0, 40);
  }
  return [...corpusCache];
}

function propertyCase(maxChars: number, overlap: number) {
  return {
    name: `40 echte Sätze aus dem Korpus, maxChars ${maxChars}, Überlappung ${overlap}: alle Regeln eingehalten`,
    input: `chunkSentences(<40 Sätze aus laternenbilch.md>, ${maxChars}, ${overlap})`,
    args: (): [string[], number, number] => [corpusSentences(), maxChars, overlap],
    expectation:
      "ganze, aufeinanderfolgende Sätze; höchstens maxChars; Chunks voll gepackt; Überlappung so groß wie möglich",
    verify: (actual: unknown, args: [string[], number, number]) => chunkProblem(actual, args[0], maxChars, overlap),
  };
}

/** Self-test of the participant's `chunkSentences` (Chunks aus ganzen Sätzen mit Überlappung). */
export const checkChunkSentences = defineCheck<ChunkSentencesFn>({
  functionName: "chunkSentences",
  title: "Chunks aus ganzen Sätzen mit Überlappung",
  cases: [
    { name: "Keine Sätze → keine Chunks", args: [[], 100, 1], expect: [] },
    { name: "Alles passt in einen Chunk", args: [S, 200, 1], expect: [pick(0, 1, 2, 3, 4)] },
    {
      name: "Ohne Überlappung: Chunks werden der Reihe nach voll gepackt",
      args: [S, 70, 0],
      expect: [pick(0, 1), pick(2, 3), pick(4)],
      unchangedInput: true,
    },
    {
      name: "Überlappung 1: jeder neue Chunk beginnt mit dem letzten Satz des vorigen",
      args: [S, 70, 1],
      expect: [pick(0, 1), pick(1, 2), pick(2, 3), pick(3, 4)],
    },
    { name: "Überlappung 2", args: [S, 110, 2], expect: [pick(0, 1, 2), pick(1, 2, 3), pick(2, 3, 4)] },
    {
      name: "Passt die volle Überlappung nicht, wird sie kleiner (hier 2 → 1)",
      args: [S, 90, 2],
      expect: [pick(0, 1), pick(1, 2, 3), pick(3, 4)],
    },
    {
      name: "Überlappung fällt weg, wenn selbst ein Satz davon nicht mehr passt",
      args: [S, 60, 1],
      expect: [pick(0), pick(1, 2), pick(3), pick(4)],
    },
    {
      name: "Ein Satz, der allein länger als maxChars ist, bildet einen eigenen Chunk (wird nicht zerschnitten)",
      args: [S, 30, 1],
      expect: [pick(0), pick(1), pick(2), pick(3), pick(4)],
    },
    propertyCase(300, 1),
    propertyCase(450, 2),
  ],
});

// ---------------------------------------------------------------------------------------------
// Task 2: hitAtK and task 3: smallestK

const R: RetrievalResult[] = [
  { question: "Wo lebt der Laternenbilch?", retrieved: ["c1", "c7", "c3", "c9"], relevant: ["c1"] }, // rank 1
  { question: "Was frisst er?", retrieved: ["c4", "c2", "c5", "c8"], relevant: ["c5"] }, // rank 3
  { question: "Wann hält er Winterschlaf?", retrieved: ["c2", "c3", "c4", "c6"], relevant: ["c11"] }, // none
  { question: "Welche Regeln gelten für Beobachter?", retrieved: ["c8", "c9", "c12", "c10"], relevant: ["c12", "c13"] }, // rank 3
];

function approx(expected: number) {
  return (actual: unknown) => {
    if (typeof actual === "number" && Math.abs(actual - expected) < 1e-9) return undefined;
    if (typeof actual !== "number" || Number.isNaN(actual))
      return "Erwartet wird eine Zahl: der Anteil der Fragen mit Treffer (0 bis 1).";
    if (actual > 1) return "Ein Anteil liegt zwischen 0 und 1 – ist das ein Prozentwert?";
    return `Der Anteil stimmt nicht: erwartet ${germanNumber(expected, { upTo: 6 })}.`;
  };
}

/** The shared results, one line per question, printed once above the cases when one fails. */
const R_CONTEXT = R.map((r, i) => `R[${i}] = ${showValue(r)}`);

/** The input of a case: `R` by name (R_CONTEXT shows it), other results in full. */
function resultsInput(fn: string, results: RetrievalResult[], second: number): string {
  return `${fn}(${results === R ? "R" : showValue(results)}, ${second})`;
}

function hitCase(name: string, results: RetrievalResult[], k: number, expected: number) {
  return {
    name,
    args: [results, k] as [RetrievalResult[], number],
    input: resultsInput("hitAtK", results, k),
    expectation: germanNumber(expected, { upTo: 6 }),
    verify: approx(expected),
  };
}

function smallestCase(name: string, results: RetrievalResult[], target: number, expected: number | null) {
  return {
    name,
    args: [results, target] as [RetrievalResult[], number],
    input: resultsInput("smallestK", results, target),
    expect: expected,
  };
}

/** Self-test of the participant's `hitAtK` (Trefferquote hit@k). */
export const checkHitAtK = defineCheck<HitAtKFn>({
  functionName: "hitAtK",
  title: "Trefferquote hit@k",
  cases: [
    hitCase("k = 1: nur der erste Platz zählt (1 von 4 Fragen)", R, 1, 0.25),
    hitCase("k = 2: Treffer auf Platz 3 zählen noch nicht", R, 2, 0.25),
    hitCase("k = 3: 3 von 4 Fragen haben einen Treffer (Anteil, nicht Prozent)", R, 3, 0.75),
    hitCase("k größer als die Liste: ganze Liste zählt, kein Fehler", R, 10, 0.75),
    hitCase(
      "Mehrere relevante Chunks in den Top-k zählen für eine Frage nur einmal",
      [
        { question: "a", retrieved: ["x1", "x2"], relevant: ["x1", "x2"] },
        { question: "b", retrieved: ["y1", "y2"], relevant: ["z9"] },
      ],
      2,
      0.5,
    ),
    hitCase("Keine Fragen → 0", [], 3, 0),
    { ...hitCase("Eingabe bleibt unverändert", R, 3, 0.75), unchangedInput: true },
  ],
  context: R_CONTEXT,
});

/** Self-test of the participant's `smallestK` (Das kleinste k, das reicht). */
export const checkSmallestK = defineCheck<SmallestKFn>({
  functionName: "smallestK",
  title: "Das kleinste k, das reicht",
  cases: [
    smallestCase("Ziel 0,25 wird schon mit k = 1 erreicht", R, 0.25, 1),
    smallestCase("Ziel 0,5 braucht k = 3 (k = 2 bringt noch nichts dazu)", R, 0.5, 3),
    smallestCase("Ziel genau erreicht (0,75 bei k = 3) zählt", R, 0.75, 3),
    smallestCase("Unerreichbares Ziel → null", R, 0.8, null),
    smallestCase("Ziel 0 → k = 1 (k beginnt bei 1)", R, 0, 1),
    smallestCase(
      "Sucht bis zur längsten Ergebnisliste (Treffer erst auf Platz 6)",
      [
        { question: "a", retrieved: ["a1", "a2", "a3", "a4", "a5", "a6"], relevant: ["a6"] },
        { question: "b", retrieved: ["b1"], relevant: ["b1"] },
      ],
      1,
      6,
    ),
  ],
  context: R_CONTEXT,
});
