// Notebook renderers: SVG diagrams (Graphviz WASM), the SVG timeline, HTML tables, German error text,
// and the one-instance registry — all in plain Node (no kernel needed).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { inspect } from "node:util";
import type { Plan } from "../../lib/plan/plan.js";
import { createTrace, type AgentEvent, type AgentTrace } from "../../lib/agent/trace.js";
import {
  planToDot,
  renderPlanSvg,
  renderTimelineSvg,
  renderTimelineText,
  renderTraceSvg,
} from "../../lib/display/index.js";
import { timelineBars } from "../../lib/display/timeline.js";
import { metricsTableHtml, toolCatalogHtml, traceTableHtml } from "../../lib/display/tables.js";
import { textsCutInsideWords, unbreakableJsonInTables } from "../../scripts/dev/run-notebooks.js";
import { mermaidDetails } from "../../lib/display/show.js";
import { forParticipants, germanPart, NOTEBOOK_ERROR_MARK } from "../../lib/notebook/index.js";
import { ModelNotFoundError } from "../../lib/llm/errors.js";
import { liveInstance, liveInstanceCount, releaseLiveInstance } from "../../lib/notebook/live-instances.js";

const plan: Plan = {
  steps: [
    {
      description: "Orte finden",
      tools: [
        { id: "geo_bcn", name: "geocode", arguments: { destination: "Barcelona" } },
        { id: "geo_mad", name: "geocode", arguments: { destination: "Madrid" } },
      ],
    },
    {
      description: "Wetter <heute>",
      tools: [
        {
          id: "wetter_bcn",
          name: "get_weather",
          arguments: { lat: { $ref: "geo_bcn.lat" }, lon: "$ref:geo_bcn.lon", start_date: { $ref: "user.today" } },
        },
      ],
    },
  ],
  final: null,
};

function traceOf(events: Record<string, unknown>[]): AgentTrace {
  const trace = createTrace("Wetter?", "step-parallel");
  trace.events.push(...events.map((e) => ({ iteration: 1, ...e }) as AgentEvent));
  return trace;
}

const run = traceOf([
  {
    type: "plan",
    atMs: 1,
    plan,
    raw: "",
    via: "grammar",
    meter: { promptTokensEvaluated: 900, promptTokensReused: 0 } as never,
  },
  {
    type: "tool_call",
    atMs: 10,
    toolId: "geo_bcn",
    toolName: "geocode",
    stepIndex: 0,
    arguments: { destination: "Barcelona" },
    attempt: 1,
  },
  {
    type: "tool_call",
    atMs: 12,
    toolId: "geo_mad",
    toolName: "geocode",
    stepIndex: 0,
    arguments: { destination: "Madrid" },
    attempt: 1,
  },
  {
    type: "tool_result",
    atMs: 410,
    toolId: "geo_bcn",
    toolName: "geocode",
    stepIndex: 0,
    result: { lat: 41.38, lon: 2.17, note: "x".repeat(300) },
    durationMs: 400,
    attempts: 1,
  },
  {
    type: "tool_error",
    atMs: 420,
    toolId: "geo_mad",
    toolName: "geocode",
    stepIndex: 0,
    errorKind: "tool",
    message: "Ort <unbekannt>",
    durationMs: 408,
    attempts: 1,
  },
  {
    type: "tool_call",
    atMs: 430,
    toolId: "wetter_bcn",
    toolName: "get_weather",
    stepIndex: 1,
    arguments: { lat: 41.38 },
    attempt: 1,
  },
  {
    type: "tool_result",
    atMs: 830,
    toolId: "wetter_bcn",
    toolName: "get_weather",
    stepIndex: 1,
    result: { days: [] },
    durationMs: 400,
    attempts: 1,
  },
]);

const svgTexts = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);

describe("plan and trace diagrams (SVG via Graphviz WASM)", () => {
  test("every tool call is a box with its id and tool; refs are edges", async () => {
    const dot = planToDot(plan);
    assert.match(dot, /t0 -> t2 \[label="lat, lon"\]/);
    assert.match(dot, /user -> t2 \[label="start_date", style=dashed\]/);
    const svg = await renderPlanSvg(plan);
    assert.ok(svg.startsWith("<svg"), "no XML prolog: front ends embed the element");
    assert.match(svg, /style="max-width:100%;height:auto"/);
    const texts = svgTexts(svg);
    for (const label of ["geo_bcn", "geo_mad", "wetter_bcn", "geocode", "get_weather", "Nutzer"])
      assert.ok(texts.includes(label), label);
    assert.ok(texts.includes("Schritt 2: Wetter &lt;heute&gt;"), "labels are escaped");
  });

  test("a trace colours calls by outcome", async () => {
    const svg = (await renderTraceSvg(run)) ?? "";
    assert.match(svg, /fill="#dafbe1"/, "succeeded call is green");
    assert.match(svg, /fill="#ffebe9"/, "failed call is red");
    assert.equal(await renderTraceSvg(createTrace("q", "sequential")), undefined);
  });
});

describe("timeline", () => {
  test("one bar per call from its start to its end", () => {
    const bars = timelineBars(run);
    assert.deepEqual(
      bars.map((b) => [b.toolId, b.startMs, b.endMs, b.ok]),
      [
        ["geo_bcn", 10, 410, true],
        ["geo_mad", 12, 420, false],
        ["wetter_bcn", 430, 830, true],
      ],
    );
    const svg = renderTimelineSvg(run, { title: "parallel" }) ?? "";
    assert.equal((svg.match(/<rect [^>]*rx="3"/g) ?? []).length, 3);
    assert.ok(svgTexts(svg).includes("wetter_bcn"));
    assert.match(renderTimelineText(run), /geo_mad\s+12 →\s+420 ms/);
  });
});

describe("HTML tables", () => {
  test("trace table: escaped, long values shortened with the full value on hover, coloured status", () => {
    const html = traceTableHtml(run, { maxChars: 60 });
    assert.match(html, /class="kit-trace-table tex2jax_ignore"/);
    assert.equal((html.match(/<tr>/g) ?? []).length + (html.match(/<tr style/g) ?? []).length, 4, "header + 3 calls");
    assert.match(html, /Ort &#60;unbekannt&#62;/);
    assert.match(html, /<span title="\{ &#34;lat&#34;: 41\.38/, "full value in title");
    assert.match(html, /…<\/span>/);
    assert.match(html, /table-layout:fixed;width:100%/, "wraps instead of scrolling sideways");
    assert.match(html, /color:#cf222e;background:#ffebe9;[^"]*">Tool meldet Fehler/);
  });

  test("trace table: JSON with places to wrap, shortened after a whole word (issue 40, item 5)", () => {
    const cells = [
      {
        cell_type: "code",
        source: "",
        outputs: [{ output_type: "display_data", data: { "text/html": traceTableHtml(run, { maxChars: 30 }) } }],
      },
    ];
    assert.deepEqual(unbreakableJsonInTables(cells), []);
    assert.deepEqual(textsCutInsideWords(cells), []);
  });

  test("metrics and tool catalog", () => {
    const m = (hit: number) => ({ questions: 10, hitAt1: hit, hitAt3: hit, hitAt5: hit, mrr: hit });
    const html = metricsTableHtml(
      [
        { method: "BM25", metrics: m(0.5) },
        { method: "Vektor", metrics: m(0.7) },
      ],
      10,
    );
    assert.match(html, /MRR@10/);
    assert.match(html, /<b>0,700<\/b>/);
    const catalog = toolCatalogHtml([
      {
        name: "geocode",
        description: "Ort → Koordinaten",
        inputSchema: { type: "object", properties: { destination: { type: "string" } }, required: ["destination"] },
      },
    ]);
    assert.match(catalog, /<code>destination\*<\/code>: Text/);
  });

  test("field descriptions in the tool catalog are visible text, not a hover tooltip behind a missing glyph", () => {
    const properties = { destination: { type: "string", description: "Stadt oder Ort, z. B. Linz" } };
    const catalog = toolCatalogHtml([
      { name: "geocode", description: "Ort → Koordinaten", inputSchema: { type: "object", properties } },
    ]);
    const visible = catalog.replace(/<[^>]*>/gu, " ");
    assert.match(visible, /Stadt oder Ort, z\. B\. Linz/u);
    assert.doesNotMatch(catalog, /ⓘ|title="Stadt/u, "no ⓘ (no installed font has it) and nothing only on hover");
  });

  test("the Mermaid source under a diagram says in plain German what it is for", () => {
    const html = mermaidDetails("flowchart LR\n  a --> b");
    assert.match(
      html,
      /<summary[^>]*>Mermaid-Quelltext des Diagramms – zum Kopieren, z\. B\. nach GitHub oder mermaid\.live<\/summary>/u,
    );
    assert.match(html, /<pre>flowchart LR\n {2}a --&#62; b<\/pre>/u);
  });
});

describe("errors for participants", () => {
  test("germanPart keeps the German lines and drops an English copy", () => {
    const error = new ModelNotFoundError("/m/x.gguf", "/m", "llama-8b");
    const german = germanPart(`${error.message}\nModel file not found: /m/x.gguf.`);
    assert.match(german, /^Modelldatei nicht gefunden/);
    assert.match(german, /npm run models:pull -- llama-8b/);
    assert.doesNotMatch(german, /Model file not found/);
    assert.equal(
      germanPart("LLM_GPU muss auto, cuda / vulkan / metal oder cpu sein."),
      "LLM_GPU muss auto, cuda / vulkan / metal oder cpu sein.",
      '" / " is ordinary text',
    );
  });

  test("inside a notebook an error prints as one German paragraph; outside it is unchanged", () => {
    const outside = forParticipants(new ModelNotFoundError("/m/x.gguf", "/m"));
    assert.match(inspect(outside), /\n\s+at /, "outside a notebook: the usual stack");
    const g = globalThis as { __tslab__?: unknown };
    g.__tslab__ = {};
    try {
      const error = forParticipants(new ModelNotFoundError("/m/x.gguf", "/m"), "  → Hinweis");
      const printed = inspect(error);
      assert.ok(printed.startsWith(`${NOTEBOOK_ERROR_MARK} Modelldatei nicht gefunden`));
      assert.ok(printed.endsWith("→ Hinweis"));
      assert.doesNotMatch(printed, /\n\s+at |ModelNotFoundError|\{/, "no stack, no class name, no object dump");
      assert.ok(error instanceof ModelNotFoundError, "scripts still see the class, message and fields");
      assert.equal(error.modelPath, "/m/x.gguf");
    } finally {
      delete g.__tslab__;
    }
  });
});

describe("live instances", () => {
  test("same key reuses, other key disposes first, dead instances are replaced, release forgets", async () => {
    const disposed: string[] = [];
    let alive = true;
    const make = (name: string) => ({
      create: async () => ({ name }),
      dispose: async (v: { name: string }) => void disposed.push(v.name),
      isAlive: () => alive,
    });
    const a = await liveInstance("test-slot", "a", make("a1"));
    assert.equal(await liveInstance("test-slot", "a", make("a2")), a);
    const b = await liveInstance("test-slot", "b", make("b1"));
    assert.deepEqual([b.name, disposed], ["b1", ["a1"]]);
    alive = false;
    const b2 = await liveInstance("test-slot", "b", make("b2"));
    assert.equal(b2.name, "b2");
    alive = true;
    releaseLiveInstance("test-slot", b2);
    assert.equal(liveInstanceCount(), 0);
    await assert.rejects(
      liveInstance("test-slot", "c", {
        create: async () => Promise.reject(new Error("kaputt")),
        dispose: async () => {},
      }),
      /kaputt/,
    );
    assert.equal(liveInstanceCount(), 0, "a failed load leaves nothing behind");
  });
});
