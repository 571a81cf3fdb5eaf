// `npm start` stops when any process of its job gets SIGINT/SIGTERM (npm, tsx, the CLI itself or the travel
// server) and leaves no process behind (issue 15). Real subprocesses: npm → tsx → node → travel server (the
// start script execs tsx: a shell in between would hold back a SIGINT that npm forwards to it). The model is
// an OpenAI-compatible fake on 127.0.0.1 that never answers, so the run is mid-call when the signal comes.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { findProjectRoot } from "../../lib/config.js";

let hang: Server;
let requests = 0;
let baseUrl: string;

before(async () => {
  hang = createServer((req) => {
    req.resume();
    if (req.url?.endsWith("/chat/completions")) requests++; // and never answer
  });
  await new Promise<void>((resolve) => hang.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(hang.address() as AddressInfo).port}/v1`;
});
after(() => {
  hang.closeAllConnections();
  hang.close();
});

interface Proc {
  pid: number;
  args: string;
}

/** Live (not zombie) processes of a process group. */
function group(pgid: number): Proc[] {
  const out = execFileSync("ps", ["-eo", "pid=,pgid=,stat=,args="], { encoding: "utf8" });
  return out
    .split("\n")
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && Number(m[2]) === pgid && !m[3]!.startsWith("Z"))
    .map((m) => ({ pid: Number(m[1]), args: m[4]! }));
}

const ROLES: Record<string, RegExp> = {
  npm: /^npm start\b/,
  sh: /^sh -c /,
  tsx: /\.bin\/tsx scripts\/kit\.ts start\b/,
  cli: /loader\.mjs scripts\/kit\.ts start\b/,
  server: /mcp-server-travel(\/src\/main\.ts|\.mjs)/, // the sources, or their bundle in .cache/mcp-servers
};

async function until<T>(what: string, ms: number, probe: () => T | undefined): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts `npm start` in its own process group, waits until the agent is mid model call, signals `role`. */
async function stopVia(
  role: keyof typeof ROLES,
  signal: NodeJS.Signals,
): Promise<{ ms: number; left: Proc[]; output: string }> {
  const before = requests;
  const child = spawn("npm", ["start", "--", "Wie wird das Wetter in Rom?", "--offline", "--rag-k", "0"], {
    cwd: findProjectRoot(),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      LLM_BACKEND: "openai",
      LLM_BASE_URL: baseUrl,
      LLM_MODEL: "fake",
      TRAVEL_TODAY: "2025-06-10",
    },
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const pgid = child.pid!;
  try {
    await until("the agent's first model call", 60_000, () => (requests > before ? true : undefined));
    const target = await until(`the ${role} process`, 10_000, () => group(pgid).find((p) => ROLES[role]!.test(p.args)));
    assert.ok(
      group(pgid).some((p) => ROLES.server!.test(p.args)),
      "travel server runs",
    );
    assert.ok(!group(pgid).some((p) => ROLES.sh!.test(p.args)), "no shell between npm and tsx");
    const t0 = Date.now();
    process.kill(target.pid, signal);
    await until("the whole job to end", 10_000, () => (group(pgid).length === 0 ? true : undefined)).catch(
      () => undefined,
    );
    return { ms: Date.now() - t0, left: group(pgid), output };
  } finally {
    try {
      process.kill(-pgid, "SIGKILL"); // our own test job: nothing may stay behind even if the test failed
    } catch {
      // already gone
    }
  }
}

describe("npm start on a signal to any process of its job", () => {
  const cases: [keyof typeof ROLES, NodeJS.Signals][] = [
    ["npm", "SIGTERM"],
    ["npm", "SIGINT"],
    ["tsx", "SIGTERM"],
    ["cli", "SIGINT"],
    ["server", "SIGTERM"],
  ];
  for (const [role, signal] of cases) {
    it(`${signal} to ${role}: every process of the job is gone within 2 s`, async () => {
      const r = await stopVia(role, signal);
      console.log(`# ${signal} to ${role}: job gone after ${r.ms} ms`);
      assert.deepEqual(
        r.left,
        [],
        `left behind:\n${r.left.map((p) => `${p.pid} ${p.args}`).join("\n")}\n--- output:\n${r.output}`,
      );
      assert.ok(r.ms <= 2000, `took ${r.ms} ms`);
      assert.doesNotMatch(r.output, /\n\s+at .*\(.*:\d+:\d+\)/, "no stack trace");
    });
  }
});
