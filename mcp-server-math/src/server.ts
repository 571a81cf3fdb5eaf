// The MCP server: four exact arithmetic tools plus `rechne` for a small expression, each with zod input
// and output schemas, structuredContent and a German text line. Errors come back as `isError` results
// with a German message; the server keeps serving.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { MathError } from "./errors.js";
import {
  add,
  divide,
  DIVISION_DIGITS,
  jsonValue,
  multiply,
  parseOperand,
  render,
  subtract,
  type Outcome,
  type Value,
} from "./exact.js";
import { evaluateExpression } from "./expression.js";
import { guardToolArguments } from "../../mcp-server-shared/src/arguments-guard.js";
import { sessionServer, toolSchema } from "../../mcp-server-shared/src/per-process.js";
import { readOnlyAnnotations, toolErrorResult, toolResult } from "../../mcp-server-shared/src/tool-results.js";
import { binaryInput, expressionInput, expressionOutput, resultOutput } from "./schemas.js";

export const SERVER_NAME = "math";
export const SERVER_VERSION = "0.1.0";

export interface MathServerOptions {
  log: (line: string) => void;
}

export interface ResultData {
  result: number | string;
  text: string;
  exact: boolean;
  note?: string;
  [key: string]: unknown;
}

export function resultData(outcome: Outcome, notes: string[] = []): ResultData {
  return {
    result: jsonValue(outcome.value),
    text: render(outcome.value),
    exact: outcome.exact,
    ...(notes.length ? { note: notes.join(" ") } : {}),
  };
}

interface BinaryTool {
  name: string;
  title: string;
  symbol: string;
  description: string;
  roles: [string, string];
  op: (a: Value, b: Value) => Outcome;
}

// Tool schemas and the JSON Schema validator are built once per process and shared by every session's server
// (see mcp-server-shared/src/per-process.ts).
const RESULT_OUTPUT = toolSchema(resultOutput);
const EXPRESSION_SCHEMAS = { input: toolSchema(expressionInput), output: toolSchema(expressionOutput) };

const BINARY_TOOLS: BinaryTool[] = [
  {
    name: "addition",
    title: "Addition a + b",
    symbol: "+",
    op: add,
    roles: ["Erster Summand", "Zweiter Summand"],
    description: "Addiert zwei Zahlen exakt: a + b.",
  },
  {
    name: "subtraktion",
    title: "Subtraktion a − b",
    symbol: "−",
    op: subtract,
    roles: ["Minuend (davon wird abgezogen)", "Subtrahend (wird abgezogen)"],
    description: "Subtrahiert exakt: a − b (b wird von a abgezogen).",
  },
  {
    name: "multiplikation",
    title: "Multiplikation a × b",
    symbol: "×",
    op: multiply,
    roles: ["Erster Faktor", "Zweiter Faktor"],
    description: "Multipliziert zwei Zahlen exakt: a × b.",
  },
  {
    name: "division",
    title: "Division a ÷ b",
    symbol: "÷",
    op: divide,
    roles: ["Dividend (wird geteilt)", "Divisor (teilt, nicht 0)"],
    description: `Dividiert a durch b (b nicht 0): exakt, wenn die Division aufgeht, sonst auf ${DIVISION_DIGITS} gültige Stellen gerundet.`,
  },
];

const isMathError = (error: unknown): error is MathError => error instanceof MathError;

const BINARY_INPUTS = BINARY_TOOLS.map((tool) => ({ tool, input: toolSchema(binaryInput(...tool.roles)) }));

// Kept short: small models read every description in their prompt. The details live in the schemas.
const COMMON = " Ergebnis in result (Zahl, oder Text wenn größer als 2^53).";

export function createMathMcpServer(options: MathServerOptions): McpServer {
  const server = sessionServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    "Rechen-Werkzeuge mit exakter Arithmetik: addition, subtraktion, multiplikation, division (je a und b) und rechne für einen " +
      "ganzen Ausdruck. Große ganze Zahlen als Text übergeben. Ergebnisse über 2^53 kommen als Text.",
  );
  const annotations = (title: string) => readOnlyAnnotations(title, false);

  function run(tool: string, args: unknown, work: () => { data: ResultData; line: string }): CallToolResult {
    try {
      const { data, line } = work();
      return toolResult(line, data);
    } catch (error) {
      return toolErrorResult(error, { server: "Rechen-Server", tool, args, isOwnError: isMathError, log: options.log });
    }
  }

  for (const { tool, input } of BINARY_INPUTS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description + COMMON,
        inputSchema: input,
        outputSchema: RESULT_OUTPUT,
        annotations: annotations(tool.title),
      },
      (args) =>
        run(tool.name, args, () => {
          const a = parseOperand("a", args.a);
          const b = parseOperand("b", args.b);
          const outcome = tool.op(a.value, b.value);
          const data = resultData(
            outcome,
            [a.note, b.note].filter((n): n is string => n !== undefined),
          );
          const line = `${render(a.value)} ${tool.symbol} ${render(b.value)} ${outcome.exact ? "=" : "≈"} ${data.text}`;
          return { data, line };
        }),
    );
  }

  server.registerTool(
    "rechne",
    {
      title: "Ausdruck ausrechnen",
      description:
        'Rechnet einen Ausdruck exakt aus, z. B. "(58952 * 21448) / 2": Zahlen, + - * / ^ und Klammern, keine Variablen oder Funktionen.' +
        COMMON,
      inputSchema: EXPRESSION_SCHEMAS.input,
      outputSchema: EXPRESSION_SCHEMAS.output,
      annotations: annotations("Ausdruck ausrechnen"),
    },
    (args) =>
      run("rechne", args, () => {
        const outcome = evaluateExpression(args.ausdruck);
        const data = { ...resultData(outcome), ausdruck: outcome.normalized };
        return { data, line: `${outcome.normalized} ${outcome.exact ? "=" : "≈"} ${data.text}` };
      }),
  );

  guardToolArguments(server, '{"ausdruck": "2 + 3"}');
  return server;
}
