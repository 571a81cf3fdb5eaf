// save_trip_plan under a busy classroom's conditions, against the real travel server (subprocess):
// parallel commits of one preview, names that pass the preview but not the write, file system errors,
// Windows-reserved names, read-only files, and a folder swapped for a symlink while commits run.
import assert from "node:assert/strict";
import { chmod, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, beforeEach, describe, test } from "node:test";
import { startTravelWorkspace, type TravelWorkspace } from "../helpers/travel-workspace.js";

let ws: TravelWorkspace;
let outside: string;

before(async () => {
  ws = await startTravelWorkspace("trip-writes-");
  outside = await mkdtemp(join(tmpdir(), "trip-writes-outside-"));
});
after(async () => {
  await ws?.close();
  await rm(outside, { recursive: true, force: true });
});
beforeEach(() => ws.clear());

const save = (file_name: string, content: string, extra: Record<string, unknown> = {}) =>
  ws.client.callTool("save_trip_plan", { file_name, title: "Plan", content, ...extra });

/** No message that reaches the model may name a host path (the workspace's or any temporary one). */
function assertNoHostPath(text: string): void {
  assert.ok(!text.includes(ws.dir) && !text.includes(tmpdir()), `host path in: ${text}`);
}

describe("save_trip_plan: check-and-write is one step", () => {
  test("20 parallel commits of one preview: exactly one is written, the others hear the file changed", async () => {
    await writeFile(join(ws.dir, "wettlauf.md"), "# Plan\n\nalt\n");
    const preview = await save("wettlauf.md", "Vorschau", { dry_run: true });
    const sha = (preview.data as { previous_sha256: string }).previous_sha256;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => save("wettlauf.md", `Fassung ${i}`, { expected_sha256: sha })),
    );
    const written = results.flatMap((r, i) => (r.isError ? [] : [i]));
    assert.equal(written.length, 1, `successful commits: ${written.length} of 20`);
    for (const r of results.filter((x) => x.isError)) assert.match(r.text, /seit der Vorschau verändert/);
    assert.equal(await readFile(join(ws.dir, "wettlauf.md"), "utf8"), `# Plan\n\nFassung ${written[0]}\n`);
  });

  test("20 parallel commits of a new file (expected_sha256 null): one creates it, none overwrites it", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => save("neu.md", `Fassung ${i}`, { expected_sha256: null })),
    );
    const written = results.flatMap((r, i) => (r.isError ? [] : [i]));
    assert.equal(written.length, 1);
    assert.equal(await readFile(join(ws.dir, "neu.md"), "utf8"), `# Plan\n\nFassung ${written[0]}\n`);
    assert.deepEqual(await readdir(ws.dir), ["neu.md"], "no temporary files left");
  });
});

describe("save_trip_plan: what passes the preview is written, everything else is refused in German", () => {
  test("a long name of umlauts (237 bytes) that passes the preview is also written", async () => {
    const name = `${"ä".repeat(117)}.md`;
    const preview = await save(name, "x", { dry_run: true });
    assert.equal(preview.isError, false, preview.text);
    const commit = await save(name, "x", { expected_sha256: null });
    assert.equal(commit.isError, false, commit.text);
    assert.equal((await stat(join(ws.dir, name))).isFile(), true);
  });

  test("a name too long for the file system is refused at the preview, without a host path", async () => {
    for (const name of [`${"日".repeat(100)}.md`, `italien/${"日".repeat(90)}`]) {
      const preview = await save(name, "x", { dry_run: true });
      assert.equal(preview.isError, true, name);
      assert.match(preview.text, /zu lang/);
      assertNoHostPath(preview.text);
    }
  });

  test("Windows-reserved names are refused (the workspace may be copied to Windows); similar names are fine", async () => {
    for (const name of [
      "con.md",
      "NUL",
      "aux.md",
      "italien/com1.md",
      "lpt9.md",
      "Prn.plan.md",
      "italien /rom.md",
      "rom.",
    ]) {
      const r = await save(name, "x", { dry_run: true });
      assert.equal(r.isError, true, name);
      assert.match(r.text, /Windows|ungültig/, name);
    }
    assert.equal((await save("console.md", "x")).isError, false);
    assert.deepEqual(await readdir(ws.dir), ["console.md"]);
  });

  test("a read-only file is not replaced", async () => {
    const file = join(ws.dir, "fest.md");
    await writeFile(file, "# Fest\n\nbleibt\n");
    await chmod(file, 0o444);
    const preview = await save("fest.md", "neu", { dry_run: true });
    assert.equal(preview.isError, true);
    assert.match(preview.text, /schreibgeschützt/);
    const commit = await save("fest.md", "neu");
    assert.equal(commit.isError, true);
    assert.match(commit.text, /schreibgeschützt/);
    assertNoHostPath(commit.text);
    assert.equal(await readFile(file, "utf8"), "# Fest\n\nbleibt\n");
  });

  test("a file where a folder is expected: a German message without host paths", async () => {
    await writeFile(join(ws.dir, "italien"), "keine Mappe");
    const r = await save("italien/rom.md", "x");
    assert.equal(r.isError, true);
    assert.match(r.text, /„italien" ist eine Datei, kein Ordner/);
    assertNoHostPath(r.text);
  });
});

describe("save_trip_plan: a refused write (EACCES, injected)", () => {
  let denied: TravelWorkspace;
  before(async () => {
    const inject = pathToFileURL(join(import.meta.dirname, "deny-writes.mjs")).href;
    denied = await startTravelWorkspace("trip-denied-", { env: { NODE_OPTIONS: `--import ${inject}` } });
  });
  after(() => denied?.close());

  test("says in German that the folder is not writable, without host paths; no temporary file stays", async () => {
    const r = await denied.client.callTool("save_trip_plan", { file_name: "gesperrt.md", title: "Plan", content: "x" });
    assert.equal(r.isError, true);
    assert.match(r.text, /Keine Schreibrechte/);
    assert.ok(!r.text.includes(denied.dir) && !r.text.includes(tmpdir()), r.text);
    assert.deepEqual(await readdir(denied.dir), []);
  });
});

describe("save_trip_plan: a folder swapped for a symlink while commits run", () => {
  test("200 commits during the swaps: no file lands outside the workspace", async () => {
    const folder = join(ws.dir, "italien");
    const aside = join(ws.dir, "italien-echt");
    await mkdir(folder);
    let running = true;
    const swapper = (async () => {
      while (running) {
        await rename(folder, aside).catch(() => undefined);
        await symlink(outside, folder).catch(() => undefined);
        await new Promise((r) => setImmediate(r));
        await rm(folder, { force: true }).catch(() => undefined);
        await rename(aside, folder).catch(() => undefined);
      }
    })();
    const results = [];
    for (let round = 0; round < 20; round++) {
      results.push(
        ...(await Promise.all(Array.from({ length: 10 }, (_, i) => save(`italien/plan-${round}-${i}.md`, "x")))),
      );
    }
    running = false;
    await swapper;
    const escaped = await readdir(outside);
    assert.deepEqual(escaped, [], `${escaped.length} of 200 files outside the workspace`);
    for (const r of results.filter((x) => x.isError)) assertNoHostPath(r.text);
    assert.ok(
      results.some((r) => !r.isError),
      "some commits went through",
    );
  });
});
