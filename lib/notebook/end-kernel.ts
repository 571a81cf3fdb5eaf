// The clean-up cell's last step: the kernel asks its own Jupyter server to end it, so a participant who has
// finished a notebook does not keep a ~185 MB kernel (and the MCP servers it started) running all day.
// Only when the cell ran on its own: as the end of "Run All" the participant goes on in the same kernel.
// The kernel must be ended by its server: a kernel that just exits is restarted by Jupyter at once.
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join } from "node:path";
import { ignore } from "../util.js";

/** The server file Notebook 6 (nbserver-) or Jupyter Server (jpserver-) writes for each running server. */
interface ServerFile {
  port: number;
  base_url?: string;
  hostname?: string;
  secure?: boolean;
  token?: string;
}

/** How long the kernel waits before asking, so that its cell has ended and reported when the end comes. */
const AFTER_THE_CELL_MS = 300;

export const KERNEL_ENDS =
  "Kernel beendet – sein Speicher ist wieder frei. Weiterarbeiten: „Jetzt neu starten“ im Hinweis oder " +
  "Kernel → Neu starten, dann die Zellen ab der Vorbereitung neu ausführen.";
export const KERNEL_STAYS_AFTER_RUN_ALL =
  "Diese Zelle lief hinter einer anderen (z. B. mit „Alle ausführen“) – der Kernel läuft weiter. Fertig für " +
  "heute? Dann diese Zelle allein noch einmal ausführen – das beendet den Kernel und gibt seinen Speicher frei.";

/** The kernel's id: Jupyter names the connection file kernel-<id>.json and passes it on tslab's command line. */
export function ownKernelId(argv: readonly string[] = process.argv): string | undefined {
  for (const arg of argv) {
    const match = /^kernel-([\w-]+)\.json$/.exec(basename(arg));
    if (match) return match[1];
  }
  return undefined;
}

/** Jupyter's runtime folder, as jupyter_core finds it on Linux and macOS. */
export function jupyterRuntimeDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.JUPYTER_RUNTIME_DIR) return env.JUPYTER_RUNTIME_DIR;
  const data = env.JUPYTER_DATA_DIR ?? join(env.XDG_DATA_HOME ?? join(homedir(), ".local", "share"), "jupyter");
  return join(data, "runtime");
}

/** The address and token of the Jupyter server that started this kernel (its parent process), if any. */
export function ownServer(
  env: NodeJS.ProcessEnv = process.env,
  serverPid = process.ppid,
): { base: string; token: string } | undefined {
  for (const prefix of ["nbserver", "jpserver"]) {
    let file: ServerFile;
    try {
      file = JSON.parse(readFileSync(join(jupyterRuntimeDir(env), `${prefix}-${serverPid}.json`), "utf8"));
    } catch {
      continue; // not this kind of server
    }
    const host = !file.hostname || ["localhost", "0.0.0.0", "::"].includes(file.hostname) ? "127.0.0.1" : file.hostname;
    const base = `${file.secure ? "https" : "http"}://${host}:${file.port}${file.base_url ?? "/"}`;
    // A JupyterHub participant's server takes the hub's token for this server instead of its own.
    return { base, token: file.token || env.JUPYTERHUB_API_TOKEN || "" };
  }
  return undefined;
}

/** Why the server refused to let the kernel end, in German. */
function refusalReason(status: number): string {
  if (status === 401 || status === 403) return `der Server lehnt ab (HTTP ${status})`;
  if (status === 404) return "der Server kennt diesen Kernel nicht (HTTP 404)";
  return `der Server meldet einen Fehler (HTTP ${status})`;
}

function wasQueued(): boolean {
  return (globalThis as Record<symbol, unknown>)[Symbol.for("tslab.queued")] === true;
}

/**
 * Ends this notebook's kernel after the current cell (the clean-up cell's last line), printing one German
 * line that says so and how to go on. As the last cell of "Run All" it keeps the kernel and says how to end it.
 * Without a Jupyter server (the notebook runner, a script) it leaves the kernel alone and says so.
 */
export async function endKernel(
  log: (line: string) => void = (line) => console.log(line),
  own: { kernelId?: string; server?: { base: string; token: string } } = {
    kernelId: ownKernelId(),
    server: ownServer(),
  },
): Promise<void> {
  if (wasQueued()) return log(KERNEL_STAYS_AFTER_RUN_ALL);
  const { kernelId: id, server } = own;
  if (!id || !server)
    return log("Der Kernel läuft weiter (kein Jupyter-Server gefunden) – er endet mit dem Programm, das ihn startete.");
  const url = `${server.base}api/kernels/${encodeURIComponent(id)}`;
  const headers = server.token ? { Authorization: `token ${server.token}` } : undefined;
  let refused: string | undefined;
  try {
    const check = await fetch(url, { headers });
    if (!check.ok) refused = refusalReason(check.status);
  } catch {
    refused = "der Jupyter-Server antwortet nicht"; // fetch's own text is English
  }
  if (refused)
    return log(`Der Kernel läuft weiter: Jupyter ließ ihn nicht beenden (${refused}). Beenden: Kernel → Beenden.`);
  setTimeout(() => {
    void fetch(url, { method: "DELETE", headers }).catch(
      ignore("the cell has ended; the same request was just allowed, and a kernel that stays shows it is still there"),
    );
  }, AFTER_THE_CELL_MS);
  log(KERNEL_ENDS);
}
