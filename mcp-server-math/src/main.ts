// Entry point: `npm run math-server -- [--host H] [--port P] [--stdio]`.
// Logs go to stderr only (stdout belongs to the MCP protocol in --stdio mode). The HTTP and stdio
// transports and the parent watch are the travel server's (one copy of each).
import { z } from "zod";
import { DEFAULT_ALLOWED_HOSTS, startHttpServer } from "../../mcp-server-travel/src/transports/http.js";
import { watchParent } from "../../mcp-server-travel/src/transports/parent-watch.js";
import { serveStdio } from "../../mcp-server-travel/src/transports/stdio.js";
import { parseCli, UsageError } from "./cli.js";
import { errorMessage } from "./errors.js";
import { createMathMcpServer } from "./server.js";

const log = (line: string) => process.stderr.write(`[math] ${line}\n`);

// zod's own messages in German (the tool schemas bring their own where it matters).
z.config(z.locales.de());

async function main(): Promise<void> {
  const cli = parseCli(process.argv.slice(2));
  const create = () => createMathMcpServer({ log });

  let stopping = false;
  let stop: () => Promise<void> = async () => undefined;
  const shutdown = (why: string) => {
    if (stopping) return;
    stopping = true;
    log(`Beende Rechen-Server (${why}).`);
    const force = setTimeout(() => process.exit(0), 2000);
    force.unref();
    void stop().finally(() => process.exit(0));
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => shutdown(signal));
  if (cli.parentPid !== undefined) watchParent(cli.parentPid, !cli.stdio, shutdown);

  if (cli.stdio) {
    log("Rechen-Server (MCP) bereit über stdio");
    await serveStdio(create());
    shutdown("stdin geschlossen");
    return;
  }
  const running = await startHttpServer({
    host: cli.host,
    port: cli.port,
    allowedHosts: cli.allowedHosts ? [...DEFAULT_ALLOWED_HOSTS, ...cli.allowedHosts] : undefined,
    createServer: create,
    log,
    label: "Rechen-Server",
  });
  stop = () => running.close();
  // lib/mcp/server-process.ts parses this exact line (its ready pattern for the math server); keep both in step.
  log(`Rechen-Server (MCP) bereit unter ${running.url}`);
}

main().catch((error: unknown) => {
  log(error instanceof UsageError ? error.message : `Start fehlgeschlagen: ${errorMessage(error)}`);
  process.exit(error instanceof UsageError ? error.exitCode : 1);
});
