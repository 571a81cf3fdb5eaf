// The two real tool servers side by side (subprocesses: travel offline with a fixed day, math), one MCP session
// each: the set-up of the tests that run agents over both.
import { McpToolClient, startMathServer, startTravelServer } from "../../lib/mcp/index.js";

export interface TravelAndMath {
  reise: McpToolClient;
  mathe: McpToolClient;
  /** Closes both sessions, then stops both servers. */
  close(): Promise<void>;
}

export async function startTravelAndMath(today: string): Promise<TravelAndMath> {
  const [travel, math] = await Promise.all([
    startTravelServer({ offline: true, env: { TRAVEL_TODAY: today }, timeoutMs: 60_000 }),
    startMathServer(),
  ]);
  const [reise, mathe] = await Promise.all([McpToolClient.connect(travel.url), McpToolClient.connect(math.url)]);
  return {
    reise,
    mathe,
    close: async () => {
      await Promise.all([reise.close(), mathe.close()]);
      await Promise.all([travel.stop(), math.stop()]);
    },
  };
}
