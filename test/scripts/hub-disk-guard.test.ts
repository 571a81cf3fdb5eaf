// The disk guard's measuring (scripts/apps/hub/disk-guard.ts) without a JupyterHub: `du` runs as an
// asynchronous child, so `npm run hub` (which answers every login check) keeps answering while a folder is
// measured; a folder `du` cannot measure in time counts as over the limit, with a German reason. The slow
// `du` is fault injection (a script on PATH that sleeps for one folder, as for millions of tiny files); the
// hub's API is a small HTTP server that records the stop. The same with a real hub: hub-loop.test.ts.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { folderBytes, startDiskGuard } from "../../scripts/apps/hub/disk-guard.js";

const dir = mkdtempSync(join(tmpdir(), "hub-disk-guard-"));
const bin = join(dir, "bin");
const root = join(dir, "hub");
const oldPath = process.env.PATH;

/** A stand-in for JupyterHub's API: answers 204 and records each request ("DELETE /hub/api/users/…/server"). */
async function fakeHubApi(): Promise<{ url: string; requests: string[]; close: () => Promise<unknown> }> {
  const requests: string[] = [];
  const api = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(api.address() as AddressInfo).port}/hub/api`,
    requests,
    close: () => new Promise((resolve) => api.close(resolve)),
  };
}

after(() => {
  process.env.PATH = oldPath;
  rmSync(dir, { recursive: true, force: true });
});

mkdirSync(bin);
writeFileSync(
  join(bin, "du"),
  `#!/bin/sh\ncase "$4" in */kurs-viele-dateien) echo $$ >> "${join(dir, "du-slow.pids")}"; exec sleep 600;; esac\nexec /usr/bin/du "$@"\n`,
  { mode: 0o755 },
);
mkdirSync(join(root, ".hub"), { recursive: true });
for (const user of ["kurs-viele-dateien", "kurs-normal"]) mkdirSync(join(root, user));
writeFileSync(join(root, "kurs-normal", "notizen.txt"), "Hallo\n");
writeFileSync(
  join(root, ".hub", "teilnehmende.json"),
  JSON.stringify({
    "viele dateien": { name: "Vera Vieledateien", user: "kurs-viele-dateien" },
    normal: { name: "Nora Normal", user: "kurs-normal" },
  }),
);

test("a folder du cannot measure in time counts as over the limit; the process answers meanwhile", async () => {
  process.env.PATH = `${bin}:${oldPath ?? "/usr/bin:/bin"}`;
  assert.equal(await folderBytes(join(root, "kurs-viele-dateien"), 500), "too-slow");
  assert.ok(Number(await folderBytes(join(root, "kurs-normal"), 30_000)) > 0);

  const api = await fakeHubApi();
  const stopped = api.requests;
  const lines: string[] = [];
  const guard = startDiskGuard({
    root,
    stateDir: join(root, ".hub"),
    spaceBytes: 1024 * 1024 * 1024,
    hubApi: api.url,
    token: "t",
    log: (line) => lines.push(line),
    intervalMs: 3_600_000,
    measureTimeoutMs: 1500,
  });
  try {
    // While du hangs, timers still fire (before: spawnSync held the whole process, logins included).
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    await guard.check();
    clearInterval(ticker);
    assert.ok(ticks > 0, "the event loop ran while the folder was measured");

    assert.deepEqual(stopped, ["DELETE /hub/api/users/kurs-viele-dateien/server"]);
    assert.match(
      lines.join("\n"),
      /Platz: Der Ordner von „Vera Vieledateien“ .* ließ sich nicht in 2 s messen \(sehr viele Dateien\?\) – behandelt wie über --platz-je-person, Jupyter gestoppt/,
    );
    const blocked = JSON.parse(readFileSync(join(root, ".hub", "gesperrt.json"), "utf8")) as Record<string, string>;
    assert.deepEqual(Object.keys(blocked), ["kurs-viele-dateien"], "only the folder du could not measure");
    assert.match(blocked["kurs-viele-dateien"]!, /so viele Dateien, dass der Hub ihn nicht in 2 s messen konnte/);
  } finally {
    guard.stop();
    await api.close();
  }
});

/** The pids of the slow `du`s started so far (the fake writes its pid, then becomes `sleep`). */
const slowDuPids = () =>
  existsSync(join(dir, "du-slow.pids"))
    ? readFileSync(join(dir, "du-slow.pids"), "utf8").trim().split("\n").map(Number)
    : [];
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
async function waitFor(what: string, condition: () => boolean) {
  for (let i = 0; i < 1200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(condition(), what);
}

test(
  "stop() during a slow du ends the round at once: du is killed, nothing is written or stopped after",
  { timeout: 60_000 },
  async () => {
    process.env.PATH = `${bin}:${oldPath ?? "/usr/bin:/bin"}`;
    const stateDir = mkdtempSync(join(dir, "state-"));
    const api = await fakeHubApi();
    const requests = api.requests;
    const lines: string[] = [];
    const guard = startDiskGuard({
      root,
      stateDir,
      spaceBytes: 1024 * 1024 * 1024,
      hubApi: api.url,
      token: "t",
      log: (line) => lines.push(line),
      intervalMs: 3_600_000,
      measureTimeoutMs: 600_000, // longer than the test: only stop() can end this du
    });
    try {
      const before = slowDuPids().length;
      const round = guard.check();
      await waitFor("the slow du runs", () => slowDuPids().length > before);
      const pid = slowDuPids().at(-1)!;
      guard.stop();
      await round;
      await waitFor("the slow du is killed", () => !alive(pid));
      assert.equal(existsSync(join(stateDir, "gesperrt.json")), false, "no block list written after stop()");
      assert.deepEqual(requests, [], "no server stopped after stop()");
      assert.deepEqual(lines, []);
    } finally {
      guard.stop();
      await api.close();
    }
  },
);

test(
  "a folder too slow to measure stays blocked and is measured again only every 5th round",
  { timeout: 120_000 },
  async () => {
    process.env.PATH = `${bin}:${oldPath ?? "/usr/bin:/bin"}`;
    const api = await fakeHubApi();
    const guard = startDiskGuard({
      root,
      stateDir: mkdtempSync(join(dir, "state-")),
      spaceBytes: 1024 * 1024 * 1024,
      hubApi: api.url,
      token: "t",
      log: () => {},
      intervalMs: 3_600_000,
      measureTimeoutMs: 500,
    });
    try {
      const before = slowDuPids().length;
      for (let round = 0; round < 6; round++) await guard.check();
      assert.equal(slowDuPids().length - before, 2, "rounds 1 and 6 measure the slow folder, 2-5 skip it");
    } finally {
      guard.stop();
      await api.close();
    }
  },
);
