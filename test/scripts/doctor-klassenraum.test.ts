// `npm run doctor -- --klassenraum [N]`: the instructor's machine as the room's server, with injected edges
// (commands, memory, user) and the real tiny model file; and the CLI section on this machine.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { findProjectRoot, tinyModelPaths } from "../../lib/config.js";
import { classMemoryNeed, klassenraumChecks, PARTICIPANT_RSS_BYTES, type KlassenraumDeps } from "../../scripts/apps/hub/doctor-klassenraum.js";

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

const byId = (checks: { id: string; status: string; detail: string; fix?: string }[], id: string) => checks.find((c) => c.id === id)!;

test("a ready machine: every check ✅", async () => {
  const checks = await klassenraumChecks(deps({}), 30);
  assert.deepEqual(checks.filter((c) => c.status !== "ok"), []);
  assert.deepEqual(checks.map((c) => c.id), ["hub", "proxy", "llama-server", "class-model", "class-ram", "accounts", "memory-limit"]);
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
  const fits = Math.floor((8 * GIB - classMemoryNeed(4.9e9, 0)) / PARTICIPANT_RSS_BYTES);
  assert.match(ram.fix!, new RegExp(`--max ${fits}\\b`));
  assert.equal(byId(checks, "accounts").status, "warn");
});

test("the CLI prints the Klassenraum section after the usual checklist", () => {
  const r = spawnSync(process.execPath, [join(root, "scripts", "doctor.mjs"), "--only", "node", "--klassenraum", "5"], { cwd: root, encoding: "utf8" });
  assert.match(r.stdout, /Klassenraum-Rechner \(npm run klassenraum, 5 Teilnehmende\)/);
  assert.match(r.stdout, /JupyterHub: /);
});
