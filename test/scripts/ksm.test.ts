// The hub's KSM switch (scripts/apps/hub/ksm.ts) on a stand-in for /sys/kernel/mm/ksm: what it turns on, what it
// puts back, and the German line where it cannot. The real switch, with real participants' kernels: hub.test.ts.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { enableKsm, KSM_PAGES_TO_SCAN, mergesWholeProcesses } from "../../scripts/apps/hub/ksm.js";

const work = mkdtempSync(join(tmpdir(), "ksm-test-"));
after(() => rmSync(work, { recursive: true, force: true }));
const LINUX = "6.12.48+deb13-amd64";

let count = 0;
function ksmDir(run: string, pages: string): string {
  const dir = join(work, String(count++));
  mkdirSync(dir);
  writeFileSync(join(dir, "run"), `${run}\n`);
  writeFileSync(join(dir, "pages_to_scan"), `${pages}\n`);
  return dir;
}
const settings = (dir: string) => ["run", "pages_to_scan"].map((f) => readFileSync(join(dir, f), "utf8").trim());

test("off: the scanner runs with more pages for the hub's run, participants get KIT_KSM=1, the end puts both back", () => {
  const dir = ksmDir("0", "100");
  const ksm = enableKsm({}, LINUX, dir);
  assert.deepEqual(ksm.env, { KIT_KSM: "1" });
  assert.match(ksm.detail, /Speicher-Teilen \(KSM\) an/);
  assert.deepEqual(settings(dir), ["1", String(KSM_PAGES_TO_SCAN)]);
  ksm.restore();
  assert.deepEqual(settings(dir), ["0", "100"]);
});

test("already on with a faster scan (another user of KSM): left as it is, also at the end", () => {
  const dir = ksmDir("1", "5000");
  const ksm = enableKsm({}, LINUX, dir);
  assert.deepEqual(ksm.env, { KIT_KSM: "1" });
  ksm.restore();
  assert.deepEqual(settings(dir), ["1", "5000"]);
});

test("KIT_KSM=0, an older Linux or one without KSM: one German line, nothing changed, no KIT_KSM", () => {
  const dir = ksmDir("0", "100");
  const cases = [
    enableKsm({ KIT_KSM: "0" }, LINUX, dir),
    enableKsm({}, "6.1.0-18-amd64", dir),
    enableKsm({}, LINUX, join(work, "no-ksm")),
  ];
  assert.deepEqual(
    cases.map((c) => c.env),
    [{}, {}, {}],
  );
  assert.match(cases[0]!.detail, /aus: KIT_KSM=0/);
  assert.match(cases[1]!.detail, /braucht Linux 6\.4 oder neuer \(hier 6\.1\.0-18-amd64\)/);
  assert.match(cases[2]!.detail, /dieser Linux-Kernel hat kein KSM/);
  assert.deepEqual(settings(dir), ["0", "100"]);
});

test("a setting that cannot be written: what was already changed is put back", () => {
  const dir = ksmDir("0", "100");
  rmSync(join(dir, "pages_to_scan"));
  mkdirSync(join(dir, "pages_to_scan")); // reading it fails as a read-only sysfs file's write would
  const ksm = enableKsm({}, LINUX, dir);
  assert.deepEqual(ksm.env, {});
  assert.match(ksm.detail, /nicht eingeschaltet .* der Hub läuft ohne/);
  assert.equal(readFileSync(join(dir, "run"), "utf8").trim(), "0");
});

test("process-wide merging needs Linux 6.4", () => {
  for (const [release, can] of [
    ["6.1.0-18-amd64", false],
    ["6.4.0", true],
    ["6.18.44-fc-v669", true],
    ["5.15.0-91-generic", false],
    ["7.0.1", true],
  ] as const)
    assert.equal(mergesWholeProcesses(release), can, release);
});
