// startTravelServer: real subprocesses; no process may outlive the test or its parent.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, it } from "node:test";
import { startTravelServer, TravelServerStartError, McpToolClient } from "../../lib/mcp/index.js";
import { isAlive, waitGone } from "../mcp-server-travel/helpers.js";

const FIXTURE = join(import.meta.dirname, "fixtures", "parent.ts");

/** Runs the fixture parent and resolves with the server pid it printed. */
function runParent(mode: "hold" | "exit"): Promise<{ serverPid: number; parent: ReturnType<typeof spawn> }> {
  const parent = spawn(process.execPath, ["--import", "tsx", FIXTURE, mode], { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      parent.kill("SIGKILL");
      reject(new Error(`parent did not report a server pid: ${err}`));
    }, 30_000);
    parent.stderr!.on("data", (c: Buffer) => (err += c));
    parent.stdout!.on("data", (c: Buffer) => {
      out += c;
      const m = /SERVER_PID (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ serverPid: Number(m[1]), parent });
      }
    });
    parent.once("exit", (code) => {
      if (!/SERVER_PID/.test(out)) {
        clearTimeout(timer);
        reject(new Error(`parent exited with ${code}: ${err}`));
      }
    });
  });
}

describe("startTravelServer", () => {
  it("returns a URL that answers, and stop() leaves no process behind", async () => {
    const server = await startTravelServer({ offline: true });
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.ok(isAlive(server.pid));
    const health = await fetch(new URL("/healthz", server.url));
    assert.equal(health.status, 200);
    await server.stop();
    assert.equal(server.exited, true);
    assert.equal(isAlive(server.pid), false);
    await server.stop(); // twice is fine
  });

  it("shows the server's stderr when it fails to start, and leaves nothing behind", async () => {
    await assert.rejects(startTravelServer({ offline: true, env: { TRAVEL_TODAY: "gestern" } }), (e: unknown) => {
      assert.ok(e instanceof TravelServerStartError);
      assert.match(e.message, /beim Start beendet/);
      assert.match(e.message, /TRAVEL_TODAY muss ein Datum JJJJ-MM-TT sein/);
      assert.ok(e.input.pid && !isAlive(e.input.pid));
      return true;
    });
  });

  it("trims TRAVEL_TODAY like the CLI does and uses that date", async () => {
    const server = await startTravelServer({ offline: true, env: { TRAVEL_TODAY: " 2025-06-10\n" } });
    const client = await McpToolClient.connect(server.url);
    try {
      // A range too far ahead is refused with the server's idea of "heute" in the message.
      const r = await client.callTool("get_weather", {
        lat: 41.3874,
        lon: 2.1686,
        start_date: "2099-01-01",
        end_date: "2099-01-01",
      });
      assert.equal(r.isError, true);
      assert.match(r.text, /\(heute: 2025-06-10\)/);
    } finally {
      await client.close();
      await server.stop();
    }
  });

  it("explains a port that is already taken", async () => {
    const first = await startTravelServer({ offline: true });
    try {
      const port = Number(new URL(first.url).port);
      await assert.rejects(startTravelServer({ offline: true, port }), /Port \d+ ist bereits belegt/);
    } finally {
      await first.stop();
    }
  });

  it("gives up after timeoutMs and kills the half-started server", async () => {
    await assert.rejects(startTravelServer({ offline: true, timeoutMs: 1 }), (e: unknown) => {
      assert.ok(e instanceof TravelServerStartError);
      assert.match(e.message, /nach 1 ms noch nicht geantwortet/);
      assert.ok(e.input.pid && !isAlive(e.input.pid));
      return true;
    });
  });

  it("the server dies with its parent when the parent is killed (SIGKILL, no cleanup code runs)", async () => {
    const { serverPid, parent } = await runParent("hold");
    assert.ok(isAlive(serverPid));
    parent.kill("SIGKILL");
    assert.equal(await waitGone(serverPid, 10_000), true, "server outlived its killed parent");
  });

  it("a script that ends without stop() neither hangs nor leaves the server behind", async () => {
    const { serverPid, parent } = await runParent("exit");
    const code = await new Promise<number | null>((resolve) => {
      if (parent.exitCode !== null) return resolve(parent.exitCode);
      const t = setTimeout(() => {
        parent.kill("SIGKILL");
        resolve(null);
      }, 15_000);
      parent.once("exit", (c) => {
        clearTimeout(t);
        resolve(c);
      });
    });
    assert.equal(code, 0, "parent exited on its own");
    assert.equal(await waitGone(serverPid, 10_000), true);
  });
});
