// `npm start -- --probe "<Frage>"` without any model: the scripted rehearsal model plans, the real travel
// server (a subprocess) answers the tool calls through the real plan executor, and the answer comes from
// those results, marked 🎭. Other questions say which ones the script knows; bad combinations are German errors.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, test } from "node:test";
import { PROBE_NOTICE } from "../../lib/config.js";
import { ensureTinyModels } from "../../scripts/dev/tiny-models/ensure.js";
import { runCommandHere } from "../helpers/run-script.js";

/** No language model anywhere (the default file in an empty folder); offline travel data, a fixed day. */
let noModel: Record<string, string>;

before(async () => {
  await ensureTinyModels();
  const empty = mkdtempSync(join(tmpdir(), "kit-cli-probe-"));
  noModel = {
    LLM_MODEL_PATH: "",
    MODELS_DIR: empty,
    LLM_BACKEND: "local",
    LLM_BASE_URL: "",
    TRAVEL_OFFLINE: "1",
    TRAVEL_TODAY: "2026-01-29",
    WORKSHOP_PROBE: "",
    WORKSHOP_PRACTICE: "",
  };
});

test("--probe answers the README's question through the real servers and plan executor, without a model", async () => {
  const started = performance.now();
  const r = await runCommandHere("start", ["--probe", "Wie ist heute das Wetter in Barcelona?"], noModel);
  const seconds = (performance.now() - started) / 1000;
  assert.equal(r.code, 0, r.stderr + r.stdout);
  assert.ok(r.stdout.includes(`🎭 ${PROBE_NOTICE}`), r.stdout);
  assert.match(r.stdout, /Reise-Server: http:\/\/127\.0\.0\.1:\d+\/mcp \(Offline-Daten\)/);
  assert.match(r.stdout, /→ geo: geocode\(\{"destination":"Barcelona"\}\)/);
  assert.match(
    r.stdout,
    /✓ geo nach \d+ ms: \{"query":"Barcelona","lat":41\.3874,"lon":2\.1686/,
    "the real server's result",
  );
  // The $ref was resolved from geocode's result by the executor, and the date is TRAVEL_TODAY.
  assert.match(
    r.stdout,
    /→ wetter: get_weather\(\{"lat":41\.3874,"lon":2\.1686,"start_date":"2026-01-29","end_date":"2026-01-29"\}\)/,
  );
  assert.match(r.stdout, /Fertig: beantwortet\./);
  assert.match(
    r.stdout,
    /\nAntwort:\n🎭 Heute \(2026-01-29\) – Barcelona: .+, -?[\d,]+ bis -?[\d,]+ °C, [\d,]+ mm Regen\.\n/,
  );
  assert.doesNotMatch(r.stdout, /Sprachmodell fehlt|Im Probelauf kennt das Drehbuch/);
  assert.doesNotMatch(r.stderr, /^\s+at /m);
  console.log(`# --probe: exit ${r.code} after ${seconds.toFixed(1)} s`);
});

test("--probelauf with a question the script does not know: the plain answer and the questions it knows", async () => {
  const r = await runCommandHere("start", ["--probelauf", "Wie hoch ist der Eiffelturm?", "--rag-k", "0"], noModel);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /\nAntwort:\n🎭 Probelauf: Ich kenne nur das Drehbuch/);
  assert.match(r.stdout, /Im Probelauf kennt das Drehbuch nur die Fragen der Notebooks und des Modell-Checks/);
  assert.match(r.stdout, /npm start -- --probe "Wie ist heute das Wetter in Barcelona\?"/);
});

test("--probe with --uebung or --model is refused in German; the help names it", async () => {
  for (const extra of [["--uebung"], ["--model", "x.gguf"]]) {
    const r = await runCommandHere("start", ["--probe", ...extra, "Frage?"], noModel);
    assert.equal(r.code, 2, r.stdout);
    assert.match(r.stderr, new RegExp(`--probe antwortet aus dem Drehbuch, ohne Modell; ${extra[0]} passt nicht dazu`));
    assert.doesNotMatch(r.stdout, /Reise-Server/, "nothing was started");
  }
  const help = await runCommandHere("start", ["--help"], noModel);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--probe, --probelauf +Probelauf ohne Modell/);
});
