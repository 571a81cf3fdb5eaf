// The CLI (real subprocess, tiny GGUF) with a saved prompt state that is truncated but carries a sidecar
// that matches it (size and SHA-256 recomputed, as after a save cut short or a copy gone wrong):
// llama.cpp would abort the process with GGML_ASSERT on every start; the kit must refuse the file
// before loading it, evaluate the prompt again, and say so in German on the terminal.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ensureTinyModels } from "../../scripts/dev/tiny-models/ensure.js";
import { runCliOnTinyModels } from "../helpers/run-script.js";

const stateDir = mkdtempSync(join(tmpdir(), "cli-prompt-state-"));
before(async () => {
  await ensureTinyModels();
});
after(() => rmSync(stateDir, { recursive: true, force: true }));

const run = () =>
  runCliOnTinyModels(["Wie wird das Wetter in Rom?", "--offline", "--rag-k", "0", "--max-iterations", "1"], {
    TRAVEL_TODAY: "2026-01-29",
    LLM_STATE_DIR: stateDir,
  });

test("a truncated state file with a matching sidecar: no abort, a German note, the state written again", async () => {
  const first = await run();
  assert.notEqual(first.code, null, first.stderr);
  const [state] = readdirSync(stateDir).filter((f) => f.endsWith(".kvstate"));
  assert.ok(state, `no state saved: ${first.stdout}`);
  const file = join(stateDir, state);
  const cut = readFileSync(file).subarray(0, Math.floor(readFileSync(file).length * 0.6));
  writeFileSync(file, cut);
  const sidecar = file.replace(/\.kvstate$/, ".json");
  const meta = JSON.parse(readFileSync(sidecar, "utf8")) as Record<string, unknown>;
  writeFileSync(
    sidecar,
    JSON.stringify({ ...meta, bytes: cut.length, sha256: createHash("sha256").update(cut).digest("hex") }),
  );

  const second = await run();
  assert.ok(second.code === 0 || second.code === 3, `exit ${second.code}: ${second.stderr.slice(-400)}`);
  assert.doesNotMatch(second.stderr, /GGML_ASSERT/);
  assert.match(
    second.stdout,
    /Prompt-Zustand .* wird ignoriert \(Zustandsdatei unvollständig .*\); der Prompt wird neu berechnet/,
  );
  assert.equal(readFileSync(file).length > cut.length, true, "saved again in full");
});
