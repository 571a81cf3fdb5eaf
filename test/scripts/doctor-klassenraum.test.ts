// `npm run doctor -- --klassenraum [N]`: the instructor's machine as the room's server, with injected edges
// (commands, memory, user) and the real tiny model file; and the CLI section on this machine.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { findProjectRoot, tinyModelPaths } from "../../lib/config.js";
import { klassenraumChecks, type KlassenraumDeps } from "../../scripts/apps/hub/doctor-klassenraum.js";
import {
  classServerBytes,
  LLAMA_8B_SHAPE,
  participantsThatFit,
  planClassServer,
} from "../../scripts/apps/klassenraum/class-sizing.js";

const root = findProjectRoot();
const GIB = 1024 ** 3;
/** A cgroup v2 root with the memory controller on, as on a current systemd machine. */
const cgroupV2 = mkdtempSync(join(tmpdir(), "cgroup-v2-"));
writeFileSync(join(cgroupV2, "cgroup.controllers"), "cpuset cpu io memory pids\n");
writeFileSync(join(cgroupV2, "cgroup.subtree_control"), "cpu io memory pids\n");

function deps(more: Partial<KlassenraumDeps>): KlassenraumDeps {
  return {
    root,
    env: { LLM_MODEL_PATH: tinyModelPaths(root).gguf, LLAMA_SERVER_BIN: process.execPath },
    run: async () => ({ code: 0, stdout: "3.0.0\n", stderr: "" }),
    memory: () => ({ total: 64 * GIB, free: 60 * GIB }),
    uid: 0,
    cgroupSysfs: cgroupV2,
    ...more,
  };
}

const byId = (checks: { id: string; status: string; detail: string; fix?: string }[], id: string) =>
  checks.find((c) => c.id === id)!;

test("a ready machine: every check ✅", async () => {
  const checks = await klassenraumChecks(deps({}), 30);
  assert.deepEqual(
    checks.filter((c) => c.status !== "ok"),
    [],
  );
  assert.deepEqual(
    checks.map((c) => c.id),
    ["hub", "proxy", "llama-server", "class-model", "class-ram", "accounts", "memory-limit"],
  );
});

test("without a cgroup v2 memory controller (cgroup v1, a container) the memory limit is a German note", async () => {
  const v1 = mkdtempSync(join(tmpdir(), "cgroup-v1-"));
  const check = byId(await klassenraumChecks(deps({ cgroupSysfs: v1 }), 30), "memory-limit");
  assert.equal(check.status, "warn");
  assert.match(check.detail, /keine cgroup v2 mit Speicher-Controller/);
  assert.match(check.fix!, /Prozesse, Dateigröße und Platz sind trotzdem begrenzt/);
});

test("no JupyterHub, no model, too little RAM, not root: each says what to do", async () => {
  const checks = await klassenraumChecks(
    deps({
      run: async () => ({ code: 127, stdout: "", stderr: "" }),
      env: { LLM_MODEL_PATH: join(root, "models", "gibt-es-nicht.gguf"), LLAMA_SERVER_BIN: "/gibt/es/nicht" },
      memory: () => ({ total: 8 * GIB, free: 6 * GIB }),
      uid: 1000,
    }),
    30,
  );
  assert.match(byId(checks, "hub").fix!, /apt-get install jupyterhub/);
  assert.equal(byId(checks, "llama-server").status, "fail");
  assert.match(byId(checks, "class-model").fix!, /models:pull/);
  const ram = byId(checks, "class-ram");
  assert.equal(ram.status, "fail");
  assert.match(ram.fix!, /--max 0\b/, "8 GB hold the 8B class server and nobody else");
  assert.equal(byId(checks, "accounts").status, "warn");
});

test("the CLI prints the Klassenraum section after the usual checklist", () => {
  const r = spawnSync(process.execPath, [join(root, "scripts", "doctor.mjs"), "--only", "node", "--klassenraum", "5"], {
    cwd: root,
    encoding: "utf8",
  });
  assert.match(r.stdout, /Klassenraum-Rechner \(npm run klassenraum, 5 Teilnehmende\)/);
  assert.match(r.stdout, /JupyterHub: /);
});

const GB = 1e9;
const MODEL_8B = 4.92e9;

test("the class server's memory follows what was measured with the 8B twin (-c 32768, 4 slots)", () => {
  // measured: 12.4 GB as started before, 9.1 GB with --no-repack, 7.1 GB with --no-repack and a q8_0 KV cache
  for (const [repack, kv, measured] of [
    [true, "f16", 12.4],
    [false, "f16", 9.1],
    [false, "q8_0", 7.1],
  ] as const) {
    const planned = classServerBytes(MODEL_8B, LLAMA_8B_SHAPE, 32768, repack, kv) / GB;
    assert.ok(
      planned >= measured && planned <= measured * 1.1,
      `${repack ? "repack" : "--no-repack"} ${kv}: planned ${planned.toFixed(2)} GB, measured ${measured} GB`,
    );
  }
});

test("30 participants on a 32 GB machine with the 8B class server do not fit; the fix names how many do", async () => {
  const checks = await klassenraumChecks(
    deps({
      memory: () => ({ total: 32 * GIB, free: 30 * GIB }),
      env: { LLAMA_SERVER_BIN: process.execPath, LLM_MODEL_PATH: join(root, "models", "gibt-es-nicht.gguf") },
    }),
    30,
  );
  const ram = byId(checks, "class-ram");
  assert.equal(ram.status, "fail", ram.detail); // before: ok (model + 1 GiB + 550 MB each = 22 GB)
  assert.match(ram.detail, /Klassen-Server 7,\d GB \(4 × 8192 Tokens, KV-Cache q8_0, --no-repack\)/);
  assert.match(ram.detail, /je Person bis 979 MB \(Teil \+ Aufgabe offen, zwei MCP-Server\)/);
  const server = planClassServer(4.9e9, LLAMA_8B_SHAPE, 32768, 32 * GIB, 30);
  assert.match(
    ram.fix!,
    new RegExp(
      `etwa ${participantsThatFit(32 * GIB, server.bytes)} Teilnehmende: --max ${participantsThatFit(32 * GIB, server.bytes)}, den Klassen-Server auf einen eigenen Rechner \\(dann ${participantsThatFit(32 * GIB, 0)}\\)`,
    ),
  );
});

test("klassenraum keeps the faster repacked weights only when they fit", () => {
  assert.equal(planClassServer(MODEL_8B, LLAMA_8B_SHAPE, 32768, 64 * GIB, 30).repack, true);
  const tight = planClassServer(MODEL_8B, LLAMA_8B_SHAPE, 32768, 32 * GIB, 25);
  assert.equal(tight.repack, false);
  assert.deepEqual(tight.flags, ["-fa", "on", "-ctk", "q8_0", "-ctv", "q8_0", "--no-repack"]);
});

test("the instructor guide's sizing table is what the kit computes", () => {
  const guide = readFileSync(join(root, "docs", "instructor-guide.md"), "utf8");
  const server = classServerBytes(MODEL_8B, LLAMA_8B_SHAPE, 32768, false, "q8_0");
  for (const ram of [16, 32, 64]) {
    const total = ram * GIB * 0.97; // what the system reports of a machine with `ram` GB
    const row = `| ${ram} GB | ${participantsThatFit(total, server)} | ${participantsThatFit(total, 0)} |`;
    assert.ok(guide.includes(row), `guide lacks: ${row}`);
  }
});

test("the class server keeps an f16 KV cache for a model whose head size is no multiple of 32 (llama.cpp's q8_0 blocks)", () => {
  const tiny = planClassServer(50e6, { layers: 2, kvHeads: 4, headSize: 16 }, 8192, 64 * GB, 2);
  assert.equal(tiny.kv, "f16");
  assert.ok(!tiny.flags.includes("q8_0"), tiny.flags.join(" "));
  assert.equal(planClassServer(4.9e9, LLAMA_8B_SHAPE, 32768, 64 * GB, 30).kv, "q8_0");
});
