// The command line of `npm run hub`: defaults, the loopback rule of the board and the MCP servers, and
// German messages (never a stack trace) for bad input — through the real script where it is cheap.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";
import { DEFAULT_HUB_MAX, DEFAULT_HUB_PORT, HubUsageError, parseHubArgs } from "../../scripts/apps/hub/args.js";
import { classJoinCode } from "../../scripts/apps/hub/join-code.js";
import { checkName } from "../../scripts/apps/hub/login-check.js";
import { participantKey } from "../../scripts/apps/board/state.js";
import {
  KERNEL_RESTART_ARGS,
  kernelEnvironment,
  participantFiles,
  singleUserArgs,
} from "../../scripts/apps/hub/settings.js";
import { loadBoard } from "../../scripts/apps/board/store.js";
import { runCommand } from "../helpers/run-script.js";

const kit = findProjectRoot();

test("defaults: loopback, port 8000, 30 participants, folders in .cache/hub", () => {
  const a = parseHubArgs([], kit);
  assert.equal(a.action, "serve");
  assert.equal(a.host, "127.0.0.1");
  assert.equal(a.port, DEFAULT_HUB_PORT);
  assert.equal(a.max, DEFAULT_HUB_MAX);
  assert.equal(a.root, join(kit, ".cache", "hub"));
  assert.deepEqual(a.bind.allowedHosts, ["localhost", "127.0.0.1", "[::1]"]);
});

test("beyond loopback only with --allowed-host; each participant's Jupyter then checks those Host names", () => {
  assert.throws(
    () => parseHubArgs(["--host", "0.0.0.0"], kit),
    (e: Error) => e instanceof HubUsageError && /--allowed-host/.test(e.message),
  );
  const a = parseHubArgs(["--host", "0.0.0.0", "--allowed-host", "kurs-pc.local", "--leerlauf", "20"], kit);
  assert.equal(a.bind.urlHost, "kurs-pc.local");
  const args = singleUserArgs(a);
  assert.ok(
    args.includes("--NotebookApp.nbserver_extensions=kurs_host_check=True"),
    "the Host check JupyterHub 3.0's singleuser leaves out",
  );
  assert.ok(args.includes('--NotebookApp.local_hostnames=["kurs-pc.local"]'), args.join(" "));
  assert.ok(args.includes("--MappingKernelManager.cull_idle_timeout=1200"));
  assert.ok(args.includes("--MappingKernelManager.default_kernel_name=tslab"));
  // a kernel whose port was taken comes back on new ports (test/scripts/kernel-restart-ports.test.ts)
  for (const arg of KERNEL_RESTART_ARGS) assert.ok(args.includes(arg), arg);
});

test("bad values say in German what to do", () => {
  const message = (argv: string[]) => {
    try {
      parseHubArgs(argv, kit);
    } catch (e) {
      return (e as Error).message;
    }
    return "";
  };
  assert.match(message(["--max", "0"]), /--max muss eine ganze Zahl von 1 bis 300 sein/);
  assert.match(message(["--llm-url", "kurs-pc:8080"]), /--llm-url muss mit http:\/\/ oder https:\/\/ beginnen/);
  assert.match(message(["--code", "zu kurz!"]), /--code: 4 bis 64 Zeichen/);
  assert.match(message(["--loesungen-freigeben", "--aufraeumen"]), /getrennt/);
  assert.match(message(["--pin-vergessen", "Anna", "--aufraeumen"]), /--aufraeumen und --pin-vergessen bitte getrennt/);
  assert.match(message(["--pin-vergessen", " "]), /--pin-vergessen braucht den Namen/);
  assert.match(message(["--gibts-nicht"]), /^Unbekannte Option „--gibts-nicht“\./);
});

test("the script: a usage error exits 2 with the German text and no stack trace", async () => {
  const r = await runCommand("hub", ["--host", "0.0.0.0"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--allowed-host/);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
});

test("the class's join code is the board's: read from its results file, or made and stored there for the board", async () => {
  const dir = mkdtempSync(join(tmpdir(), "hub-code-"));
  try {
    const file = join(dir, "ergebnisse.json");
    const made = await classJoinCode(file, undefined, () => {});
    assert.match(made, /^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    assert.equal(loadBoard(file)?.joinCode, made, "stored for the board");
    assert.equal(await classJoinCode(file, undefined, () => {}), made, "the same code on the next start");
    assert.equal(await classJoinCode(file, "eigener-code", () => {}), "eigener-code");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("names follow the board's rules: the same key as the board, its German reason for a refusal", () => {
  assert.deepEqual(checkName("  Anna   Müller "), { name: "Anna Müller", key: participantKey("anna müller") });
  assert.match((checkName("\u202eAnna") as { problem: string }).problem, /Schreibrichtung/);
  assert.match((checkName("x".repeat(41)) as { problem: string }).problem, /höchstens 40 Zeichen/);
});

test("--teilnehmende lists, --pin-vergessen NAME resets one participant's PIN", () => {
  assert.equal(parseHubArgs(["--teilnehmende"], kit).action, "list-participants");
  const reset = parseHubArgs(["--pin-vergessen", " Anna Müller "], kit);
  assert.equal(reset.action, "reset-pin");
  assert.equal(reset.pinName, "Anna Müller");
});

test("a participant's kernel inherits the instructor's model and mode settings and KIT_KERNEL_SNAPSHOT, nothing else", () => {
  const env = kernelEnvironment(parseHubArgs([], kit), kit, "abc-def-7", "hub-1", {
    LLM_MODEL_PATH: "/modelle/llama.gguf",
    KIT_KERNEL_SNAPSHOT: "0",
    HOME: "/root",
    KIT_DEBUG: "1",
  });
  assert.equal(env.LLM_MODEL_PATH, "/modelle/llama.gguf");
  assert.equal(env.KIT_KERNEL_SNAPSHOT, "0"); // the plain kernel start (less memory, more CPU) for the whole class
  assert.equal(env.HOME, undefined);
  assert.equal(env.KIT_DEBUG, undefined);
  assert.equal(env.KURS_CODE, "abc-def-7");
});

test("participants get the kit's notebooks and solutions, never a test run's hidden working copy", () => {
  const kitRoot = mkdtempSync(join(tmpdir(), "hub-files-"));
  try {
    mkdirSync(join(kitRoot, "notebooks", "loesungen"), { recursive: true });
    for (const f of ["10-teil-1.ipynb", "loesungen/loesung-1.ipynb", "loesungen/.run-all-again-77-loesung-1.ipynb"])
      writeFileSync(join(kitRoot, "notebooks", f), "{}");
    const { notebooks, solutions } = participantFiles(kitRoot);
    assert.deepEqual(
      [...notebooks, ...solutions].filter((f) => !f.link).map((f) => f.to),
      ["10-teil-1.ipynb", join("loesungen", "loesung-1.ipynb")],
    );
  } finally {
    rmSync(kitRoot, { recursive: true, force: true });
  }
});
