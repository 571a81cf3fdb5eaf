// The MCP servers' prebuilt bundles: a fresh bundle is what a notebook's server runs (and it answers like the
// sources do); any change to a source it came from, a missing bundle or a broken manifest runs the sources.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { findProjectRoot } from "../../lib/config.js";
import { McpToolClient, startMathServer, startTravelServer } from "../../lib/mcp/index.js";
import { freshServerBundle, manifestPath } from "../../lib/mcp/server-bundle.js";
import { mathServerCommand, travelServerCommand } from "../../lib/mcp/server-command.js";
import { buildServerBundle, ensureMcpBundles } from "../../scripts/dev/build-mcp-bundles.js";

const ROOT = findProjectRoot();

/** The command line of a running process. */
const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");

describe("a fresh bundle is what the servers run", () => {
  ensureMcpBundles(ROOT);

  it("the travel server starts from its bundle and answers a tool call", async () => {
    const bundle = freshServerBundle(ROOT, "mcp-server-travel");
    assert.ok(bundle, "ensureMcpBundles left a fresh travel bundle");
    assert.deepEqual(travelServerCommand([], ROOT).args.slice(-1), [bundle]);
    const server = await startTravelServer({ offline: true, env: { TRAVEL_TODAY: "2025-06-10" } });
    const client = await McpToolClient.connect(server.url);
    try {
      assert.ok(cmdline(server.pid).includes(bundle), "the running server is the bundle, not tsx on the sources");
      assert.ok(!cmdline(server.pid).some((arg) => arg.includes("tsx")));
      const r = await client.callTool("geocode", { destination: "München" });
      assert.equal(r.isError, false, r.text);
      assert.match(r.text, /München/);
    } finally {
      await client.close();
      await server.stop();
    }
  });

  it("the math server starts from its bundle and computes", async () => {
    const bundle = freshServerBundle(ROOT, "mcp-server-math");
    assert.ok(bundle);
    assert.deepEqual(mathServerCommand([], ROOT).args.slice(-1), [bundle]);
    const server = await startMathServer({});
    const client = await McpToolClient.connect(server.url);
    try {
      assert.ok(cmdline(server.pid).includes(bundle));
      const r = await client.callTool("addition", { a: "0.1", b: "0.2" });
      assert.equal(r.isError, false, r.text);
      assert.match(r.text, /0[.,]3\b/);
    } finally {
      await client.close();
      await server.stop();
    }
  });
});

describe("a bundle that no longer matches its sources is not run", () => {
  // A kit of its own: one server whose main imports a helper, so its files can be changed freely.
  const root = mkdtempSync(join(tmpdir(), "kit-bundle-"));
  after(() => rmSync(root, { recursive: true, force: true }));
  const src = join(root, "mcp-server-demo", "src");
  mkdirSync(src, { recursive: true });
  writeFileSync(join(root, "package.json"), '{ "type": "module" }\n');
  writeFileSync(join(src, "main.ts"), 'import { greeting } from "./greeting.js";\nconsole.log(greeting);\n');
  writeFileSync(join(src, "greeting.ts"), 'export const greeting: string = "Hallo aus dem Bündel";\n');
  buildServerBundle(root, "mcp-server-demo");

  it("runs as one file with the helper folded in", () => {
    const bundle = freshServerBundle(root, "mcp-server-demo");
    assert.ok(bundle);
    assert.equal(execFileSync(process.execPath, [bundle], { encoding: "utf8" }).trim(), "Hallo aus dem Bündel");
  });

  it("an edited helper makes it stale; a rebuild makes it fresh with the edit", () => {
    writeFileSync(join(src, "greeting.ts"), 'export const greeting: string = "Hallo, geändert";\n');
    assert.equal(freshServerBundle(root, "mcp-server-demo"), undefined);
    buildServerBundle(root, "mcp-server-demo");
    const bundle = freshServerBundle(root, "mcp-server-demo");
    assert.ok(bundle);
    assert.equal(execFileSync(process.execPath, [bundle], { encoding: "utf8" }).trim(), "Hallo, geändert");
  });

  it("a touched source (same size, new time) makes it stale", () => {
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(src, "main.ts"), later, later);
    assert.equal(freshServerBundle(root, "mcp-server-demo"), undefined);
    buildServerBundle(root, "mcp-server-demo");
    assert.ok(freshServerBundle(root, "mcp-server-demo"));
  });

  it("a build that fails is not fatal: one German line, the sources run", () => {
    // This scratch kit has neither the travel nor the math server: esbuild cannot resolve their entries.
    const line = ensureMcpBundles(root);
    assert.match(line, /^MCP-Server: nicht vorgebaut \(mcp-server-travel: esbuild: .*\) – sie starten aus den Quellen/);
    assert.doesNotMatch(line, /\n| {4}at /);
  });

  it("a missing bundle or an unreadable manifest is no bundle", () => {
    writeFileSync(manifestPath(root, "mcp-server-demo"), "{ kaputt");
    assert.equal(freshServerBundle(root, "mcp-server-demo"), undefined);
    buildServerBundle(root, "mcp-server-demo");
    rmSync(join(root, ".cache", "mcp-servers", "mcp-server-demo.mjs"));
    assert.equal(freshServerBundle(root, "mcp-server-demo"), undefined);
    assert.equal(freshServerBundle(root, "mcp-server-nirgends"), undefined);
  });
});
