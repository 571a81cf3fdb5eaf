// The accounts and folders this hub made, as own_accounts.py records them (`<state>/konten/<user>.json`),
// and `npm run hub -- --aufraeumen`: it ends those accounts' processes by uid, deletes only those accounts,
// their folders and the hub's own state — nothing else in --root (an instructor's file there stays), no
// system user the hub did not make (the machine's own `kurs-…`, another hub's participants).
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readFileSync, rmdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { delay } from "../../../lib/util.js";
import { processesWhere } from "../../node/processes.js";
import { hubStateDir } from "./settings.js";

/** One account (as root) or folder the hub made. `uid` is null when the hub ran without root. */
export interface OwnAccount {
  user: string;
  home: string;
  uid: number | null;
}

export function ownAccounts(root: string): OwnAccount[] {
  const dir = join(hubStateDir(root), "konten");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as OwnAccount);
}

/** The uid of system user `user` now, if there is one. */
function systemUid(user: string): number | undefined {
  const entry = spawnSync("getent", ["passwd", user], { encoding: "utf8" }).stdout.trim();
  const uid = Number(entry.split(":")[2]);
  return entry && Number.isInteger(uid) ? uid : undefined;
}

/** Processes whose real or effective uid is `uid` (Linux /proc; none elsewhere). */
export function processesOfUid(uid: number): number[] {
  return processesWhere((pid) => {
    const ids = /^Uid:\s+(\d+)\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return ids !== null && (Number(ids[1]) === uid || Number(ids[2]) === uid);
  });
}

/** SIGKILL to every process of `uid` until none is left (a fork bomb keeps making new ones for a moment). */
async function endProcessesOfUid(uid: number): Promise<boolean> {
  for (let round = 0; round < 50; round++) {
    const pids = processesOfUid(uid);
    if (pids.length === 0) return true;
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone already
      }
    }
    await delay(100);
  }
  return processesOfUid(uid).length === 0;
}

/** Removes what the hub made: its accounts (processes first), their folders, its state; `root` itself only when empty. */
export async function cleanUpHub(root: string): Promise<{ removed: string[]; problems: string[] }> {
  const removed: string[] = [];
  const problems: string[] = [];
  for (const account of ownAccounts(root)) {
    if (!/^kurs-[a-z0-9-]+$/.test(account.user)) {
      problems.push(`${account.user}: kein Konto-Name des Hubs – nicht gelöscht.`);
      continue;
    }
    if (account.home !== join(root, account.user)) {
      problems.push(`${account.user}: Ordner ${account.home} liegt nicht in ${root} – nicht gelöscht.`);
      continue;
    }
    if (account.uid !== null) {
      const uid = systemUid(account.user);
      if (uid !== undefined && uid !== account.uid) {
        problems.push(
          `Konto ${account.user} ist nicht mehr das des Hubs (uid ${uid} statt ${account.uid}) – nicht gelöscht.`,
        );
        continue;
      }
      // A uid whose account is gone may belong to someone else by now: its processes are not ours to end.
      if (uid === account.uid && account.uid > 0 && !(await endProcessesOfUid(account.uid))) {
        problems.push(`Konto ${account.user}: Prozesse ließen sich nicht beenden – Konto und Ordner bleiben.`);
        continue; // a live process could swap a folder for a link while it is deleted
      }
      if (uid !== undefined) {
        const r = spawnSync("userdel", [account.user], { encoding: "utf8" });
        if (r.status !== 0) problems.push(`Konto ${account.user} ließ sich nicht löschen: ${r.stderr.trim()}`);
      }
    }
    try {
      if (lstatSync(account.home, { throwIfNoEntry: false })?.isDirectory())
        rmSync(account.home, { recursive: true, force: true });
    } catch (error) {
      problems.push(`Ordner ${account.home} ließ sich nicht löschen: ${(error as Error).message}`);
    }
    removed.push(account.user);
  }
  if (problems.length > 0) return { removed, problems }; // the records stay for another try
  rmSync(hubStateDir(root), { recursive: true, force: true });
  try {
    rmdirSync(root); // only when nothing else is left in it
  } catch {
    // the instructor's own files stay
  }
  return { removed, problems };
}
