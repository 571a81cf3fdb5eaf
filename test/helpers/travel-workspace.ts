// One real offline travel server (subprocess) per test file, writing into a fresh temporary workspace
// folder: the set-up shared by the tests of staged writes, approval and voting.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { after, before, beforeEach } from "node:test";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTravelServer, McpToolClient, type TravelServerHandle } from "../../lib/mcp/index.js";
import type { ToolInfo } from "../../lib/mcp/types.js";

export interface TravelWorkspace {
  server: TravelServerHandle;
  client: McpToolClient;
  catalog: ToolInfo[];
  /** The server's TRAVEL_WORKSPACE_DIR. */
  dir: string;
  /** Empties the workspace folder (between tests). */
  clear(): Promise<void>;
  close(): Promise<void>;
}

export async function startTravelWorkspace(
  prefix: string,
  options: { today?: string; env?: Record<string, string> } = {},
): Promise<TravelWorkspace> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const env: Record<string, string> = {
    ...options.env,
    TRAVEL_WORKSPACE_DIR: dir,
    ...(options.today ? { TRAVEL_TODAY: options.today } : {}),
  };
  const server = await startTravelServer({ offline: true, timeoutMs: 60_000, env });
  const client = await McpToolClient.connect(server.url);
  return {
    server,
    client,
    catalog: await client.listTools(),
    dir,
    async clear() {
      for (const f of await readdir(dir)) await rm(join(dir, f), { recursive: true, force: true });
    },
    async close() {
      await client.close();
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Registers a test file's hooks: one workspace server started before its tests (handed to `use`), closed
 * after them, and with `clearBetweenTests` its folder emptied before each test.
 */
export function useTravelWorkspace(
  prefix: string,
  options: { today?: string; clearBetweenTests?: boolean },
  use: (workspace: TravelWorkspace) => void,
): void {
  let workspace: TravelWorkspace | undefined;
  before(async () => {
    workspace = await startTravelWorkspace(prefix, options);
    use(workspace);
  });
  after(async () => {
    await workspace?.close();
  });
  if (options.clearBetweenTests) beforeEach(() => workspace?.clear());
}
