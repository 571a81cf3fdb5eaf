// The developer examples (examples/*.ts) as real subprocesses on the tiny generated models with offline
// travel data, as `npx tsx examples/<name>.ts` runs them. Random weights make the answers gibberish; what
// is checked is the structure each example prints.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { loadConfig, McpToolClient } from "../../lib/index.js";
import { testEnvironment } from "../../scripts/dev/test-env.js";
import { runTsFile, type ScriptRun } from "../helpers/run-script.js";

let env: NodeJS.ProcessEnv;
const temp = mkdtempSync(join(tmpdir(), "kit-examples-"));

before(async () => {
  env = await testEnvironment({ tinyModels: true });
});

after(() => rmSync(temp, { recursive: true, force: true }));

function ok(r: ScriptRun): void {
  assert.equal(r.code, 0, `exit ${r.code}\n${r.stdout}\n${r.stderr}`);
}

describe("examples/rag-own-folder.ts", () => {
  test("indexes the bundled notes and prints the top passages with scores and file names", async () => {
    const r = await runTsFile("examples/rag-own-folder.ts", [], env, { timeoutMs: 60_000 });
    ok(r);
    assert.match(r.stdout, /^Dateien: budget\.md, packliste\.md, regenwetter\.md$/m);
    const passages = r.stdout.match(/^\d\. score=-?\d\.\d{3} {2}(budget|packliste|regenwetter)\.md/gm) ?? [];
    assert.equal(passages.length, 3, r.stdout);
  });

  test("reads any folder of Markdown files (README.md skipped); k is capped at the number of chunks", async () => {
    const folder = join(temp, "notes");
    mkdirSync(folder);
    writeFileSync(join(folder, "README.md"), "# Nicht indexieren\n\nDiese Datei zählt nicht.\n");
    writeFileSync(join(folder, "eins.md"), "# Eins\n\nDer Leuchtturm steht am Hafen.\n");
    writeFileSync(join(folder, "zwei.md"), "# Zwei\n\nDie Fähre fährt stündlich zur Insel.\n");
    const r = await runTsFile("examples/rag-own-folder.ts", [folder, "Wann fährt die Fähre?", "5"], env, {
      timeoutMs: 60_000,
    });
    ok(r);
    assert.match(r.stdout, /^Dateien: eins\.md, zwei\.md$/m);
    const passages = r.stdout.match(/^\d\. score=.* (eins|zwei)\.md/gm) ?? [];
    assert.equal(passages.length, 2, r.stdout);
  });
});

describe("examples/agent-own-mcp-server.ts", () => {
  test("my-server.ts answers its one tool over stdio", async () => {
    const server = fileURLToPath(new URL("../../examples/my-server.ts", import.meta.url));
    const cmd = { command: process.execPath, args: ["--import", "tsx", server], cwd: loadConfig().root };
    const childEnv = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
    const client = await McpToolClient.connectCommand(cmd, childEnv);
    try {
      assert.deepEqual(
        (await client.listTools()).map((t) => t.name),
        ["waehrung"],
      );
      const result = await client.callTool("waehrung", { betrag: 100, von: "CHF", nach: "EUR" });
      assert.equal(result.isError, false, JSON.stringify(result));
      assert.deepEqual(result.data, { betrag: 106, waehrung: "EUR", kurs: 1.06 });
      assert.equal((await client.callTool("waehrung", { betrag: 1, von: "XYZ", nach: "EUR" })).isError, true);
    } finally {
      await client.close();
    }
  });

  test("one run over the travel server and the own server: tool list, tool calls, status, answer", async () => {
    const r = await runTsFile("examples/agent-own-mcp-server.ts", [], env, { timeoutMs: 120_000 });
    ok(r);
    const tools = /^Werkzeuge: (.*)$/m.exec(r.stdout)?.[1]?.split(", ") ?? [];
    assert.ok(tools.includes("waehrung"), r.stdout);
    assert.ok(tools.includes("get_weather"), r.stdout);
    assert.match(r.stdout, /^Tool-Aufrufe:$/m);
    assert.match(r.stdout, /^Status: (answered|max_iterations) \(.+\), Runden: [1-4]$/m);
    assert.match(r.stdout, /^Antwort:\n\S/m);
  });
});

describe("examples/batch-to-csv.ts", () => {
  test("one CSV row per question with numeric rounds, tool calls and tokens", async () => {
    const questions = join(temp, "fragen.txt");
    writeFileSync(questions, "# Kommentar\nWie ist das Wetter in Rom?\n\nWelche Parks gibt es in Wien?\n");
    const r = await runTsFile("examples/batch-to-csv.ts", [questions], env, { timeoutMs: 120_000 });
    ok(r);
    const lines = r.stdout.trimEnd().split("\n");
    assert.equal(lines[0], "frage,status,runden,tool_aufrufe,werkzeuge,tokens_prompt,tokens_generiert,antwort");
    assert.equal(lines.length, 3, r.stdout);
    for (const [i, question] of ["Wie ist das Wetter in Rom?", "Welche Parks gibt es in Wien?"].entries()) {
      const m = /^"([^"]*)","(\w+)",(\d+),(\d+),"[^"]*",(\d+),(\d+),"/.exec(lines[i + 1] ?? "");
      assert.ok(m, `row ${i + 1}: ${lines[i + 1]}`);
      assert.equal(m[1], question);
      assert.ok(Number(m[3]) >= 1 && Number(m[3]) <= 3, "rounds");
      assert.ok(Number(m[5]) > 0 && Number(m[6]) > 0, "prompt and generated tokens");
    }
    assert.match(r.stderr, /Frage 2\/2: Welche Parks/);
  });
});
