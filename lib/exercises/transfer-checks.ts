// Self-checks for the domain transfer: the retrieval step on a second short text (Aufgabe 2), and
// arithmetic against the math server – its system prompt and one tool call by hand (Aufgabe 3), and a
// $ref plan (Aufgabe 4). The math checks compare numbers with exact results (decimal.js), never wording;
// the prompt check looks for what the prompt must carry (catalog, rule, format), not for phrasing.
import { Decimal } from "decimal.js";
import type { RagContext, RagStore } from "../rag/store.js";
import type { ToolClient } from "../mcp/types.js";
import { runAgent } from "../agent/loop.js";
import { ScriptedLlm } from "../testing/scripted-llm.js";
import type { PlanStep } from "../plan/plan.js";
import { formatToolsForPrompt } from "../schema/text.js";
import { defineCheck } from "./check-runner.js";
import { mathClientForChecks, uebungStoreForChecks } from "./transfer-resources.js";
import { germanNumber } from "../util.js";
import { showValue } from "./show.js";

/** The first case may open the index (embedding model) or start the math server. */
const FIRST_USE_TIMEOUT_MS = 60_000;

// ---------------------------------------------------------------------------------------------
// Aufgabe 2: the retrieval step on the second text

/** The two steps lib's store offers: embed a text, search the index with a vector (best first). */
export interface RetrievalParts {
  /** The embedding of `text`. */
  embed(text: string): Promise<Float32Array>;
  /** The k chunks closest to `vector`, best first. */
  search(vector: ArrayLike<number>, k: number): Promise<{ text: string; score: number }[]>;
}

/** The participant's function: embed the question, search k chunks, join their texts with CONTEXT_SEPARATOR. */
export type RetrieveContextFn = (question: string, k: number, index: RetrievalParts) => string | Promise<string>;

/** The retrieval parts of `store` (what the notebook passes to retrieveContext). */
export function retrievalParts(store: RagStore): RetrievalParts {
  return { embed: (text) => store.embedder.embedOne(text), search: async (vector, k) => store.searchVector(vector, k) };
}

/** Opens the store only when the participant's function first uses it. */
const lazyParts: RetrievalParts = {
  embed: async (text) => retrievalParts(await uebungStoreForChecks()).embed(text),
  search: async (vector, k) => retrievalParts(await uebungStoreForChecks()).search(vector, k),
};

export const UEBUNG_QUESTIONS = [
  "Wie viele Ziffernräder hat die Zahlenmühle?",
  "Was passierte beim Hochwasser 1927?",
  "Was kostet der Eintritt ins Rechenhaus?",
  "Wer hat die Zahlenmühle gebaut?",
] as const;

function retrievalProblem(actual: unknown, expected: RagContext | undefined): string | undefined {
  if (!expected) return "Die Vergleichssuche lief nicht.";
  if (typeof actual !== "string")
    return "Erwartet wird ein Text: die Chunks der Treffer, verbunden mit CONTEXT_SEPARATOR.";
  if (actual === expected.context) return undefined;
  const chunks = expected.chunks.map((c) => c.text);
  const found = chunks.filter((c) => actual.includes(c)).length;
  if (found < chunks.length)
    return `Von den ${chunks.length} erwarteten Chunks stehen ${found} im Text – stimmen Suche und k?`;
  const order = chunks.map((c) => actual.indexOf(c));
  if (order.some((at, i) => i > 0 && at < (order[i - 1] ?? 0)))
    return "Die Chunks stehen nicht in der Reihenfolge der Treffer (bester zuerst).";
  return "Die Chunks stimmen, aber nicht die Verbindung: zwischen zwei Chunks steht genau CONTEXT_SEPARATOR, sonst nichts.";
}

function retrievalCase(question: string, k: number) {
  let expected: RagContext | undefined;
  return {
    name: `„${question}“ mit k = ${k}: ${k === 1 ? "derselbe Chunk" : `dieselben ${k} Chunks`} wie lib, bester zuerst`,
    input: `retrieveContext(${showValue(question)}, ${k}, index)`,
    call: async (fn: RetrieveContextFn) => {
      const actual = await fn(question, k, lazyParts);
      expected = await (await uebungStoreForChecks()).getRagContext(question, k);
      return actual;
    },
    expectation: `${k === 1 ? "ein Chunk" : `${k} Chunks`} wie getRagContext, verbunden mit CONTEXT_SEPARATOR`,
    verify: (actual: unknown) => retrievalProblem(actual, expected),
  };
}

/** Self-test of the participant's `retrieveContext` (Abruf: Frage einbetten → suchen → Top-k verbinden). */
export const checkRetrieveContext = defineCheck<RetrieveContextFn>({
  functionName: "retrieveContext",
  title: "Abruf: Frage einbetten → suchen → Top-k verbinden",
  timeoutMs: FIRST_USE_TIMEOUT_MS,
  cases: [
    retrievalCase(UEBUNG_QUESTIONS[0], 1),
    retrievalCase(UEBUNG_QUESTIONS[1], 2),
    retrievalCase(UEBUNG_QUESTIONS[2], 3),
    retrievalCase(UEBUNG_QUESTIONS[3], 2),
  ],
});

// ---------------------------------------------------------------------------------------------
// Aufgabe 3a: the system prompt for arithmetic questions

/** The participant's function: a system prompt for arithmetic questions over the math server's catalog. */
export type RechenPromptFn = (katalog: string) => string | Promise<string>;

const twoNumbers = {
  type: "object",
  properties: { a: { type: "number" }, b: { type: "number" } },
  required: ["a", "b"],
};
const CATALOG_A = formatToolsForPrompt([
  { name: "multiplikation", description: "Multipliziert a und b exakt.", inputSchema: twoNumbers },
  { name: "division", description: "Teilt a durch b exakt.", inputSchema: twoNumbers },
]);
const CATALOG_B = formatToolsForPrompt([
  { name: "potenz", description: "Rechnet a hoch b exakt.", inputSchema: twoNumbers },
]);

/** "nie selbst rechnen", "nicht im Kopf", "Kopfrechnen ist verboten" – a ban on computing without a tool. */
const NO_MENTAL_ARITHMETIC = [
  /\b(?:nie|niemals|nicht|keine?n?)\b[^.!?\n]{0,40}(?:selbst|selber|Kopf)/iu,
  /(?:Kopfrechnen|selbst rechnen|selber rechnen)[^.!?\n]{0,30}(?:verboten|nicht erlaubt|untersagt)/iu,
];

function promptCase(
  name: string,
  catalog: string,
  expectation: string,
  problem: (prompt: string) => string | undefined,
) {
  return {
    name,
    args: [catalog] as [string],
    input: `rechenPrompt(${catalog === CATALOG_A ? "katalogA" : "katalogB"})`,
    expectation,
    verify: (actual: unknown) => (typeof actual === "string" ? problem(actual) : "Erwartet wird der Prompt als Text."),
  };
}

/** Check set for `rechenPrompt`: role, the ban on mental arithmetic, the answer format and the catalog. */
export const checkRechenPrompt = defineCheck<RechenPromptFn>({
  functionName: "rechenPrompt",
  title: "Ein System-Prompt für Rechenfragen",
  cases: [
    promptCase("Enthält den Katalog wörtlich", CATALOG_A, "der Katalog katalogA im Prompt", (p) =>
      p.includes(CATALOG_A) ? undefined : "Der Katalog fehlt – hänge den Parameter katalog unverändert an.",
    ),
    promptCase(
      "Legt die Rolle fest: ein Assistent für Rechenfragen",
      CATALOG_A,
      "z. B. „Du bist ein Rechenassistent.“",
      (p) =>
        /\b(?:Du bist|Du hilfst|Deine (?:Rolle|Aufgabe))\b/iu.test(p) && /rechn|mathe/iu.test(p)
          ? undefined
          : "Sag dem Modell, wer es ist: „Du bist ein Rechenassistent …“.",
    ),
    promptCase("Verbietet das Kopfrechnen", CATALOG_A, "z. B. „Rechne nie selbst, rufe ein Tool auf.“", (p) =>
      NO_MENTAL_ARITHMETIC.some((rule) => rule.test(p))
        ? undefined
        : "Verbiete ausdrücklich, selbst (im Kopf) zu rechnen.",
    ),
    promptCase(
      'Beschreibt das Antwortformat mit "tool" und "arguments"',
      CATALOG_A,
      "das JSON-Format, z. B. HALF_AGENT_FORMAT",
      (p) =>
        p.includes('"tool"') && p.includes('"arguments"')
          ? undefined
          : "Das Antwortformat fehlt: übernimm HALF_AGENT_FORMAT.",
    ),
    promptCase(
      "Funktioniert mit einem anderen Katalog (nichts fest eingebaut)",
      CATALOG_B,
      "katalogB im Prompt, katalogA nicht",
      (p) =>
        p.includes(CATALOG_B) && !p.includes("multiplikation")
          ? undefined
          : "Baue den Prompt aus dem Parameter katalog, nicht aus einem festen Text.",
    ),
  ],
  context: [`katalogA = ${showValue(CATALOG_A)}`, `katalogB = ${showValue(CATALOG_B)}`],
});

// ---------------------------------------------------------------------------------------------
// Aufgabe 3b: one arithmetic tool call by hand

export interface MathCall {
  tool: string;
  arguments: Record<string, unknown>;
}

/** The participant's function: run one math call by hand on `client` and return the result as text. */
export type RechneAufrufFn = (call: MathCall, client: ToolClient) => string | Promise<string>;

const digits = (value: string | number) => new Decimal(value).toFixed();

function numberProblem(actual: unknown, expected: string): string | undefined {
  if (typeof actual !== "string")
    return "Erwartet wird das Ergebnis als Text mit allen Ziffern (z. B. aus result.data).";
  const cleaned = actual.trim();
  if (cleaned === expected) return undefined;
  try {
    if (new Decimal(cleaned).eq(expected)) return undefined;
  } catch {
    return `„${cleaned.slice(0, 60)}“ ist keine Zahl. Gib nur das Ergebnis zurück.`;
  }
  return `Die Zahl stimmt nicht: erwartet ${expected}.`;
}

/** Starts the math server only when the participant's function first calls it. */
const lazyMath: ToolClient = {
  listTools: async () => (await mathClientForChecks()).listTools(),
  callTool: async (name, args, options) => (await mathClientForChecks()).callTool(name, args, options),
  close: async () => {},
};

function mathCase(name: string, call: MathCall, expected: string) {
  return {
    name,
    args: () => [call, lazyMath] as [MathCall, ToolClient],
    input: `rechneAufruf(${showValue(call)}, client)`,
    expectation: expected,
    verify: (actual: unknown) => numberProblem(actual, expected),
  };
}

function errorCase(name: string, call: MathCall) {
  return {
    name,
    args: () => [call, lazyMath] as [MathCall, ToolClient],
    input: `rechneAufruf(${showValue(call)}, client)`,
    expectation: "ein Text, der mit „Fehler:“ beginnt (kein throw)",
    verify: (actual: unknown) =>
      typeof actual === "string" && actual.startsWith("Fehler:") && actual.length > "Fehler:".length + 3
        ? undefined
        : "Meldet der Server einen Fehler (isError), gib „Fehler: “ und seine Meldung zurück.",
  };
}

/** Check set for `rechneAufruf`, run against the math server. */
export const checkRechneAufruf = defineCheck<RechneAufrufFn>({
  functionName: "rechneAufruf",
  title: "Ein Rechen-Aufruf von Hand",
  timeoutMs: FIRST_USE_TIMEOUT_MS,
  cases: [
    mathCase("58952 × 21448 exakt", { tool: "multiplikation", arguments: { a: 58952, b: 21448 } }, "1264402496"),
    mathCase("0,1 + 0,2 ohne Rundungsfehler", { tool: "addition", arguments: { a: 0.1, b: 0.2 } }, "0.3"),
    mathCase(
      "Ganze Zahlen über 2^53 als Text: alle Ziffern",
      { tool: "multiplikation", arguments: { a: "9007199254740993", b: "3" } },
      digits("27021597764222979"),
    ),
    mathCase("Division, die aufgeht", { tool: "division", arguments: { a: 1264402496, b: 21448 } }, "58952"),
    errorCase("Division durch 0 → Fehlermeldung des Servers", { tool: "division", arguments: { a: 1, b: 0 } }),
    errorCase("Unbekanntes Werkzeug → Fehlermeldung", { tool: "wurzel", arguments: { a: 2 } }),
  ],
});

// ---------------------------------------------------------------------------------------------
// Aufgabe 4: a $ref plan for a distance in two legs (v1·t1 + v2·t2)

/** The participant's function: a $ref plan for the math server (two legs, speed × time, then the sum). */
export type StreckenPlanFn = (v1: number, t1: number, v2: number, t2: number) => PlanStep[] | Promise<PlanStep[]>;

/** Runs `steps` with lib's agent loop (a scripted model sends the plan) and returns tool results by id. */
export async function runMathPlan(steps: PlanStep[], client: ToolClient): Promise<Record<string, unknown>> {
  const llm = new ScriptedLlm(
    [
      { steps, final: null },
      { steps: [], final: "fertig" },
    ],
    { whenExhausted: "repeat-last" },
  );
  const result = await runAgent({
    question: "Strecke berechnen",
    llm,
    tools: client,
    maxIterations: 3,
    planOutput: "grammar",
  });
  return result.toolResults;
}

function planProblem(steps: unknown): string | undefined {
  if (!Array.isArray(steps) || steps.length < 2)
    return "Erwartet werden mindestens zwei Schritte: erst die Produkte, dann die Summe.";
  const first = (steps[0] as PlanStep | undefined)?.tools ?? [];
  if (first.filter((t) => t.name === "multiplikation").length !== 2)
    return "Im ersten Schritt stehen beide Multiplikationen (sie laufen gleichzeitig).";
  const later = steps.slice(1).flatMap((s) => (s as PlanStep).tools ?? []);
  const sum = later.find((t) => t.name === "addition");
  if (!sum) return "In einem späteren Schritt fehlt die addition.";
  if (!JSON.stringify(sum.arguments).includes("$ref"))
    return "Die addition verweist mit $ref auf die Produkte, statt Zahlen einzutragen.";
  return undefined;
}

function resultText(value: unknown): string | undefined {
  if (value && typeof value === "object" && "text" in value) return String((value as { text: unknown }).text);
  return undefined;
}

function planCase(v1: number, t1: number, v2: number, t2: number) {
  const expected = new Decimal(v1).times(t1).plus(new Decimal(v2).times(t2)).toFixed();
  const de = (x: number) => germanNumber(x, { upTo: 6 });
  return {
    name: `${de(v1)} km/h · ${de(t1)} h + ${de(v2)} km/h · ${de(t2)} h = ${de(Number(expected))} km`,
    call: async (fn: StreckenPlanFn) => {
      const steps = await fn(v1, t1, v2, t2);
      const problem = planProblem(steps);
      if (problem) return { problem };
      const results = await runMathPlan(steps, await mathClientForChecks());
      const sum = steps
        .slice(1)
        .flatMap((s) => s.tools)
        .find((t) => t.name === "addition");
      return { summe: sum ? resultText(results[sum.id]) : undefined };
    },
    input: `streckenPlan(${v1}, ${t1}, ${v2}, ${t2})`,
    expectation: `Ergebnis der addition: ${expected}`,
    verify: (actual: unknown) => {
      const out = actual as { problem?: string; summe?: string };
      if (out.problem) return out.problem;
      if (out.summe === undefined)
        return 'Die addition lief nicht (stimmen ids und $ref-Pfade, z. B. {"$ref": "teil1.text"}?).';
      return numberProblem(out.summe, expected);
    },
  };
}

/** Check set for `streckenPlan`: the plan runs against the math server; the sum must be exact. */
export const checkStreckenPlan = defineCheck<StreckenPlanFn>({
  functionName: "streckenPlan",
  title: "Ein $ref-Plan für den Rechen-Server",
  timeoutMs: FIRST_USE_TIMEOUT_MS,
  cases: [
    planCase(87.5, 3, 112.25, 2),
    planCase(58952, 21448, 1, 1),
    planCase(0.1, 3, 0.2, 3),
    planCase(120, 0.75, 80, 1.25),
  ],
});
