// Memory the participants' kernels have in common, kept once: Linux's kernel samepage merging (KSM). Every
// kernel started from the V8 snapshot holds a private 42 MB copy of the same blob, plus other pages equal in
// all kernels; KSM lets the Linux kernel keep one copy of each such page (copy-on-write) and frees the rest.
// `npm run hub` (root) switches KSM's scanner on for its run and puts KIT_KSM=1 into the participants'
// environment; their Jupyter server opts in with prctl(PR_SET_MEMORY_MERGE) (singleuser/sitecustomize.py),
// which its kernels and MCP servers inherit. Nothing else on the machine is merged: KSM only scans processes
// that opted in. Needs Linux 6.4 or newer built with KSM; elsewhere the hub says why and runs without it.
// KIT_KSM=0 switches it off (docs/instructor-guide.md says why one might: merged pages are a side channel).
import { readFileSync, writeFileSync } from "node:fs";
import { release } from "node:os";
import { errorText, ignore } from "../../../lib/util.js";

export const KSM_DIR = "/sys/kernel/mm/ksm";
/**
 * Pages ksmd looks at per 20 ms round (Linux's default 100): a room of 30 (~20 GB) once in about 3 minutes, at
 * about a tenth of one core (npm run bench -- hub --realistisch prints ksmd's CPU seconds).
 */
export const KSM_PAGES_TO_SCAN = 500;

export interface KsmSetting {
  /** For the participants' environment: KIT_KSM=1 where merging is on. */
  env: Record<string, string>;
  /** One German line for the hub's start. */
  detail: string;
  /** Puts back what the hub changed (at its end). */
  restore(): void;
}

/** PR_SET_MEMORY_MERGE (merging for a whole process) came with Linux 6.4. */
export function mergesWholeProcesses(kernelRelease: string): boolean {
  const [major = 0, minor = 0] = kernelRelease.split(/[.-]/).map(Number);
  return major > 6 || (major === 6 && minor >= 4);
}

const off = (detail: string): KsmSetting => ({ env: {}, detail, restore: () => undefined });

/** Switches KSM's scanner on for the hub's run (`dir` and `kernelRelease` are the machine's; tests pass others). */
export function enableKsm(env: NodeJS.ProcessEnv = process.env, kernelRelease = release(), dir = KSM_DIR): KsmSetting {
  if (env.KIT_KSM === "0") return off("Speicher-Teilen (KSM) aus: KIT_KSM=0.");
  if (process.platform !== "linux") return off("Speicher-Teilen (KSM) gibt es nur unter Linux.");
  if (!mergesWholeProcesses(kernelRelease))
    return off(`Speicher-Teilen (KSM) braucht Linux 6.4 oder neuer (hier ${kernelRelease}) – der Hub läuft ohne.`);
  const changed: [string, string][] = [];
  try {
    // run: 1 scans (0 stops, 2 unmerges everything); pages_to_scan: at least ours.
    for (const [file, wanted, enough] of [
      ["run", 1, (v: number) => v === 1],
      ["pages_to_scan", KSM_PAGES_TO_SCAN, (v: number) => v >= KSM_PAGES_TO_SCAN],
    ] as const) {
      const path = `${dir}/${file}`;
      const before = readFileSync(path, "utf8").trim();
      if (enough(Number(before))) continue;
      writeFileSync(path, String(wanted));
      changed.push([path, before]);
    }
  } catch (error) {
    putBack(changed);
    const code = (error as NodeJS.ErrnoException).code ?? "";
    const why =
      code === "ENOENT"
        ? "dieser Linux-Kernel hat kein KSM"
        : ["EACCES", "EPERM", "EROFS"].includes(code)
          ? "das darf nur root"
          : errorText(error);
    return off(`Speicher-Teilen (KSM) nicht eingeschaltet (${why}) – der Hub läuft ohne.`);
  }
  return {
    env: { KIT_KSM: "1" },
    detail:
      "Speicher-Teilen (KSM) an: gleiche Speicherseiten der Kernel liegen nur einmal im Speicher (KIT_KSM=0 schaltet es ab).",
    restore: () => putBack(changed),
  };
}

/** Writes the settings back as they were, last change first. */
function putBack(changed: [string, string][]): void {
  for (const [path, before] of changed.reverse())
    try {
      writeFileSync(path, before);
    } catch (error) {
      ignore("KSM setting could not be put back")(error);
    }
  changed.length = 0;
}
