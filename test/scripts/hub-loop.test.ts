// One participant cannot stall the hub for everyone (issue 43's known limits), against a real JupyterHub as
// root with real participants:
// - A's notebook copy is held up (fault injection: the copy child, running as A, waits while a flag file
//   exists): B still logs in and gets a running server, and A's copy is still waiting then. Before, pre_spawn
//   copied in JupyterHub's event loop and every login waited for A's copy.
// - `du` for C's folder never ends (fault injection: a `du` on PATH that sleeps for C's folder, as for a folder
//   with millions of files): the disk guard treats C as over the limit and stops her with a German reason,
//   and D logs in meanwhile. Before, `du` ran synchronously in `npm run hub` (which answers every login check),
//   and a timeout skipped C.
// - A process of participant A sends logins straight to JupyterHub's port with a forged X-Forwarded-For, a new
//   address for each wrong code: they all count for the address they come from (127.0.0.1), so the wrong-code
//   limit holds. Logins through the kit's proxy still count for the address the proxy saw.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { APIRequestContext } from "playwright-core";
import { delay } from "../../lib/util.js";
import { participantProcesses } from "../../scripts/apps/hub/processes.js";
import { jupyterhubMissing } from "../../scripts/apps/hub/start.js";
import { hubUser, postLogIn, startHubProcess, type HubProcess } from "../helpers/hub-process.js";
import { runCommand } from "../helpers/run-script.js";

const CODE = "hub-schleife-43";
const A = "Test Anton Kopierstau";
const B = "Test Berta Währenddessen";
const C = "Test Cäcilie Vieledateien";
const D = "Test Dieter Gleichzeitig";
const MEASURE_S = 3;
const isRoot = process.getuid?.() === 0;
const skip = !isRoot
  ? "needs root (one system user per participant)"
  : jupyterhubMissing()
    ? "JupyterHub is not installed"
    : false;

const dir = mkdtempSync(join(tmpdir(), "hub-loop-"));
chmodSync(dir, 0o755);
const root = join(dir, "hub");
/** Flags that hold a participant's copy (KURS_HUB_TEST_KOPIE_HAELT), world-readable for the copy child. */
const stalls = join(dir, "kopie-haelt");
/** A `du` that never ends for C's folder and writes its pid to du-haengt first. */
const bin = join(dir, "bin");
let hub: HubProcess | undefined;
const contexts: APIRequestContext[] = [];

before(async () => {
  if (skip) return;
  mkdirSync(stalls, { mode: 0o755 });
  mkdirSync(bin, { mode: 0o755 });
  writeFileSync(
    join(bin, "du"),
    `#!/bin/sh\ncase "$4" in */kurs-test-caecilie*) echo $$ > ${join(dir, "du-haengt")}; exec sleep 600;; esac\nexec /usr/bin/du "$@"\n`,
    { mode: 0o755 },
  );
  hub = await startHubProcess(["--root", root, "--code", CODE], {
    PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    KURS_HUB_PLATZ_SEKUNDEN: "1",
    KURS_HUB_PLATZ_MESSZEIT: String(MEASURE_S),
    KURS_HUB_TEST_KOPIE_HAELT: stalls,
  });
});

after(async () => {
  for (const context of contexts) await context.dispose();
  await hub?.stop();
  if (isRoot) await runCommand("hub", ["--aufraeumen", "--root", root]);
  rmSync(dir, { recursive: true, force: true });
});

const settings = () =>
  JSON.parse(readFileSync(join(root, ".hub", "settings.json"), "utf8")) as { hubPort: number; guardToken: string };

/** Logs `name` in through the form (the login check answers); their cookies stay in the returned context. */
async function logInAs(name: string): Promise<APIRequestContext> {
  const { request } = await import("playwright-core");
  const context = await request.newContext({ timeout: 120_000 });
  contexts.push(context);
  const login = await postLogIn(context, hub!.url, { username: name, password: CODE });
  const error = /class="login_error"[^>]*>([^<]*)</.exec(login.text)?.[1]?.trim();
  assert.equal(login.status, 302, `${name} logs in: ${error ?? login.text.slice(0, 500)}`);
  return context;
}

/** Asks the hub for the participant's server, as the page after the login does (the answer is not awaited). */
function startServer(context: APIRequestContext): Promise<unknown> {
  return context.get(new URL("/hub/spawn", hub!.url).href, { maxRedirects: 0 }).catch((error: unknown) => error);
}

/** Whether JupyterHub reports the participant's server as running (its REST API, with the guard's token). */
async function serverReady(user: string): Promise<boolean> {
  const { hubPort, guardToken } = settings();
  const res = await fetch(`http://127.0.0.1:${hubPort}/hub/api/users/${user}`, {
    headers: { authorization: `token ${guardToken}` },
    signal: AbortSignal.timeout(10_000),
  }).catch(() => undefined);
  if (!res?.ok) return false;
  const body = (await res.json()) as { servers?: Record<string, { ready?: boolean }> };
  return body.servers?.[""]?.ready === true;
}

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await condition()) return;
    await delay(250);
  }
  assert.fail(`${what} (waited ${timeoutMs / 1000} s)\n${hub!.output().slice(-3000)}`);
}

function account(user: string): { uid: number; gid: number } {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${user}:`));
  assert.ok(line, `${user} is a system user`);
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}
const uidOf = (user: string) => account(user).uid;

/** Pids of the copy children (safe_files.py --place) running as `uid`. */
function copyChildrenOf(uid: number): number[] {
  return participantProcesses(root).filter((pid) => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      return Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]) === uid && cmdline.includes("--place");
    } catch {
      return false;
    }
  });
}

test("while A's notebook copy is stalled, B logs in and gets a running server", { skip }, async () => {
  const a = await logInAs(A);
  const userA = hubUser(root, A);
  writeFileSync(join(stalls, userA), "");
  const aStarted = startServer(a);
  // A's copy child runs (as A) and waits; participantProcesses only lists kurs-… users, not root's processes.
  await waitFor("A's copy child waits", () => existsSync(join(root, userA)) && copyChildrenOf(uidOf(userA)).length > 0);

  const b = await logInAs(B);
  const userB = hubUser(root, B);
  void startServer(b);
  await waitFor("B's server runs", () => serverReady(userB));
  assert.ok(copyChildrenOf(uidOf(userA)).length > 0, "A's copy is still held up while B works");
  assert.equal(await serverReady(userA), false);

  rmSync(join(stalls, userA));
  await aStarted;
  await waitFor("A's server runs once the copy goes on", () => serverReady(userA));
  assert.ok(existsSync(join(root, userA, "00-start.ipynb")), "A's notebooks are there");
});

test(
  "du never ends for C's folder: C counts as over the limit (German reason), D logs in meanwhile",
  { skip },
  async () => {
    const c = await logInAs(C);
    const userC = hubUser(root, C);
    void startServer(c);
    // The guard's du for C's folder hangs (the fake du wrote its pid): D's login is checked meanwhile.
    const hanging = join(dir, "du-haengt");
    const duRuns = () => {
      try {
        process.kill(Number(readFileSync(hanging, "utf8")), 0);
        return true;
      } catch {
        return false;
      }
    };
    await waitFor("the guard's du for C's folder hangs", duRuns);
    const d = await logInAs(D);
    void startServer(d);
    await waitFor("D's server runs", () => serverReady(hubUser(root, D)));

    await waitFor("the guard reports C", () => /Platz: Der Ordner von „Test Cäcilie Vieledateien“/.test(hub!.output()));
    assert.match(
      hub!.output(),
      new RegExp(
        `Platz: Der Ordner von „${C}“ \\(.*\\) ließ sich nicht in ${MEASURE_S} s messen \\(sehr viele Dateien\\?\\) – behandelt wie über --platz-je-person`,
      ),
    );
    const blocked = JSON.parse(readFileSync(join(root, ".hub", "gesperrt.json"), "utf8")) as Record<string, string>;
    assert.match(blocked[userC] ?? "", /Dein Ordner hat so viele Dateien, dass der Hub ihn nicht in 3 s messen konnte/);
    await waitFor("C's server is stopped", async () => !(await serverReady(userC)));
    assert.equal(await serverReady(hubUser(root, D)), true, "D keeps working");
  },
);

/** Wrong-code logins to `port` (a new X-Forwarded-For each), in Python as `uid`, from `source`; what each showed. */
function wrongLogins(
  port: number,
  count: number,
  options: { as?: { uid: number; gid: number }; source?: string },
): Promise<string[]> {
  const script = `
import http.client, re, sys, urllib.parse
port, count, source = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
seen = []
for i in range(count):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    c.request("GET", "/hub/login")
    r = c.getresponse(); page = r.read().decode()
    cookie = "; ".join(h.split(";")[0] for h in r.headers.get_all("Set-Cookie") or [])
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page).group(1)
    body = urllib.parse.urlencode({"username": "Test Fremde Adresse", "password": "falsch-%d" % i, "pin": "", "_xsrf": xsrf})
    c.request("POST", "/hub/login", body, {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie,
              "X-Forwarded-For": "10.43.0.%d" % (i + 1)})
    page = c.getresponse().read().decode()
    seen.append("zu-viele" if "Zu viele falsche Codes" in page else "falsch" if "stimmt nicht" in page else "?")
    c.close()
print(",".join(seen))
`;
  return new Promise((resolve, reject) => {
    const child = spawn(
      "/usr/bin/python3",
      ["-c", script, String(port), String(count), options.source ?? "127.0.0.1"],
      {
        cwd: "/",
        ...options.as,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve(out.trim().split(",")) : reject(new Error(`python exited ${code}: ${out}`)),
    );
  });
}

test(
  "a participant's process cannot pick its address with X-Forwarded-For; the kit's proxy still can",
  { skip },
  async () => {
    // Straight to JupyterHub's port, as participant A, 15 wrong codes each "from" another address.
    const direct = await wrongLogins(settings().hubPort, 15, { as: account(hubUser(root, A)) });
    assert.ok(!direct.includes("?"), direct.join(","));
    assert.ok(direct.includes("zu-viele"), `the wrong-code limit of 127.0.0.1 holds: ${direct.join(",")}`); // before: all "falsch"
    // Through the proxy (the room's address) from another loopback address: the proxy's X-Forwarded-For counts.
    const port = Number(new URL(hub!.url).port);
    assert.deepEqual(await wrongLogins(port, 1, { source: "127.0.0.3" }), ["falsch"], "127.0.0.3 has its own limit");
  },
);
