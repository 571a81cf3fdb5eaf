// Helpers the notebook uses directly (ScriptedLlm, InMemoryToolClient, delay) speak German too.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { InMemoryToolClient, ToolClientClosedError } from "../../lib/testing/in-memory-tools.js";
import { delay } from "../../lib/util.js";
import { JsonNotSupportedError } from "../../lib/llm/errors.js";
import { ScriptedLlm, ScriptExhaustedError } from "../../lib/testing/scripted-llm.js";

describe("German messages of the in-process helpers", () => {
  test("a closed InMemoryToolClient says so in German", async () => {
    const client = new InMemoryToolClient([
      { info: { name: "t", description: "", inputSchema: { type: "object" } }, handler: () => 1 },
    ]);
    await client.close();
    await assert.rejects(
      client.callTool("t", {}),
      (e: unknown) => e instanceof ToolClientClosedError && /Tool-Client ist bereits geschlossen/.test(e.message),
    );
  });

  test("delay and ScriptedLlm reject an abort without a reason with 'abgebrochen'", async () => {
    const controller = new AbortController();
    Object.defineProperty(controller.signal, "reason", { value: undefined });
    controller.abort();
    await assert.rejects(delay(10, controller.signal), /^Error: abgebrochen$/);
    const llm = new ScriptedLlm(["hallo"]);
    await assert.rejects(
      llm.chat([{ role: "user", content: "x" }], { signal: controller.signal }),
      /^Error: abgebrochen$/,
    );
  });

  test("an exhausted script and a missing JSON mode are explained in German", async () => {
    const llm = new ScriptedLlm([]);
    await assert.rejects(
      llm.chat([{ role: "user", content: "x" }]),
      (e: unknown) =>
        e instanceof ScriptExhaustedError && /Das Drehbuch hat keine Antwort für Anfrage 1/.test(e.message),
    );
    const noJson = new ScriptedLlm(["{}"], { jsonSupported: false });
    await assert.rejects(
      noJson.generateJson({}, []),
      (e: unknown) => e instanceof JsonNotSupportedError && /nicht unterstützt/.test(e.message),
    );
  });
});
