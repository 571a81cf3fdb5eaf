// Grammar-constrained JSON on the tiny GGUF: each schema prompted `perSchema` times (temperatures 0, 0.5, 0.8, 1
// in turn), every answer parsed and checked with ajv. test/tiny-models/tiny-llama.test.ts runs 4 a schema;
// the soak (18 a schema) is `npm run bench -- tiny-grammar`.
import { Ajv2020 } from "ajv/dist/2020.js";
import type { Llama, LlamaChatSession, LlamaContextSequence } from "node-llama-cpp";
import { toGrammarDialect } from "../../lib/schema/grammar.js";

// Standard JSON Schemas; node-llama-cpp 3.22 knows `oneOf` but not `anyOf` (an unknown keyword turns
// into "any JSON" in its grammar), so anyOf is renamed for the grammar and checked with ajv as written.
export const GRAMMAR_SCHEMAS: Record<string, Record<string, unknown>> = {
  person: {
    type: "object",
    properties: { name: { type: "string" }, alter: { type: "integer" } },
    required: ["name", "alter"],
  },
  hotel: {
    type: "object",
    properties: {
      stadt: { type: "string" },
      naechte: { type: "integer" },
      preis: { type: "number" },
      fruehstueck: { type: "boolean" },
    },
    required: ["stadt", "naechte", "preis", "fruehstueck"],
  },
  reise: {
    type: "object",
    properties: {
      verkehrsmittel: { enum: ["Zug", "Flug", "Auto"] },
      ziele: { type: "array", items: { type: "string" } },
      tage: { type: "array", items: { type: "integer" }, minItems: 2 },
    },
    required: ["verkehrsmittel", "ziele", "tage"],
  },
  plan: {
    type: "object",
    properties: {
      schritte: {
        type: "array",
        items: {
          type: "object",
          properties: {
            id: { type: "integer" },
            werkzeug: { type: "string" },
            argumente: {
              type: "object",
              properties: { ort: { type: "string" }, anzahl: { type: "integer" } },
              required: ["ort", "anzahl"],
            },
          },
          required: ["id", "werkzeug", "argumente"],
        },
      },
    },
    required: ["schritte"],
  },
  gemischt: {
    type: "object",
    properties: {
      wert: { anyOf: [{ type: "string" }, { type: "integer" }, { type: "null" }] },
      notiz: { anyOf: [{ type: "string", maxLength: 8 }, { type: "boolean" }] },
    },
    required: ["wert", "notiz"],
  },
  zahlen: { type: "array", items: { type: "number" } },
};

const PROMPTS = [
  "Plane eine Reise nach Köln.",
  "Antworte als JSON.",
  "Hotel in Wien, zwei Nächte?",
  "Was ist günstig?",
  "Bitte ein Beispiel.",
];
const TEMPERATURES = [0, 0.5, 0.8, 1];

export interface GrammarRounds {
  runs: number;
  valid: number;
  /** Numbers written as 1e5 (the grammar must not allow them). */
  exponentForms: number;
  /** One line per answer that did not parse or broke its schema. */
  failures: string[];
  summary: string;
}

export async function grammarRounds(
  llama: Llama,
  session: LlamaChatSession,
  sequence: LlamaContextSequence,
  perSchema: number,
): Promise<GrammarRounds> {
  const ajv = new Ajv2020({ strict: false });
  let runs = 0;
  let valid = 0;
  let exponentForms = 0;
  let ms = 0;
  const failures: string[] = [];
  const outputTokensBefore = sequence.tokenMeter.getState().usedOutputTokens;
  for (const [name, schema] of Object.entries(GRAMMAR_SCHEMAS)) {
    const grammar = await llama.createGrammarForJsonSchema(toGrammarDialect(schema) as never);
    const validate = ajv.compile(schema);
    for (let i = 0; i < perSchema; i++) {
      const started = performance.now();
      const result = await session.promptWithMeta(`${PROMPTS[i % PROMPTS.length]} (${name} ${i})`, {
        grammar,
        maxTokens: 300,
        temperature: TEMPERATURES[i % TEMPERATURES.length],
        seed: 1000 + i,
      });
      ms += performance.now() - started;
      runs++;
      const text = result.responseText;
      if (/[0-9][eE][-+]?[0-9]/.test(text.replace(/"(?:[^"\\]|\\.)*"/g, '""'))) exponentForms++;
      try {
        const value = grammar.parse(text);
        if (validate(value)) valid++;
        else failures.push(`${name}: ${ajv.errorsText(validate.errors)} in ${text}`);
      } catch (err) {
        failures.push(`${name}: ${(err as Error).message} in ${text.slice(0, 200)}`);
      }
      session.resetChatHistory();
    }
  }
  const generated = sequence.tokenMeter.getState().usedOutputTokens - outputTokensBefore;
  const summary =
    `grammar: ${valid}/${runs} valid JSON, ${(ms / runs).toFixed(1)} ms/run, ${(generated / runs).toFixed(1)} tokens/run ` +
    `(~${Math.round((generated / ms) * 1000)} tokens/s incl. prompt), ${exponentForms} numbers in exponent form`;
  return { runs, valid, exponentForms, failures, summary };
}
