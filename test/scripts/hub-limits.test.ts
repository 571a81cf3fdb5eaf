// What the hub's limits become on a machine (scripts/apps/hub/limits.ts), with a cgroup v2 root made in a
// temporary folder; the hub and the classroom wait longer before each restart in a row.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { parseHubArgs } from "../../scripts/apps/hub/args.js";
import { CGROUP_FOLDER, MB, memoryCgroup, spawnLimits } from "../../scripts/apps/hub/limits.js";
import { restartDelayMs } from "../../scripts/apps/hub/start.js";
import { restartBackoffMs } from "../../scripts/apps/klassenraum/services.js";

const kit = "/kit";

test("the defaults of --prozesse, --arbeitsspeicher and --platz-je-person, and German errors for wrong values", () => {
  assert.deepEqual(parseHubArgs([], kit).limits, { processes: 512, memoryMb: 2048, spaceMb: 1024 });
  assert.deepEqual(parseHubArgs(["--prozesse", "200", "--platz-je-person", "500"], kit).limits, {
    processes: 200,
    memoryMb: 2048,
    spaceMb: 500,
  });
  assert.throws(() => parseHubArgs(["--prozesse", "5"], kit), /--prozesse muss eine ganze Zahl von 32 bis/);
  assert.throws(() => parseHubArgs(["--platz-je-person", "viel"], kit), /--platz-je-person muss eine ganze Zahl/);
});

test("with cgroup v2 and root each participant gets a memory limit; elsewhere a German reason", () => {
  const v2 = mkdtempSync(join(tmpdir(), "cgroup-v2-"));
  writeFileSync(join(v2, "cgroup.controllers"), "cpu memory pids\n");
  writeFileSync(join(v2, "cgroup.subtree_control"), "memory pids\n");
  assert.deepEqual(memoryCgroup(v2, true), { folder: join(v2, CGROUP_FOLDER) });
  assert.equal(readFileSync(join(v2, CGROUP_FOLDER, "cgroup.subtree_control"), "utf8"), "+memory");
  assert.match((memoryCgroup(v2, false) as { problem: string }).problem, /ohne root/);
  const v1 = mkdtempSync(join(tmpdir(), "cgroup-v1-"));
  const none = memoryCgroup(v1, true);
  assert.match((none as { problem: string }).problem, /keine cgroup v2 mit Speicher-Controller/);

  const limits = { processes: 300, memoryMb: 1024, spaceMb: 100 };
  assert.deepEqual(spawnLimits(limits, true, { folder: "/sys/fs/cgroup/kurs-hub" }).spawn, {
    processes: 300,
    fileBytes: 100 * MB,
    memoryCgroup: "/sys/fs/cgroup/kurs-hub",
    memoryBytes: 1024 * MB,
  });
  const shared = spawnLimits(limits, false, none);
  assert.equal(
    shared.spawn.processes,
    null,
    "without root all share the instructor's user: no process limit that would count theirs",
  );
  assert.match(shared.note!, /^HINWEIS: Keine Speichergrenze je Teilnehmer:in/);
});

test("restarts in a row wait 1, 2, 4 … seconds, at most 30", () => {
  for (const backoff of [restartDelayMs, restartBackoffMs])
    assert.deepEqual([1, 2, 3, 4, 5, 6, 7].map(backoff), [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
});
