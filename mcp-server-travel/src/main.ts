// Entry point: `npm run travel-server -- [--host H] [--port P] [--offline] [--stdio]`.
// Logs go to stderr only (stdout belongs to the MCP protocol in --stdio mode).
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { findProjectRoot } from "../../lib/config.js";
import { dataConfigFromEnv, upstreamConfigFromEnv } from "./config.js";
import { parseCli, UsageError, type CliOptions } from "./cli.js";
import { parseIsoDate, todayDay } from "./dates.js";
import { errorText } from "../../lib/util.js";
import { createTravelMcpServer } from "./server.js";
import { workspaceDirFromEnv } from "./tools/trip-plan.js";
import { createServices } from "./services/create.js";
import { checkReachable } from "./services/reachability.js";
import { BindError } from "../../mcp-server-shared/src/transports/http.js";
import { planBind, TRAVEL_HOSTS_HINT } from "../../scripts/node/bind.js";
import { runServer } from "../../mcp-server-shared/src/transports/run-server.js";

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
  if (!cli.stdio) planBind(cli.host, cli.allowedHosts, "Reise-Server", TRAVEL_HOSTS_HINT); // a bind beyond loopback needs its Host list: say so before the slow start
  // Found from this file, not the working directory: Claude Desktop starts us from anywhere.
  const root = findProjectRoot(dirname(fileURLToPath(import.meta.url)));
  const upstream = upstreamConfigFromEnv(process.env, root);
  const offline = await decideOffline(cli, upstream);
  const services = await createServices({
    offline,
    upstream,
    dataDir: dataConfigFromEnv(process.env, root).dataDir,
    log,
  });
  const create = () =>
    createTravelMcpServer(services, { today, log, workspaceDir: workspaceDirFromEnv(process.env, root) });

  await runServer({
    flags: cli,
    label: "Reise-Server",
    createServer: create,
    log,
    readySuffix: ` (Modus: ${services.mode})`,
    http: { maxSessions: cli.maxSessions, sessionIdleMs: cli.sessionIdleMs, allowedHostsHint: TRAVEL_HOSTS_HINT },
  });
}

main().catch((error: unknown) => {
  if (error instanceof UsageError && error.exitCode === 0) {
    console.log(error.message); // --help: no protocol runs, so stdout is free for the usage
    process.exit(0);
  }
  if (error instanceof BindError) {
    log(error.message);
    process.exit(2);
  }
  log(error instanceof UsageError ? error.message : `Start fehlgeschlagen: ${errorText(error)}`);
  process.exit(error instanceof UsageError ? error.exitCode : 1);
});
