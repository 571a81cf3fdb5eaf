// The comparison rows of the three tool-calling styles, measured on scripted stand-ins over the same
// in-process travel tools: rounds, prompt tokens evaluated, tool calls, parallel calls.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { runAgent } from "../../lib/agent/loop.js";
import { runNativeToolChat } from "../../lib/patterns/native-tools.js";
import { ScriptedLlm } from "../../lib/testing/scripted-llm.js";
import { ScriptedToolCaller } from "../../lib/testing/scripted-tool-caller.js";
import {
  halfAgentRow,
  nativeRow,
  refPlanRow,
  runHalfAgentOnce,
  styleTableMarkdown,
} from "../../lib/patterns/style-comparison.js";
import type { GenerationMeter } from "../../lib/llm/types.js";
import { createTravelFake, geoWeatherPlan, TODAY } from "../agent/fixtures.js";

const QUESTION = "Wo liegen Rom und Berlin?";

describe("style comparison rows", () => {
  test("half-agent: one JSON round with one call, then one answer round", async () => {
    const tools = createTravelFake();
    const llm = new ScriptedLlm([{ tool: "geocode", arguments: { destination: "Rom" } }, "Rom liegt bei 41,9° N."]);
    const run = await runHalfAgentOnce({ llm, tools, question: QUESTION, today: TODAY });
    const row = halfAgentRow(run);
    assert.deepEqual([row.rounds, row.toolCalls, row.parallelCalls], [2, 1, 1]);
    assert.equal(row.answer, "Rom liegt bei 41,9° N.");
    assert.equal(
      row.promptTokensEvaluated,
      run.meters[0]!.promptTokensEvaluated + run.meters[1]!.promptTokensEvaluated,
    );
    assert.equal(run.toolHistory[0]!.error, undefined);
  });

  test("half-agent that answers directly: no call, one round", async () => {
    const run = await runHalfAgentOnce({
      llm: new ScriptedLlm([{ answer: "Das weiß ich nicht." }]),
      tools: createTravelFake(),
      question: QUESTION,
    });
    assert.deepEqual([halfAgentRow(run).rounds, halfAgentRow(run).toolCalls], [1, 0]);
  });

  test("$ref plan: parallel calls of one step are counted; meters from onMeter count every generation", async () => {
    const tools = createTravelFake();
    const parallel = {
      steps: [
        {
          description: "Orte",
          tools: [
            { id: "rom", name: "geocode", arguments: { destination: "Rom" } },
            { id: "ber", name: "geocode", arguments: { destination: "Berlin" } },
          ],
        },
      ],
      final: null,
    };
    const llm = new ScriptedLlm([parallel, { steps: [], final: "Rom 41,9° N, Berlin 52,5° N." }]);
    const meters: GenerationMeter[] = [];
    const result = await runAgent({
      question: QUESTION,
      llm,
      tools,
      today: TODAY,
      generation: { onMeter: (m) => meters.push(m) },
    });
    const row = refPlanRow(result, meters);
    assert.deepEqual([row.rounds, row.toolCalls, row.parallelCalls], [2, 2, 2]);
    assert.equal(
      row.promptTokensEvaluated,
      meters.reduce((n, m) => n + m.promptTokensEvaluated, 0),
    );
    assert.ok(row.promptTokensEvaluated > 0);
    const chained = await runAgent({
      question: "Wetter?",
      llm: new ScriptedLlm([geoWeatherPlan(), geoWeatherPlan(), { steps: [], final: "18,5 °C" }]),
      tools,
      today: TODAY,
    });
    assert.deepEqual([refPlanRow(chained).toolCalls, refPlanRow(chained).parallelCalls], [2, 1]);
  });

  test("the Markdown table has one row per style, numbers in order", async () => {
    const native = await runNativeToolChat({
      llm: new ScriptedToolCaller([{ calls: [{ name: "geocode", params: { destination: "Rom" } }] }, { text: "Rom." }]),
      tools: createTravelFake(),
      question: QUESTION,
    });
    const table = styleTableMarkdown([nativeRow(native)])
      .split("\n")
      .filter((l) => l.startsWith("|"));
    assert.equal(table.length, 3);
    assert.match(
      table[2]!,
      new RegExp(
        `^\\| Natives Function Calling \\(vorgespielt\\) \\| 2 \\| ${native.promptTokensEvaluated} \\| 1 \\| 1 \\|`,
      ),
    );
  });

  test("every column says its alignment (Jupyter Notebook 6 right-aligns a plain |---|)", () => {
    const separator =
      styleTableMarkdown([])
        .split("\n")
        .find((l) => /^\|[-:| ]+\|$/.test(l)) ?? "";
    const columns = separator.split("|").slice(1, -1);
    assert.equal(columns.length, 6);
    assert.ok(
      columns.every((c) => c.includes(":")),
      separator,
    );
  });
});
