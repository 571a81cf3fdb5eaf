// Issue-14 capabilities with the real travel server (subprocess, offline) and a scripted planner:
// staged save_trip_plan with approval (approve, reject with a reason, timeout), ask_user with and
// without a callback, the answer writer and the groundedness check.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { RunAgentOptions } from "../../lib/agent/loop.js";
import type { ScriptedReply, ScriptedRequest } from "../../lib/testing/scripted-llm.js";
import type { ApprovalRequest } from "../../lib/agent/approval.js";
import { ASK_USER_UNAVAILABLE } from "../../lib/agent/ask-user.js";
import { executeToolCall } from "../../lib/half-agent/half-agent.js";
import type { McpToolClient } from "../../lib/mcp/index.js";
import type { ToolInfo } from "../../lib/mcp/types.js";
import { eventsOf, lastUserMessage, runScripted } from "../helpers/scripted-agent.js";
import { useTravelWorkspace } from "../helpers/travel-workspace.js";
import { TODAY } from "./fixtures.js";

let client: McpToolClient;
let catalog: ToolInfo[];
let dir: string;
useTravelWorkspace("agent-ws-", { today: TODAY, clearBetweenTests: true }, (ws) => ({ client, catalog, dir } = ws));

const savePlan = (
  id: string,
  file_name: string,
  content = "## Tag 1\n- Kolosseum am Vormittag\n- Abends Trastevere",
) => ({
  steps: [
    {
      description: "Reiseplan speichern",
      tools: [{ id, name: "save_trip_plan", arguments: { file_name, title: "Rom", content } }],
    },
  ],
  final: null,
});
const answer = (final: string) => ({ steps: [], final });

const run = (replies: ScriptedReply[], options: Partial<RunAgentOptions> = {}) =>
  runScripted(replies, {
    question: "Speichere mir einen Reiseplan für Rom.",
    tools: client,
    catalog,
    today: TODAY,
    ...options,
  });

describe("staged save_trip_plan with approval (real travel server)", () => {
  test("the planner sees save_trip_plan without staging fields and ask_user", async () => {
    const { llm } = await run([answer("ok")]);
    const prompt = llm.requests[0]?.messages[0]?.content ?? "";
    assert.match(prompt, /save_trip_plan\(file_name: Text, title: Text, content: Text\)/);
    assert.doesNotMatch(prompt, /dry_run|expected_sha256/);
    assert.match(prompt, /ask_user\(question: Text\)/);
  });

  test("approve: the request shows the file and a diff while nothing is on disk; then the complete file is written", async () => {
    const requests: ApprovalRequest[] = [];
    let onDiskWhileAsked: string[] = [];
    const { result, events, llm } = await run(
      [savePlan("plan_rom", "rom-wochenende"), answer("Der Plan liegt in rom-wochenende.md.")],
      {
        approve: async (request) => {
          requests.push(request);
          onDiskWhileAsked = await readdir(dir);
          return true;
        },
      },
    );
    assert.equal(result.status, "answered");
    assert.deepEqual(onDiskWhileAsked, [], "nothing on disk before approval");
    assert.equal(requests.length, 1);
    const preview = requests[0]?.preview;
    assert.equal(preview?.path, "rom-wochenende.md");
    assert.match(
      preview?.diff ?? "",
      /^--- \/dev\/null\n\+\+\+ b\/rom-wochenende\.md\n@@ -0,0 \+1,5 @@\n\+# Rom\n\+\n\+## Tag 1\n/,
    );
    assert.equal(await readFile(join(dir, "rom-wochenende.md"), "utf8"), preview?.after);
    assert.deepEqual(await readdir(dir), ["rom-wochenende.md"], "no temporary files left");
    assert.equal(eventsOf(events, "approval")[0]?.outcome.allowed, true);
    assert.match(lastUserMessage(llm.requests[1]!), /"written":true/);
    assert.deepEqual(
      result.workspace.changes().map((c) => c.status),
      ["committed"],
    );
  });

  test("reject with a reason: nothing written, the reason reaches the next prompt, the model replans", async () => {
    const reason = "Bitte nur einen Tag und als rom-kurz.md speichern";
    let asked = 0;
    const { result, llm } = await run(
      [
        savePlan("plan_1", "rom"),
        savePlan("plan_2", "rom-kurz", "## Tag 1\n- Kolosseum"),
        answer("Gespeichert als rom-kurz.md."),
      ],
      {
        approve: () => (++asked === 1 ? { approved: false, feedback: reason } : { approved: true }),
      },
    );
    assert.equal(result.status, "answered");
    assert.ok(lastUserMessage(llm.requests[1]!).includes(reason), "the rejection reason is in the model's next prompt");
    assert.deepEqual(await readdir(dir), ["rom-kurz.md"]);
    assert.deepEqual(
      result.workspace.changes().map((c) => [c.id, c.status]),
      [
        ["plan_1", "discarded"],
        ["plan_2", "committed"],
      ],
    );
  });

  test("no decision within the timeout: rejected, the approver's signal aborts, nothing written", async () => {
    let aborted = false;
    const { result, events, llm } = await run([savePlan("plan_rom", "rom"), answer("Nicht gespeichert.")], {
      approval: { timeoutMs: 150 },
      approve: (_request, signal) =>
        new Promise((resolve) =>
          signal.addEventListener("abort", () => ((aborted = true), resolve(true)), { once: true }),
        ),
    });
    assert.equal(result.status, "answered");
    assert.equal(aborted, true);
    assert.equal(eventsOf(events, "approval")[0]?.outcome.by, "timeout");
    assert.match(lastUserMessage(llm.requests[1]!), /Keine Freigabe für \\"save_trip_plan\\" innerhalb von 150 ms/);
    assert.deepEqual(await readdir(dir), []);
  });

  test("without an approval callback (a pipe, CI): rejected with a clear message, never hangs", async () => {
    const { llm } = await run([savePlan("plan_rom", "rom"), answer("Nicht gespeichert.")]);
    assert.match(lastUserMessage(llm.requests[1]!), /braucht eine Freigabe; hier kann niemand freigeben/);
    assert.deepEqual(await readdir(dir), []);
  });

  test("a path that leaves the workspace fails at the preview; no approval is asked", async () => {
    let asked = false;
    const { events, llm } = await run([savePlan("plan_x", "../ausbruch"), answer("Geht nicht.")], {
      approve: () => ((asked = true), true),
    });
    assert.equal(asked, false);
    assert.match(eventsOf(events, "tool_error")[0]?.message ?? "", /führt aus dem Arbeitsordner heraus/);
    assert.match(lastUserMessage(llm.requests[1]!), /Arbeitsordner/);
  });
});

test("the Teil 3 half-agent never runs a side-effecting tool (it has no approval step)", async () => {
  const entry = await executeToolCall(
    client,
    { tool: "save_trip_plan", arguments: { file_name: "x", title: "x", content: "x" } },
    { tools: catalog },
  );
  assert.match(entry.error ?? "", /braucht eine Freigabe; hier laufen nur lesende Tools/);
  assert.deepEqual(await readdir(dir), []);
});

describe("ask_user", () => {
  const askPlan = {
    steps: [
      {
        description: "Stadt erfragen",
        tools: [{ id: "frage", name: "ask_user", arguments: { question: "Für welche Stadt?" } }],
      },
    ],
    final: null,
  };
  const geoPlan = {
    steps: [
      {
        description: "Ort",
        tools: [{ id: "geo", name: "geocode", arguments: { destination: { $ref: "frage.answer" } } }],
      },
    ],
    final: null,
  };

  test("with a callback: the answer is a tool result the plan can reference", async () => {
    const questions: string[] = [];
    const { result } = await run([askPlan, geoPlan, answer("Rom liegt bei 41.9° N.")], {
      question: "Wie wird das Wetter morgen?",
      askUser: (q) => (questions.push(q), "Rom"),
    });
    assert.deepEqual(questions, ["Für welche Stadt?"]);
    assert.deepEqual(result.toolResults.frage, { question: "Für welche Stadt?", answer: "Rom" });
    assert.equal((result.toolResults.geo as { display_name: string }).display_name.startsWith("Rom"), true);
  });

  test("without a callback: 'Rückfrage nicht möglich' reaches the model, which answers without it", async () => {
    const { result, llm } = await run([askPlan, answer("Ohne Stadt kann ich das Wetter nicht nennen.")], {
      question: "Wie wird das Wetter morgen?",
    });
    assert.ok(lastUserMessage(llm.requests[1]!).includes(ASK_USER_UNAVAILABLE));
    assert.equal(result.status, "answered");
  });
});

describe("grounded answers", () => {
  const weatherPlan = {
    steps: [
      { description: "Ort", tools: [{ id: "geo", name: "geocode", arguments: { destination: "Rom" } }] },
      {
        description: "Wetter",
        tools: [
          {
            id: "wetter",
            name: "get_weather",
            arguments: { lat: "$ref:geo.lat", lon: "$ref:geo.lon", start_date: TODAY, end_date: TODAY },
          },
        ],
      },
    ],
    final: null,
  };
  const weatherRun = (final: ScriptedReply, options: Partial<RunAgentOptions> = {}) =>
    run([weatherPlan, weatherPlan, final], {
      question: `Wie ist das Wetter am ${TODAY} in Rom?`,
      groundedness: true,
      ...options,
    });

  test("a grounded answer has no warnings; an invented one lists what is not backed", async () => {
    const first = await weatherRun((r: ScriptedRequest) => {
      const all = r.messages.map((m) => m.content).join("\n");
      const w = JSON.parse(/"id":"wetter".*?"result":(\{.*\})\}$/m.exec(all)?.[1] ?? "{}") as {
        days: { tmax_c: number }[];
      };
      return answer(`In Rom werden bis zu ${w.days[0]?.tmax_c} °C erwartet.`);
    });
    assert.equal(first.result.status, "answered");
    assert.deepEqual(first.result.warnings, []);
    const invented = await weatherRun(answer("In Rom werden 47 °C erwartet, in Trastevere Schnee."));
    assert.deepEqual(invented.result.warnings, ["nicht belegt: 47 °C", "nicht belegt: Trastevere"]);
    assert.deepEqual(eventsOf(invented.events, "groundedness")[0]?.unsupported, ["47 °C", "Trastevere"]);
  });

  test("a travel question answered with zero tool calls is flagged", async () => {
    const { result } = await run([answer("Gern ist gemütlich!")], {
      question: "Wie wird das Wetter morgen in Rom?",
      groundedness: true,
    });
    assert.match(result.warnings.join(), /ohne ein einziges Werkzeug-Ergebnis/);
  });

  test("the check is opt-in: off by default, or a check of the caller's own", async () => {
    const invented = answer("In Rom werden 47 °C erwartet, in Trastevere Schnee.");
    const plain = await weatherRun(invented, { groundedness: undefined });
    assert.deepEqual(plain.result.warnings, []);
    assert.equal(plain.result.groundedness, undefined);
    assert.deepEqual(eventsOf(plain.events, "groundedness"), []);
    const own = await weatherRun(invented, {
      groundedness: (input) => ({
        claims: [],
        unsupported: [],
        noToolCalls: input.toolCalls === 0,
        warnings: [`eigene Prüfung: ${input.toolResults.length} Ergebnisse`],
      }),
    });
    assert.deepEqual(own.result.warnings, ["eigene Prüfung: 2 Ergebnisse"]);
    assert.deepEqual(eventsOf(own.events, "groundedness")[0]?.warnings, ["eigene Prüfung: 2 Ergebnisse"]);
  });

  test("answer writer: a second call without tools sees question, context and results only, and its answer is checked", async () => {
    let writer: ScriptedRequest | undefined;
    const full = await run(
      [
        weatherPlan,
        weatherPlan,
        answer("Entwurf des Planers: 99 °C"),
        (r: ScriptedRequest) => {
          writer = r;
          return "In Rom bleibt es trocken; dazu 99 °C.";
        },
      ],
      {
        question: `Wie ist das Wetter am ${TODAY} in Rom?`,
        answerWriter: true,
        groundedness: true,
        context: "Rom ist im Sommer heiß.",
      },
    );
    assert.equal(writer?.method, "chat");
    const sent = writer?.messages.map((m) => m.content).join("\n") ?? "";
    assert.match(sent, /Rom ist im Sommer heiß\./);
    assert.match(sent, /Frage: Wie ist das Wetter am .* in Rom\?/);
    assert.match(sent, /- wetter: \{"query"|- wetter: \{/);
    assert.doesNotMatch(sent, /save_trip_plan|"steps"|Entwurf des Planers/, "no tools, no plan, no draft");
    assert.equal(full.result.final, "In Rom bleibt es trocken; dazu 99 °C.");
    assert.equal(eventsOf(full.events, "answer_writer")[0]?.draft, "Entwurf des Planers: 99 °C");
    assert.deepEqual(full.result.warnings, ["nicht belegt: 99 °C"]);
  });
});
