import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import {
  buildFinalAnswerMessages,
  buildHalfAgentJsonSchema,
  buildHalfAgentMessages,
  executeToolCall,
  findInToolHistory,
  findUnsupportedArguments,
  formatToolHistory,
  halfAgentReplyFromJson,
  parseToolCall,
  reviewToolProposal,
  type HalfAgentReply,
  type ToolHistory,
} from "../../lib/half-agent/half-agent.js";
import {
  buildHalfAgentSystemPrompt,
  HALF_AGENT_FORMAT,
  HALF_AGENT_RULES,
  NO_TOOLS_INSTRUCTION,
} from "../../lib/half-agent/prompts.js";
import * as lib from "../../lib/index.js";
import { createTravelFake, TRAVEL_TOOLS, weatherInfo } from "../agent/fixtures.js";
import { useCpuLlama } from "../helpers/cpu-llama.js";

const CALL = '{"tool": "geocode", "arguments": {"destination": "Barcelona"}}';

describe("parseToolCall", () => {
  test("plain JSON, fenced block, text around it, Llama-style name/parameters", () => {
    for (const text of [
      CALL,
      "```json\n" + CALL + "\n```",
      `assistant\n\nIch rufe das Tool auf: ${CALL} – bis gleich.`,
      '{"name": "geocode", "parameters": {"destination": "Barcelona"}}',
    ]) {
      const reply = parseToolCall(text, TRAVEL_TOOLS);
      assert.equal(reply.kind, "tool_call", text);
      assert.deepEqual(reply.call, { tool: "geocode", arguments: { destination: "Barcelona" } });
    }
  });

  test("a normal text answer is text, not a failure", () => {
    const reply = parseToolCall("Barcelona ist im Januar mild, meist um 14 °C.");
    assert.deepEqual(reply, { kind: "text", call: null, text: "Barcelona ist im Januar mild, meist um 14 °C." });
  });

  const invalid: [string, string, RegExp][] = [
    ["two calls (a chain)", `${CALL}\n${CALL.replace("geocode", "get_weather")}`, /Mehr als ein Tool-Aufruf/],
    ["unknown tool", '{"tool": "teleport", "arguments": {}}', /Ein Tool "teleport" gibt es nicht/],
    ["arguments not an object", '{"tool": "geocode", "arguments": "Barcelona"}', /"arguments" muss ein Objekt sein/],
    ["broken JSON", '{"tool": "geocode", "arguments": {"destination": Barcelona}}', /Ungültiges JSON/],
    ["cut off", '{"tool": "geocode", "arguments": {"destination": "Barc', /unvollständig/],
    ["several tools in one object", '{"tool": ["geocode", "get_weather"], "arguments": {}}', /Mehrere Tools/],
    ["extra fields", '{"tool": "geocode", "arguments": {}, "next": "get_weather"}', /Unerwartete Felder/],
    ["empty", "  ", /leer/],
    ["JSON that is no call", '{"steps": [], "final": "x"}', /nicht im erwarteten Format/],
  ];
  for (const [name, text, reason] of invalid) {
    test(`invalid → null with reason: ${name}`, () => {
      const reply = parseToolCall(text, TRAVEL_TOOLS);
      assert.equal(reply.kind, "invalid");
      assert.equal(reply.call, null);
      assert.match(reply.kind === "invalid" ? reply.reason : "", reason);
    });
  }

  test("grammar replies: {answer} is text, {tool, arguments} a call", () => {
    assert.deepEqual(halfAgentReplyFromJson({ answer: "Hallo" }), { kind: "text", call: null, text: "Hallo" });
    assert.equal(
      halfAgentReplyFromJson({ tool: "geocode", arguments: { destination: "Rom" } }, TRAVEL_TOOLS).kind,
      "tool_call",
    );
  });
});

describe("half-agent flow", () => {
  test("one manual execution, tool history, final round without tools", async () => {
    const client = createTravelFake();
    const history: ToolHistory = [];
    const reply = parseToolCall(CALL, TRAVEL_TOOLS);
    assert.equal(reply.kind, "tool_call");
    if (reply.kind !== "tool_call") return;
    history.push(await executeToolCall(client, reply.call, { tools: TRAVEL_TOOLS }));
    assert.deepEqual(history[0], {
      tool: "geocode",
      arguments: { destination: "Barcelona" },
      result: { lat: 41.3874, lon: 2.1686, display_name: "Barcelona", source: "test" },
    });
    assert.equal(findInToolHistory(history, { tool: "geocode", arguments: { destination: "Barcelona" } }), history[0]);

    const failed = await executeToolCall(client, { tool: "geocode", arguments: { destination: "Atlantis" } });
    assert.match(failed.error ?? "", /nicht gefunden/);
    const thrown = await executeToolCall(client, { tool: "nix", arguments: {} });
    assert.equal(thrown.error, 'Unbekanntes Tool "nix".');
    const dropped = await executeToolCall(
      client,
      {
        tool: "get_weather",
        arguments: { lat: 1, lon: 2, start_date: "2026-01-01", end_date: "2026-01-01", include_raw: null },
      },
      { tools: TRAVEL_TOOLS },
    );
    assert.deepEqual(
      dropped.arguments,
      { lat: 1, lon: 2, start_date: "2026-01-01", end_date: "2026-01-01" },
      "null optionals are dropped",
    );

    const system = buildHalfAgentSystemPrompt(TRAVEL_TOOLS);
    assert.doesNotMatch(system, /2026|Datum/, "nothing per day in the system prompt");
    assert.ok(system.includes(HALF_AGENT_RULES));
    assert.match(system, /- get_weather\(lat: Zahl, lon: Zahl.*\) – Tageswetter/);
    const ask = buildHalfAgentMessages({
      systemPrompt: system,
      question: "Und das Wetter dort?",
      toolHistory: history,
      context: "Kontext",
      today: "2026-01-29",
    });
    assert.deepEqual(
      ask.map((m) => m.role),
      ["system", "system", "system", "system", "user"],
    );
    assert.equal(ask[1]!.content, "Heutiges Datum: 2026-01-29.", "the date right after the system prompt");
    assert.match(ask[3]!.content, /^Tool-Historie/);
    assert.match(ask[3]!.content, /41\.3874/);
    assert.equal(
      ask.some((m) => m.content === NO_TOOLS_INSTRUCTION),
      false,
    );

    const final = buildFinalAnswerMessages({
      systemPrompt: system,
      question: "Und das Wetter dort?",
      toolHistory: history,
    });
    assert.equal(final.at(-2)?.content, NO_TOOLS_INSTRUCTION);
    assert.equal(final.at(-1)?.content, "Und das Wetter dort?");
  });
});

describe("findUnsupportedArguments", () => {
  const weather = (args: Record<string, unknown>) => ({ tool: "get_weather", arguments: args });
  const question = "Wetter in Lissabon am 2025-07-01?";

  test("coordinates that stand nowhere are guessed; the date from the question is not", () => {
    assert.deepEqual(
      findUnsupportedArguments(
        weather({ lat: 38.72, lon: -9.14, start_date: "2025-07-01", end_date: "2025-07-01" }),
        question,
      ),
      [
        { path: "lat", value: 38.72 },
        { path: "lon", value: -9.14 },
      ],
    );
  });

  test("numbers as written in the evidence: negative, German decimal comma, not the '-' inside a date", () => {
    const call = weather({ lat: 38.72, lon: -9.14, start_date: "2025-07-01", end_date: "2025-07-01" });
    assert.deepEqual(findUnsupportedArguments(call, [question, "Lissabon liegt bei 38,72 N und -9.14 O."]), []);
    assert.deepEqual(findUnsupportedArguments({ tool: "t", arguments: { n: -7 } }, "am 2025-07-01"), [
      { path: "n", value: -7 },
    ]);
    assert.deepEqual(findUnsupportedArguments({ tool: "t", arguments: { n: 7 } }, "am 2025-07-01"), []);
  });

  test("a comma between digits may separate list items: [1,2] contains 1 and 2 (and 1.2)", () => {
    const evidence = 'Ergebnis: {"ids":[1,2],"tage":[3,14]}';
    assert.deepEqual(
      findUnsupportedArguments({ tool: "t", arguments: { a: 1, b: 2, c: 3, d: 14, e: 1.2 } }, evidence),
      [],
    );
    assert.deepEqual(findUnsupportedArguments({ tool: "t", arguments: { n: 12 } }, evidence), [
      { path: "n", value: 12 },
    ]);
  });

  test("values from the tool history count (the JSON the model sees)", () => {
    const history = formatToolHistory([
      { tool: "geocode", arguments: { destination: "Barcelona" }, result: { lat: 41.3874, lon: 2.1686 } },
    ]);
    assert.deepEqual(
      findUnsupportedArguments(
        weather({ lat: 41.3874, lon: 2.1686, start_date: "2025-07-01", end_date: "2025-07-01" }),
        [question, history],
      ),
      [],
    );
    assert.deepEqual(
      findUnsupportedArguments(weather({ lat: 41.39, lon: 2.1686, start_date: "2025-07-01", end_date: "2025-07-01" }), [
        question,
        history,
      ]),
      [{ path: "lat", value: 41.39 }],
      "rounded is not the same number",
    );
  });

  test("strings ignore case; null is 'left out'", () => {
    assert.deepEqual(
      findUnsupportedArguments({ tool: "geocode", arguments: { destination: "lissabon", note: null } }, question),
      [],
    );
    assert.deepEqual(findUnsupportedArguments({ tool: "geocode", arguments: { destination: "Porto" } }, question), [
      { path: "destination", value: "Porto" },
    ]);
  });

  test("booleans must be in the evidence as true/false – unless they are the schema's default", () => {
    const base = { lat: 1, lon: 2, start_date: "2025-07-01", end_date: "2025-07-01" };
    const evidence = `${question} lat 1 lon 2`;
    assert.deepEqual(findUnsupportedArguments(weather({ ...base, include_raw: true }), evidence), [
      { path: "include_raw", value: true },
    ]);
    assert.deepEqual(
      findUnsupportedArguments(weather({ ...base, include_raw: true }), `${evidence} {"include_raw": true}`),
      [],
    );
    assert.deepEqual(findUnsupportedArguments(weather({ ...base, include_raw: false }), evidence), [
      { path: "include_raw", value: false },
    ]);
    assert.deepEqual(
      findUnsupportedArguments(weather({ ...base, include_raw: false }), evidence, {
        inputSchema: weatherInfo.inputSchema,
      }),
      [],
      "false is the default",
    );
    assert.deepEqual(
      findUnsupportedArguments(weather({ ...base, include_raw: true }), evidence, {
        inputSchema: weatherInfo.inputSchema,
      }),
      [{ path: "include_raw", value: true }],
    );
  });

  test("nested objects and arrays are checked value by value, with the path", () => {
    const call = {
      tool: "route",
      arguments: {
        stops: [
          { name: "Rom", nights: 2 },
          { name: "Neapel", nights: 3 },
        ],
        options: { fast: true },
      },
    };
    assert.deepEqual(findUnsupportedArguments(call, "Zwei Nächte in Rom, dann weiter nach Neapel: 2 und 3 Nächte."), [
      { path: "options.fast", value: true },
    ]);
    assert.deepEqual(findUnsupportedArguments(call, "Rom 2"), [
      { path: "stops[1].name", value: "Neapel" },
      { path: "stops[1].nights", value: 3 },
      { path: "options.fast", value: true },
    ]);
  });

  test("is public (lib/index)", () => {
    assert.equal(lib.findUnsupportedArguments, findUnsupportedArguments);
    assert.equal(lib.reviewToolProposal, reviewToolProposal);
  });
});

describe("reviewToolProposal", () => {
  const call = (tool: string, args: Record<string, unknown>): HalfAgentReply => ({
    kind: "tool_call",
    call: { tool, arguments: args },
    json: "",
  });
  const question = "Wo liegt Barcelona?";

  test("null when the expected tool is called with arguments from the evidence", () => {
    assert.equal(
      reviewToolProposal(call("geocode", { destination: "Barcelona" }), question, { expectedTool: "geocode" }),
      null,
    );
  });

  test("says why a reply must not run: text, invalid, wrong tool, guessed arguments", () => {
    assert.match(
      reviewToolProposal({ kind: "text", call: null, text: "Hallo" }, question) ?? "",
      /Text geschrieben statt eines Tool-Aufrufs/,
    );
    assert.equal(
      reviewToolProposal({ kind: "invalid", call: null, reason: "Die Antwort ist leer." }, question),
      "Die Antwort ist leer.",
    );
    assert.equal(
      reviewToolProposal(call("get_parks", { lat: 1 }), question, { expectedTool: "geocode" }),
      "Falsches Tool: get_parks statt geocode.",
    );
    assert.equal(
      reviewToolProposal(
        call("get_weather", {
          lat: 41.39,
          lon: 2.17,
          start_date: "2025-07-01",
          end_date: "2025-07-01",
          include_raw: false,
        }),
        question,
        { tools: TRAVEL_TOOLS },
      ),
      'Geratene Argumente (stehen in keiner Quelle): lat = 41.39, lon = 2.17, start_date = "2025-07-01", end_date = "2025-07-01"',
    );
  });
});

describe("half-agent prompt format matches the grammar", () => {
  const schema = buildHalfAgentJsonSchema(TRAVEL_TOOLS);
  const validate = new Ajv2020({ strict: false }).compile(schema);

  test("the form the prompt gives for an answer without a tool is one the grammar allows", () => {
    const line = HALF_AGENT_FORMAT.split("\n").find((l) => l.startsWith("- Ohne Tool:"));
    assert.ok(line, HALF_AGENT_FORMAT);
    const example: unknown = JSON.parse(line.slice("- Ohne Tool:".length));
    assert.equal(validate(example), true, line);
    assert.doesNotMatch(HALF_AGENT_FORMAT, /normale Antwort als Text/);
  });

  test("the form for a tool call, filled in, is one the grammar allows", () => {
    const line = HALF_AGENT_FORMAT.split("\n").find((l) => l.startsWith("- Mit Tool:"));
    assert.ok(line, HALF_AGENT_FORMAT);
    const filled = line
      .slice("- Mit Tool:".length)
      .replace('"<Tool-Name>"', '"geocode"')
      .replace('{"<argument>": <Wert>}', '{"destination": "Rom"}');
    assert.equal(validate(JSON.parse(filled)), true, filled);
  });

  test("the answer round lifts the JSON format explicitly", () => {
    assert.match(NO_TOOLS_INSTRUCTION, /JSON-Format von oben gilt nicht/);
  });
});

describe("buildHalfAgentJsonSchema", () => {
  const schema = buildHalfAgentJsonSchema(TRAVEL_TOOLS);

  test("either an answer or one tool call (standard validator)", () => {
    const validate = new Ajv2020({ strict: false }).compile(schema);
    assert.equal(validate({ answer: "Hallo" }), true);
    assert.equal(validate({ tool: "geocode", arguments: { destination: "Rom" } }), true);
    assert.equal(
      validate({ tool: "geocode", arguments: { destination: { $ref: "x.y" } } }),
      false,
      "no $ref in the half-agent",
    );
    assert.equal(validate({ tool: "teleport", arguments: {} }), false);
    assert.equal(validate({ answer: "Hallo", tool: "geocode" }), false);
  });

  describe("with node-llama-cpp's grammar generator", () => {
    const llama = useCpuLlama();
    test("compiles; its parser accepts both shapes", async () => {
      const grammar = await llama().createGrammarForJsonSchema(schema as never);
      assert.deepEqual(grammar.parse('{"answer": "Sonnig"}'), { answer: "Sonnig" });
      assert.deepEqual(
        grammar.parse(JSON.stringify({ tool: "get_parks", arguments: { lat: 1, lon: 2, radius_km: 3 } })),
        { tool: "get_parks", arguments: { lat: 1, lon: 2, radius_km: 3 } },
      );
    });
  });
});
