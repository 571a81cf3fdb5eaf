// Runs an MCP server process until it is told to stop: over stdio or Streamable HTTP, stopping cleanly
// on SIGINT/SIGTERM/SIGHUP, on end of stdin (stdio) and when the parent process is gone. Shared by the
// travel and the math server's main.ts.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { startHttpServer, type HttpServerOptions } from "./http.js";
import { watchParent } from "./parent-watch.js";
import type { CommonFlags } from "./server-cli.js";
import { serveStdio } from "./stdio.js";

export interface RunServerOptions {
  flags: CommonFlags;
  /** The server's German name, e.g. "Reise-Server". */
  label: string;
  createServer: () => McpServer;
  log: (line: string) => void;
  /** Added to the ready line, e.g. " (Modus: offline)". */
  readySuffix?: string;
  /** HTTP settings beyond the flags (session cap, idle timeout, Host list hint). */
  http?: Pick<HttpServerOptions, "maxSessions" | "sessionIdleMs" | "allowedHostsHint">;
}

/** Longest wait for a clean stop before the process exits anyway. */
const FORCED_EXIT_MS = 2000;

export async function runServer(options: RunServerOptions): Promise<void> {
  const { flags, label, log } = options;
  let stopping = false;
  let stop: () => Promise<void> = async () => undefined;
  const shutdown = (why: string) => {
    if (stopping) return;
    stopping = true;
    log(`Beende ${label} (${why}).`);
    setTimeout(() => process.exit(0), FORCED_EXIT_MS).unref();
    void stop().finally(() => process.exit(0));
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => shutdown(signal));
  if (flags.parentPid !== undefined) watchParent(flags.parentPid, !flags.stdio, shutdown);

  const suffix = options.readySuffix ?? "";
  if (flags.stdio) {
    log(`${label} (MCP) bereit über stdio${suffix}`);
    await serveStdio(options.createServer());
    shutdown("stdin geschlossen");
    return;
  }
  const running = await startHttpServer({
    host: flags.host,
    port: flags.port,
    allowedHosts: flags.allowedHosts,
    createServer: options.createServer,
    log,
    label,
    ...options.http,
  });
  stop = () => running.close();
  // lib/mcp/server-process.ts parses this exact line (its ready patterns); keep both in step.
  log(`${label} (MCP) bereit unter ${running.url}${suffix}`);
}
