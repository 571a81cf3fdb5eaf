// `npm run llama:build`: llama.cpp's own tools (llama-server, llama-bench, llama-quantize) for the CPU, built
// from the source bundle inside node-llama-cpp — exactly the llama.cpp the kit runs in-process.
// Cached per bundle commit outside the clone; atomic (built in a temp dir, renamed at the end) and locked,
// so a half-finished or concurrent build is never taken as done. Never part of `npm run setup`.
import { execFileSync, spawn } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { findProjectRoot } from "../../lib/config.js";

export const LLAMA_TOOLS = ["llama-server", "llama-bench", "llama-quantize"] as const;
export type LlamaTool = (typeof LLAMA_TOOLS)[number];

/** Where the tools are (`bin`) or why they are not there (`missing`; `failed`: the compiler was there but the build broke). */
export type LlamaTools = { bin: string; commit: string } | { missing: string; failed?: boolean };

/**
 * Native code, but without the AMX path: on this machine's AMX-capable Xeon (a VM) every prompt batch
 * of a Q4_K/Q6_K model crashed llama-bench and llama-server with SIGSEGV in the AMX repacked buffers
 * (F16 models and single-token generation ran). `-U` undefines what -march=native predefines.
 */
const NO_AMX = "-U__AMX_TILE__ -U__AMX_INT8__ -U__AMX_BF16__";
const CMAKE_FLAGS = [
  "-DCMAKE_BUILD_TYPE=Release",
  "-DLLAMA_CURL=OFF",
  "-DBUILD_SHARED_LIBS=OFF",
  "-DGGML_NATIVE=ON",
  `-DCMAKE_C_FLAGS=${NO_AMX}`,
  `-DCMAKE_CXX_FLAGS=${NO_AMX}`,
  "-DLLAMA_BUILD_TESTS=OFF",
  "-DLLAMA_BUILD_EXAMPLES=OFF",
];
/** Part of the cache path: a new value when the build flags change, so an older build is not reused. */
const BUILD_VARIANT = "cpu-no-amx";

function bundlePath(): string {
  return join(findProjectRoot(), "node_modules/node-llama-cpp/llama/gitRelease.bundle");
}

/** The commit the bundle was made from (its text header: "# v2 git bundle\n<sha> HEAD"): the cache key. */
export function bundleCommit(bundle = bundlePath()): string | undefined {
  if (!existsSync(bundle)) return undefined;
  const fd = openSync(bundle, "r");
  try {
    const head = Buffer.alloc(1024);
    const n = readSync(fd, head, 0, head.length, 0);
    return /^([0-9a-f]{40}) HEAD$/m.exec(head.subarray(0, n).toString("latin1"))?.[1];
  } finally {
    closeSync(fd);
  }
}

/** `$LLAMA_TOOLS_CACHE`, else `$XDG_CACHE_HOME/agentic-ai-workshop/llama.cpp`, else `~/.cache/…`. */
export function cacheRoot(): string {
  if (process.env.LLAMA_TOOLS_CACHE) return process.env.LLAMA_TOOLS_CACHE;
  const base = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "agentic-ai-workshop", "llama.cpp", BUILD_VARIANT);
}

function onPath(cmd: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** The cached tools without building anything. */
export function findLlamaTools(): LlamaTools {
  const commit = bundleCommit();
  if (!commit) return { missing: "no llama.cpp source bundle in node_modules/node-llama-cpp" };
  const bin = join(cacheRoot(), commit, "bin");
  const absent = LLAMA_TOOLS.filter((t) => !existsSync(join(bin, t)));
  if (absent.length === 0) return { bin, commit };
  return { missing: `not built yet (npm run llama:build; cache ${join(cacheRoot(), commit)})` };
}

function run(cmd: string, args: string[], cwd: string, log: (s: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("nice", ["-n", "10", cmd, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let tail = "";
    const keep = (d: Buffer) => {
      tail = (tail + d.toString()).slice(-4000);
    };
    child.stdout.on("data", (d: Buffer) => {
      keep(d);
      const pct = /\[\s*(\d+)%\]/.exec(d.toString());
      if (pct) log(`${pct[1]} %`);
    });
    child.stderr.on("data", keep);
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args[0]} failed (exit ${code}):\n${tail}`)),
    );
  });
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A directory lock: held while the dir exists and its owner lives. Returns false if another live process holds it. */
function tryLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, "pid"), String(process.pid));
    return true;
  } catch {
    const owner = Number(existsSync(join(lock, "pid")) ? readFileSync(join(lock, "pid"), "utf8") : NaN);
    if (Number.isFinite(owner) && pidAlive(owner)) return false;
    rmSync(lock, { recursive: true, force: true }); // stale: its owner died
    return tryLock(lock);
  }
}

async function compile(commit: string, dest: string, log: (s: string) => void): Promise<void> {
  const work = `${dest}.build-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    const src = join(work, "src");
    log(`cloning the llama.cpp bundle (${commit.slice(0, 12)}) …`);
    await run("git", ["clone", "--quiet", bundlePath(), src], work, log);
    log(`cmake ${CMAKE_FLAGS.join(" ")}`);
    await run("cmake", ["-S", src, "-B", join(work, "build"), ...CMAKE_FLAGS], work, () => {});
    let last = -10;
    await run(
      "cmake",
      ["--build", join(work, "build"), "--target", ...LLAMA_TOOLS, "-j", String(jobs())],
      work,
      (s) => {
        const pct = Number(s.trim().split(" ")[0]);
        if (pct >= last + 10) {
          last = pct;
          log(`  build ${pct} %`);
        }
      },
    );
    const stage = join(work, "stage");
    mkdirSync(stage);
    renameSync(join(work, "build", "bin"), join(stage, "bin"));
    writeFileSync(
      join(stage, "build.json"),
      JSON.stringify({ commit, flags: CMAKE_FLAGS, builtAt: new Date().toISOString() }, null, 1) + "\n",
    );
    renameSync(stage, dest); // the one step that makes the build visible
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Temp build folders of runs that were killed (e.g. Ctrl-C in npm test): hundreds of MB each. */
function removeAbandonedBuilds(commit: string): void {
  for (const name of readdirSync(cacheRoot())) {
    if (name.startsWith(`${commit}.build-`)) rmSync(join(cacheRoot(), name), { recursive: true, force: true });
  }
}

/** How often a waiting process looks whether the other build is done. */
const LOCK_POLL_MS = 1000;

function jobs(): number {
  const n = Number(process.env.LLAMA_BUILD_JOBS);
  return Number.isInteger(n) && n > 0 ? n : 2;
}

/**
 * The tools, built first when the cache is empty. Waits for a concurrent build of the same commit instead
 * of starting a second one. Returns `missing` (never throws) when cmake/g++/git are absent or the build fails.
 */
export async function ensureLlamaTools(log: (s: string) => void = console.log): Promise<LlamaTools> {
  const found = findLlamaTools();
  if ("bin" in found) return found;
  const commit = bundleCommit();
  if (!commit) return found;
  const tools = ["cmake", "g++", "git"].filter((c) => !onPath(c));
  if (tools.length > 0) return { missing: `${tools.join(", ")} not installed, llama.cpp tools not built` };
  const dest = join(cacheRoot(), commit);
  mkdirSync(cacheRoot(), { recursive: true });
  const lock = `${dest}.lock`;
  let said = false;
  while (!tryLock(lock)) {
    if (!said) log("another process is building llama.cpp, waiting for it …");
    said = true;
    await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
  }
  try {
    const again = findLlamaTools();
    if ("bin" in again) return again;
    rmSync(dest, { recursive: true, force: true }); // an incomplete dir from an older layout
    removeAbandonedBuilds(commit); // we hold the lock: any other temp build dir belongs to a killed run
    await compile(commit, dest, log);
    return findLlamaTools();
  } catch (e) {
    return {
      missing: `llama.cpp build failed: ${(e as Error).message.split("\n").slice(0, 6).join(" / ")}`,
      failed: true,
    };
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
