// After "Run All" a notebook's last cell has closed the model, the embedder and the tool client; the next
// cell a participant runs must say so in one German sentence, not with node-llama-cpp's English
// DisposedError and its stack (issue 28, item 2). Real tiny models, a real travel server.
import assert from "node:assert/strict";
import { inspect } from "node:util";
import { after, describe, test } from "node:test";
import { setupPart1 } from "../../lib/exercises/setup.js";
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

function assertOneGermanSentence(shown: string, what: RegExp): void {
  const line = shown.replace(/^⛔ /, "");
  assert.match(line, AGAIN, shown);
  assert.match(line, what);
  assert.doesNotMatch(shown, /Disposed|\n\s+at /, "no English error, no stack");
}

describe("used after the cleanup cell", () => {
  let server: TravelServerHandle | undefined;
  after(() => server?.stop());

  test("the model of Aufgabe 1 after kit.close(): chat, JSON and the token counter", async () => {
    const kit = await setupPart1({ log: () => undefined });
    await kit.close();
    const messages = [{ role: "user" as const, content: "Hallo" }];
    assertOneGermanSentence(await shownInNotebook(() => kit.llm.chat(messages, { maxTokens: 4 })), /^Das Modell/);
    assertOneGermanSentence(await shownInNotebook(() => kit.llm.generateJson({ type: "object" }, messages)), /^Das Modell/);
    assertOneGermanSentence(await shownInNotebook(() => kit.countTokens("Hallo")), /^Das Modell/);
  });

  test("the embedding model after dispose()", async () => {
    const embedder = await createEmbedder({ model: await tinyBertDir(), progress: false });
    await embedder.dispose();
    assertOneGermanSentence(await shownInNotebook(() => embedder.embed(["Isar"])), /^Das Embedding-Modell/);
    assertOneGermanSentence(await shownInNotebook(() => embedder.embedOne("Isar")), /^Das Embedding-Modell/);
  });

  test("the MCP client after close()", async () => {
    server = await startTravelServer({ offline: true });
    const client = await McpToolClient.connect(server.url);
    await client.close();
    assertOneGermanSentence(await shownInNotebook(() => client.callTool("geocode", { destination: "Rom" })), /Werkzeug-Server/);
    assertOneGermanSentence(await shownInNotebook(() => client.listTools()), /Werkzeug-Server/);
  });
});
