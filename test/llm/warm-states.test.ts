// Prepared prompt states (prompt-states/ beside the model, written by models:warm's warmPrompts) on the
// real tiny GGUF: used from another folder with a model copied without its times, on any day; ignored
// with one German note when made for another model, context size, template or llama.cpp release;
// a damaged, truncated or special file (link, FIFO) refused before it reaches llama.cpp, whatever the
// manifest says. The whole CLI path: test/scripts/models-warm.test.ts.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { tinyModelPaths } from "../../lib/config.js";
import { loadLocalLlm, todayMessage, type ChatMessage, type LocalLlm, type LocalLlmOptions } from "../../lib/index.js";
import { MANIFEST_FILE, warmStateDir, type WarmManifest } from "../../lib/llm/warm-states.js";
import { warmPrompts } from "../../scripts/apps/models/warm.js";
import { ensureTinyModels } from "../../scripts/dev/tiny-models/ensure.js";

const work = mkdtempSync(join(tmpdir(), "warm-states-test-"));
after(() => rmSync(work, { recursive: true, force: true }));

const SYSTEM =
  "Du bist ein Reiseplaner. Werkzeuge:\n" +
  Array.from({ length: 12 }, (_, i) => `- tool_${i}(ort: string, datum?: string) – Angaben Nr. ${i}`).join("\n");
const QUESTION = "Wie wird das Wetter morgen in Lissabon?";
const messages = (today: string): ChatMessage[] => [
  { role: "system", content: SYSTEM },
  todayMessage(today),
  { role: "user", content: QUESTION },
];
const GEN = { maxTokens: 6, seed: 3, temperature: 0.8 };
const CONTEXT = 4096;

let count = 0;
/** A clone folder: models/ with a copy of the tiny GGUF (new times, as from a USB stick). */
function cloneModels(): string {
  const models = join(work, `clone-${count++}`, "models");
  mkdirSync(models, { recursive: true });
  const model = join(models, "tiny-llama.gguf");
  copyFileSync(tinyModelPaths().gguf, model);
  const later = new Date(Date.now() + 3600_000 * (count + 1));
  utimesSync(model, later, later);
  return model;
}

async function withLlm<T>(modelPath: string, options: LocalLlmOptions, fn: (llm: LocalLlm) => Promise<T>): Promise<T> {
  const llm = await loadLocalLlm({
    modelPath,
    gpu: "cpu",
    threads: 1,
    contextSize: CONTEXT,
    promptStateMinTokens: 64,
    promptStateDir: join(work, `cache-${count++}`),
    ...options,
  });
  try {
    return await fn(llm);
  } finally {
    await llm.dispose();
  }
}

/** One fresh process's view: a new instance, an empty cache of its own, one call. */
async function ask(modelPath: string, today = "2026-01-29", options: LocalLlmOptions = {}) {
  return withLlm(modelPath, options, async (llm) => {
    const { meter } = await llm.chat(messages(today), GEN);
    return {
      meter,
      state: llm.lastPromptState,
      notes: [...llm.info.notes],
      promptTokens: llm.countPromptTokens(messages(today)),
    };
  });
}

let madeAt: string;
let manifest: WarmManifest;

before(async () => {
  await ensureTinyModels();
  madeAt = cloneModels();
  await withLlm(madeAt, { warmStateDir: false }, (llm) =>
    warmPrompts(llm, madeAt, [{ name: "test", usedBy: "Test", system: SYSTEM }], () => undefined),
  );
  manifest = JSON.parse(readFileSync(join(warmStateDir(madeAt), MANIFEST_FILE), "utf8")) as WarmManifest;
});

/** A second clone with the prepared states copied along; `edit` may change its manifest. */
function cloneWithStates(edit?: (m: WarmManifest) => void): string {
  const model = cloneModels();
  cpSync(warmStateDir(madeAt), warmStateDir(model), { recursive: true });
  if (edit) {
    const copy = structuredClone(manifest);
    edit(copy);
    writeFileSync(join(warmStateDir(model), MANIFEST_FILE), JSON.stringify(copy));
  }
  return model;
}

test("the prefix holds no date: the rendered prompt has today's date, the prepared prefix does not", async () => {
  await withLlm(madeAt, {}, async (llm) => {
    assert.match(llm.renderPrompt(messages("2026-01-29")), /Heutiges Datum: 2026-01-29\./);
    const alone = llm.renderPrompt([
      { role: "system", content: SYSTEM },
      { role: "user", content: "x" },
    ]);
    assert.doesNotMatch(alone, /Today Date|2026|Heutiges Datum/, "nothing per day in the first system block");
  });
  const [entry] = manifest.entries;
  assert.equal(manifest.entries.length, 1);
  assert.ok(entry && entry.tokens > 64 && entry.model.file === "tiny-llama.gguf");
});

test("another folder, a model copied without its times, two different days: round 1 evaluates only what follows the prefix", async () => {
  const model = cloneWithStates();
  for (const today of ["2026-01-29", "2027-03-01"]) {
    const full = (await ask(model, today, { promptStateDir: false })).meter.promptTokensEvaluated;
    const r = await ask(model, today);
    assert.equal(r.state?.action, "loaded", today);
    assert.equal(r.state?.file, join(warmStateDir(model), manifest.entries[0]!.file));
    assert.equal(r.state?.tokens, manifest.entries[0]!.tokens);
    assert.equal(r.meter.promptTokensReused, manifest.entries[0]!.tokens, today);
    assert.equal(
      r.meter.promptTokensEvaluated,
      full - manifest.entries[0]!.tokens,
      `${today}: only the date, the question and the template's closing tokens`,
    );
    assert.ok(r.meter.promptTokensEvaluated < r.promptTokens / 4);
    assert.deepEqual(
      r.notes.filter((n) => n.includes("Prompt-Zust")),
      [],
      today,
    );
  }
});

/** The note says why; the whole prompt is evaluated (and saved to the local cache) as without states. */
async function assertIgnored(model: string, why: RegExp, options: LocalLlmOptions = {}) {
  const r = await ask(model, "2026-01-29", options);
  assert.equal(r.state?.action, "saved");
  assert.match(r.state?.note ?? "", why);
  assert.ok(
    r.promptTokens - r.meter.promptTokensEvaluated <= 1,
    `all evaluated: ${r.meter.promptTokensEvaluated} of ${r.promptTokens}`,
  );
  assert.equal(r.notes.filter((n) => n.includes("Vorbereitete")).length <= 1, true);
  return r;
}

test("states of another model, context size, template or llama.cpp release are ignored with one German note", async () => {
  const other = cloneWithStates();
  const bytes = readFileSync(other);
  bytes[bytes.length - 100]! ^= 0x01; // one weight changed: another model, same size
  writeFileSync(other, bytes);
  await assertIgnored(
    other,
    /^Vorbereitete Prompt-Zustände in .* werden ignoriert \(für ein anderes Modell \(tiny-llama\.gguf\)\); der Prompt wird wie ohne sie berechnet\. Abhilfe: npm run models:warm$/,
  );

  await assertIgnored(cloneWithStates(), /ignoriert \(Kontext 4096 statt 2048 Tokens\)/, { contextSize: 2048 });

  // States made with another chat template or llama.cpp: their manifest says so, and their key differs.
  const foreign = (field: "template" | "llamaCpp", value: string) => (m: WarmManifest) => {
    for (const e of m.entries)
      Object.assign(e, {
        key: createHash("sha256")
          .update(e.key + value)
          .digest("hex"),
        settings: { ...e.settings, [field]: value },
      });
  };
  await assertIgnored(
    cloneWithStates(foreign("template", "Llama 3.1 0000000000000000")),
    /ignoriert \(anderes Chat-Template\)/,
  );
  await assertIgnored(
    cloneWithStates(foreign("llamaCpp", "ggml-org/llama.cpp@b1, node-llama-cpp 3.0.0")),
    /ignoriert \(mit llama\.cpp ggml-org\/llama\.cpp@b1, node-llama-cpp 3\.0\.0 erstellt, hier .*\)/,
  );
});

test("the note comes once per process; later calls are quiet", async () => {
  await withLlm(cloneWithStates(), { contextSize: 2048 }, async (llm) => {
    await llm.chat(messages("2026-01-29"), GEN);
    assert.match(llm.lastPromptState?.note ?? "", /Vorbereitete/);
    await llm.resetCache();
    await llm.chat(messages("2026-01-29"), GEN);
    assert.equal(llm.lastPromptState?.action, "loaded", "from the local cache now");
    assert.equal(llm.info.notes.filter((n) => n.includes("Vorbereitete")).length, 1);
  });
});

test("a tampered or truncated state file is refused before it reaches llama.cpp, and left in place", async () => {
  const tampered = cloneWithStates();
  const file = join(warmStateDir(tampered), manifest.entries[0]!.file);
  const bytes = readFileSync(file);
  bytes[bytes.length >> 1]! ^= 0x40;
  writeFileSync(file, bytes);
  await assertIgnored(tampered, /^Vorbereiteter Prompt-Zustand .*\.kvstate wird ignoriert \(Prüfsumme stimmt nicht/);
  assert.equal(readFileSync(file).length, bytes.length, "the prepared file is not deleted");

  // Cut short, and the manifest made to agree (size and SHA-256): only the layout walk can tell.
  const cut = bytes.subarray(0, Math.floor(bytes.length * 0.6));
  const truncated = cloneWithStates((m) =>
    Object.assign(m.entries[0]!, { bytes: cut.length, sha256: createHash("sha256").update(cut).digest("hex") }),
  );
  writeFileSync(join(warmStateDir(truncated), manifest.entries[0]!.file), cut);
  await assertIgnored(truncated, /wird ignoriert \(Zustandsdatei unvollständig oder beschädigt: endet nach/);

  const broken = cloneWithStates();
  writeFileSync(join(warmStateDir(broken), MANIFEST_FILE), "{ kaputt");
  await assertIgnored(broken, /ignoriert \(manifest\.json ist beschädigt/);
  assert.deepEqual(readdirSync(warmStateDir(broken)).sort(), [MANIFEST_FILE, manifest.entries[0]!.file].sort());
});

test("the manifest cannot switch the layout walk off: a truncated state it agrees with is still refused", async () => {
  const bytes = readFileSync(join(warmStateDir(madeAt), manifest.entries[0]!.file));
  const cut = bytes.subarray(0, Math.floor(bytes.length * 0.6));
  const model = cloneWithStates((m) =>
    Object.assign(m.entries[0]!, {
      bytes: cut.length,
      sha256: createHash("sha256").update(cut).digest("hex"),
      layout: false,
    }),
  );
  writeFileSync(join(warmStateDir(model), manifest.entries[0]!.file), cut);
  // Before: llama.cpp's GGML_ASSERT(nread <= state_size) aborted the process (exit 134).
  await assertIgnored(model, /wird ignoriert \(Zustandsdatei unvollständig oder beschädigt: endet nach/);
});

test(
  "a state 'file' that is a link to /dev/zero, a FIFO or a link to a good copy is refused without reading it",
  { timeout: 120_000 },
  async () => {
    const empty = createHash("sha256").update("").digest("hex");
    const special = (make: (file: string) => void) => {
      const model = cloneWithStates((m) => Object.assign(m.entries[0]!, { bytes: 0, sha256: empty, layout: false }));
      const file = join(warmStateDir(model), manifest.entries[0]!.file);
      rmSync(file);
      make(file);
      return model;
    };
    // Before: both hung the start forever (the checksum read /dev/zero without end; opening the FIFO waited for a writer).
    await assertIgnored(
      special((file) => symlinkSync("/dev/zero", file)),
      /wird ignoriert \(Zustandsdatei ist eine Verknüpfung, keine Datei\)/,
    );
    await assertIgnored(
      special((file) => execFileSync("mkfifo", [file])),
      /wird ignoriert \(Zustandsdatei ist keine gewöhnliche Datei\)/,
    );
    const linked = cloneWithStates();
    const file = join(warmStateDir(linked), manifest.entries[0]!.file);
    renameSync(file, `${file}.echt`);
    symlinkSync(`${file}.echt`, file);
    await assertIgnored(linked, /wird ignoriert \(Zustandsdatei ist eine Verknüpfung, keine Datei\)/);
  },
);
