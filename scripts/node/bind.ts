// Which address the HTTP server listens on, which Host names it accepts, and the URL it prints.
// Loopback binds accept the loopback names; any other bind (0.0.0.0, ::, a LAN address) opens the
// tools to the whole network, so it needs an explicit list of Host names and prints a warning.
import { isIP } from "node:net";
import { KitError } from "../../lib/errors.js";

export const DEFAULT_ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

export class BindError extends KitError {
  override name = "BindError";
}

/** True for 127.0.0.0/8, ::1 and "localhost". */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "localhost" || h === "::1") return true;
  return isIP(h) === 4 && h.startsWith("127.");
}

/** A Host name as it appears in a Host header / URL: IPv6 literals in brackets. */
export function hostForUrl(host: string): string {
  const h = host.replace(/^\[|\]$/g, "");
  return isIP(h) === 6 ? `[${h}]` : h;
}

export interface BindPlan {
  /** Host names (without port) accepted in the Host and Origin headers. */
  allowedHosts: string[];
  /** The host part of the URL to print. */
  urlHost: string;
  /** German warning to log, for binds beyond this computer. */
  warning?: string;
}

/** How a server may also be given its Host list, named in the message when it is missing. */
export const TRAVEL_HOSTS_HINT = "TRAVEL_ALLOWED_HOSTS=kurs-pc.local,192.168.1.20";

/** `label`: the server's German name in the messages; `envHint`: e.g. TRAVEL_HOSTS_HINT. */
export function planBind(
  host: string,
  explicitAllowedHosts: string[] | undefined,
  label = "Reise-Server",
  envHint?: string,
): BindPlan {
  const explicit = (explicitAllowedHosts ?? []).map((h) => hostForUrl(h.trim())).filter((h) => h !== "");
  if (isLoopback(host)) {
    return { allowedHosts: [...new Set([...DEFAULT_ALLOWED_HOSTS, ...explicit])], urlHost: hostForUrl(host) };
  }
  if (explicit.length === 0) {
    throw new BindError(
      `--host ${host} macht den ${label} im ganzen Netz erreichbar. Gib dafür ausdrücklich die erlaubten ` +
        `Host-Namen an, unter denen er angesprochen wird (z. B. --allowed-host kurs-pc.local` +
        `${envHint ? ` oder ${envHint}` : ", mehrfach möglich"}), oder bleib bei --host 127.0.0.1.`,
    );
  }
  return {
    allowedHosts: [...new Set(explicit)],
    urlHost: explicit[0]!,
    warning:
      `WARNUNG: Der ${label} lauscht auf ${host} und ist damit für jedes Gerät im Netz erreichbar; ` +
      `jedes kann die Werkzeuge aufrufen. Erlaubte Host-Namen: ${explicit.join(", ")}.`,
  };
}

export function formatUrl(urlHost: string, port: number): string {
  return `http://${hostForUrl(urlHost)}:${port}/mcp`;
}

/**
 * The options --port, --host and --allowed-host of a server command (board, hub), in defineCommand's table.
 * `port`: the default; `portHelp`: how the usage names the port; `reachedAs`: who reaches it how, e.g.
 * "die Teilnehmenden das Board erreichen".
 */
export function bindOptions(port: number, portHelp: string, reachedAs: string) {
  return {
    port: {
      type: "string",
      default: String(port),
      value: "P",
      help: `${portHelp} (Standard ${port}; 0 = ein freier)`,
    },
    host: {
      type: "string",
      default: "127.0.0.1",
      value: "H",
      help: "Adresse (Standard 127.0.0.1, nur dieser Rechner; 0.0.0.0 = ganzes Netz)",
    },
    "allowed-host": {
      type: "string",
      multiple: true,
      value: "N",
      help: `Host-Name, unter dem ${reachedAs} (Pflicht bei --host 0.0.0.0)`,
    },
  } as const;
}
