// `npm run klassenraum` end to end: the real llama-server (tiny model, --uebung), the board and the
// JupyterHub-based hub start as one command, which prints one URL and a QR code; a participant logs in
// through that URL and their kernel gets an answer from the class server (which answers nobody without the
// classroom's API key); a llama-server killed with kill -9 comes back by itself while board and hub keep
// running; SIGTERM then leaves no process behind (every process started carries this test's marker in its
// environment, or the hub's id).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";
import { processesOfHub } from "../../scripts/apps/hub/processes.js";
import { processesWithEnv } from "../../scripts/node/processes.js";
import { jupyterhubMissing } from "../../scripts/apps/hub/start.js";
import { CHROMIUM, hubUser, launchChromium, logIn, openNotebook, runCell } from "../helpers/hub-process.js";
import { llamaServerSkip } from "../helpers/llama-server.js";
import { BOARD_INSTRUCTOR_HEADER } from "../../scripts/apps/board/instructor.js";
import { BOARD_LOWER_PATH } from "../../scripts/apps/board/server.js";
import { runCommand } from "../helpers/run-script.js";

const MARK_ENV = "KLASSENRAUM_TEST_MARK";
const mark = randomBytes(6).toString("hex");
const skip =
  llamaServerSkip() || (jupyterhubMissing() ? "JupyterHub is not installed (apt-get install jupyterhub)" : false);
const dir = mkdtempSync(join(tmpdir(), "klassenraum-test-"));
chmodSync(dir, 0o755);
const root = join(dir, "hub");

after(async () => {
  for (const pid of processesWithEnv(MARK_ENV, mark)) process.kill(pid, "SIGKILL");
  if (process.getuid?.() === 0) await runCommand("hub", ["--aufraeumen", "--root", root]);
  rmSync(dir, { recursive: true, force: true });
});

test(
  "npm run klassenraum starts class server, board and hub behind one URL; a killed class server comes back; SIGTERM leaves no process",
  { skip },
  async () => {
    const kitRoot = findProjectRoot();
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        join(kitRoot, "scripts", "kit.ts"),
        "klassenraum",
        "--uebung",
        "--port",
        "0",
        "--llm-port",
        "0",
        "--board-port",
        "0",
        "--parallel",
        "2",
        "--kontext",
        "4096",
        "--root",
        root,
        "--code",
        "raum-test-1",
        "--board-daten",
        join(dir, "board.json"),
      ],
      { cwd: kitRoot, env: { ...process.env, [MARK_ENV]: mark, LLM_THREADS: "1" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const until = Date.now() + 4 * 60_000;
    while (!/Beenden mit Strg\+C \(beendet alle drei\)/.test(out) && child.exitCode === null && Date.now() < until)
      await new Promise((r) => setTimeout(r, 200));
    assert.match(out, /Klassenraum läuft\./, out);
    const roomUrl = /Für den Raum:\s+(http:\S+)/.exec(out)![1]!;
    const boardUrl = /Klassen-Board:\s+(http:\S+)/.exec(out)![1]!;
    const llmUrl = /Klassen-Server:\s+(http:\S+)/.exec(out)![1]!;
    assert.match(out, /[▀▄█]{10}/, "a QR code is printed");
    assert.equal((await fetch(roomUrl)).status, 200);
    assert.equal((await fetch(new URL("/api/state", boardUrl))).status, 200);
    // the board's page shows the room the hub's login page (the URL the hub prints), not the board's own join
    const boardPage = await (await fetch(boardUrl)).text();
    assert.ok(boardPage.includes(`<span id="beitritt-url">${roomUrl}</span>`), boardPage);
    assert.doesNotMatch(boardPage, /id="nur-lokal"|npm run workshop --/);
    // the kernels share this machine: lowering hands needs the instructor's link the terminal prints
    const instructorUrl = new URL(/Kursleitung:\s+(http:\S+)/.exec(out)![1]!);
    assert.equal(instructorUrl.origin, new URL(boardUrl).origin);
    const lower = (headers: Record<string, string>) =>
      fetch(new URL(BOARD_LOWER_PATH, boardUrl), {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ name: "Niemand" }),
      });
    assert.equal((await lower({})).status, 403, "a kernel on loopback cannot lower hands");
    const key = /#kursleitung=(.+)$/.exec(instructorUrl.hash)![1]!;
    assert.equal((await lower({ [BOARD_INSTRUCTOR_HEADER]: key })).status, 200);
    assert.equal((await fetch(llmUrl.replace(/\/v1$/, "/health"))).status, 200);
    const withoutKey = await fetch(`${llmUrl}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "Hallo" }], max_tokens: 2 }),
    });
    assert.equal(withoutKey.status, 401, "the class server wants the classroom's API key");

    if (CHROMIUM) {
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        assert.equal(await logIn(page, roomUrl, "Test Raum", "raum-test-1"), undefined);
        await openNotebook(
          page,
          new URL(`/user/${hubUser(root, "Test Raum")}`, roomUrl).href,
          "10-teil-1-lokales-llm.ipynb",
        );
        const answer = await runCell(
          page,
          `import { loadLlm } from "./lib/index";
const llm = await loadLlm();
const r = await llm.chat([{ role: "user", content: "Hallo" }], { maxTokens: 4 });
console.log("backend=" + llm.info.backend + " antwort=" + typeof r.text);
await llm.dispose();`,
        );
        assert.match(answer, /backend=openai-compatible antwort=string/, answer);
      } finally {
        await browser.close();
      }
    }

    // The class server dies (as when the kernel's OOM killer takes it): it comes back, the others never stop.
    const llamaPid = processesWithEnv(MARK_ENV, mark).find((pid) =>
      readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("llama-server"),
    );
    assert.ok(llamaPid, "llama-server runs");
    process.kill(llamaPid, "SIGKILL");
    const back = Date.now() + 2 * 60_000;
    while (!/Klassen-Server \(llama-server\) läuft wieder/.test(out) && Date.now() < back) {
      assert.equal((await fetch(new URL("/api/state", boardUrl))).status, 200, "the board keeps running");
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.match(
      out,
      /Klassen-Server \(llama-server\) hat sich beendet \(Signal SIGKILL\) – Neustart in 1 s\. Die anderen laufen weiter\./,
      out,
    );
    assert.match(out, /Klassen-Server \(llama-server\) läuft wieder\./);
    assert.equal((await fetch(llmUrl.replace(/\/v1$/, "/health"))).status, 200);
    assert.equal((await fetch(roomUrl)).status, 200, "the hub kept running");
    assert.equal(child.exitCode, null);

    const hubId = (
      JSON.parse(readFileSync(join(root, ".hub", "settings.json"), "utf8")) as { kernelEnv: { KURS_HUB_ID: string } }
    ).kernelEnv.KURS_HUB_ID;
    assert.ok(
      processesWithEnv(MARK_ENV, mark).length >= 4,
      "klassenraum, llama-server, board, hub (and JupyterHub) carry the marker",
    );
    child.kill("SIGTERM");
    assert.equal(await exited, 0, out);
    assert.deepEqual(processesWithEnv(MARK_ENV, mark), [], "no process of the classroom is left after SIGTERM");
    assert.deepEqual(processesOfHub(hubId), [], "no participant server or kernel is left");
    await assert.rejects(fetch(llmUrl.replace(/\/v1$/, "/health")));
  },
);
