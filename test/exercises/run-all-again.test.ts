// A participant's natural workflow (issue 40, item 2): "Run All" – which runs the clean-up cell at the
// end, too – then fix a task and run its cells again, in the same kernel. The solution notebooks do so in
// the notebooks stage (scripts/dev/run-notebooks.ts runAllThenAgain: one execution each per `npm test`).
// Here each Teil's own clean-up cell runs in one notebook after the objects it closes, and the next cell
// uses them again; nothing may fail or say that something was closed. A set-up cell run twice leaves one
// process of each kit server (counted in /proc by the kernel's pid on their command line).
import assert from "node:assert/strict";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { runNotebook, type NotebookResult } from "../../scripts/dev/run-notebooks.js";
import { testEnvironment } from "../../scripts/dev/test-env.js";
import { ensureNotebookLib } from "../../scripts/dev/build-notebook-lib.js";
import { notebooksDir, readNotebook, root } from "./notebook-cells.js";
import { writeCodeNotebook } from "../helpers/notebook-file.js";

const written: string[] = [];
let env: NodeJS.ProcessEnv;

/** Runs `cells` as one notebook beside `besides` (so its `./lib` resolves) under the real kernel. */
async function runCells(besides: string, cells: string[]): Promise<{ result: NotebookResult; outputs: string[] }> {
  const file = join(dirname(besides), `.run-all-again-${process.pid}-${basename(besides)}`);
  written.push(writeCodeNotebook(file, cells));
  const keep = join(dirname(file), `.kept-${process.pid}`);
  written.push(keep);
  const result = await runNotebook(root, file, env, keep);
  const executed = JSON.parse(readFileSync(join(keep, basename(file)), "utf8")) as {
    cells: { outputs: { text?: string | string[] }[] }[];
  };
  const outputs = executed.cells.map((c) =>
    c.outputs.map((o) => (Array.isArray(o.text) ? o.text.join("") : (o.text ?? ""))).join(""),
  );
  return { result, outputs };
}

const describeFailures = (r: NotebookResult) => r.failures.map((f) => `cell ${f.cell}: ${f.error}`).join("\n");
const codeOf = (file: string) =>
  readNotebook(file)
    .cells.filter((c) => c.type === "code")
    .map((c) => c.source);

before(async () => {
  ensureNotebookLib(); // the notebooks import the built lib: build it from this lib
  env = await testEnvironment({ tinyModels: true });
});
after(() => {
  for (const file of written) rmSync(file, { recursive: true, force: true });
});

/** A cell that prints how many kit servers of this kernel run: their command line names its pid (`--parent-pid`). */
const COUNT_SERVERS = String.raw`import { readdirSync, readFileSync } from "node:fs";
const commandLines = readdirSync("/proc").filter((p) => /^\d+$/u.test(p)).map((p) => {
  try { return readFileSync("/proc/" + p + "/cmdline", "utf8").split("\0"); } catch { return []; }
});
const ofKernel = commandLines.filter((args) => args[args.indexOf("--parent-pid") + 1] === String(process.pid));
const count = (folder: string) => ofKernel.filter((args) => args.some((a) => a.includes(folder))).length;
console.log("Server-Prozesse: Rechen " + count("mcp-server-math") + ", Reise " + count("mcp-server-travel"));`;

/** Teil 3's and Aufgabe 3's set-up cells, each run twice in a fresh kernel, then the count of its servers. */
function setUpTwice(): string[] {
  const setup = codeOf(join(notebooksDir, "31-aufgabe-3-mcp-werkzeuge.ipynb"))[0] ?? "";
  const teilMath =
    codeOf(join(notebooksDir, "30-teil-3-mcp-werkzeuge.ipynb")).find((c) => c.includes("startMathServer()")) ?? "";
  assert.match(setup, /setupPart3\(\)/u);
  assert.match(teilMath, /startMathServer\(\)/u);
  return [setup, setup, teilMath, teilMath, COUNT_SERVERS];
}

/** Each Teil's clean-up cell, each followed by a cell that uses the model, the client, the embedder and the store. */
function cleanUpsThenUse(): { cells: string[]; teile: number } {
  const teile = readdirSync(notebooksDir)
    .filter((f) => /^\d0-teil-.*\.ipynb$/u.test(f))
    .sort();
  const cleanups = teile.map((f) => codeOf(join(notebooksDir, f)).at(-1) ?? "");
  const prelude = [
    'import { createEmbedder, loadLlm, McpToolClient, openRagStore, startTravelServer } from "./lib/index";',
    "const llm = await loadLlm();\nconst server = await startTravelServer();\nconst client = await McpToolClient.connect(server.url);",
    "const embedder = await createEmbedder();\nconst wissen = await openRagStore({});",
  ];
  const useAgain = [
    'const antwort = await llm.chat([{ role: "user", content: "Hallo" }], { maxTokens: 4, seed: 1 });',
    "const werkzeuge = await client.listTools();",
    'const vektor = await embedder.embedOne("Isar");\nconst treffer = await wissen.search("Isar", 1);',
    'console.log("wieder da:", antwort.meter.generatedTokens > 0, werkzeuge.length > 0, vektor.length > 0, treffer.length);',
  ].join("\n");
  return { cells: [...prelude, ...cleanups.flatMap((c) => [c, useAgain])], teile: teile.length };
}

// One kernel for both (each kernel start costs seconds of CPU): the set-up cells first, in the fresh kernel.
test("set-up cells run twice leave one server each; each Teil's clean-up cell leaves everything usable", async () => {
  const twice = setUpTwice();
  const cleanUps = cleanUpsThenUse();
  const { result, outputs } = await runCells(join(notebooksDir, "31-aufgabe-3-mcp-werkzeuge.ipynb"), [
    ...twice,
    ...cleanUps.cells,
  ]);
  assert.deepEqual(result.failures, [], describeFailures(result));

  // Teil 3 and Aufgabe 3: each set-up cell run twice leaves one math server and one travel server.
  assert.match(outputs[1] ?? "", /Rechen-Server läuft schon – er wird wiederverwendet\./u);
  assert.match(outputs[twice.length - 1] ?? "", /Server-Prozesse: Rechen 1, Reise 1/u);

  // Each Teil's clean-up cell: the next cell can use the model, the client, the embedder and the store again.
  const checks = outputs.slice(twice.length).filter((o) => o.includes("wieder da:"));
  assert.equal(checks.length, cleanUps.teile);
  for (const out of checks) assert.match(out, /wieder da: true true true 1/u);
});
