// The presentation-time estimate and the day plan: the model counts what a deck shows and the live model
// calls of its cells; the guide's day table is the day plan's data; every Teil deck fits its slot; a
// Vertiefung section is skipped whole on the slides and keeps its talking points.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";
import type { NbCell, Notebook } from "../../scripts/apps/slides/deck.js";
import { DAY_PLAN, dayPlanTable, slotOf } from "../../scripts/apps/slides/day-plan.js";
import {
  CLASS_SERVER_8B,
  CPU_8B,
  deckStats,
  modelCallsOf,
  modelWaitSeconds,
  PLAN_TOKENS,
  PLANNER_PROMPT_TOKENS,
  presentationSeconds,
  speedFromDoctorJson,
  talkSeconds,
  type ModelSpeed,
} from "../../scripts/apps/slides/estimate.js";
import { deckPlanProblems } from "../../scripts/apps/slides/plan-check.js";
import { guideTimeTable, slotProblem, timeTable } from "../../scripts/apps/slides/time-table.js";
import { vertiefungProblems, vertiefungSections } from "../../scripts/apps/slides/vertiefung.js";
import { slideNotebooks } from "../../scripts/apps/slides/build.js";

const root = findProjectRoot();
const cell = (cell_type: string, source: string, slide_type: string): NbCell => ({
  cell_type,
  source,
  metadata: { slideshow: { slide_type } },
});
const readNotebook = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Notebook;
/** Round numbers so the arithmetic is easy to follow. */
const SPEED: ModelSpeed = { label: "Test", promptTokensPerSecond: 100, generationTokensPerSecond: 10, source: "Test" };

const fixture: Notebook = {
  cells: [
    cell("markdown", "# Titel mit vier Wörtern", "slide"),
    cell("code", "const a = 1;\nconst b = 2;\n", "subslide"),
    cell("markdown", "Ein Satz", "fragment"),
    cell("markdown", "Nur für die Notizen, zählt nicht", "notes"),
    cell("code", "const lauf = await runAgent({ llm, question });", "slide"),
    cell("markdown", "## Vertiefung weg (Vertiefung)", "skip"),
    cell("code", "await runAgent({ llm, question });\nconst x = 1;", "skip"),
    cell("markdown", "## Ohne Code", "slide"),
  ],
};

test("the deck counts what the slides show: slides, code slides, words, code lines, fragments", () => {
  const s = deckStats(fixture);
  assert.deepEqual(
    { ...s, modelCalls: s.modelCalls.length },
    {
      slides: 5,
      codeSlides: 2,
      words: 8,
      codeLines: 3,
      fragments: 1,
      modelCells: 1,
      modelCalls: 2,
    },
  );
  // 5 slides (4 + the closing slide listing the Vertiefung) × 20 s + 8 words × 0.4 s + 3 code lines × 3 s + 1 fragment × 5 s
  assert.ok(Math.abs(talkSeconds(s) - (100 + 3.2 + 9 + 5)) < 1e-9);
  // One agent run: the planner prompt in full and a plan, then a follow-up round (300 tokens in, 60 out).
  const wait = (PLANNER_PROMPT_TOKENS + 300) / 100 + (PLAN_TOKENS + 60) / 10;
  assert.ok(Math.abs(modelWaitSeconds(s.modelCalls, SPEED) - wait) < 1e-9);
  assert.ok(Math.abs(presentationSeconds(s, SPEED) - (117.2 + wait)) < 1e-9);
});

test("only calls with the real model wait; the planner prompt is read once per deck", () => {
  const cached = { planner: false };
  assert.deepEqual(
    modelCallsOf("const r = await runAgent({ ...gemeinsam, llm: new ScriptedLlm([plan]) });", cached),
    [],
  );
  assert.deepEqual(modelCallsOf("await runVote({ ...gemeinsam, question, k: 5, llmForRun: wackelig });", cached), []);
  assert.deepEqual(modelCallsOf("await runAgent({ ...gemeinsam, ...scriptedPlan(p, a), question });", cached), []);
  assert.equal(cached.planner, false);
  const first = modelCallsOf("const lauf = await runAgent({ ...gemeinsam, llm: llm, question });", cached);
  assert.equal(first[0]!.promptTokens, PLANNER_PROMPT_TOKENS);
  const later = modelCallsOf("const lauf = await runAgent({ ...gemeinsam, llm, question });", cached);
  assert.ok(later[0]!.promptTokens < 200, "the planner prompt is in the KV cache now");
  assert.equal(modelCallsOf("await runVote({ ...gemeinsam, llm, question: frage, k: 3 });", cached).length, 3 * 2);
  assert.equal(modelCallsOf("const a = await llm.chat(rom, x);\nconst b = await llm.chat(rom, x);", cached).length, 2);
  // Teil 3's helper hides `llm`: its calls count, its definition does not.
  assert.equal(
    modelCallsOf("async function planeMitGrammatik(n) {\n  return llm.generateJson(antwortSchema, n);\n}", cached)
      .length,
    0,
  );
  assert.equal(modelCallsOf("const geplant = await planeMitGrammatik(ortNachrichten);", cached).length, 1);
  assert.deepEqual(modelCallsOf("await llm.dispose();", cached), []);
});

test("the speeds: class server by default, the CPU's 8B much slower, doctor --tempo's 8B from its JSON", () => {
  const calls = deckStats(readNotebook(join(root, "notebooks", "40-teil-4-agent.ipynb"))).modelCalls;
  assert.ok(modelWaitSeconds(calls, CPU_8B) > 10 * modelWaitSeconds(calls, CLASS_SERVER_8B));
  const doctor = {
    ok: true,
    tempo: {
      predictions: [
        { model: "llama-3.2-3b", promptTokensPerSecond: 90, generationTokensPerSecond: 7 },
        { model: "llama-3.1-8b", promptTokensPerSecond: 40.5, generationTokensPerSecond: 3.1 },
      ],
    },
  };
  const chosen = speedFromDoctorJson(doctor);
  assert.ok(typeof chosen !== "string");
  assert.deepEqual([chosen.promptTokensPerSecond, chosen.generationTokensPerSecond], [40.5, 3.1]);
  assert.match(
    speedFromDoctorJson({ checks: [] }) as string,
    /keine Tempo-Vorhersage für Llama 3\.1 8B.*npm run doctor -- --tempo --json/,
  );
});

test("the guide's day table is the day plan, and every presentation deck has a slot", () => {
  const guide = readFileSync(join(root, "docs", "instructor-guide.md"), "utf8");
  const block = /<!-- BEGIN tagesplan[^\n]*-->\n([\s\S]*?)\n<!-- END tagesplan -->/.exec(guide)?.[1];
  assert.equal(
    block,
    dayPlanTable(),
    "docs/instructor-guide.md: copy the table from dayPlanTable() (scripts/apps/slides/day-plan.ts)",
  );
  assert.match(dayPlanTable(), /\| 15:00 \| 50 min \| \*\*Teil 4\*\*/);
  assert.equal(
    DAY_PLAN.reduce((m, s) => m + s.minutes, 0),
    8 * 60,
  );
  for (const file of slideNotebooks(root))
    assert.ok(slotOf(basename(file, ".ipynb")), `${file}: no slot in the day plan`);
});

test("the guide's estimate table is generated: slides, code slides, estimates and slots of today's notebooks and day plan", () => {
  const guide = readFileSync(join(root, "docs", "instructor-guide.md"), "utf8");
  const block = /<!-- BEGIN vortragszeiten[^\n]*-->\n([\s\S]*?)\n<!-- END vortragszeiten -->/.exec(guide)?.[1];
  const decks = slideNotebooks(root).map((file) => ({
    deck: basename(file, ".ipynb"),
    stats: deckStats(readNotebook(file)),
  }));
  const expected = guideTimeTable(decks, [CLASS_SERVER_8B, CPU_8B]);
  assert.equal(block, expected, `docs/instructor-guide.md, block "vortragszeiten": replace it with\n${expected}\n`);
  const teilSlots = DAY_PLAN.filter((s) => s.deck?.includes("-teil-")).map((s) => `${s.minutes} min`);
  assert.deepEqual(
    expected
      .split("\n")
      .slice(2)
      .map((row) => row.split(" | ").at(-1)!.replace(/ \|$/, "")),
    teilSlots,
    "the Zeitfenster column is the day plan's",
  );
});

test("every deck's estimate fits its slot on the class server", () => {
  for (const file of slideNotebooks(root)) {
    const name = basename(file, ".ipynb");
    assert.deepEqual(deckPlanProblems(name, readNotebook(file), root), [], name);
  }
});

test("a deck over its slot is reported and marked in the table", () => {
  const long: Notebook = { cells: Array.from({ length: 200 }, (_, i) => cell("markdown", `## Folie ${i}`, "slide")) };
  const stats = deckStats(long);
  assert.match(
    slotProblem("40-teil-4-agent", stats, CLASS_SERVER_8B) ?? "",
    /^estimated 70 min \(8B Klassen-Server\) for a 50 min slot/,
  );
  assert.equal(slotProblem("99-ohne-zeitfenster", stats, CLASS_SERVER_8B), undefined, "no slot, no limit");
  const table = timeTable(
    [
      { deck: "40-teil-4-agent", stats },
      { deck: "99-ohne-zeitfenster", stats },
    ],
    [CLASS_SERVER_8B, CPU_8B],
  );
  assert.match(table, /^40-teil-4-agent\s+200\s+0\s+400\s+70 min\s+70 min\s+50 min ⚠️ passt nicht$/m);
  assert.match(table, /^99-ohne-zeitfenster .* –$/m);
});

test("a Vertiefung is skipped whole on the slides; Teil 4 keeps plan, $ref, validation, parallel tools and approval on them", () => {
  assert.deepEqual(vertiefungProblems(fixture), []);
  const leaky = { cells: [...fixture.cells.slice(0, 6), cell("code", "x", "subslide"), ...fixture.cells.slice(7)] };
  assert.deepEqual(vertiefungProblems(leaky), [
    'Vertiefung „Vertiefung weg“: cell 6 has slide type "subslide", not "skip"',
  ]);
  const teil4 = readNotebook(join(root, "notebooks", "40-teil-4-agent.ipynb"));
  assert.ok(vertiefungSections(teil4).length >= 5);
  const shown = teil4.cells
    .filter((c) => c.metadata?.slideshow?.slide_type !== "skip")
    .map((c) => (Array.isArray(c.source) ? c.source.join("") : c.source))
    .join("\n");
  for (const must of [
    "## 3. Der erste Plan",
    "## 5. `$ref` auflösen",
    "## 6. Prüfen",
    "planProblemsMessage",
    "## 9. Parallel",
    "## 10. Freigaben",
    "approve: vorgegeben",
  ]) {
    assert.ok(shown.includes(must), `Teil 4's slides lost ${must}`);
  }
});
