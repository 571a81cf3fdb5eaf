// Entry point: `npm run math-server -- [--host H] [--port P] [--stdio]`.
// Logs go to stderr only (stdout belongs to the MCP protocol in --stdio mode; --help alone prints there). Transports, flags and
// shutdown are shared with the travel server (mcp-server-shared/src/transports: one copy of each).
import { z } from "zod";
import { BindError } from "../../scripts/node/bind.js";
import { runServer } from "../../mcp-server-shared/src/transports/run-server.js";
import { parseCli, UsageError } from "./cli.js";
import { errorText } from "../../lib/util.js";
import { createMathMcpServer } from "./server.js";

const log = (line: string) => process.stderr.write(`[math] ${line}\n`);

// zod's own messages in German (the tool schemas bring their own where it matters).
z.config(z.locales.de());

async function main(): Promise<void> {
  const cli = parseCli(process.argv.slice(2));
  await runServer({ flags: cli, label: "Rechen-Server", createServer: () => createMathMcpServer({ log }), log });
}

main().catch((error: unknown) => {
  if (error instanceof UsageError && error.exitCode === 0) {
    console.log(error.message); // --help: no protocol runs, so stdout is free for the usage
    process.exit(0);
  }
  const usage = error instanceof UsageError || error instanceof BindError;
  log(usage ? error.message : `Start fehlgeschlagen: ${errorText(error)}`);
  process.exit(error instanceof UsageError ? error.exitCode : usage ? 2 : 1);
});
