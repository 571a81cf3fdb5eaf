// The participants the hub knows (teilnehmende.json, written by jupyterhub_config.py at each first
// login): releasing the solutions to all of them, and removing their accounts and folders afterwards.
import { spawnSync } from "node:child_process";
import { chownSync, copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
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

/** Marks the solutions as released (later logins get them) and copies them into every known folder now. */
export function releaseSolutions(root: string, solutions: HubFile[]): string[] {
  mkdirSync(root, { recursive: true, mode: 0o755 }); // participants' accounts pass through it
  mkdirSync(hubStateDir(root), { recursive: true, mode: 0o700 });
  writeFileSync(join(hubStateDir(root), "loesungen-frei"), `${new Date().toISOString()}\n`);
  const served: string[] = [];
  for (const p of loadParticipants(root)) {
    const home = join(root, p.user);
    if (!existsSync(home)) continue;
    const { uid, gid } = statSync(home);
    for (const file of solutions) {
      const dest = join(home, file.to);
      if (existsSync(dest) || (file.link && lstatExists(dest))) continue;
      mkdirSync(dirname(dest), { recursive: true });
      chownSync(dirname(dest), uid, gid);
      if (file.link) symlinkSync(file.from, dest);
      else copyFileSync(file.from, dest);
      if (!file.link) chownSync(dest, uid, gid);
    }
    served.push(p.name);
  }
  return served;
}

function lstatExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Removes each participant's system user (as root) and the whole hub folder; returns the names removed. */
export function cleanUpHub(root: string): { removed: string[]; problems: string[] } {
  const removed: string[] = [];
  const problems: string[] = [];
  const root0 = process.getuid?.() === 0;
  for (const p of loadParticipants(root)) {
    // Only the account this hub made: its home is the participant's folder under `root`.
    const entry = root0 ? spawnSync("getent", ["passwd", p.user], { encoding: "utf8" }).stdout.trim() : "";
    if (entry && entry.split(":")[5] === join(root, p.user)) {
      const r = spawnSync("userdel", [p.user], { encoding: "utf8" });
      if (r.status !== 0) problems.push(`Konto ${p.user} ließ sich nicht löschen: ${r.stderr.trim()}`);
    }
    removed.push(p.name);
  }
  rmSync(root, { recursive: true, force: true });
  return { removed, problems };
}
