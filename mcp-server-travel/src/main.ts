// Entry point: `npm run travel-server -- [--host H] [--port P] [--offline] [--stdio]`.
// Logs go to stderr only (stdout belongs to the MCP protocol in --stdio mode).
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { findProjectRoot } from "../../lib/config.js";
import { dataConfigFromEnv, upstreamConfigFromEnv } from "./config.js";
import { parseCli, UsageError, type CliOptions } from "./cli.js";
import { parseIsoDate, todayDay } from "./dates.js";
import { errorMessage } from "./errors.js";
import { createTravelMcpServer } from "./server.js";
import { workspaceDirFromEnv } from "./tools/trip-plan.js";
import { createServices } from "./services/create.js";
import { checkReachable } from "./services/reachability.js";
import { DEFAULT_ALLOWED_HOSTS, startHttpServer } from "./transports/http.js";
import { watchParent } from "./transports/parent-watch.js";
import { serveStdio } from "./transports/stdio.js";

const log = (line: string) => process.stderr.write(`[travel] ${line}\n`);

// zod's own messages in German (the tool schemas bring their own; this covers the rest, e.g. invalid offline data).
z.config(z.locales.de());

async function decideOffline(cli: CliOptions, upstream: ReturnType<typeof upstreamConfigFromEnv>): Promise<boolean> {
  if (cli.offline) {
    log("Offline-Modus (per --offline oder TRAVEL_OFFLINE=1).");
    return true;
  }
  const timeoutMs = Number(process.env.TRAVEL_REACHABILITY_TIMEOUT_MS) || 2500;
  const hosts = [upstream.nominatimUrl, upstream.forecastUrl, upstream.archiveUrl, upstream.overpassUrl];
  const check = await checkReachable(hosts, timeoutMs, upstream.userAgent);
  if (check.reachable) {
    log("Online-Modus: Nominatim, Open-Meteo und Overpass sind erreichbar.");
    return false;
  }
  log(`Offline-Modus, weil nicht alle Dienste erreichbar sind: ${check.problems.join("; ")}`);
  return true;
}

function today(): number {
  // Trimmed like the kit's CLI does, so " 2025-06-10" from a shell or .env file still counts.
  const fixed = process.env.TRAVEL_TODAY?.trim();
  if (fixed) {
    const day = parseIsoDate(fixed);
    if (day === undefined) throw new UsageError(`TRAVEL_TODAY muss ein Datum JJJJ-MM-TT sein, nicht "${fixed}".`);
    return day;
  }
  return todayDay();
}

async function main(): Promise<void> {
  const cli = parseCli(process.argv.slice(2));
  today(); // validate TRAVEL_TODAY early
  // Found from this file, not the working directory: Claude Desktop starts us from anywhere.
  const root = findProjectRoot(dirname(fileURLToPath(import.meta.url)));
  const upstream = upstreamConfigFromEnv(process.env, root);
  const offline = await decideOffline(cli, upstream);
  const services = await createServices({ offline, upstream, dataDir: dataConfigFromEnv(process.env, root).dataDir, log });
  const create = () => createTravelMcpServer(services, { today, log, workspaceDir: workspaceDirFromEnv(process.env, root) });

  let stopping = false;
  let stop: () => Promise<void> = async () => undefined;
  const shutdown = (why: string) => {
    if (stopping) return;
    stopping = true;
    log(`Beende Reise-Server (${why}).`);
    const force = setTimeout(() => process.exit(0), 2000);
    force.unref();
    void stop().finally(() => process.exit(0));
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => shutdown(signal));
  if (cli.parentPid !== undefined) watchParent(cli.parentPid, !cli.stdio, shutdown);

  if (cli.stdio) {
    log(`Reise-Server (MCP) bereit über stdio (Modus: ${services.mode})`);
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
  });
  stop = () => running.close();
  // lib/mcp/server-process.ts parses this exact line (READY_LINE there); keep both in step.
  log(`Reise-Server (MCP) bereit unter ${running.url} (Modus: ${services.mode})`);
}

main().catch((error: unknown) => {
  log(error instanceof UsageError ? error.message : `Start fehlgeschlagen: ${errorMessage(error)}`);
  process.exit(error instanceof UsageError ? error.exitCode : 1);
});
