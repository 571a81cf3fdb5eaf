// What the domain-transfer checks run against: the small index over the second text (Aufgabe 2)
// and a math server session (Aufgaben 3 and 4). The set-up of each exercise notebook provides its
// own; without one (tests), the checks open them on first use, and releaseTransferResources() ends them.
import { join } from "node:path";
import { loadConfig } from "../config.js";
import { loadCorpus } from "../rag/corpus.js";
import { openRagStore, type OpenRagStoreOptions, type RagStore } from "../rag/store.js";
import type { ToolClient, ToolInfo } from "../mcp/types.js";
import { McpToolClient } from "../mcp/client.js";
import { startMathServer, type ServerHandle } from "../mcp/server-process.js";
import { ignore } from "../util.js";

/** The second short text (data/uebung) as its own small store, cached like Teil 2's. */
export function openUebungStore(
  options: Pick<OpenRagStoreOptions, "cacheDir" | "onStatus" | "embedder"> = {},
): Promise<RagStore> {
  const documents = loadCorpus(join(loadConfig().root, "data", "uebung"));
  return openRagStore({ ...options, documents, name: "uebung-2", chunking: { maxChars: 300 } });
}

export interface MathKit {
  server: ServerHandle;
  client: McpToolClient;
  tools: ToolInfo[];
  toolNames: string[];
  /** Ends the client session and stops the math server. */
  close(): Promise<void>;
}

/** Starts the math server (subprocess) with one client session. */
export async function openMathKit(): Promise<MathKit> {
  const server = await startMathServer();
  try {
    const client = await McpToolClient.connect(server.url);
    const tools = await client.listTools();
    const close = async () => {
      await client.close().catch(ignore("closing a client that is already gone"));
      await server.stop();
    };
    return { server, client, tools, toolNames: tools.map((t) => t.name), close };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

let store: Promise<RagStore> | undefined;
let ownStore = false;
let math: Promise<{ client: ToolClient; close(): Promise<void> }> | undefined;
let ownMath = false;

export function provideUebungStore(value: RagStore): void {
  store = Promise.resolve(value);
  ownStore = false;
}

export function provideMathClient(client: ToolClient): void {
  math = Promise.resolve({ client, close: async () => {} });
  ownMath = false;
}

export function uebungStoreForChecks(): Promise<RagStore> {
  if (!store) {
    ownStore = true;
    store = openUebungStore();
  }
  return store;
}

export async function mathClientForChecks(): Promise<ToolClient> {
  if (!math) {
    ownMath = true;
    math = openMathKit();
  }
  return (await math).client;
}

/** Closes what the checks opened themselves (nothing that a set-up provided). */
export async function releaseTransferResources(): Promise<void> {
  const [s, m] = [store, math];
  store = undefined;
  math = undefined;
  if (s && ownStore) await (await s).dispose();
  if (m && ownMath) await (await m).close();
}
