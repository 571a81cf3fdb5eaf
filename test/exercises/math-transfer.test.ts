// The arithmetic transfer checks against the real math server (subprocess, MCP over HTTP): a correct
// solution passes, the empty exercise fails every case, typical mistakes fail the case about them.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { NotSolvedError } from "../../lib/exercises/check-runner.js";
import {
  checkRechneAufruf,
  checkStreckenPlan,
  runMathPlan,
  type MathCall,
  type StreckenPlanFn,
} from "../../lib/exercises/transfer-checks.js";
import {
  openMathKit,
  provideMathClient,
  releaseTransferResources,
  type MathKit,
} from "../../lib/exercises/transfer-resources.js";
import type { ToolClient } from "../../lib/mcp/types.js";
import type { PlanStep } from "../../lib/plan/plan.js";

const quiet = { log: () => {} };
const notSolved = () => {
  throw new NotSolvedError();
};

describe("math transfer checks (Aufgabe 3.4 and 4.4)", () => {
  let kit: MathKit;
  before(async () => {
    kit = await openMathKit();
    provideMathClient(kit.client);
  });
  after(async () => {
    await releaseTransferResources();
    await kit?.close();
  });

  test("rechneAufruf: solution passes, empty fails all, a float re-computation fails on big numbers", async () => {
    const check = checkRechneAufruf;
    const solution = async (call: MathCall, client: ToolClient) => {
      const r = await client.callTool(call.tool, call.arguments);
      return r.isError ? `Fehler: ${r.text}` : String((r.data as { text: string }).text);
    };
    const good = await check(solution, quiet);
    assert.equal(good.failed, 0, JSON.stringify(good.cases.filter((c) => !c.ok)));
    assert.equal((await check(notSolved, quiet)).passed, 0);
    const viaFloat = async (call: MathCall, client: ToolClient) => {
      const r = await client.callTool(call.tool, call.arguments);
      return r.isError ? `Fehler: ${r.text}` : String(Number((r.data as { text: string }).text));
    };
    const report = await check(viaFloat, quiet);
    assert.ok(report.cases.some((c) => !c.ok && /2\^53/.test(c.name)));
    const throwing = await check(async (call: MathCall, client: ToolClient) => {
      const r = await client.callTool(call.tool, call.arguments);
      if (r.isError) throw new Error(r.text);
      return String((r.data as { text: string }).text);
    }, quiet);
    assert.ok(throwing.cases.some((c) => !c.ok && /Division durch 0/.test(c.name)));
  });

  test("streckenPlan: $ref plan passes; hard-coded sums and sequential steps fail", async () => {
    const check = checkStreckenPlan;
    const plan = (v1: number, t1: number, v2: number, t2: number): PlanStep[] => [
      {
        description: "Teile",
        tools: [
          { id: "teil1", name: "multiplikation", arguments: { a: v1, b: t1 } },
          { id: "teil2", name: "multiplikation", arguments: { a: v2, b: t2 } },
        ],
      },
      {
        description: "Summe",
        tools: [{ id: "summe", name: "addition", arguments: { a: { $ref: "teil1.text" }, b: { $ref: "teil2.text" } } }],
      },
    ];
    const good = await check(plan, quiet);
    assert.equal(good.failed, 0, JSON.stringify(good.cases.filter((c) => !c.ok)));
    const results = await runMathPlan(plan(87.5, 3, 112.25, 2), kit.client);
    assert.equal((results.summe as { text: string }).text, "487");
    assert.equal((await check(notSolved, quiet)).passed, 0);
    const hardCoded: StreckenPlanFn = (v1, t1, v2, t2) => {
      const [first, second] = plan(v1, t1, v2, t2);
      return [
        first!,
        { ...second!, tools: [{ id: "summe", name: "addition", arguments: { a: v1 * t1, b: v2 * t2 } }] },
      ];
    };
    assert.ok((await check(hardCoded, quiet)).cases.every((c) => !c.ok && /\$ref/.test(c.problem ?? "")));
    const wrongPath = (v1: number, t1: number, v2: number, t2: number) =>
      JSON.parse(JSON.stringify(plan(v1, t1, v2, t2)).replace(/teil2\.text/g, "teil2.wert")) as PlanStep[];
    assert.ok((await check(wrongPath, quiet)).cases.some((c) => !c.ok));
  });
});
