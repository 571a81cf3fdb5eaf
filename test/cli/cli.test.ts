// The CLI as a newcomer runs it: a real subprocess with the tiny models, the real travel server
// (offline data) and the real agent loop.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, test } from "node:test";
import { tinyModelPaths } from "../../lib/config.js";
import { ensureTinyModels } from "../../scripts/tiny-models/ensure.js";
import { runScript } from "../helpers/run-script.js";


function runCli(args: string[], env: Record<string, string> = {}) {
  const tiny = tinyModelPaths();
  return runScript("cli.ts", args, {
    LLM_MODEL_PATH: tiny.gguf,
    EMBEDDING_MODEL: tiny.embeddingDir,
    MODELS_OFFLINE: "1",
    LLM_THREADS: "1",
    LLM_GPU: "cpu",
    LLM_BACKEND: "local",
    ...env,
  });
}

before(async () => {
  await ensureTinyModels();
});

test("answers a question end to end and saves the trace", async () => {
  const trace = join(mkdtempSync(join(tmpdir(), "kit-cli-")), "trace.json");
  const r = await runCli(["Wie ist heute das Wetter in Barcelona?", "--offline", "--max-iterations", "2", "--trace", trace]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Backend: node-llama-cpp/);
  assert.match(r.stdout, /Reise-Server: http:\/\/127\.0\.0\.1:\d+\/mcp \(Offline-Daten\)/);
  assert.match(r.stdout, /Runde 1:/);
  assert.match(r.stdout, /\nAntwort:\n\S/);
  const saved = JSON.parse(readFileSync(trace, "utf8")) as { question: string; events: { type: string }[]; status: string };
  assert.equal(saved.question, "Wie ist heute das Wetter in Barcelona?");
  assert.equal(saved.events[0]?.type, "run_start");
  assert.equal(saved.events.at(-1)?.type, "final");
  assert.equal(saved.status, "answered");
});

test("without a model file it says where to put it, without a stack trace", async () => {
  const missing = join(tmpdir(), "kein-modell-hier.gguf");
  const r = await runCli(["Wie ist das Wetter in Rom?", "--offline", "--model", missing]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /Modelldatei nicht gefunden: .*kein-modell-hier\.gguf/);
  assert.match(r.stderr, /npm run models:pull/);
  assert.doesNotMatch(r.stderr, /^\s+at /m);
  assert.equal(existsSync(missing), false);
});

test("bad options and a missing question print usage and exit 2", async () => {
  const noQuestion = await runCli([]);
  assert.equal(noQuestion.code, 2);
  assert.match(noQuestion.stdout, /Aufruf: npm start/);
  const badNumber = await runCli(["Frage?", "--max-iterations", "viele"]);
  assert.equal(badNumber.code, 2);
  assert.match(badNumber.stderr, /--max-iterations erwartet eine Zahl/);
  const badMode = await runCli(["Frage?", "--mode", "turbo"]);
  assert.equal(badMode.code, 2);
  assert.match(badMode.stderr, /--mode muss eines von/);
  const unknown = await runCli(["Frage?", "--gibtsnicht"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /Unknown option/);
});
