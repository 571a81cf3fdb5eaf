// The one-call set-ups of the exercise notebooks, on the real tiny models, the real RAG store and the
// real travel server (offline data); and the refusal probe against a scripted model.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tinyModelPaths } from "../../lib/config.js";
import { ScriptedLlm } from "../../lib/testing/scripted-llm.js";
import { DEFAULT_REFUSAL, probeRefusals, setupPart1 } from "../../lib/exercises/part1.js";
import { setupPart2 } from "../../lib/exercises/part2.js";
import { setupPart3 } from "../../lib/exercises/part3.js";
import { setupPart4 } from "../../lib/exercises/part4.js";

const cacheDir = mkdtempSync(join(tmpdir(), "kit-exercise-rag-"));

before(() => {
  const tiny = tinyModelPaths();
  Object.assign(process.env, {
    LLM_BACKEND: "local",
    LLM_MODEL_PATH: tiny.gguf,
    LLM_GPU: "cpu",
    LLM_THREADS: "1",
    LLM_CONTEXT_SIZE: "2048",
    EMBEDDING_MODEL: tiny.embeddingDir,
    MODELS_OFFLINE: "1",
    TRAVEL_OFFLINE: "1",
  });
});

after(() => rmSync(cacheDir, { recursive: true, force: true }));

function collect() {
  const lines: string[] = [];
  return { lines, log: (l: string) => lines.push(l) };
}

describe("exercise set-ups", () => {
  test("setupPart1: loads the model, prints what it loaded and the tasks; exact token counter", async () => {
    const out = collect();
    const kit = await setupPart1({ log: out.log });
    try {
      const text = out.lines.join("\n");
      assert.match(text, /Backend: node-llama-cpp/u);
      assert.match(text, /Token-Zähler: der Tokenizer des geladenen Modells/u);
      assert.match(
        text,
        /1\. buildMessages – .*\n.*2\. trimHistory – .*\n.*3\. refusalPrompt – .*\n.*4\. isRefusal – /u,
      );
      const n = kit.countTokens("Reiseplanung für Barcelona");
      assert.ok(Number.isInteger(n) && n > 0);
      assert.equal(kit.countTokens(""), 0);
    } finally {
      await kit.close();
    }
  });

  test("setupPart2: corpus, store, Q&A retrieval results with resolvable chunk ids", async () => {
    const out = collect();
    const kit = await setupPart2({ log: out.log, ragCacheDir: cacheDir });
    try {
      assert.equal(kit.sentences.length, 40);
      assert.equal(kit.results.length, kit.qa.length);
      assert.ok(kit.qa.length >= 25);
      const ids = new Set(kit.store.chunks.map((c) => `${c.metadata.document}#${c.metadata.index}`));
      for (const r of kit.results) {
        assert.equal(r.retrieved.length, Math.min(10, kit.store.chunks.length));
        assert.ok(r.relevant.length >= 1, `the passage of "${r.question}" lies in at least one chunk`);
        for (const id of [...r.retrieved, ...r.relevant]) assert.ok(ids.has(id), `${id} is a chunk of the store`);
      }
      assert.match(out.lines.join("\n"), /Fragen mit Antwortstelle: \d+/u);
    } finally {
      await kit.close();
    }
  });

  test("setupPart3: model, travel server and one session; close ends the sessions, the servers run on", async () => {
    const kit = await setupPart3({ log: () => {} });
    try {
      assert.deepEqual(kit.toolNames.sort(), [
        "geocode",
        "get_parks",
        "get_spots",
        "get_weather",
        "rank_spots",
        "save_trip_plan",
      ]);
      assert.equal(kit.server.mode, "offline");
      assert.equal(kit.llm.info.backend, "node-llama-cpp");
      await kit.close();
      assert.equal(kit.server.exited, false, "the clean-up cell stops no server (Run All runs it, too)");
      assert.match((await kit.mathe.client.callTool("multiplikation", { a: 6, b: 7 })).text, /42/u);
    } finally {
      await kit.close();
      await kit.server.stop();
      await kit.mathe.server.stop();
    }
  });

  test("setupPart4: travel server and a working client; after close the client opens a new session", async () => {
    const out = collect();
    const kit = await setupPart4({ log: out.log });
    try {
      const geo = await kit.client.callTool("geocode", { destination: "Lissabon" });
      assert.equal(geo.isError, false);
      assert.equal(typeof (geo.data as { lat?: unknown }).lat, "number");
      assert.match(out.lines.join("\n"), /Tools: .*geocode/u);
      await kit.close();
      assert.equal((await kit.client.callTool("geocode", { destination: "Lissabon" })).isError, false);
    } finally {
      await kit.close();
      await kit.server.stop();
      await kit.mathe.server.stop();
    }
    assert.equal(kit.server.exited, true);
  });
});

describe("probeRefusals (not a self-check)", () => {
  test("asks every question, reports what isRefusal says, and says it is no check", async () => {
    const llm = new ScriptedLlm([
      `„${DEFAULT_REFUSAL}“`,
      "Man nehme Quark …",
      DEFAULT_REFUSAL,
      "Im Regen: Museen.",
      DEFAULT_REFUSAL,
    ]);
    const out = collect();
    const results = await probeRefusals(llm, "Nur Reisen.", DEFAULT_REFUSAL, (a, r) => a.includes(r), { log: out.log });
    assert.deepEqual(
      results.map((r) => [r.shouldRefuse, r.refused]),
      [
        [true, true],
        [true, false],
        [true, true],
        [false, false],
        [false, true],
      ],
    );
    assert.equal(llm.requests.length, 5);
    assert.equal(llm.requests[0]?.messages[0]?.content, "Nur Reisen.");
    const text = out.lines.join("\n");
    assert.match(text, /KEIN Selbsttest/u);
    assert.match(text, /3 von 5 Antworten verhalten sich wie gewünscht/u);
  });

  test("a throwing isRefusal is reported, not thrown", async () => {
    const llm = new ScriptedLlm(["irgendwas"], { whenExhausted: "repeat-last" });
    const out = collect();
    const results = await probeRefusals(
      llm,
      "Nur Reisen.",
      DEFAULT_REFUSAL,
      () => {
        throw new Error("TODO");
      },
      { log: out.log, outOfScope: ["A?"], inScope: [] },
    );
    assert.equal(results[0]?.refused, undefined);
    assert.match(out.lines.join("\n"), /isRefusal warf einen Fehler: Error: TODO/u);
  });
});
