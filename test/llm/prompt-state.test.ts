// Persisted prompt state on the real tiny GGUF: a new instance loads the saved prefix instead of
// evaluating it, and every kind of unusable file (changed prompt or model, damaged, foreign, unwritable
// folder) falls back to evaluation with a note and the same answer — never a crash, never a wrong hit.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { tinyModelPaths } from "../../lib/config.js";
import { loadLocalLlm, type ChatMessage, type LocalLlm, type LocalLlmOptions } from "../../lib/index.js";
import { stablePrefix } from "../../lib/llm/prompt-state.js";
import { ensureTinyModels } from "../../scripts/dev/tiny-models/ensure.js";

const work = mkdtempSync(join(tmpdir(), "prompt-state-test-"));
let modelPath: string;

before(async () => {
  await ensureTinyModels();
  modelPath = tinyModelPaths().gguf;
});
after(() => rmSync(work, { recursive: true, force: true }));

const catalog = (topic: string) =>
  `Du bist ein Reiseplaner für ${topic}. Antworte knapp auf Deutsch. Werkzeuge:\n` +
  Array.from(
    { length: 40 },
    (_, i) => `- tool_${i}(ort: string, datum?: string) – liefert Angaben Nr. ${i} zum Ort`,
  ).join("\n");
const question = (sys: string, q = "Wie wird das Wetter morgen in Lissabon?"): ChatMessage[] => [
  { role: "system", content: sys },
  { role: "user", content: q },
];
const GEN = { maxTokens: 12, seed: 3, temperature: 0.8 };

let dirCount = 0;
const freshDir = () => join(work, `states-${dirCount++}`);

async function withLlm<T>(options: LocalLlmOptions, fn: (llm: LocalLlm) => Promise<T>): Promise<T> {
  const llm = await loadLocalLlm({ modelPath, gpu: "cpu", threads: 1, contextSize: 4096, ...options });
  try {
    return await fn(llm);
  } finally {
    await llm.dispose();
  }
}

async function ask(options: LocalLlmOptions, messages: ChatMessage[]) {
  return withLlm(options, async (llm) => {
    const { text, meter } = await llm.chat(messages, GEN);
    return {
      text,
      meter,
      state: llm.lastPromptState,
      notes: [...llm.info.notes],
      promptTokens: llm.countPromptTokens(messages),
    };
  });
}

const files = (dir: string, ext: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .map((f) => join(dir, f));

const sysA = catalog("Spanien");
const sysB = catalog("Portugal");
let reference: { text: string; evaluated: number };

test("without a state folder the whole prompt is evaluated (reference answer)", async () => {
  const r = await ask({ promptStateDir: false }, question(sysA));
  assert.equal(r.state, undefined);
  assert.ok(Math.abs(r.meter.promptTokensEvaluated - r.promptTokens) <= 1);
  reference = { text: r.text, evaluated: r.meter.promptTokensEvaluated };
});

test("first instance evaluates and saves the prefix; a new instance loads it and evaluates only the rest", async () => {
  const dir = freshDir();
  const first = await ask({ promptStateDir: dir }, question(sysA));
  assert.equal(first.state?.action, "saved");
  assert.equal(first.meter.promptTokensEvaluated, reference.evaluated);
  assert.equal(first.text, reference.text);
  const [stateFile] = files(dir, ".kvstate");
  assert.ok(stateFile && statSync(stateFile).size === first.state?.bytes && first.state.bytes > 0);

  const second = await ask({ promptStateDir: dir }, question(sysA));
  assert.equal(second.state?.action, "loaded");
  assert.equal(second.state?.tokens, first.state?.tokens);
  const prefix = second.state?.tokens ?? 0;
  assert.ok(prefix > reference.evaluated * 0.9, `prefix ${prefix} of ${reference.evaluated}`);
  assert.equal(second.meter.promptTokensEvaluated, reference.evaluated - prefix);
  assert.equal(second.meter.promptTokensReused, prefix);
  assert.equal(second.text, reference.text, "same answer as a full evaluation");
  assert.deepEqual(
    second.notes.filter((n) => n.includes("Prompt-Zustand")),
    [],
  );
});

test("the model is known by content: new times or another folder keep the state, a changed byte does not", async () => {
  const dir = freshDir();
  const copy = join(work, "copy.gguf");
  copyFileSync(modelPath, copy);
  assert.equal((await ask({ promptStateDir: dir, modelPath: copy }, question(sysA))).state?.action, "saved");
  const later = new Date(Date.now() + 86_400_000);
  utimesSync(copy, later, later);
  const moved = join(work, "elsewhere", "model.gguf");
  mkdirSync(join(work, "elsewhere"));
  copyFileSync(copy, moved);
  for (const path of [copy, moved])
    assert.equal((await ask({ promptStateDir: dir, modelPath: path }, question(sysA))).state?.action, "loaded", path);
  const bytes = readFileSync(copy);
  bytes[bytes.length - 100]! ^= 0x01;
  writeFileSync(copy, bytes);
  const r = await ask({ promptStateDir: dir, modelPath: copy }, question(sysA));
  assert.equal(r.state?.action, "saved");
  assert.equal(files(dir, ".kvstate").length, 2);
});

test("an unwritable state folder gives a note, and the answer still comes", async () => {
  const blocker = join(work, "not-a-folder");
  writeFileSync(blocker, "x");
  const r = await ask({ promptStateDir: join(blocker, "states") }, question(sysA));
  assert.equal(r.state?.action, "rejected");
  assert.match(r.state?.note ?? "", /konnte nicht .* gespeichert werden/);
  assert.equal(r.text, reference.text);
});

test("a save removes temporary files left by crashed saves (process gone, or over an hour old)", async () => {
  const dir = freshDir();
  mkdirSync(dir, { recursive: true });
  const dead = spawnSync(process.execPath, ["-e", ""]).pid;
  const name = (id: string, pid: number) => `${id.repeat(32)}.kvstate.${pid}.0123abcd.tmp`;
  const leftovers = [name("a", dead), `${name("a", dead)}.json`, name("c", process.pid)];
  for (const f of [...leftovers, name("b", process.pid)]) writeFileSync(join(dir, f), Buffer.alloc(1 << 20));
  const hoursAgo = new Date(Date.now() - 2 * 3600_000);
  utimesSync(join(dir, name("c", process.pid)), hoursAgo, hoursAgo);
  assert.equal((await ask({ promptStateDir: dir }, question(sysA))).state?.action, "saved");
  const left = readdirSync(dir);
  for (const f of leftovers) assert.ok(!left.includes(f), `${f} removed`);
  assert.ok(left.includes(name("b", process.pid)), "a fresh temporary file of a running process stays");
});

// One instance; resetCache() empties the KV cache, so the next call restores from disk like a new process.
test("reuse, misses, damaged and foreign files within one instance", async () => {
  const dir = freshDir();
  await withLlm({ promptStateDir: dir }, async (llm) => {
    const run = async (messages: ChatMessage[]) => {
      await llm.resetCache();
      const { text, meter } = await llm.chat(messages, GEN);
      return { text, meter, state: llm.lastPromptState };
    };
    const short = await run(question("Du bist ein Reiseplaner."));
    assert.equal(short.state, undefined, "short system prompts are not persisted");

    const a = await run(question(sysA));
    assert.equal(a.state?.action, "saved");
    const fileA = a.state?.file ?? "";
    const sidecarA = fileA.replace(/\.kvstate$/, ".json");
    await llm.chat(question(sysA, "Und übermorgen?"), GEN);
    assert.equal(llm.lastPromptState, undefined, "in-memory KV reuse needs no file");
    const other = await run(question(sysA, "Was kostet ein Museum in Porto?"));
    assert.equal(other.state?.action, "loaded", "another question after the same system prompt");

    const b = await run(question(sysB));
    assert.equal(b.state?.action, "saved", "a changed prompt misses");
    assert.ok(
      Math.abs(b.meter.promptTokensEvaluated - llm.countPromptTokens(question(sysB))) <= 1,
      "all of B evaluated",
    );
    const fileB = b.state?.file ?? "";
    assert.notEqual(fileA, fileB);

    const damages: Array<[string, () => void, RegExp]> = [
      [
        "flipped byte",
        () => {
          const bytes = readFileSync(fileA);
          bytes[bytes.length >> 1]! ^= 0x40;
          writeFileSync(fileA, bytes);
        },
        /Prüfsumme/,
      ],
      ["truncated", () => writeFileSync(fileA, readFileSync(fileA).subarray(0, 1000)), /Bytes/],
      ["broken sidecar", () => writeFileSync(sidecarA, "{ kaputt"), /beschädigt/],
      ["missing state file", () => rmSync(fileA), /fehlt/],
      ["foreign state file", () => copyFileSync(fileB, fileA), /Prüfsumme|Bytes/],
      [
        "foreign state file with its sidecar",
        () => {
          copyFileSync(fileB, fileA);
          copyFileSync(fileB.replace(/\.kvstate$/, ".json"), sidecarA);
        },
        /anderen Modell, Prompt/,
      ],
    ];
    for (const [what, damage, why] of damages) {
      damage();
      const r = await run(question(sysA));
      assert.equal(r.state?.action, "saved", what);
      assert.match(r.state?.note ?? "", /Prompt-Zustand .* wird ignoriert .*neu berechnet/, what);
      assert.match(r.state?.note ?? "", why, what);
      assert.equal(r.meter.promptTokensEvaluated, reference.evaluated, what);
      assert.equal(r.text, reference.text, what);
      assert.equal((await run(question(sysA))).state?.action, "loaded", `${what}: written again`);
    }
    assert.ok(llm.info.notes.filter((n) => n.includes("wird ignoriert")).length === damages.length);
  });
});

test("stablePrefix: cut before the end of the first message, only when it is a real prefix", () => {
  const first = Array.from({ length: 300 }, (_, i) => i) as never[];
  const prompt = [...first.slice(0, 298), 999, 1000, 1001] as never[];
  assert.equal(stablePrefix(prompt, first, 256)?.length, 292);
  assert.equal(stablePrefix(prompt, first, 293), undefined, "too short");
  const other = [...prompt];
  other[10] = 5 as never;
  assert.equal(stablePrefix(other, first, 256), undefined, "not a prefix");
});
