// Staged writes against the real travel server (subprocess, offline): save_trip_plan previews with
// dry_run, writes only on commit, atomically, never outside the workspace folder.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hideStagingFields, StagedWorkspace, StagingError, supportsPreview } from "../../lib/agent/workspace.js";
import { unifiedDiff } from "../../lib/agent/line-diff.js";
import type { McpToolClient } from "../../lib/mcp/index.js";
import type { ToolInfo } from "../../lib/mcp/types.js";
import { useTravelWorkspace } from "../helpers/travel-workspace.js";

let client: McpToolClient;
let catalog: ToolInfo[];
let dir: string;
let outside: string;

useTravelWorkspace("ws-", {}, (ws) => ({ client, catalog, dir } = ws));

before(async () => {
  outside = await mkdtemp(join(tmpdir(), "ws-outside-"));
});

after(async () => {
  await rm(outside, { recursive: true, force: true });
});

const plan = (file_name: string, content = "## Tag 1\n- Kolosseum\n- Trastevere") => ({
  file_name,
  title: "Wochenende in Rom",
  content,
});

describe("save_trip_plan and StagedWorkspace", () => {
  test("the tool is side-effecting, speaks the preview protocol, and the planner never sees the staging fields", () => {
    const tool = catalog.find((t) => t.name === "save_trip_plan");
    assert.equal(tool?.annotations?.readOnlyHint, false);
    assert.ok(supportsPreview(tool));
    const shown = hideStagingFields(tool as ToolInfo).inputSchema as { properties: Record<string, unknown> };
    assert.deepEqual(Object.keys(shown.properties).sort(), ["content", "file_name", "title"]);
  });

  test("stage: preview with a diff, nothing on disk; commit: the complete file, no temporary files left", async () => {
    const ws = new StagedWorkspace(client, catalog);
    const change = await ws.stage("plan_rom", "save_trip_plan", plan("rom"));
    assert.equal(change.preview.path, "rom.md");
    assert.equal(change.preview.isNew, true);
    assert.equal(change.preview.baseSha256, null);
    assert.match(change.preview.diff, /^--- \/dev\/null\n\+\+\+ b\/rom\.md\n@@ -0,0 \+1,5 @@\n\+# Wochenende in Rom\n/);
    assert.deepEqual(await readdir(dir), [], "nothing written before the commit");
    assert.equal(ws.pending().length, 1);
    const result = await ws.commit("plan_rom");
    assert.equal(result.isError, false);
    assert.equal(await readFile(join(dir, "rom.md"), "utf8"), change.preview.after);
    assert.equal(change.preview.after, "# Wochenende in Rom\n\n## Tag 1\n- Kolosseum\n- Trastevere\n");
    assert.deepEqual(await readdir(dir), ["rom.md"]);
    assert.deepEqual(
      ws.changes().map((c) => c.status),
      ["committed"],
    );
    assert.equal(ws.pending().length, 0);
  });

  test("an existing file: the diff shows the change; a file changed after the preview is not overwritten", async () => {
    await writeFile(join(dir, "paris.md"), "# Paris\n\nalt\n");
    const ws = new StagedWorkspace(client, catalog);
    const change = await ws.stage("p", "save_trip_plan", { file_name: "paris.md", title: "Paris", content: "neu" });
    assert.equal(change.preview.isNew, false);
    assert.match(change.preview.diff, /\n-alt\n\+neu$/);
    await writeFile(join(dir, "paris.md"), "# Paris\n\nvon Hand geändert\n");
    const result = await ws.commit("p");
    assert.equal(result.isError, true);
    assert.match(result.text, /seit der Vorschau verändert/);
    assert.equal(await readFile(join(dir, "paris.md"), "utf8"), "# Paris\n\nvon Hand geändert\n");
    assert.equal(ws.changes()[0]?.status, "failed");
  });

  test("paths that leave the workspace are rejected at staging; nothing is written anywhere", async () => {
    await symlink(outside, join(dir, "link"));
    const ws = new StagedWorkspace(client, catalog);
    for (const name of ["../flucht.md", "/tmp/flucht.md", "a/../../flucht.md", "link/flucht.md"]) {
      await assert.rejects(
        ws.stage(name, "save_trip_plan", plan(name)),
        (e: unknown) => e instanceof StagingError && /Arbeitsordner/.test(e.message),
        name,
      );
    }
    await assert.rejects(ws.stage("x", "save_trip_plan", plan("plan.txt")), /\.md enden/);
    // Even a direct call that skips staging is refused by the server itself.
    const direct = await client.callTool("save_trip_plan", plan("../direkt.md"));
    assert.equal(direct.isError, true);
    assert.deepEqual(await readdir(outside), []);
    assert.equal(ws.pending().length, 0);
  });

  test("two workspaces on one client keep their own pending changes; only the committed one writes", async () => {
    const a = new StagedWorkspace(client, catalog);
    const b = new StagedWorkspace(client, catalog);
    await a.stage("s", "save_trip_plan", plan("wahl", "Variante A"));
    await b.stage("s", "save_trip_plan", plan("wahl", "Variante B"));
    b.discard("s", "verloren");
    await a.commit("s");
    assert.match(await readFile(join(dir, "wahl.md"), "utf8"), /Variante A/);
    assert.deepEqual(
      b.changes().map((c) => [c.status, c.reason]),
      [["discarded", "verloren"]],
    );
  });

  test("as a ToolClient: reads pass through, writes are only staged", async () => {
    const ws = new StagedWorkspace(client, catalog);
    const geo = await ws.callTool("geocode", { destination: "Rom" });
    assert.equal((geo.data as { lat: number }).lat > 41, true);
    const staged = await ws.callTool("save_trip_plan", plan("nur-vorgemerkt"));
    assert.deepEqual(
      { ...(staged.data as object), id: undefined },
      { staged: true, id: undefined, path: "nur-vorgemerkt.md", is_new: true, bytes: 55 },
    );
    assert.ok(!(await readdir(dir)).includes("nur-vorgemerkt.md"));
    assert.equal(ws.pending().length, 1);
  });
});

describe("unifiedDiff", () => {
  test("equal texts give no diff; changes get hunks with context and correct line numbers", () => {
    assert.equal(unifiedDiff("a\nb\n", "a\nb\n", "x.md"), "");
    const before = Array.from({ length: 10 }, (_, i) => `${i + 1}`).join("\n");
    const after = before.replace("3", "X") + "\n11";
    assert.equal(
      unifiedDiff(before, after, "x.md"),
      [
        "--- a/x.md",
        "+++ b/x.md",
        "@@ -1,6 +1,6 @@",
        " 1",
        " 2",
        "-3",
        "+X",
        " 4",
        " 5",
        " 6",
        "@@ -8,3 +8,4 @@",
        " 8",
        " 9",
        " 10",
        "+11",
      ].join("\n"),
    );
    assert.equal(unifiedDiff("a\n", "", "x.md"), "--- a/x.md\n+++ b/x.md\n@@ -1 +0,0 @@\n-a");
  });
});
