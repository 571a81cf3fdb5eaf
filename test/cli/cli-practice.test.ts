// The CLI without a model, as a participant meets it: the three ways out (download, USB stick, class
// server) and practice mode (`--uebung`, `--practice`) on the tiny models with offline travel data.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, test } from "node:test";
import { DEFAULT_LLM_FILE, PRACTICE_NOTICE } from "../../lib/config.js";
import { ensureTinyModels } from "../../scripts/dev/tiny-models/ensure.js";
import { runCommandHere } from "../helpers/run-script.js";

/** No model anywhere: the default file in an empty models folder, the local backend, live travel data. */
let noModel: Record<string, string>;

before(async () => {
  await ensureTinyModels();
  const empty = mkdtempSync(join(tmpdir(), "kit-cli-no-model-"));
  noModel = {
    LLM_MODEL_PATH: "",
    MODELS_DIR: empty,
    LLM_BACKEND: "local",
    LLM_BASE_URL: "",
    TRAVEL_OFFLINE: "0",
    TRAVEL_TODAY: "2026-01-29",
  };
});

test("without a model it names the three ways out and --uebung, before starting anything", async () => {
  const started = performance.now();
  const r = await runCommandHere("start", ["Wie ist das Wetter in Rom?"], noModel);
  const seconds = (performance.now() - started) / 1000;
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /Das Sprachmodell fehlt: .*Meta-Llama-3\.1-8B-Instruct-Q4_K_M\.gguf/);
  assert.match(r.stderr, /1\. Mit Internet herunterladen: npm run models:pull/);
  assert.ok(
    r.stderr.includes(
      `2. Vom USB-Stick der Kursleitung: die Datei ${DEFAULT_LLM_FILE} nach ${noModel.MODELS_DIR}/ kopieren.`,
    ),
    r.stderr,
  );
  assert.match(
    r.stderr,
    /3\. Den Klassen-Server nutzen: LLM_BACKEND=openai LLM_BASE_URL=http:\/\/<klassen-server>:8080\/v1 npm start -- "<Frage>"/,
  );
  assert.match(r.stderr, /Nur zum Durchklicken ohne Modell: npm start -- --uebung "<Frage>"/);
  assert.doesNotMatch(r.stderr, /^\s+at /m);
  assert.doesNotMatch(r.stdout, /Reise-Server/, "nothing was started");
  console.log(`# missing model: exit ${r.code} after ${seconds.toFixed(1)} s`);
});

test("--uebung runs on the tiny models with offline travel data although no model is there; --practice too", async () => {
  for (const flag of ["--uebung", "--practice"]) {
    const r = await runCommandHere(
      "start",
      [flag, "Wie ist das Wetter in Rom?", "--max-iterations", "1", "--rag-k", "1"],
      noModel,
    );
    assert.ok(r.code === 0 || r.code === 3, `${flag}: exit ${r.code}: ${r.stderr}`);
    assert.ok(r.stdout.includes(`🧪 ${PRACTICE_NOTICE}`), r.stdout);
    assert.match(r.stdout, /Backend: node-llama-cpp \(CPU\)/);
    assert.match(r.stdout, /Modell: .*tiny-llama\.gguf/);
    assert.match(r.stdout, /Reise-Server: http:\/\/127\.0\.0\.1:\d+\/mcp \(Offline-Daten\)/);
    assert.match(r.stdout, /RAG: \d von \d Textstellen/, "the tiny embedding model is used");
    assert.match(r.stdout, /\nAntwort:\n/);
  }
});

test("--uebung with --model is refused with a German message", async () => {
  const r = await runCommandHere("start", ["--uebung", "--model", "x.gguf", "Frage?"], noModel);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--uebung nimmt das winzige Übungsmodell/);
});

test("the help names practice mode", async () => {
  const r = await runCommandHere("start", ["--help"], noModel);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /--uebung, --practice/);
});
