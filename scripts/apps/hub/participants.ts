// The participants the hub knows (teilnehmende.json, written by jupyterhub_config.py at each first
// login): releasing the solutions to all of them (their accounts and folders: accounts.ts).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { processAlive } from "../../../lib/util.js";
import { hubStateDir, type HubFile } from "./settings.js";

export interface HubParticipant {
  name: string;
  /** The hub's (and, as root, the system's) user name, e.g. "kurs-anna". */
  user: string;
}

export function loadParticipants(root: string): HubParticipant[] {
  const file = join(hubStateDir(root), "teilnehmende.json");
  if (!existsSync(file)) return [];
  return Object.values(JSON.parse(readFileSync(file, "utf8")) as Record<string, HubParticipant>);
}

/** The pid of a JupyterHub still running on `root`, if any. */
export function runningHubPid(root: string): number | undefined {
  const file = join(hubStateDir(root), "jupyterhub.pid");
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, "utf8").trim());
  return Number.isInteger(pid) && pid > 0 && processAlive(pid) ? pid : undefined;
}

/** Marks the solutions as released (later logins get them) and copies them into every known folder now,
 *  as each folder's owner (safe_files.py: a `loesungen` link planted there leads nowhere root could write). */
export function releaseSolutions(root: string, solutions: HubFile[]): { names: string[]; problems: string[] } {
  mkdirSync(root, { recursive: true, mode: 0o755 }); // participants' accounts pass through it
  mkdirSync(hubStateDir(root), { recursive: true, mode: 0o700 });
  writeFileSync(join(hubStateDir(root), "loesungen-frei"), `${new Date().toISOString()}\n`);
  const known = loadParticipants(root).filter((p) => existsSync(join(root, p.user)));
  if (known.length === 0) return { names: [], problems: [] };
  const python = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  const job = { homes: known.map((p) => join(root, p.user)), items: solutions };
  const r = spawnSync(python, ["-I", join(import.meta.dirname, "safe_files.py"), "--release"], {
    input: JSON.stringify(job),
    encoding: "utf8",
  });
  if (r.status !== 0)
    return {
      names: [],
      problems: [`Lösungen ließen sich nicht verteilen: ${(r.stderr || String(r.error)).trim().split("\n").at(-1)}`],
    };
  return { names: known.map((p) => p.name), problems: (JSON.parse(r.stdout) as { problems: string[] }).problems };
}
