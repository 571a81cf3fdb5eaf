// Command-line flags of the travel server.
import assert from "node:assert/strict";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { startTravelServer, TravelServerStartError } from "../../lib/mcp/index.js";
import { dataConfigFromEnv } from "../../mcp-server-travel/src/config.js";
import { parseCli, UsageError } from "../../mcp-server-travel/src/cli.js";
import { runTsFile } from "../helpers/run-script.js";

describe("parseCli", () => {
  it("defaults to HTTP on 127.0.0.1:8765, online", () => {
    assert.deepEqual(parseCli([], {}), {
      host: "127.0.0.1",
      port: 8765,
      offline: false,
      stdio: false,
      parentPid: undefined,
      allowedHosts: undefined,
      maxSessions: undefined,
      sessionIdleMs: undefined,
    });
  });
  it("reads --host, --port, --offline, --stdio and --allowed-host", () => {
    const o = parseCli(
      [
        "--host",
        "0.0.0.0",
        "--port",
        "0",
        "--offline",
        "--stdio",
        "--allowed-host",
        "kurs.local",
        "--allowed-host",
        "pc1",
      ],
      {},
    );
    assert.deepEqual(o, {
      host: "0.0.0.0",
      port: 0,
      offline: true,
      stdio: true,
      parentPid: undefined,
      allowedHosts: ["kurs.local", "pc1"],
      maxSessions: undefined,
      sessionIdleMs: undefined,
    });
  });
  it("reads the session cap, the idle timeout and the Host list from flags or env", () => {
    assert.deepEqual(
      [parseCli(["--max-sessions", "5", "--session-idle", "90"], {})].map((o) => [o.maxSessions, o.sessionIdleMs]),
      [[5, 90_000]],
    );
    const env = parseCli([], {
      TRAVEL_MAX_SESSIONS: "7",
      TRAVEL_SESSION_IDLE_S: "1.5",
      TRAVEL_ALLOWED_HOSTS: "kurs.local, 10.0.0.5",
    });
    assert.deepEqual([env.maxSessions, env.sessionIdleMs, env.allowedHosts], [7, 1500, ["kurs.local", "10.0.0.5"]]);
    assert.throws(
      () => parseCli(["--max-sessions", "0"], {}),
      (e: unknown) =>
        e instanceof UsageError && /--max-sessions muss eine ganze Zahl größer als 0 sein/.test(e.message),
    );
    assert.throws(
      () => parseCli([], { TRAVEL_SESSION_IDLE_S: "bald" }),
      (e: unknown) => e instanceof UsageError && /--session-idle muss eine Zahl/.test(e.message),
    );
  });
  it("treats TRAVEL_OFFLINE=1 like --offline", () => {
    assert.equal(parseCli([], { TRAVEL_OFFLINE: "1" }).offline, true);
    assert.equal(parseCli([], { TRAVEL_OFFLINE: "0" }).offline, false);
  });
  it("rejects bad ports and unknown flags with the usage text", () => {
    assert.throws(
      () => parseCli(["--port", "99999"], {}),
      (e: unknown) => e instanceof UsageError && e.exitCode === 2 && /--port muss/.test(e.message),
    );
    assert.throws(
      () => parseCli(["--prot", "1"], {}),
      (e: unknown) => e instanceof UsageError && /Aufruf: npm run travel-server/.test(e.message),
    );
    assert.throws(
      () => parseCli(["--help"], {}),
      (e: unknown) => e instanceof UsageError && e.exitCode === 0,
    );
  });
});

describe("server process (main.ts)", () => {
  it("speaks German also where zod's own messages show (invalid offline data)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "travel-bad-data-"));
    try {
      await cp(join(dataConfigFromEnv({}).dataDir, "cities.json"), join(dir, "cities.json"));
      await writeFile(
        join(dir, "places.json"),
        JSON.stringify([{ city: "Rom", name: "Nirgendwo", kind: "park", lat: 123, lon: 12 }]),
      );
      await assert.rejects(
        startTravelServer({ offline: true, env: { TRAVEL_DATA_DIR: dir }, timeoutMs: 20_000 }),
        (e: unknown) => {
          assert.ok(e instanceof TravelServerStartError);
          assert.match(
            e.output,
            /Offline-Daten ungültig in .*places\.json: 0\.lat: Zu groß: erwartet, dass number <=90 ist/,
          );
          assert.doesNotMatch(e.output, /Too big|expected/);
          return true;
        },
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

// The flag parsing both servers share (transports/server-cli.ts), seen as the person at the terminal sees it.
describe("wrong command lines of both servers (real processes)", () => {
  const cases: [server: string, args: string[], message: RegExp][] = [
    [
      "travel",
      ["--prot", "1"],
      /^\[travel\] Unbekannte Option „--prot“\. Gemeint: --port\? Der Server kennt nur die Optionen unten\.$/m,
    ],
    ["travel", ["--port"], /^\[travel\] Die Option „--port“ braucht einen Wert\.$/m],
    ["travel", ["--stdio=ja"], /^\[travel\] Die Option „--stdio“ nimmt keinen Wert\.$/m],
    [
      "travel",
      ["offline"],
      /^\[travel\] Unerwartete Angabe „offline“: der Server nimmt nur Optionen, z\. B\. --port 0\.$/m,
    ],
    ["math", ["--stdi"], /^\[math\] Unbekannte Option „--stdi“\. Gemeint: --stdio\?/m],
    [
      "math",
      ["--parent-pid", "x"],
      /^\[math\] --parent-pid muss eine Prozessnummer sein \(ganze Zahl größer als 0\), nicht "x"\.$/m,
    ],
  ];
  for (const [server, args, message] of cases) {
    it(`${server} ${args.join(" ")}: a German message, the usage, exit code 2, no stack`, async () => {
      const run = await runTsFile(`mcp-server-${server}/src/main.ts`, args, {}, { timeoutMs: 60_000 });
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, message);
      assert.match(run.stderr, new RegExp(`Aufruf: npm run ${server}-server -- `));
      assert.doesNotMatch(run.stderr, /Unknown|argument|positional|Error|^\s+at /m);
      assert.equal(run.stdout, "");
    });
  }
});
