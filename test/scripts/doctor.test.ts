// npm run doctor: for real on this machine (tiny models, as tests select them), with broken model files,
// and per platform / GPU / network with injected edges.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";
import { modelFileIdentity } from "../../lib/llm/prompt-state.js";
import { llamaCppIdentity, MANIFEST_FILE, WARM_FORMAT, warmStateDir } from "../../lib/llm/warm-states.js";
import { CHECK_IDS, runDoctor, WORKSHOP_PORTS, type Check, type DoctorDeps } from "../../scripts/apps/doctor/main.js";
import type { RunResult } from "../../scripts/setup.mjs";
import { testEnvironment } from "../../scripts/dev/test-env.js";
import { startFakeOpenAiServer } from "../helpers/fake-openai-server.js";
import { runCommandHere } from "../helpers/run-script.js";

const root = findProjectRoot();
let env: NodeJS.ProcessEnv;
let scratch: string;
before(async () => {
  env = await testEnvironment({ tinyModels: true });
  scratch = mkdtempSync(join(tmpdir(), "doctor-test-"));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

function cli(args: string[], extraEnv: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, "scripts", "doctor.mjs"), ...args], {
      cwd: root,
      env: { ...env, ...extraEnv },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout }));
  });
}

const byId = (checks: Check[], id: string) => {
  const c = checks.find((x) => x.id === id);
  assert.ok(c, `check ${id} missing in ${JSON.stringify(checks.map((x) => x.id))}`);
  return c;
};

/** Fake command runner: `answers` maps "command args" to results; everything else succeeds silently. */
const fakeRun = (answers: Record<string, Partial<RunResult>>) => async (command: string, args: string[]) => ({
  code: 0,
  stdout: "",
  stderr: "",
  ...answers[[command, ...args].join(" ")],
});

const injected = (more: Partial<DoctorDeps>): Partial<DoctorDeps> => ({ env, ...more });

test("on this machine with the tiny models: every check ✅, exit code 0, --json for instructors", async () => {
  const { code, stdout } = await cli(["--json"], {});
  const report = JSON.parse(stdout) as { ok: boolean; platform: string; checks: Check[] };
  const ids = report.checks.map((c) => c.id);
  assert.deepEqual(ids, CHECK_IDS);
  for (const c of report.checks) {
    // Another process may hold a workshop port right now; that is a warning by design, never a failure.
    if (c.id === "ports" && c.status === "warn") continue;
    if (c.id === "warm" && c.status === "info") continue; // no prompt states prepared for the tiny model: said, not ticked
    assert.equal(c.status, "ok", `${c.title}: ${c.detail} ${c.fix ?? ""}`);
  }
  assert.equal(report.ok, true);
  assert.equal(code, 0);
  assert.match(byId(report.checks, "model").detail, /tiny-llama\.gguf .*vollständig laut GGUF-Kopf/);
  assert.match(byId(report.checks, "online").detail, /TRAVEL_OFFLINE=1/);
});

test("a missing model file: ❌ with where to put it, exit code 1", async () => {
  const missing = join(scratch, "nope", "modell.gguf");
  // The command in this process (the full check above is the real process, doctor.mjs included).
  const { code, stdout } = await runCommandHere("doctor", ["--only", "model"], { ...env, LLM_MODEL_PATH: missing });
  assert.equal(code, 1);
  assert.match(
    stdout,
    new RegExp(`❌ LLM-Modell \\(GGUF\\): fehlt: ${missing.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}`),
  );
  assert.match(stdout, /→ LLM_MODEL_PATH zeigt auf/);
  assert.match(stdout, /npm run workshop -- --uebung/, "the dry run without a model");
  assert.match(stdout, /So würde der Workshop-Tag scheitern/);
  // The default file in an empty models folder: download or USB stick.
  const [check] = await runDoctor(
    injected({ env: { ...env, LLM_MODEL_PATH: "", MODELS_DIR: join(scratch, "empty") }, only: ["model"] }),
  );
  assert.equal(check!.status, "fail");
  assert.match(
    check!.fix!,
    /npm run models:pull .*Meta-Llama-3\.1-8B-Instruct-Q4_K_M\.gguf vom USB-Stick nach .*empty/,
  );
  // The class server and the practice-mode dry run, the same ways out as npm run workshop and npm start.
  assert.match(check!.fix!, /LLM_BACKEND=openai LLM_BASE_URL=http:\/\/<klassen-server>:8080\/v1/);
  assert.match(
    check!.fix!,
    /Nur zum Durchklicken ohne Modell: npm run workshop -- --uebung bzw\. npm start -- --uebung "<Frage>"/,
  );
});

test("a truncated, a header-only and a non-GGUF model file are each a clear ❌", async () => {
  const whole = readFileSync(env.LLM_MODEL_PATH!);
  const cases: Array<[string, Buffer, RegExp]> = [
    [
      "half.gguf",
      whole.subarray(0, Math.floor(whole.length / 2)),
      new RegExp(`half\\.gguf ist unvollständig: \\d+ von mindestens ${whole.length} Bytes`),
    ],
    [
      "cut-1.gguf",
      whole.subarray(0, whole.length - 1),
      new RegExp(`ist unvollständig: ${whole.length - 1} von mindestens ${whole.length} Bytes`),
    ],
    ["header.gguf", whole.subarray(0, 2000), /header\.gguf ist (beschädigt oder )?unvollständig/],
    ["text.gguf", Buffer.from("Das ist kein Modell, nur Text.\n"), /keine GGUF-Datei/],
  ];
  for (const [name, bytes, expected] of cases) {
    const path = join(scratch, name);
    writeFileSync(path, bytes);
    const [check] = await runDoctor(injected({ env: { ...env, LLM_MODEL_PATH: path }, only: ["model"] }));
    assert.equal(check!.status, "fail", name);
    assert.match(check!.detail, expected);
    assert.match(check!.fix!, /neu|LLM_MODEL_PATH/);
  }
});

test("--checksum compares the GGUF with models/SHA256SUMS", async () => {
  const dir = join(scratch, "sums");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "tiny.gguf");
  copyFileSync(env.LLM_MODEL_PATH!, path);
  const hash = createHash("sha256").update(readFileSync(path)).digest("hex");
  const check = async () =>
    (await runDoctor(injected({ env: { ...env, LLM_MODEL_PATH: path }, only: ["model"], checksum: true })))[0]!;
  assert.match((await check()).detail, /keine Prüfsumme in SHA256SUMS/);
  writeFileSync(join(dir, "SHA256SUMS"), `${hash}  tiny.gguf\n`);
  assert.match((await check()).detail, /SHA-256 stimmt/);
  writeFileSync(join(dir, "SHA256SUMS"), `${"0".repeat(64)}  tiny.gguf\n`);
  const bad = await check();
  assert.equal(bad.status, "fail");
  assert.match(bad.detail, /SHA-256 passt nicht/);
});

test("per platform: Jupyter and faiss-node fixes name the right installer", async () => {
  const noJupyter = fakeRun({ "jupyter --version": { code: 1 } });
  const brokenFaiss = async (name: string) => {
    if (name === "faiss-node") throw new Error("Cannot find module 'faiss-node.node'");
    return { InferenceSession: class {} };
  };
  const expectations: Array<[NodeJS.Platform, string, RegExp, RegExp]> = [
    ["linux", "x64", /apt/, /libfaiss/],
    [
      "darwin",
      "arm64",
      /brew install jupyterlab.*python3 -m pip install --user notebook nbconvert/,
      /xcode-select --install && brew install cmake libomp/,
    ],
    ["win32", "x64", /py -m pip install notebook nbconvert.*Miniforge oder Anaconda/, /Visual Studio\s+Build Tools/],
  ];
  for (const [platform, arch, jupyterFix, faissFix] of expectations) {
    const checks = await runDoctor(
      injected({
        platform,
        arch,
        run: noJupyter,
        loadAddon: brokenFaiss,
        only: ["jupyter", "kernel", "faiss", "onnxruntime"],
      }),
    );
    assert.equal(byId(checks, "jupyter").status, "fail");
    assert.match(byId(checks, "jupyter").fix!, jupyterFix, platform);
    assert.equal(byId(checks, "kernel").status, "fail");
    assert.match(byId(checks, "faiss").fix!, faissFix, platform);
    assert.equal(byId(checks, "onnxruntime").status, "ok");
  }
  const intelMac = await runDoctor(
    injected({
      platform: "darwin",
      arch: "x64",
      loadAddon: async () => {
        throw new Error("no binary for darwin/x64");
      },
      only: ["onnxruntime"],
    }),
  );
  assert.match(intelMac[0]!.fix!, /Intel-Macs/);
});

test("a check that throws is a ❌ line, not a crash; --only rejects unknown ids", async () => {
  const checks = await runDoctor(
    injected({
      run: async () => {
        throw new Error("spawn EACCES");
      },
      only: ["npm", "travel"],
    }),
  );
  assert.equal(byId(checks, "npm").status, "fail");
  assert.match(byId(checks, "npm").detail, /unerwarteter Fehler: spawn EACCES/);
  assert.equal(byId(checks, "travel").status, "ok");
  const { code } = await cli(["--only", "modell"], {});
  assert.equal(code, 2);
});

test("Node, npm and settings: too old is ❌, old npm is ⚠️, a bad variable is one clear ❌", async () => {
  const checks = await runDoctor(
    injected({
      nodeVersion: "20.18.1",
      run: fakeRun({ "npm --version": { stdout: "10.9.2\n" } }),
      only: ["node", "npm"],
    }),
  );
  assert.equal(byId(checks, "node").status, "fail");
  assert.match(byId(checks, "node").fix!, /nodejs\.org/);
  assert.equal(byId(checks, "npm").status, "warn");
  const bad = await runDoctor(injected({ env: { ...env, LLM_GPU: "quantum" } }));
  assert.equal(bad.length, 1);
  assert.equal(bad[0]!.status, "fail");
  assert.match(bad[0]!.detail, /LLM_GPU/);
});

test("GPU from node-llama-cpp's detection: fits, partly fits, none, forced but missing", async () => {
  const gb = 2 ** 30;
  const probe = (gpu: string | false, free: number) => async () => ({ gpu, vramTotal: 8 * gb, vramFree: free });
  const gpuCheck = async (more: Partial<DoctorDeps>, extraEnv: NodeJS.ProcessEnv = {}) =>
    byId(
      await runDoctor(injected({ env: { ...env, LLM_GPU: "auto", ...extraEnv }, only: ["gpu", "llama"], ...more })),
      "gpu",
    );
  const fits = await gpuCheck({ probeLlama: probe("cuda", 6 * gb) });
  assert.equal(fits.status, "ok");
  assert.match(fits.detail, /CUDA, VRAM 6,0 GB frei von 8,0 GB – das Modell passt ganz/);
  const partly = await gpuCheck({ probeLlama: probe("vulkan", 0.5 * gb) }, { LLM_MODEL_PATH: "" });
  assert.equal(partly.status, "warn");
  assert.match(partly.detail, /Vulkan.*passt nur teilweise/);
  const none = await gpuCheck({ probeLlama: probe(false, 0) });
  assert.equal(none.status, "warn");
  assert.match(none.fix!, /Klassen-Server .*LLM_BACKEND=openai.*llama-3\.2-3b/);
  const forced = await runDoctor(
    injected({
      env: { ...env, LLM_GPU: "cuda" },
      only: ["llama"],
      probeLlama: async () => {
        throw new Error("CUDA not found");
      },
    }),
  );
  assert.equal(forced[0]!.status, "fail");
  assert.match(forced[0]!.fix!, /LLM_GPU=auto/);
});

test("memory, disk, ports and network with injected readings", async () => {
  const gb = 2 ** 30;
  const low = await runDoctor(
    injected({
      probeLlama: async () => ({ gpu: false, vramTotal: 0, vramFree: 0 }),
      memory: () => ({ total: 0.5 * gb, free: 0.2 * gb }),
      diskFree: () => 0.2 * gb,
      portFree: async (p) => p !== 8888,
      only: ["ram", "disk", "ports"],
    }),
  );
  assert.equal(byId(low, "ram").status, "fail");
  assert.match(byId(low, "ram").fix!, /llama-3\.2-3b|Klassen-Server/);
  assert.equal(byId(low, "disk").status, "fail");
  assert.equal(byId(low, "ports").status, "warn");
  assert.match(byId(low, "ports").detail, /8888 \(Jupyter\) belegt/);
  assert.deepEqual(
    WORKSHOP_PORTS.map((p) => p.port),
    [8888, 8765, 8790],
    "Jupyter, travel server, class board",
  );
  const boardBusy = await runDoctor(injected({ portFree: async (p) => p !== 8790, only: ["ports"] }));
  assert.match(byId(boardBusy, "ports").detail, /8790 \(Klassen-Board \(Kursleitung\)\) belegt/);
  const offline = async (reach: boolean, travelOffline: string) =>
    byId(
      await runDoctor(
        injected({
          env: { ...env, TRAVEL_OFFLINE: travelOffline },
          reachable: async () => ({ ok: reach, status: 200 }),
          only: ["online"],
        }),
      ),
      "online",
    );
  assert.equal((await offline(true, "")).status, "ok");
  assert.equal((await offline(false, "1")).status, "ok");
  const surprised = await offline(false, "");
  assert.equal(surprised.status, "warn");
  assert.match(surprised.fix!, /TRAVEL_OFFLINE=1/);
});

test("LLM_BACKEND=openai: the class server replaces the model file check", async () => {
  const server = await startFakeOpenAiServer([{ kind: "text", text: "x" }]);
  const classEnv = {
    ...env,
    LLM_BACKEND: "openai",
    LLM_BASE_URL: server.baseUrl,
    LLM_MODEL_PATH: join(scratch, "not-needed.gguf"),
  };
  try {
    const checks = await runDoctor(injected({ env: classEnv, only: ["model", "gpu", "ram"] }));
    assert.equal(byId(checks, "model").status, "ok");
    assert.match(byId(checks, "model").title, /Klassen-Server/);
    assert.match(byId(checks, "gpu").detail, /Klassen-Server rechnet/);
    assert.equal(byId(checks, "ram").status, "ok");
  } finally {
    await server.close();
  }
  const down = await runDoctor(injected({ env: classEnv, only: ["model"] }));
  assert.equal(down[0]!.status, "fail");
  assert.match(down[0]!.fix!, /LLM_BASE_URL/);
});

test("prepared prompt states: none, matching, for another context size, cut short, tampered (--checksum)", async () => {
  const dir = join(scratch, "warm");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "tiny.gguf");
  copyFileSync(env.LLM_MODEL_PATH!, path);
  const check = async (more: NodeJS.ProcessEnv = {}, checksum = false) =>
    (
      await runDoctor(
        injected({
          env: { ...env, LLM_MODEL_PATH: path, LLM_CONTEXT_SIZE: "2048", ...more },
          only: ["warm"],
          checksum,
        }),
      )
    )[0]!;
  const none = await check();
  assert.equal(none.status, "info", "not prepared is no green tick");
  assert.match(none.detail, /keine vorbereitet .*npm run models:warm/);

  const { getLlama, getModuleVersion } = await import("node-llama-cpp");
  const llama = await getLlama({ gpu: false, build: "never", logLevel: "error" as never });
  const llamaCpp = llamaCppIdentity(llama.llamaCppRelease, await getModuleVersion());
  await llama.dispose();
  const state = Buffer.alloc(4096, 7);
  mkdirSync(warmStateDir(path), { recursive: true });
  writeFileSync(join(warmStateDir(path), "tiny.planer-reise.kvstate"), state);
  const entry = {
    name: "planer-reise",
    file: "tiny.planer-reise.kvstate",
    model: { file: "tiny.gguf", ...(await modelFileIdentity(path)) },
    settings: { llamaCpp, template: "Llama 3.1 x", contextSize: 2048, kvCache: ["1", "1"], flashAttention: "auto" },
    key: "k",
    tokens: 100,
    bytes: state.length,
    sha256: createHash("sha256").update(state).digest("hex"),
    layout: true,
    createdAt: "2026-01-29T00:00:00Z",
  };
  writeFileSync(
    join(warmStateDir(path), MANIFEST_FILE),
    JSON.stringify({ format: WARM_FORMAT, nodeLlamaCpp: "x", entries: [entry] }),
  );
  const fits = await check();
  assert.equal(fits.status, "ok", fits.detail);
  assert.match(fits.detail, /^1 passen zu Modell, llama\.cpp und Kontext 2048 \(planer-reise; 0,0 MB\)$/);

  const other = await check({ LLM_CONTEXT_SIZE: "4096" });
  assert.equal(other.status, "warn");
  assert.match(other.detail, /1 vorhanden, passen aber nicht: Kontext 2048 statt 4096 Tokens/);
  assert.match(other.fix!, /npm run models:warm/);

  state[100] = 8;
  writeFileSync(join(warmStateDir(path), entry.file), state);
  assert.equal((await check()).status, "ok", "same size: only --checksum sees it");
  const tampered = await check({}, true);
  assert.equal(tampered.status, "warn");
  assert.match(tampered.detail, /beschädigt oder unvollständig: tiny\.planer-reise\.kvstate/);
  writeFileSync(join(warmStateDir(path), entry.file), state.subarray(0, 100));
  assert.equal((await check()).status, "warn");

  // A FIFO with a manifest entry of 0 bytes: before, --checksum waited for a writer forever.
  rmSync(join(warmStateDir(path), entry.file));
  execFileSync("mkfifo", [join(warmStateDir(path), entry.file)]);
  const empty = { ...entry, bytes: 0, sha256: createHash("sha256").update("").digest("hex") };
  writeFileSync(
    join(warmStateDir(path), MANIFEST_FILE),
    JSON.stringify({ format: WARM_FORMAT, nodeLlamaCpp: "x", entries: [empty] }),
  );
  const fifo = await check({}, true);
  assert.equal(fifo.status, "warn");
  assert.match(fifo.detail, /beschädigt oder unvollständig: tiny\.planer-reise\.kvstate/);
});

test("the embedding check uses the embedder's own place and dtype rule: fp32-only weights pass, a missing tokenizer_config.json fails", async () => {
  const tiny = join(root, "models", "tiny", "tiny-bert");
  const folder = (name: string, files: string[]) => {
    const dir = join(scratch, name);
    mkdirSync(join(dir, "onnx"), { recursive: true });
    for (const f of files) copyFileSync(join(tiny, f), join(dir, f));
    return dir;
  };
  const embedding = async (dir: string) =>
    byId(await runDoctor(injected({ env: { ...env, EMBEDDING_MODEL: dir }, only: ["embedding"] })), "embedding");
  const fp32 = await embedding(
    folder("nur-fp32", ["config.json", "tokenizer.json", "tokenizer_config.json", "onnx/model.onnx"]),
  );
  assert.equal(fp32?.status, "ok", JSON.stringify(fp32));
  assert.match(fp32?.detail ?? "", /onnx\/model\.onnx/);
  const incomplete = await embedding(
    folder("ohne-tokenizer-config", ["config.json", "tokenizer.json", "onnx/model_quantized.onnx"]),
  );
  assert.equal(incomplete?.status, "fail", JSON.stringify(incomplete));
  assert.match(incomplete?.detail ?? "", /tokenizer_config\.json/);
});
