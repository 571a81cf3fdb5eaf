// Self-checks for the domain transfer: the retrieval step on a second short text (Aufgabe 2), and
// arithmetic against the math server – one tool call by hand (Aufgabe 3) and a $ref plan (Aufgabe 4).
// The math checks compare numbers with exact results (decimal.js), never wording.
import { join } from "node:path";
import { Decimal } from "decimal.js";
import { loadConfig } from "../config.js";
import { loadCorpus } from "../rag/corpus.js";
import { openRagStore, type OpenRagStoreOptions, type RagStore } from "../rag/store.js";
import type { ToolClient } from "../mcp/types.js";
import { runAgent } from "../agent/loop.js";
import { ScriptedLlm } from "../agent/scripted-planner.js";
import type { PlanStep } from "../agent/plan.js";
import { defineCheck, type CheckFunction } from "./check-runner.js";
import { showValue } from "./show.js";

// ---------------------------------------------------------------------------------------------
// Aufgabe 2: the retrieval step on the second text

export type RetrieveContextFn = (store: RagStore, question: string, k: number) => string | Promise<string>;

/** The second short text (data/uebung) as its own small store, cached like Teil 2's. */
export function openUebungStore(options: Pick<OpenRagStoreOptions, "cacheDir" | "onStatus" | "embedder"> = {}): Promise<RagStore> {
  const documents = loadCorpus(join(loadConfig().root, "data", "uebung"));
  return openRagStore({ ...options, documents, name: "uebung-2", chunking: { maxChars: 300 } });
}

export const UEBUNG_QUESTIONS = [
  "Wie viele Ziffernräder hat die Zahlenmühle?",
  "Was passierte beim Hochwasser 1927?",
  "Was kostet der Eintritt ins Rechenhaus?",
] as const;

function retrievalProblem(actual: unknown, expected: string, chunks: readonly string[]): string | undefined {
  if (typeof actual !== "string") return "Erwartet wird ein Text: die Chunks der Treffer, verbunden mit CONTEXT_SEPARATOR.";
  if (actual === expected) return undefined;
  const found = chunks.filter((c) => actual.includes(c)).length;
  if (found < chunks.length) return `Von den ${chunks.length} erwarteten Chunks stehen ${found} im Text – stimmen Suche und k?`;
  const order = chunks.map((c) => actual.indexOf(c));
  if (order.some((at, i) => i > 0 && at < (order[i - 1] ?? 0))) return "Die Chunks stehen nicht in der Reihenfolge der Treffer (bester zuerst).";
  return "Die Chunks stimmen, aber nicht die Verbindung: zwischen zwei Chunks steht genau CONTEXT_SEPARATOR, sonst nichts.";
}

/** Check set for `retrieveContext`, with the expected results computed by lib on `store`. */
export async function retrieveContextCheck(store: RagStore): Promise<CheckFunction<RetrieveContextFn>> {
  const cases = [];
  for (const [question, k] of [[UEBUNG_QUESTIONS[0], 1], [UEBUNG_QUESTIONS[1], 2], [UEBUNG_QUESTIONS[2], 3]] as const) {
    const expected = await store.getRagContext(question, k);
    const chunks = expected.chunks.map((c) => c.text);
    cases.push({
      name: `„${question}“ mit k = ${k}: ${k === 1 ? "derselbe Chunk" : `dieselben ${k} Chunks`} wie lib, bester zuerst`,
      args: [store, question, k] as [RagStore, string, number],
      input: `retrieveContext(store, ${showValue(question)}, ${k})`,
      expectation: `${k === 1 ? "ein Chunk" : `${k} Chunks`} ab „${(chunks[0] ?? "").slice(0, 40)}…“`,
      verify: (actual: unknown) => retrievalProblem(actual, expected.context, chunks),
    });
  }
  return defineCheck<RetrieveContextFn>({ functionName: "retrieveContext", title: "Abruf: Frage einbetten → suchen → Top-k verbinden", cases });
}

// ---------------------------------------------------------------------------------------------
// Aufgabe 3: one arithmetic tool call by hand

export interface MathCall {
  tool: string;
  arguments: Record<string, unknown>;
}

export type RechneAufrufFn = (call: MathCall, client: ToolClient) => string | Promise<string>;

const digits = (value: string | number) => new Decimal(value).toFixed();

function numberProblem(actual: unknown, expected: string): string | undefined {
  if (typeof actual !== "string") return "Erwartet wird das Ergebnis als Text mit allen Ziffern (z. B. aus result.data).";
  const cleaned = actual.trim();
  if (cleaned === expected) return undefined;
  try {
    if (new Decimal(cleaned).eq(expected)) return undefined;
  } catch {
    return `„${cleaned.slice(0, 60)}“ ist keine Zahl. Gib nur das Ergebnis zurück.`;
  }
  return `Die Zahl stimmt nicht: erwartet ${expected}.`;
}

function mathCase(name: string, call: MathCall, expected: string, client: () => ToolClient) {
  return {
    name,
    args: () => [call, client()] as [MathCall, ToolClient],
    input: `rechneAufruf(${showValue(call)}, client)`,
    expectation: expected,
    verify: (actual: unknown) => numberProblem(actual, expected),
  };
}

function errorCase(name: string, call: MathCall, client: () => ToolClient) {
  return {
    name,
    args: () => [call, client()] as [MathCall, ToolClient],
    input: `rechneAufruf(${showValue(call)}, client)`,
    expectation: "ein Text, der mit „Fehler:“ beginnt (kein throw)",
    verify: (actual: unknown) =>
      typeof actual === "string" && actual.startsWith("Fehler:") && actual.length > "Fehler:".length + 3
        ? undefined
        : "Meldet der Server einen Fehler (isError), gib „Fehler: “ und seine Meldung zurück.",
  };
}

/** Check set for `rechneAufruf`, run against the math server behind `client`. */
export function rechneAufrufCheck(client: ToolClient): CheckFunction<RechneAufrufFn> {
  const get = () => client;
  return defineCheck<RechneAufrufFn>({
    functionName: "rechneAufruf",
    title: "Ein Rechen-Aufruf von Hand",
    cases: [
      mathCase("58952 × 21448 exakt", { tool: "multiplikation", arguments: { a: 58952, b: 21448 } }, "1264402496", get),
      mathCase("0,1 + 0,2 ohne Rundungsfehler", { tool: "addition", arguments: { a: 0.1, b: 0.2 } }, "0.3", get),
      mathCase(
        "Ganze Zahlen über 2^53 als Text: alle Ziffern",
        { tool: "multiplikation", arguments: { a: "9007199254740993", b: "1000" } },
        digits("9007199254740993000"),
        get,
      ),
      mathCase("Division, die aufgeht", { tool: "division", arguments: { a: 1264402496, b: 21448 } }, "58952", get),
      errorCase("Division durch 0 → Fehlermeldung des Servers", { tool: "division", arguments: { a: 1, b: 0 } }, get),
      errorCase("Unbekanntes Werkzeug → Fehlermeldung", { tool: "wurzel", arguments: { a: 2 } }, get),
    ],
  });
}

// ---------------------------------------------------------------------------------------------
// Aufgabe 4: a $ref plan for a distance in two legs (v1·t1 + v2·t2)

export type StreckenPlanFn = (v1: number, t1: number, v2: number, t2: number) => PlanStep[] | Promise<PlanStep[]>;

/** Runs `steps` with lib's agent loop (a scripted model sends the plan) and returns tool results by id. */
export async function runMathPlan(steps: PlanStep[], client: ToolClient): Promise<Record<string, unknown>> {
  const llm = new ScriptedLlm([{ steps, final: null }, { steps: [], final: "fertig" }], { whenExhausted: "repeat-last" });
  const result = await runAgent({ question: "Strecke berechnen", llm, tools: client, maxIterations: 3, planOutput: "grammar" });
  return result.toolResults;
}

function planProblem(steps: unknown): string | undefined {
  if (!Array.isArray(steps) || steps.length < 2) return "Erwartet werden mindestens zwei Schritte: erst die Produkte, dann die Summe.";
  const first = (steps[0] as PlanStep | undefined)?.tools ?? [];
  if (first.filter((t) => t.name === "multiplikation").length !== 2) return "Im ersten Schritt stehen beide Multiplikationen (sie laufen gleichzeitig).";
  const later = steps.slice(1).flatMap((s) => (s as PlanStep).tools ?? []);
  const sum = later.find((t) => t.name === "addition");
  if (!sum) return "In einem späteren Schritt fehlt die addition.";
  if (!JSON.stringify(sum.arguments).includes("$ref")) return "Die addition verweist mit $ref auf die Produkte, statt Zahlen einzutragen.";
  return undefined;
}

function resultText(value: unknown): string | undefined {
  if (value && typeof value === "object" && "text" in value) return String((value as { text: unknown }).text);
  return undefined;
}

function planCase(v1: number, t1: number, v2: number, t2: number, client: () => ToolClient) {
  const expected = new Decimal(v1).times(t1).plus(new Decimal(v2).times(t2)).toFixed();
  return {
    name: `${v1} km/h · ${t1} h + ${v2} km/h · ${t2} h = ${expected} km`,
    call: async (fn: StreckenPlanFn) => {
      const steps = await fn(v1, t1, v2, t2);
      const problem = planProblem(steps);
      if (problem) return { problem };
      const results = await runMathPlan(steps, client());
      const sum = steps.slice(1).flatMap((s) => s.tools).find((t) => t.name === "addition");
      return { summe: sum ? resultText(results[sum.id]) : undefined };
    },
    input: `streckenPlan(${v1}, ${t1}, ${v2}, ${t2})`,
    expectation: `Ergebnis der addition: ${expected}`,
    verify: (actual: unknown) => {
      const out = actual as { problem?: string; summe?: string };
      if (out.problem) return out.problem;
      if (out.summe === undefined) return "Die addition lief nicht (stimmen ids und $ref-Pfade, z. B. {\"$ref\": \"teil1.result\"}?).";
      return numberProblem(out.summe, expected);
    },
  };
}

/** Check set for `streckenPlan`: the plan runs against the math server; the sum must be exact. */
export function streckenPlanCheck(client: ToolClient): CheckFunction<StreckenPlanFn> {
  const get = () => client;
  return defineCheck<StreckenPlanFn>({
    functionName: "streckenPlan",
    title: "Ein $ref-Plan für den Rechen-Server",
    cases: [planCase(87.5, 3, 112.25, 2, get), planCase(58952, 21448, 1, 1, get), planCase(0.1, 3, 0.2, 3, get)],
  });
}
