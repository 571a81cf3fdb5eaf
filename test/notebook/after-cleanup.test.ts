// After "Run All" a notebook's last cell has closed the model, the embedder and the tool client; the next
// cell a participant runs must work (issue 40, item 2): the model and the embedder load again, the client
// opens a new session. What cannot reload on its own (a token count) says so in one German sentence, not
// with node-llama-cpp's English DisposedError and its stack (issue 28, item 2). Real tiny models, a real
// travel server.
import assert from "node:assert/strict";
import { inspect } from "node:util";
import { after, describe, test } from "node:test";
import { PRACTICE_NOTICE, tinyModelPaths } from "../../lib/config.js";
import { setupPart1 } from "../../lib/exercises/setup.js";
import { loadLocalLlm } from "../../lib/llm/index.js";
import { createEmbedder } from "../../lib/rag/index.js";
import { McpToolClient, startTravelServer, type TravelServerHandle } from "../../lib/mcp/index.js";
import { tinyBertDir } from "../rag/helpers.js";

const AGAIN = /^.+ wurde geschlossen – führe die Set-up-Zelle oben noch einmal aus\.$/;

/** What a notebook shows for `error` (tslab prints thrown errors with util.inspect). */
function shownInNotebook(run: () => unknown): Promise<string> {
  const global = globalThis as { __tslab__?: unknown };
  global.__tslab__ = {};
  return Promise.resolve()
    .then(run)
    .then(
      () => assert.fail("no error"),
      (error: unknown) => inspect(error),
    )
    .finally(() => delete global.__tslab__);
}

/** What `run` returns, and what it prints with console.log. */
async function printedBy<T>(run: () => Promise<T>): Promise<{ value: T; printed: string }> {
  const printed: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => printed.push(args.join(" "));
  try {
    return { value: await run(), printed: printed.join("\n") };
  } finally {
    console.log = log;
  }
}

function assertOneGermanSentence(shown: string, what: RegExp): void {
  const line = shown.replace(/^⛔ /, "");
  assert.match(line, AGAIN, shown);
  assert.match(line, what);
  assert.doesNotMatch(shown, /Disposed|\n\s+at /, "no English error, no stack");
}

describe('used after the clean-up cell ("Run All" runs it too; issue 40, item 2)', () => {
  let server: TravelServerHandle | undefined;
  after(() => server?.stop());

  test("the model of Aufgabe 1 after kit.close(): chat and JSON load it again, the token counter works after that", async () => {
    const kit = await setupPart1({ log: () => undefined });
    const messages = [{ role: "user" as const, content: "Hallo" }];
    await kit.close();
    assertOneGermanSentence(await shownInNotebook(() => kit.countTokens("Hallo")), /^Das Modell/);
    const { value: reply, printed } = await printedBy(() => kit.llm.chat(messages, { maxTokens: 4, seed: 1 }));
    assert.ok(reply.meter.generatedTokens > 0);
    assert.match(printed, /Das Modell war entladen \(Aufräumen-Zelle\) – es wird neu geladen\./u);
    assert.ok(kit.countTokens("Hallo") > 0);
    assert.equal(
      typeof (
        await kit.llm.generateJson<{ ok: boolean }>(
          { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
          messages,
          { maxTokens: 20 },
        )
      ).ok,
      "boolean",
    );
    await kit.close();
  });

  test("practice mode: the set-up's load says so once, the silent reload after the clean-up cell does not repeat it", async () => {
    const practice = process.env.WORKSHOP_PRACTICE;
    process.env.WORKSHOP_PRACTICE = "1";
    try {
      const options = { modelPath: tinyModelPaths().gguf, gpu: "cpu" as const, threads: 1, contextSize: 512 };
      const { value: llm, printed: loaded } = await printedBy(() => loadLocalLlm(options));
      assert.ok(loaded.includes(PRACTICE_NOTICE), loaded);
      await llm.dispose();
      const { printed: reloaded } = await printedBy(() =>
        llm.chat([{ role: "user", content: "Hallo" }], { maxTokens: 4, seed: 1 }),
      );
      assert.match(reloaded, /es wird neu geladen/u);
      assert.ok(!reloaded.includes(PRACTICE_NOTICE), reloaded);
      await llm.dispose();
    } finally {
      if (practice === undefined) delete process.env.WORKSHOP_PRACTICE;
      else process.env.WORKSHOP_PRACTICE = practice;
    }
  });

  test("the embedding model after dispose() loads again and gives the same vectors", async () => {
    const embedder = await createEmbedder({ model: await tinyBertDir(), progress: false });
    const before = await embedder.embedOne("Isar");
    await embedder.dispose();
    assert.deepEqual(await embedder.embedOne("Isar"), before);
    assert.equal((await embedder.embed(["Isar", "Lech"])).length, 2);
    await embedder.dispose();
  });

  test("the MCP client after close() opens a new session on the same server", async () => {
    server = await startTravelServer({ offline: true });
    const client = await McpToolClient.connect(server.url);
    await client.close();
    assert.ok((await client.listTools()).some((t) => t.name === "geocode"));
    assert.match((await client.callTool("geocode", { destination: "Rom" })).text, /Rom/u);
    await client.close();
  });
});
