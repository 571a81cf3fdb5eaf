// `npm run doctor` — checks everything the workshop day needs and prints a German checklist with the fix
// for each ❌. Exit code 1 when the day would fail. `--json` for instructors collecting results,
// `--checksum` also compares the GGUF's SHA-256 with models/SHA256SUMS (slow for 4.9 GB: ~10–30 s),
// `--tempo` also measures this machine on a small speed twin and recommends local 8B, 3B or the class
// server (scripts/dev/twins/doctor-tempo.ts). `--klassenraum [N]` also checks this machine as the room's server
// for N participants (scripts/apps/hub/doctor-klassenraum.ts).
// Edges (commands, addons, llama, network, ports, memory) are injectable; see test/scripts/doctor.test.ts.
import { createHash } from "node:crypto";
import {
  createReadStream,
  existsSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  closeSync,
  statfsSync,
  statSync,
} from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { freemem, totalmem } from "node:os";
import { basename, dirname, join } from "node:path";
import type { Llama } from "node-llama-cpp";
import esmImport from "../../../lib/esm.cjs";
import { findProjectRoot, loadConfig, type KitConfig } from "../../../lib/config.js";
import { getKitLlama } from "../../../lib/llm/llama.js";
import { MODEL_CHOICES } from "../../../lib/llm/index.js";
import { modelFileIdentity } from "../../../lib/llm/prompt-state.js";
import {
  llamaCppIdentity,
  readWarmManifest,
  warmMismatches,
  warmStateDir,
  type WarmEntry,
} from "../../../lib/llm/warm-states.js";
import { embeddingModelFiles } from "../../../lib/rag/index.js";
import { DEFAULT_HUB_MAX } from "../hub/args.js";
import { CLASS_SERVER_ENV, practiceHint } from "../models/model-help.js";
import {
  LOCK_STAMP,
  manualInstructions,
  nodeIsSupported,
  npmHonoursAllowScripts,
  realRunner,
  type Runner,
} from "../../setup.mjs";
import { errorText } from "../../../lib/util.js";
import { defineCommand } from "../../node/command.js";
import { parseArgsGerman, UsageError } from "../../node/parse-args-german.js";

/** info: nothing wrong, but not ready either (no green tick), e.g. prompt states not prepared. */
export type Status = "ok" | "info" | "warn" | "fail";
export interface Check {
  id: string;
  title: string;
  status: Status;
  detail: string;
  /** What to do, for warn/fail. */
  fix?: string;
}

export interface GpuProbe {
  /** "cuda" | "vulkan" | "metal", or false for the CPU. */
  gpu: string | false;
  vramTotal: number;
  vramFree: number;
  llama?: Llama;
}

export interface DoctorDeps {
  root: string;
  platform: NodeJS.Platform;
  arch: string;
  env: NodeJS.ProcessEnv;
  nodeVersion: string;
  run: Runner;
  /** Loads a native addon the way the kit does (require from the project). */
  loadAddon: (name: string) => Promise<unknown>;
  /** node-llama-cpp's own detection, never building from source. */
  probeLlama: (gpu: KitConfig["llmGpu"]) => Promise<GpuProbe>;
  /** True when `url` answers at all within `timeoutMs` (any HTTP status). */
  reachable: (url: string, timeoutMs: number) => Promise<{ ok: boolean; status?: number }>;
  portFree: (port: number) => Promise<boolean>;
  memory: () => { total: number; free: number };
  diskFree: (path: string) => number;
  checksum: boolean;
  /** Run only these check ids (default: all). */
  only?: string[];
}

const GIB = 2 ** 30;
const gib = (bytes: number) =>
  bytes >= 0.1 * GIB
    ? `${(bytes / GIB).toFixed(1).replace(".", ",")} GB`
    : `${(bytes / 2 ** 20).toFixed(1).replace(".", ",")} MB`;
/** Ports the day uses by default: Jupyter, the travel server when started by hand, the class board. */
export const WORKSHOP_PORTS = [
  {
    port: 8888,
    what: "Jupyter",
    fix: "Jupyter nimmt dann selbst einen anderen Port (steht in der Ausgabe von npm run workshop).",
  },
  {
    port: 8765,
    what: "Reise-Server (von Hand gestartet)",
    fix: "npm run travel-server -- --port 0 wählt einen freien Port; Notebooks tun das ohnehin.",
  },
  {
    port: 8790,
    what: "Klassen-Board (Kursleitung)",
    fix: "npm run board -- --port 8791 … nimmt einen anderen; die Befehlszeile für die Teilnehmenden nennt ihn dann.",
  },
];
/** Hosts whose reachability decides "online": model downloads and the travel APIs. */
export const ONLINE_PROBES = ["https://huggingface.co", "https://api.open-meteo.com"];

function defaultDeps(overrides: Partial<DoctorDeps>): DoctorDeps {
  const root = overrides.root ?? findProjectRoot();
  const requireFromRoot = createRequire(join(root, "package.json"));
  return {
    root,
    platform: process.platform,
    arch: process.arch,
    env: process.env,
    nodeVersion: process.versions.node,
    run: realRunner(overrides.platform ?? process.platform),
    loadAddon: async (name) => requireFromRoot(name),
    probeLlama: async (gpu) => {
      const llama = await getKitLlama(gpu);
      const vram = await llama.getVramState();
      return { gpu: llama.gpu, vramTotal: vram.total, vramFree: vram.free, llama };
    },
    reachable: async (url, timeoutMs) => {
      try {
        const res = await fetch(url, { method: "HEAD", signal: AbortSignal.timeout(timeoutMs) });
        return { ok: true, status: res.status };
      } catch {
        return { ok: false };
      }
    },
    portFree: (port) =>
      new Promise((resolve) => {
        const server = createServer();
        server.once("error", () => resolve(false));
        server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
      }),
    memory: () => ({ total: totalmem(), free: freemem() }),
    diskFree: (path) => {
      const s = statfsSync(path);
      return s.bavail * s.bsize;
    },
    checksum: false,
    ...overrides,
  };
}

const ok = (id: string, title: string, detail: string): Check => ({ id, title, status: "ok", detail });
const info = (id: string, title: string, detail: string): Check => ({ id, title, status: "info", detail });
const warn = (id: string, title: string, detail: string, fix: string): Check => ({
  id,
  title,
  status: "warn",
  detail,
  fix,
});
const fail = (id: string, title: string, detail: string, fix: string): Check => ({
  id,
  title,
  status: "fail",
  detail,
  fix,
});

function checkNode(d: DoctorDeps): Check {
  return nodeIsSupported(d.nodeVersion)
    ? ok("node", "Node.js", d.nodeVersion)
    : fail(
        "node",
        "Node.js",
        `${d.nodeVersion} ist zu alt (nötig: 20.19 oder neuer)`,
        "Node.js LTS von https://nodejs.org installieren, dann npm run setup.",
      );
}

async function checkNpm(d: DoctorDeps): Promise<Check> {
  const r = await d.run("npm", ["--version"], { capture: true, cwd: d.root });
  const version = r.stdout.trim();
  if (r.code !== 0 || !version)
    return fail(
      "npm",
      "npm",
      "npm nicht gefunden",
      "npm gehört zu Node.js: Node.js LTS von https://nodejs.org neu installieren.",
    );
  if (!npmHonoursAllowScripts(version)) {
    return warn(
      "npm",
      "npm",
      `${version} (älter als 11.16: kennt allowScripts nicht; npm run setup gleicht das aus)`,
      "Optional: npm install -g npm@11",
    );
  }
  return ok("npm", "npm", version);
}

function checkDependencies(d: DoctorDeps): Check {
  const title = "npm-Abhängigkeiten";
  if (!existsSync(join(d.root, "node_modules", "tsx")))
    return fail("deps", title, "node_modules fehlt", "npm run setup");
  const lock = createHash("sha256")
    .update(readFileSync(join(d.root, "package-lock.json")))
    .digest("hex");
  const stamp = join(d.root, LOCK_STAMP);
  if (!existsSync(stamp) || !readFileSync(stamp, "utf8").trim().startsWith(lock)) {
    return warn("deps", title, "installiert, aber nicht mit dem aktuellen package-lock.json", "npm run setup");
  }
  return ok("deps", title, "passen zu package-lock.json");
}

function jupyterEnv(d: DoctorDeps): NodeJS.ProcessEnv {
  const prefix = join(d.root, ".jupyter-prefix", "share", "jupyter");
  const sep = d.platform === "win32" ? ";" : ":";
  return {
    ...d.env,
    PYDEVD_DISABLE_FILE_VALIDATION: "1",
    JUPYTER_PATH: d.env.JUPYTER_PATH ? `${prefix}${sep}${d.env.JUPYTER_PATH}` : prefix,
  };
}

async function checkJupyter(d: DoctorDeps): Promise<Check[]> {
  const fixJupyter =
    d.platform === "linux"
      ? "npm run setup (installiert jupyter-notebook und jupyter-nbconvert mit apt)"
      : manualInstructions(d.platform, d.arch, ["jupyter"]).join(" ").replace(/\s+/g, " ");
  const env = jupyterEnv(d);
  const listing = d.run("jupyter", ["kernelspec", "list", "--json"], { capture: true, env }); // in parallel: Python starts slowly
  const version = await d.run("jupyter", ["--version"], { capture: true, env });
  if (version.code !== 0) {
    return [
      fail("jupyter", "Jupyter", "jupyter nicht gefunden", fixJupyter),
      fail(
        "kernel",
        "TypeScript-Kernel",
        "ohne Jupyter nicht prüfbar",
        "erst Jupyter installieren, dann npm run setup",
      ),
    ];
  }
  const core = /jupyter_core\s*:\s*(\S+)/.exec(version.stdout)?.[1];
  const jupyter = ok("jupyter", "Jupyter", core ? `jupyter_core ${core}` : "gefunden");
  const spec = join(d.root, ".jupyter-prefix", "share", "jupyter", "kernels", "tslab", "kernel.json");
  if (!existsSync(spec)) return [jupyter, fail("kernel", "TypeScript-Kernel", "nicht registriert", "npm run setup")];
  const argv = (JSON.parse(readFileSync(spec, "utf8")) as { argv: string[] }).argv;
  const program = argv.find((a) => a.includes("tslab"));
  if (!program || !existsSync(program)) {
    return [
      jupyter,
      fail(
        "kernel",
        "TypeScript-Kernel",
        `Kernel zeigt auf ${program ?? argv[0]}, das fehlt`,
        "npm run setup (registriert den Kernel neu)",
      ),
    ];
  }
  const list = await listing;
  const seen = list.code === 0 && /"tslab"/.test(list.stdout);
  return [
    jupyter,
    seen
      ? ok("kernel", "TypeScript-Kernel", "„TypeScript (Workshop)“ registriert, Jupyter findet ihn")
      : fail(
          "kernel",
          "TypeScript-Kernel",
          "Jupyter findet den Kernel nicht",
          "npm run workshop benutzen (setzt JUPYTER_PATH) oder npm run setup erneut",
        ),
  ];
}

async function checkAddons(d: DoctorDeps): Promise<Check[]> {
  const checks: Check[] = [];
  try {
    const faiss = (await d.loadAddon("faiss-node")) as { IndexFlatIP: new (dim: number) => { ntotal(): number } };
    if (new faiss.IndexFlatIP(4).ntotal() !== 0) throw new Error("leerer Index meldet Einträge");
    checks.push(ok("faiss", "faiss-node (Teil 2)", "lädt"));
  } catch (err) {
    const fix =
      d.platform === "linux"
        ? "npm run setup (baut faiss-node gegen libfaiss, falls kein Download möglich ist)"
        : manualInstructions(d.platform, d.arch, ["faiss-node"]).join(" ").replace(/\s+/g, " ");
    checks.push(fail("faiss", "faiss-node (Teil 2)", `lädt nicht: ${firstLine(err)}`, fix));
  }
  try {
    const ort = (await d.loadAddon("onnxruntime-node")) as { InferenceSession?: unknown };
    if (typeof ort.InferenceSession !== "function") throw new Error("InferenceSession fehlt");
    checks.push(ok("onnxruntime", "onnxruntime-node (Teil 2)", "lädt"));
  } catch (err) {
    const fix =
      d.platform === "darwin" && d.arch === "x64"
        ? manualInstructions("darwin", "x64", ["onnxruntime-darwin-x64"]).join(" ")
        : "npm run setup erneut ausführen (onnxruntime-node bringt seine Binärdatei mit; fehlt sie, war npm ci unvollständig)";
    checks.push(fail("onnxruntime", "onnxruntime-node (Teil 2)", `lädt nicht: ${firstLine(err)}`, fix));
  }
  return checks;
}

function firstLine(err: unknown): string {
  return errorText(err).split("\n")[0]!.slice(0, 160);
}

async function checkLlama(d: DoctorDeps, config: KitConfig): Promise<{ checks: Check[]; probe?: GpuProbe }> {
  let probe: GpuProbe;
  try {
    probe = await d.probeLlama(config.llmGpu);
  } catch (err) {
    const forced = config.llmGpu !== "auto" && config.llmGpu !== "cpu";
    return {
      checks: [
        forced
          ? fail(
              "llama",
              "node-llama-cpp (Teil 1)",
              `LLM_GPU=${config.llmGpu}, aber: ${firstLine(err)}`,
              "LLM_GPU=auto setzen (nimmt, was da ist) oder den GPU-Treiber installieren",
            )
          : fail(
              "llama",
              "node-llama-cpp (Teil 1)",
              `lädt nicht: ${firstLine(err)}`,
              "npm run setup erneut (node-llama-cpp bringt Binärdateien als npm-Pakete @node-llama-cpp/* mit)",
            ),
      ],
    };
  }
  const addon = ok("llama", "node-llama-cpp (Teil 1)", "Binärdatei lädt");
  const title = "GPU";
  let gpu: Check;
  if (config.llmBackend === "openai")
    gpu = ok("gpu", title, "nicht nötig: der Klassen-Server rechnet (LLM_BACKEND=openai)");
  else if (probe.gpu === false) {
    gpu =
      config.llmGpu === "cpu"
        ? ok("gpu", title, "CPU gewählt (LLM_GPU=cpu)")
        : warn(
            "gpu",
            title,
            "keine GPU erkannt – das Modell rechnet auf der CPU (wie schnell, misst npm run doctor -- --tempo)",
            "Für flüssiges Arbeiten den Klassen-Server nutzen (LLM_BACKEND=openai LLM_BASE_URL=…) oder das kleinere Modell: npm run models:pull -- llama-3.2-3b",
          );
  } else {
    const name = { cuda: "CUDA", vulkan: "Vulkan", metal: "Metal" }[probe.gpu] ?? probe.gpu;
    const model = existsSync(config.llmModelPath)
      ? statSync(config.llmModelPath).size
      : MODEL_CHOICES[0]!.approxSizeGb * 1e9;
    const detail = `${name}, VRAM ${gib(probe.vramFree)} frei von ${gib(probe.vramTotal)}`;
    gpu =
      probe.vramFree >= model + GIB
        ? ok("gpu", title, `${detail} – das Modell passt ganz hinein`)
        : warn(
            "gpu",
            title,
            `${detail} – das Modell (${gib(model)}) passt nur teilweise; der Rest rechnet auf der CPU`,
            "Andere GPU-Programme schließen, kleineres Modell (npm run models:pull -- llama-3.2-3b) oder Klassen-Server (LLM_BACKEND=openai)",
          );
  }
  return { checks: [addon, gpu], probe };
}

/** Reads the first bytes of a file (GGUF magic). */
function head(path: string, bytes: number): Buffer {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(bytes);
    const n = readSync(fd, buf, 0, bytes, 0);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** The GGUF is there, is a GGUF, and is as long as its own tensor table says (catches cut-off copies). */
async function checkModelFile(d: DoctorDeps, config: KitConfig, llama: Llama | undefined): Promise<Check> {
  const title = "LLM-Modell (GGUF)";
  const path = config.llmModelPath;
  const choice = MODEL_CHOICES.find((c) => c.fileName === basename(path));
  const getIt = config.llmModelPathFromEnv
    ? `LLM_MODEL_PATH zeigt auf ${path}: Pfad prüfen, oder die Datei dorthin kopieren`
    : `npm run models:pull (mit Internet) – oder ${basename(path)} vom USB-Stick nach ${dirname(path)} kopieren`;
  const waysOut = `${getIt} – oder den Klassen-Server nutzen: ${CLASS_SERVER_ENV}. ${practiceHint(["workshop", "start"])}`;
  if (!existsSync(path)) return fail("model", title, `fehlt: ${path}`, waysOut);
  const size = statSync(path).size;
  if (head(path, 4).toString("latin1") !== "GGUF") return fail("model", title, `${path} ist keine GGUF-Datei`, getIt);
  const { readGgufFileInfo, GgufInsights } = await esmImport<typeof import("node-llama-cpp")>("node-llama-cpp");
  let expected: number | undefined;
  try {
    const info = await readGgufFileInfo(path, { readTensorInfo: true, logWarnings: false });
    const offsets = (info.fullTensorInfo ?? []).map((t) => Number(t.fileOffset));
    if (llama && offsets.length > 0) {
      // Tensor data starts at the first offset; padding between tensors only makes a real file longer.
      expected = Math.min(...offsets) + (await GgufInsights.from(info, llama)).modelSize;
    }
  } catch (err) {
    return fail(
      "model",
      title,
      `${basename(path)} ist beschädigt oder unvollständig (${firstLine(err)})`,
      `Datei neu kopieren bzw. neu laden: ${getIt}`,
    );
  }
  if (expected !== undefined && size < expected) {
    return fail(
      "model",
      title,
      `${basename(path)} ist unvollständig: ${size} von mindestens ${expected} Bytes`,
      `Kopie/Download abgebrochen – Datei neu holen: ${getIt}`,
    );
  }
  let detail = `${basename(path)} (${gib(size)}${expected !== undefined ? ", vollständig laut GGUF-Kopf" : ""})`;
  if (choice && Math.abs(size / 1e9 - choice.approxSizeGb) > choice.approxSizeGb * 0.1) {
    return warn(
      "model",
      title,
      `${detail} – erwartet etwa ${choice.approxSizeGb} GB`,
      `Stimmt die Datei? Sonst neu holen: ${getIt}`,
    );
  }
  if (d.checksum) {
    const sums = join(dirname(path), "SHA256SUMS");
    const line = existsSync(sums)
      ? readFileSync(sums, "utf8")
          .split("\n")
          .find((l) => l.trim().endsWith(basename(path)))
      : undefined;
    if (!line) detail += "; keine Prüfsumme in SHA256SUMS zum Vergleich";
    else if (line.trim().split(/\s+/)[0] !== (await sha256File(path))) {
      return fail(
        "model",
        title,
        `${basename(path)}: SHA-256 passt nicht zu SHA256SUMS`,
        `Datei beschädigt – neu kopieren: ${getIt}`,
      );
    } else detail += "; SHA-256 stimmt";
  }
  return ok("model", title, detail);
}

/**
 * Prepared prompt states (npm run models:warm) beside the model: made for this model file (by content),
 * this llama.cpp and this context size, and complete (size; with --checksum SHA-256). The chat template
 * and KV cache types are checked when the kit loads a state.
 */
async function checkWarmStates(d: DoctorDeps, config: KitConfig, llama: Llama | undefined): Promise<Check> {
  const title = "Vorbereitete Prompt-Zustände";
  if (config.llmBackend === "openai")
    return ok("warm", title, "nicht nötig: der Klassen-Server rechnet (LLM_BACKEND=openai)");
  const dir = warmStateDir(config.llmModelPath);
  const manifest = await readWarmManifest(dir);
  if (!manifest)
    return info(
      "warm",
      title,
      "keine vorbereitet – der erste Plan in Teil 3/4 berechnet den System-Prompt selbst (Kursleitung: npm run models:warm)",
    );
  const fix =
    "Kursleitung: npm run models:warm mit diesem Modell und diesen Einstellungen, dann models/ samt prompt-states/ neu kopieren";
  if ("problem" in manifest) return warn("warm", title, manifest.problem, fix);
  if (!existsSync(config.llmModelPath))
    return warn("warm", title, `${manifest.entries.length} vorhanden, aber das Modell fehlt`, fix);
  const model = await modelFileIdentity(config.llmModelPath);
  const { getModuleVersion, readGgufFileInfo, GgufInsights } =
    await esmImport<typeof import("node-llama-cpp")>("node-llama-cpp");
  const trainContext = llama
    ? (await GgufInsights.from(await readGgufFileInfo(config.llmModelPath, { logWarnings: false }), llama))
        .trainContextSize
    : undefined;
  const contextSize = Math.min(config.llmContextSize, trainContext ?? Infinity);
  const llamaCpp = llama ? llamaCppIdentity(llama.llamaCppRelease, await getModuleVersion()) : undefined;
  const why = (e: WarmEntry) =>
    warmMismatches(e, model, { ...e.settings, contextSize, llamaCpp: llamaCpp ?? e.settings.llamaCpp });
  const fitting = manifest.entries.filter((e) => why(e).length === 0);
  if (fitting.length === 0) {
    const closest = manifest.entries.map(why).sort((a, b) => a.length - b.length)[0] ?? ["leer"];
    return warn("warm", title, `${manifest.entries.length} vorhanden, passen aber nicht: ${closest.join(", ")}`, fix);
  }
  const damaged: string[] = [];
  for (const e of fitting) {
    const file = join(dir, e.file);
    const info = existsSync(file) ? lstatSync(file) : undefined; // a link, FIFO or device is never read
    const intact =
      info?.isFile() === true && info.size === e.bytes && (!d.checksum || (await sha256File(file)) === e.sha256);
    if (!intact) damaged.push(e.file);
  }
  if (damaged.length > 0)
    return warn(
      "warm",
      title,
      `beschädigt oder unvollständig: ${damaged.join(", ")}`,
      "models/prompt-states/ neu vom USB-Stick kopieren (oder npm run models:warm)",
    );
  const total = fitting.reduce((n, e) => n + e.bytes, 0);
  const names = fitting.map((e) => e.name).join(", ");
  return ok(
    "warm",
    title,
    `${fitting.length} passen zu Modell, llama.cpp und Kontext ${contextSize} (${names}; ${gib(total)}${d.checksum ? "; SHA-256 stimmt" : ""})`,
  );
}

async function checkClassServer(d: DoctorDeps, config: KitConfig): Promise<Check> {
  const title = "Klassen-Server (LLM_BACKEND=openai)";
  if (!config.llmBaseUrl)
    return fail(
      "model",
      title,
      "LLM_BASE_URL fehlt",
      "LLM_BASE_URL=http://<klassen-server>:8080/v1 setzen (Adresse von der Kursleitung)",
    );
  const url = `${config.llmBaseUrl.replace(/\/+$/, "")}/models`;
  const r = await d.reachable(url, 3000);
  return r.ok
    ? ok("model", title, `${config.llmBaseUrl} antwortet (HTTP ${r.status})`)
    : fail(
        "model",
        title,
        `${config.llmBaseUrl} antwortet nicht`,
        "Im Kurs-WLAN? Adresse bei der Kursleitung erfragen und LLM_BASE_URL prüfen",
      );
}

function checkEmbedding(config: KitConfig): Check {
  const title = "Embedding-Modell (Teil 2)";
  const fix = `npm run models:pull -- --embedding-only (mit Internet) – oder den Ordner vom USB-Stick nach ${join(config.modelsDir, config.embeddingModel)} kopieren`;
  try {
    // The place and dtype rule of the embedder itself (lib/rag/embedding-model.ts), as models:pull uses it.
    const files = embeddingModelFiles({ model: config.embeddingModel, modelsDir: config.modelsDir });
    if (files.missing.length > 0)
      return fail("embedding", title, `${files.dir}: es fehlt ${files.missing.join(", ")}`, fix);
    return ok("embedding", title, `${config.embeddingModel} (${files.required.find((f) => f.startsWith("onnx/"))})`);
  } catch {
    return fail(
      "embedding",
      title,
      `${config.embeddingModel} fehlt (weder Ordner noch models/<id> mit config.json)`,
      fix,
    );
  }
}

function checkMemory(d: DoctorDeps, config: KitConfig, probe: GpuProbe | undefined): Check {
  const { total, free } = d.memory();
  const title = "Arbeitsspeicher";
  const local = config.llmBackend === "local" && existsSync(config.llmModelPath);
  const model = local ? statSync(config.llmModelPath).size : 0;
  const onGpu = probe?.gpu ? Math.min(model, probe.vramFree) : 0;
  const needed = model - onGpu + GIB; // what stays in RAM plus room for context, Jupyter and Node
  const detail = `${gib(free)} frei von ${gib(total)}${local ? `, das Modell braucht etwa ${gib(needed)}` : ""}`;
  if (total < needed) {
    return fail(
      "ram",
      title,
      detail,
      "Zu wenig RAM für dieses Modell: kleineres Modell (npm run models:pull -- llama-3.2-3b) oder Klassen-Server (LLM_BACKEND=openai)",
    );
  }
  if (free < needed) return warn("ram", title, detail, "Andere Programme (Browser-Tabs, Docker, IDEs) schließen");
  return ok("ram", title, detail);
}

function checkDisk(d: DoctorDeps, config: KitConfig): Check {
  const free = d.diskFree(d.root);
  const title = "Speicherplatz";
  const modelMissing = config.llmBackend === "local" && !existsSync(config.llmModelPath);
  const needed = (modelMissing ? MODEL_CHOICES[0]!.approxSizeGb * 1e9 : 0) + GIB;
  const detail = `${gib(free)} frei${modelMissing ? " (das Modell fehlt noch und braucht ~4,9 GB)" : ""}`;
  return free >= needed
    ? ok("disk", title, detail)
    : fail("disk", title, detail, `Mindestens ${gib(needed)} freimachen (Cache, Index und Modell brauchen Platz)`);
}

async function checkPorts(d: DoctorDeps): Promise<Check> {
  const busy = [];
  for (const p of WORKSHOP_PORTS) if (!(await d.portFree(p.port))) busy.push(p);
  if (busy.length === 0) return ok("ports", "Ports", `${WORKSHOP_PORTS.map((p) => p.port).join(", ")} frei`);
  return warn(
    "ports",
    "Ports",
    busy.map((p) => `${p.port} (${p.what}) belegt`).join(", "),
    busy.map((p) => p.fix).join(" "),
  );
}

function checkTravelData(d: DoctorDeps): Check {
  const title = "Reisedaten (offline, Teil 3–4)";
  try {
    const cities = JSON.parse(readFileSync(join(d.root, "data", "travel", "cities.json"), "utf8")) as unknown[];
    const places = JSON.parse(readFileSync(join(d.root, "data", "travel", "places.json"), "utf8")) as unknown[];
    if (!Array.isArray(cities) || cities.length === 0 || !Array.isArray(places) || places.length === 0)
      throw new Error("leer");
    return ok("travel", title, `${cities.length} Städte, ${places.length} Orte`);
  } catch (err) {
    return fail(
      "travel",
      title,
      `data/travel/*.json fehlt oder ist kaputt (${firstLine(err)})`,
      "Kit neu auschecken bzw. entpacken (git checkout -- data/travel)",
    );
  }
}

async function checkOnline(d: DoctorDeps, config: KitConfig): Promise<Check> {
  const title = "Internet";
  const answers = await Promise.all(ONLINE_PROBES.map((u) => d.reachable(u, 3000)));
  if (answers.every((a) => a.ok)) return ok("online", title, "online (Modell-Downloads und Live-Reisedaten möglich)");
  if (config.travelOffline) return ok("online", title, "offline – Offline-Modus ist eingestellt (TRAVEL_OFFLINE=1)");
  return warn(
    "online",
    title,
    answers.some((a) => a.ok) ? "nur teilweise erreichbar" : "offline",
    "TRAVEL_OFFLINE=1 setzen (mitgelieferte Reisedaten); Modelle vom USB-Stick nach models/ kopieren",
  );
}

/** Runs all checks (or `only`) and returns them in checklist order. */
export async function runDoctor(overrides: Partial<DoctorDeps> = {}): Promise<Check[]> {
  const d = defaultDeps(overrides);
  const want = (id: string) => !d.only || d.only.includes(id);
  let config: KitConfig;
  try {
    config = loadConfig(d.env);
  } catch (err) {
    return [
      fail("config", "Einstellungen", firstLine(err), "Die genannte Umgebungsvariable korrigieren oder entfernen"),
    ];
  }
  // Independent groups run side by side (Jupyter and the network are slow); the list keeps its order.
  // A check that throws unexpectedly becomes a ❌ line, never a stack trace.
  const group = async (ids: string[], fn: () => Promise<Check[]> | Check[]): Promise<Check[]> => {
    if (!ids.some(want)) return [];
    try {
      return (await fn()).filter((c) => want(c.id));
    } catch (err) {
      return [
        fail(
          ids[0]!,
          `Prüfung „${ids.join(", ")}“`,
          `unerwarteter Fehler: ${firstLine(err)}`,
          "npm run setup erneut ausführen; bleibt der Fehler, die Ausgabe an die Kursleitung schicken",
        ),
      ];
    }
  };
  const llamaGroup = async () => {
    const llama = await checkLlama(d, config);
    try {
      const model =
        config.llmBackend === "openai"
          ? await checkClassServer(d, config)
          : await checkModelFile(d, config, llama.probe?.llama);
      const warmStates = want("warm") ? [await checkWarmStates(d, config, llama.probe?.llama)] : [];
      return [...llama.checks, model, ...warmStates, checkEmbedding(config), checkMemory(d, config, llama.probe)];
    } finally {
      await llama.probe?.llama?.dispose();
    }
  };
  const groups = await Promise.all([
    group(["node"], () => [checkNode(d)]),
    group(["npm"], async () => [await checkNpm(d)]),
    group(["deps"], () => [checkDependencies(d)]),
    group(["jupyter", "kernel"], () => checkJupyter(d)),
    group(["faiss", "onnxruntime"], () => checkAddons(d)),
    group(["llama", "gpu", "model", "warm", "embedding", "ram"], llamaGroup),
    group(["disk"], () => [checkDisk(d, config)]),
    group(["ports"], async () => [await checkPorts(d)]),
    group(["travel"], () => [checkTravelData(d)]),
    group(["online"], async () => [await checkOnline(d, config)]),
  ]);
  return groups.flat();
}

/** Every check id, in checklist order (for `--only`). */
export const CHECK_IDS = [
  "node",
  "npm",
  "deps",
  "jupyter",
  "kernel",
  "faiss",
  "onnxruntime",
  "llama",
  "gpu",
  "model",
  "warm",
  "embedding",
  "ram",
  "disk",
  "ports",
  "travel",
  "online",
];

const ICON: Record<Status, string> = { ok: "✅", info: "ℹ️ ", warn: "⚠️ ", fail: "❌" };

export function renderChecklist(checks: Check[], header: string): string {
  const lines = [header, ""];
  for (const c of checks) {
    lines.push(`${ICON[c.status]} ${c.title}: ${c.detail}`);
    if (c.fix && c.status !== "ok" && c.status !== "info") lines.push(`   → ${c.fix}`);
  }
  const count = (s: Status) => checks.filter((c) => c.status === s).length;
  lines.push(
    "",
    `${count("ok")} ✅ · ${count("info") ? `${count("info")} ℹ️ · ` : ""}${count("warn")} ⚠️ · ${count("fail")} ❌`,
  );
  lines.push(
    count("fail") === 0
      ? "Bereit für den Workshop-Tag."
      : "So würde der Workshop-Tag scheitern: bitte die ❌-Punkte beheben und npm run doctor erneut ausführen.",
  );
  return lines.join("\n");
}

/** The speed check, or a German line saying why it could not run. */
async function tempoSection(
  json: boolean,
): Promise<{ text: string; tempo?: Record<string, unknown>; failed: boolean }> {
  const { runTempo, renderTempo, tempoJson } = await import("../../dev/twins/doctor-tempo.js");
  try {
    const report = await runTempo(json ? undefined : (line) => console.log(line));
    return { text: renderTempo(report), tempo: tempoJson(report), failed: false };
  } catch (err) {
    return {
      text: `❌ Tempo-Check: nicht möglich (${firstLine(err)})\n   → Erst die ❌-Punkte oben beheben (npm run setup), dann npm run doctor -- --tempo erneut.`,
      failed: true,
    };
  }
}

/** The instructor's machine as the room's server (`--klassenraum [N]`, scripts/apps/hub/doctor-klassenraum.ts). */
async function klassenraumSection(participants: number | undefined): Promise<Check[]> {
  const { klassenraumChecks } = await import("../hub/doctor-klassenraum.js");
  const d = defaultDeps({});
  return klassenraumChecks(
    { root: d.root, env: d.env, run: d.run, memory: d.memory, uid: process.getuid?.() },
    participants,
  );
}

interface DoctorArgs {
  json: boolean;
  checksum: boolean;
  tempo: boolean;
  klassenraum: boolean;
  participants: number | undefined;
  only: string[] | undefined;
}

const DOCTOR_OPTIONS = {
  json: { type: "boolean", help: "Ergebnis als JSON (zum Einsammeln)" },
  checksum: { type: "boolean", help: "auch die SHA-256 der Modelldatei prüfen (10–30 s)" },
  tempo: {
    type: "boolean",
    help: "auch messen, wie schnell dieser Rechner rechnet (Empfehlung 8B, 3B oder Klassen-Server)",
  },
  klassenraum: {
    type: "boolean",
    label: "--klassenraum [N]",
    help: "auch prüfen, ob dieser Rechner den Raum mit N Teilnehmenden trägt (npm run klassenraum)",
  },
  only: { type: "string", value: "PRÜFUNGEN", help: "nur diese Prüfungen, durch Komma getrennt" },
} as const;

/** `npm run doctor`; scripts/doctor.mjs checks Node.js and node_modules first, then hands over to scripts/kit.ts. */
export const command = defineCommand({
  name: "doctor",
  invocation: "npm run doctor --",
  summary: "Prüft alles, was der Workshop-Tag braucht: Node.js, Jupyter, Kernel, Modelle, Ports, Speicher.",
  options: DOCTOR_OPTIONS,
  positionals: "",
  run: ({ argv }) => main(argv),
});
const USAGE = command.usage;

/** The command line; a wrong one (or --help) throws a UsageError. `--klassenraum` takes an optional count after it. */
function parseDoctorArgs(argv: string[]): DoctorArgs {
  const { values, tokens } = parseArgsGerman(
    { args: argv, options: command.options, allowPositionals: true, tokens: true },
    USAGE,
  );
  let participants: number | undefined;
  tokens.forEach((token, i) => {
    if (token.kind !== "positional") return;
    const previous = tokens[i - 1];
    if (previous?.kind === "option" && previous.name === "klassenraum" && /^\d+$/.test(token.value))
      participants = Number(token.value);
    else
      throw new UsageError(
        `Unerwartete Angabe „${token.value}“: npm run doctor nimmt nur Optionen (eine Zahl nur direkt nach --klassenraum).\n\n${USAGE}`,
      );
  });
  const only = values.only?.split(",").filter(Boolean);
  const unknown = only?.filter((id) => !CHECK_IDS.includes(id)) ?? [];
  if (only && (only.length === 0 || unknown.length > 0)) {
    throw new UsageError(
      `--only erwartet Prüfungen aus: ${CHECK_IDS.join(", ")}${unknown.length ? ` (unbekannt: ${unknown.join(", ")})` : ""}`,
    );
  }
  return {
    json: values.json === true,
    checksum: values.checksum === true,
    tempo: values.tempo === true,
    klassenraum: values.klassenraum === true,
    participants,
    only,
  };
}

/** CLI: `npm run doctor [-- --json] [--checksum] [--tempo] [--klassenraum [N]] [--only id,id]`. Returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const args = parseDoctorArgs(argv);
  const { json, only, klassenraum: classroom, participants } = args;
  const checks = await runDoctor({ checksum: args.checksum, only });
  const failed = checks.some((c) => c.status === "fail");
  if (!json)
    console.log(
      renderChecklist(
        checks,
        `Workshop-Check (npm run doctor) – ${process.platform} ${process.arch}, Node.js ${process.versions.node}`,
      ),
    );
  const klassenraum = classroom ? await klassenraumSection(participants) : undefined;
  const classFailed = klassenraum?.some((c) => c.status === "fail") ?? false;
  if (klassenraum && !json)
    console.log(
      `\n${renderChecklist(klassenraum, `Klassenraum-Rechner (npm run klassenraum, ${participants ?? DEFAULT_HUB_MAX} Teilnehmende)`)}`,
    );
  const tempo = args.tempo ? await tempoSection(json) : undefined;
  if (json) {
    const report = {
      ok: !failed && !classFailed && !tempo?.failed,
      platform: process.platform,
      arch: process.arch,
      node: process.versions.node,
      checkedAt: new Date().toISOString(),
      checks,
      ...(klassenraum ? { klassenraum } : {}),
      ...(tempo ? { tempo: tempo.tempo ?? { error: tempo.text } } : {}),
    };
    console.log(JSON.stringify(report, null, 2));
  } else if (tempo) {
    console.log(`\n${tempo.text}`);
  }
  return failed || classFailed || tempo?.failed ? 1 : 0;
}
