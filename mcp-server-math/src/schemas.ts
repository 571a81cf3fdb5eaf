// Input and output schemas of the math tools (zod 4). Descriptions are German: the model reads them
// from tools/list. One source of truth: the SDK derives the JSON Schemas and validates with these.
import { z } from "zod";
import { DIVISION_DIGITS } from "./exact.js";
import { MAX_EXPRESSION_CHARS } from "./expression.js";

const operand = (name: string, role: string) =>
  z
    .union([z.number(), z.string()], {
      error: `${name} fehlt oder ist weder Zahl noch Text, z. B. 42, -3.5 oder "12345678901234567890".`,
    })
    .describe(
      `${role}: eine Zahl (z. B. 42 oder -3.5) oder eine Zahl als Text (z. B. "2,75"); ` +
        `ganze Zahlen über 9007199254740991 (2^53 − 1) als Text, damit keine Ziffer verloren geht`,
    );

export const binaryInput = (roleA: string, roleB: string) => ({ a: operand("a", roleA), b: operand("b", roleB) });

export const expressionInput = {
  ausdruck: z
    .string({ error: 'ausdruck fehlt oder ist kein Text, z. B. "58952 * 21448".' })
    .max(MAX_EXPRESSION_CHARS, `ausdruck ist zu lang (höchstens ${MAX_EXPRESSION_CHARS} Zeichen).`)
    .describe('Rechenausdruck mit Zahlen, + - * / ^ (Potenz) und Klammern, z. B. "(58952 * 21448) / 2" oder "2,5 ^ 2"'),
};

export const resultOutput = {
  result: z
    .union([z.number(), z.string()])
    .describe(
      "Das Ergebnis. Eine JSON-Zahl, wenn eine JSON-Zahl den Wert exakt trägt (ganze Zahlen bis 9007199254740991 = 2^53 − 1, " +
        'Dezimalzahlen, die als double unverändert bleiben); sonst Text mit allen Ziffern, z. B. "1264403456000000000000".',
    ),
  text: z
    .string()
    .describe("Das Ergebnis immer als Text mit allen Ziffern (Dezimalpunkt, keine Exponentenschreibweise)"),
  exact: z
    .boolean()
    .describe(
      `true: das Ergebnis ist exakt. false nur bei einer Division, die nicht aufgeht: dann auf ${DIVISION_DIGITS} gültige Stellen gerundet`,
    ),
  note: z
    .string()
    .optional()
    .describe("Hinweis, z. B. wenn eine Eingabe als JSON-Zahl über 2^53 schon gerundet angekommen sein kann"),
};

export const expressionOutput = {
  ...resultOutput,
  ausdruck: z
    .string()
    .describe("Der berechnete Ausdruck, wie er gelesen wurde (× als *, ÷ und : als /, Dezimalkomma als Punkt)"),
};
