// `npm run models:warm` end to end on the tiny GGUF (real subprocesses): the instructor's clone writes
// prompt-states/ beside the model; a participant's clone (other folder, model and states copied, new
// file times, an empty cache of its own) starts `npm start` and round 1 evaluates only what follows the
// planner's system prompt — on two different days; a truncated state whose manifest agrees with it is
// refused before llama.cpp (no abort) with a German note.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { tinyModelPaths } from "../../lib/config.js";
import type { GenerationMeter } from "../../lib/index.js";
import { MANIFEST_FILE, warmStateDir, type WarmManifest } from "../../lib/llm/warm-states.js";
import { ensureTinyModels } from "../../scripts/dev/tiny-models/ensure.js";
import { runCliOnTinyModels, runCommand } from "../helpers/run-script.js";

const work = mkdtempSync(join(tmpdir(), "models-warm-test-"));
after(() => rmSync(work, { recursive: true, force: true }));
const CONTEXT = { LLM_CONTEXT_SIZE: "16384" };

function clone(name: string): string {
  const models = join(work, name, "models");
  mkdirSync(models, { recursive: true });
  return join(models, "tiny-llama.gguf");
}

let instructor: string;
let manifest: WarmManifest;
before(async () => {
  await ensureTinyModels();
  instructor = clone("kursleitung");
  copyFileSync(tinyModelPaths().gguf, instructor);
});

test("models:warm writes the planner's and the half-agent's states and a manifest beside the model", async () => {
  const tiny = tinyModelPaths();
  const env = {
    LLM_MODEL_PATH: instructor,
    EMBEDDING_MODEL: tiny.embeddingDir,
    MODELS_OFFLINE: "1",
    LLM_THREADS: "1",
    LLM_GPU: "cpu",
    LLM_BACKEND: "local",
    ...CONTEXT,
  };
  const r = await runCommand("models:warm", [], env, { timeoutMs: 300_000 });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /✅ \d Zustände \([\d,]+ MB\) in .*prompt-states\//);
  manifest = JSON.parse(readFileSync(join(warmStateDir(instructor), MANIFEST_FILE), "utf8")) as WarmManifest;
  const names = manifest.entries.map((e) => e.name);
  for (const name of ["planer-reise", "planer-reise-mathe", "halbagent-reise", "halbagent-reise-mathe"])
    assert.ok(names.includes(name), name);
  for (const e of manifest.entries) {
    const bytes = readFileSync(join(warmStateDir(instructor), e.file));
    assert.equal(bytes.length, e.bytes, e.name);
    assert.equal(createHash("sha256").update(bytes).digest("hex"), e.sha256, e.name);
    assert.equal(e.settings.contextSize, 16384);
    assert.match(r.stdout, new RegExp(`${e.name} +${e.tokens} Tokens`));
  }
  assert.deepEqual(
    readdirSync(warmStateDir(instructor)).filter((f) => f.includes(".tmp")),
    [],
    "no temporary files left",
  );

  // --only renews one state and keeps the others in the manifest.
  const again = await runCommand("models:warm", ["--only", "halbagent-reise"], env, { timeoutMs: 300_000 });
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.match(again.stdout, /✅ 1 Zustand \(/);
  const renewed = JSON.parse(readFileSync(join(warmStateDir(instructor), MANIFEST_FILE), "utf8")) as WarmManifest;
  assert.deepEqual(renewed.entries.map((e) => e.name).sort(), names.sort());
  const at = (m: WarmManifest, name: string) => m.entries.find((e) => e.name === name)?.createdAt;
  assert.equal(at(renewed, "planer-reise"), at(manifest, "planer-reise"));
  assert.notEqual(at(renewed, "halbagent-reise"), at(manifest, "halbagent-reise"));
  manifest = renewed;
});

/** `npm start` round 1 in `model`'s clone with its own empty state cache; returns round 1's meter and the output. */
async function firstRound(model: string, today: string, stateDir: string) {
  const trace = join(work, `trace-${today}-${Math.random().toString(36).slice(2)}.json`);
  const r = await runCliOnTinyModels(
    ["Wie wird das Wetter in Rom?", "--offline", "--rag-k", "0", "--max-iterations", "1", "--trace", trace],
    {
      LLM_MODEL_PATH: model,
      LLM_STATE_DIR: stateDir,
      TRAVEL_TODAY: today,
      ...CONTEXT,
    },
  );
  assert.ok(r.code === 0 || r.code === 3, `exit ${r.code}: ${r.stderr.slice(-400)}`);
  assert.doesNotMatch(r.stderr, /GGML_ASSERT/);
  const events = (
    JSON.parse(readFileSync(trace, "utf8")) as { events: Array<{ type: string; meter?: GenerationMeter }> }
  ).events;
  const meter = events.find((e) => (e.type === "plan" || e.type === "plan_error") && e.meter)?.meter;
  assert.ok(meter, "round 1 has a meter");
  return { meter, stdout: r.stdout };
}

test("a participant's clone uses the states: round 1 evaluates only the date and the question, on any day", async () => {
  assert.ok(manifest, "needs the states of the first test");
  const participant = clone("teilnehmer");
  copyFileSync(instructor, participant);
  const later = new Date(Date.now() + 86_400_000);
  utimesSync(participant, later, later);
  cpSync(warmStateDir(instructor), warmStateDir(participant), { recursive: true });
  const planner = manifest.entries.find((e) => e.name === "planer-reise")!;

  const full = (await firstRound(participant, "2026-01-29", "off")).meter;
  for (const today of ["2026-01-29", "2027-03-01"]) {
    const cache = join(work, `cache-${today}`);
    const { meter, stdout } = await firstRound(participant, today, cache);
    assert.equal(meter.promptTokensReused, planner.tokens, today);
    assert.equal(meter.promptTokensEvaluated, full.promptTokensEvaluated - planner.tokens, today);
    assert.ok(meter.promptTokensEvaluated < 60, `${today}: ${meter.promptTokensEvaluated} tokens evaluated`);
    assert.doesNotMatch(stdout, /Prompt-Zust/);
    assert.equal(
      existsSync(cache) && readdirSync(cache).some((f) => f.endsWith(".kvstate")),
      false,
      "nothing had to be saved locally",
    );
  }

  // Cut short with a manifest that agrees (size and SHA-256): refused before llama.cpp, evaluated as without.
  const file = join(warmStateDir(participant), planner.file);
  const cut = readFileSync(file).subarray(0, Math.floor(planner.bytes * 0.6));
  writeFileSync(file, cut);
  const edited = structuredClone(manifest);
  Object.assign(
    edited.entries.find((e) => e.name === "planer-reise")!,
    { bytes: cut.length, sha256: createHash("sha256").update(cut).digest("hex") },
  );
  writeFileSync(join(warmStateDir(participant), MANIFEST_FILE), JSON.stringify(edited));
  const damaged = await firstRound(participant, "2026-01-29", join(work, "cache-damaged"));
  assert.match(
    damaged.stdout,
    /Hinweis: Vorbereiteter Prompt-Zustand tiny-llama\.planer-reise\.ctx16384\.kvstate wird ignoriert \(Zustandsdatei unvollständig/,
  );
  assert.equal(damaged.meter.promptTokensEvaluated, full.promptTokensEvaluated);
});
