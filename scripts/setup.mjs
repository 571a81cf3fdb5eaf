// `npm run setup` — one set-up command for Linux, macOS and Windows.
// Plain JavaScript on purpose: it runs before node_modules (and with it tsx) exists.
// Idempotent: every step checks first and skips what is already done. The OS-specific parts are the
// system packages (apt on Debian/Ubuntu; exact instructions on macOS and Windows) and the faiss fallback.
// Everything that touches the machine goes through `run` (injected in tests, see test/scripts/setup.test.ts).
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Debian/Ubuntu packages: faiss for the offline faiss-node build, Jupyter (nbconvert for the notebook
 * tests, the classic Notebook UI), Chromium + colour emoji font for the browser test. */
export const APT_PACKAGES = [
  "libfaiss-dev",
  "libopenblas-dev",
  "jupyter-nbconvert",
  "jupyter-client",
  "jupyter-notebook",
  "chromium",
  "fonts-noto-color-emoji",
];

export const MIN_NODE = [20, 19];
/** npm reads package.json "allowScripts" from this version on; older versions run every install script. */
export const NPM_ALLOW_SCRIPTS_FROM = [11, 16];
export const LOCK_STAMP = join("node_modules", ".setup-lock-hash");

/** Where each native addon gets its binary, per OS (from the installed packages' metadata; see docs/setup.md). */
export const PREBUILT = {
  "node-llama-cpp":
    "npm-Pakete @node-llama-cpp/* (linux-x64 inkl. CUDA/Vulkan, linux-arm64, mac-arm64-metal, mac-x64, win-x64 inkl. CUDA/Vulkan, win-arm64)",
  "onnxruntime-node":
    "im Paket (bin/napi-v6: linux x64/arm64, darwin arm64, win32 x64/arm64) – kein Intel-Mac (darwin x64)",
  "faiss-node":
    "Download von GitHub (prebuild-install); ohne Internet auf Debian/Ubuntu aus den Quellen gegen libfaiss",
};

const atLeast = (version, [major, minor]) => {
  const [a = 0, b = 0] = String(version).trim().replace(/^v/, "").split(".").map(Number);
  return a > major || (a === major && b >= minor);
};

export function nodeIsSupported(version) {
  return atLeast(version, MIN_NODE);
}

export function npmHonoursAllowScripts(version) {
  return atLeast(version, NPM_ALLOW_SCRIPTS_FROM);
}

/** German instructions for what `npm run setup` cannot install itself on this OS. */
export function manualInstructions(platform, arch, missing) {
  const lines = [];
  if (missing.includes("jupyter")) {
    if (platform === "darwin") {
      lines.push(
        "Jupyter fehlt. Installiere es mit EINEM dieser Wege und öffne danach ein neues Terminal:",
        "  a) Homebrew:            brew install jupyterlab",
        "  b) pip (Python 3.9+):   python3 -m pip install --user notebook nbconvert",
        "                          (meldet pip einen Ordner, der nicht im PATH ist: diesen in ~/.zprofile zu PATH hinzufügen)",
        "  c) eine Python-Distribution wie Miniforge oder Anaconda (bringt Jupyter mit)",
      );
    } else if (platform === "win32") {
      lines.push(
        "Jupyter fehlt. Installiere es mit EINEM dieser Wege und öffne danach eine neue Eingabeaufforderung:",
        "  a) Python von https://www.python.org (Haken bei „Add python.exe to PATH“ setzen), dann:",
        "       py -m pip install notebook nbconvert",
        "  b) eine Python-Distribution wie Miniforge oder Anaconda (bringt Jupyter mit; dann deren Eingabeaufforderung nutzen)",
      );
    } else {
      lines.push(
        "Jupyter fehlt (kein apt-get auf diesem System). Installiere es mit dem Paketmanager deiner Distribution",
        "  oder mit pip:  python3 -m pip install --user notebook nbconvert",
      );
    }
  }
  if (missing.includes("faiss-node")) {
    if (platform === "darwin") {
      lines.push(
        "faiss-node (Teil 2) hat keine fertige Binärdatei bekommen (Download von GitHub fehlgeschlagen).",
        "  Mit Internet: npm run setup erneut ausführen. Sonst aus den Quellen bauen:",
        "  xcode-select --install && brew install cmake libomp   und dann (faiss-nodes eigenes Installationsskript,",
        "  das npm wegen allowScripts nicht von selbst startet):   cd node_modules/faiss-node && npm run install && cd ../..",
      );
    } else if (platform === "win32") {
      lines.push(
        "faiss-node (Teil 2) hat keine fertige Binärdatei bekommen (Download von GitHub fehlgeschlagen).",
        "  Mit Internet: npm run setup erneut ausführen. Ein Bau aus den Quellen braucht unter Windows Visual Studio",
        "  Build Tools, CMake und Intel MKL – einfacher: den Ordner node_modules vom Windows-USB-Stick der Kursleitung nehmen.",
      );
    } else {
      lines.push(
        "faiss-node (Teil 2): keine fertige Binärdatei und keine System-faiss gefunden.",
        "  Debian/Ubuntu: sudo apt-get install libfaiss-dev libopenblas-dev   (dann npm run setup erneut)",
      );
    }
  }
  if (missing.includes("onnxruntime-darwin-x64")) {
    lines.push(
      "onnxruntime-node bringt keine Binärdatei für Intel-Macs (darwin x64) mit: Teil 2 (Embeddings) läuft hier nicht.",
      "  Bitte für Teil 2 mit einer Nachbarin/einem Nachbarn zusammenarbeiten oder die Kursleitung fragen.",
    );
  }
  return lines;
}

/** Runs a command; resolves with its exit code (and output when `capture`). Never rejects. */
export function realRunner(platform = process.platform) {
  return (command, args, options = {}) =>
    new Promise((resolvePromise) => {
      const child = spawn(command, args, {
        cwd: options.cwd,
        env: options.env ?? process.env,
        // npm/npx are .cmd files on Windows, which Node starts only through a shell.
        shell: platform === "win32" && !command.includes(".") && command !== process.execPath,
        stdio: options.capture ? ["ignore", "pipe", "pipe"] : ["ignore", "inherit", "inherit"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout?.on("data", (d) => (stdout += d));
      child.stderr?.on("data", (d) => (stderr += d));
      const timer = options.timeoutMs ? setTimeout(() => child.kill("SIGKILL"), options.timeoutMs) : undefined;
      child.on("error", (err) => {
        clearTimeout(timer);
        resolvePromise({ code: 127, stdout, stderr: stderr + String(err.message) });
      });
      child.on("close", (code) => {
        clearTimeout(timer);
        resolvePromise({ code: code ?? 1, stdout, stderr });
      });
    });
}

function sha256(file) {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

const isLink = (p) => {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
};

// --- steps: each returns { status: "ok" | "skipped" | "todo" | "failed", detail, todo?: string[] } -------

async function stepNode(ctx) {
  if (!nodeIsSupported(ctx.nodeVersion)) {
    return {
      status: "failed",
      detail: `Node.js ${ctx.nodeVersion} ist zu alt – bitte Node.js 20.19 oder neuer installieren (https://nodejs.org, LTS).`,
    };
  }
  return { status: "ok", detail: `Node.js ${ctx.nodeVersion}` };
}

async function hasApt({ run, platform }) {
  return (
    platform === "linux" &&
    (await run("dpkg-query", ["--version"], { capture: true })).code === 0 &&
    (await run("apt-get", ["--version"], { capture: true })).code === 0
  );
}

/**
 * `apt-get update`, then `apt-get install` of `packages` (a failed update may still allow the install); root
 * (containers, CI) runs apt-get directly, everyone else through sudo.
 */
async function aptInstall({ run, uid, log }, packages) {
  const asRoot = (args) => (uid === 0 ? run(args[0], args.slice(1), {}) : run("sudo", args, {}));
  log(`installiere mit apt: ${packages.join(" ")}`);
  await asRoot(["apt-get", "update", "-qq"]);
  return asRoot(["env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-qq", ...packages]);
}

async function stepSystemPackages(ctx) {
  const { run, platform } = ctx;
  if (await hasApt(ctx)) {
    const missing = [];
    for (const p of APT_PACKAGES) {
      const r = await run("dpkg-query", ["-W", "-f=${Status}", p], { capture: true });
      if (r.code !== 0 || !r.stdout.includes("install ok installed")) missing.push(p);
    }
    if (missing.length === 0) return { status: "ok", detail: `alle vorhanden: ${APT_PACKAGES.join(" ")}` };
    const install = await aptInstall(ctx, missing);
    if (install.code !== 0) {
      return {
        status: "failed",
        detail: `apt-get install fehlgeschlagen. Bitte selbst installieren: sudo apt-get install ${missing.join(" ")}`,
      };
    }
    return { status: "ok", detail: `installiert: ${missing.join(" ")}` };
  }
  // macOS, Windows, Linux without apt: nothing is installed system-wide; say exactly what is missing.
  const jupyter = await run("jupyter", ["--version"], { capture: true });
  if (jupyter.code === 0) return { status: "ok", detail: "Jupyter gefunden (keine Systempakete nötig)" };
  return { status: "todo", detail: "Jupyter fehlt", todo: manualInstructions(platform, ctx.arch, ["jupyter"]) };
}

/** The Klassenraum-Hub's Debian package (`npm run hub`); its proxy is the npm dependency configurable-http-proxy. */
export const HUB_APT_PACKAGE = "jupyterhub";

/** Optional: JupyterHub for the Klassenraum-Hub; only the instructor's machine needs it, so it never fails the set-up. */
async function stepHub(ctx) {
  const { run } = ctx;
  const forWhom = "optional, nur für den Rechner der Kursleitung (npm run hub, npm run klassenraum)";
  if ((await run("jupyterhub", ["--version"], { capture: true })).code === 0)
    return { status: "ok", detail: "JupyterHub gefunden" };
  if (await hasApt(ctx)) {
    const install = await aptInstall(ctx, [HUB_APT_PACKAGE]);
    if (install.code === 0) return { status: "ok", detail: `installiert: ${HUB_APT_PACKAGE}` };
    return {
      status: "skipped",
      detail: `JupyterHub nicht installiert (${forWhom}); bei Bedarf: sudo apt-get install ${HUB_APT_PACKAGE}`,
    };
  }
  return {
    status: "skipped",
    detail: `JupyterHub nicht installiert (${forWhom}); bei Bedarf: python3 -m pip install jupyterhub notebook`,
  };
}

async function stepNpm(ctx) {
  const { root, run } = ctx;
  const nodeModules = join(root, "node_modules");
  if (isLink(nodeModules)) {
    // A worktree sharing another checkout's node_modules: npm ci would wipe the shared folder.
    return { status: "skipped", detail: "node_modules ist ein Link auf einen anderen Ordner – npm ci übersprungen" };
  }
  const lockHash = sha256(join(root, "package-lock.json"));
  const stamp = join(root, LOCK_STAMP);
  if (existsSync(stamp) && readFileSync(stamp, "utf8").trim().startsWith(lockHash)) {
    return { status: "ok", detail: "node_modules ist aktuell (package-lock.json unverändert)" };
  }
  const version = (await run("npm", ["--version"], { capture: true, cwd: root })).stdout.trim();
  if (!version)
    return { status: "failed", detail: "npm nicht gefunden – es gehört zu Node.js; bitte Node.js neu installieren." };
  // onnxruntime-node's CUDA download from NuGet is skipped: its CPU binaries are bundled.
  const env = { ...ctx.env, ONNXRUNTIME_NODE_INSTALL: "skip" };
  const flags = ["--no-audit", "--no-fund"];
  if (npmHonoursAllowScripts(version)) {
    if ((await run("npm", ["ci", ...flags], { cwd: root, env })).code !== 0)
      return { status: "failed", detail: "npm ci fehlgeschlagen (Ausgabe oben)" };
  } else {
    // This npm ignores "allowScripts" and would run every install script (faiss-node's GitHub downloads).
    // Apply the same decisions by hand: no scripts, then only the allowed ones (esbuild).
    ctx.log(
      `npm ${version} ignoriert allowScripts: installiere mit --ignore-scripts und führe die erlaubten Skripte selbst aus`,
    );
    if ((await run("npm", ["ci", ...flags, "--ignore-scripts"], { cwd: root, env })).code !== 0)
      return { status: "failed", detail: "npm ci fehlgeschlagen (Ausgabe oben)" };
    if ((await run("npm", ["rebuild", "esbuild"], { cwd: root, env })).code !== 0)
      return { status: "failed", detail: "npm rebuild esbuild fehlgeschlagen" };
  }
  // usearch (HNSW index, N-API binaries) declares Node >= 22 but runs on Node 20: say so before anyone worries.
  if (Number(ctx.nodeVersion.split(".")[0]) < 22) {
    ctx.log("Hinweis: die npm-Warnung „EBADENGINE … usearch“ ist harmlos – usearch läuft auch unter Node.js 20.");
  }
  writeFileSync(stamp, lockHash + "\n");
  return { status: "ok", detail: `npm ci mit npm ${version}` };
}

/**
 * A copy of the patches as last applied. patch-package cannot apply a changed patch over its older version (it
 * fails, and the package keeps the old one), so a changed patch is first taken back with this copy.
 */
export const APPLIED_PATCHES = join("node_modules", ".kit-applied-patches");

/** The patch files of `dir` by name → content ({} when the folder is missing). */
function patchFiles(dir) {
  if (!existsSync(dir)) return {};
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".patch"))
    .sort();
  return Object.fromEntries(files.map((f) => [f, readFileSync(join(dir, f), "utf8")]));
}

export async function stepPatches(ctx) {
  const dir = join(ctx.root, "patches");
  const wanted = patchFiles(dir);
  if (Object.keys(wanted).length === 0) return { status: "skipped", detail: "keine Patches (patches/ fehlt)" };
  const applied = join(ctx.root, APPLIED_PATCHES);
  const before = patchFiles(applied);
  if (JSON.stringify(before) === JSON.stringify(wanted))
    return { status: "ok", detail: "Patches sind angewendet (patches/ unverändert)" };
  const bin = join(ctx.root, "node_modules", "patch-package", "index.js");
  const patchPackage = (args = []) => ctx.run(ctx.node, [bin, ...args], { cwd: ctx.root });
  if (Object.keys(before).length > 0) {
    ctx.log("Patches haben sich geändert: die alte Fassung wird zurückgenommen, dann die neue angewendet.");
    await patchPackage(["--reverse", "--patch-dir", APPLIED_PATCHES]);
  }
  let r = await patchPackage();
  if (r.code !== 0 && !isLink(join(ctx.root, "node_modules"))) {
    // An older patch whose copy is unknown (node_modules from before this step kept one): the packages come
    // fresh from npm ci, whose postinstall applies the current patches.
    ctx.log("Ein Paket trägt eine ältere Fassung eines Patches: npm ci installiert die Pakete neu.");
    rmSync(join(ctx.root, LOCK_STAMP), { force: true });
    const npm = await stepNpm(ctx);
    if (npm.status !== "ok") return { status: "failed", detail: `Neuinstallation für die Patches: ${npm.detail}` };
    r = await patchPackage();
  }
  if (r.code !== 0) return { status: "failed", detail: "patch-package fehlgeschlagen (Ausgabe oben)" };
  rmSync(applied, { recursive: true, force: true });
  mkdirSync(applied, { recursive: true });
  for (const [name, text] of Object.entries(wanted)) writeFileSync(join(applied, name), text);
  return { status: "ok", detail: "Patches aus patches/ angewendet" };
}

async function stepFaiss(ctx) {
  const { run, root, node, platform } = ctx;
  const loads = async () =>
    (await run(node, ["-e", "require('faiss-node').IndexFlatIP"], { cwd: root, capture: true })).code === 0;
  if (await loads()) return { status: "ok", detail: "faiss-node lädt" };
  if (platform === "linux") {
    // prebuilt download, else compile faiss-node's own source against the system libfaiss (apt)
    const r = await run("bash", [join("scripts", "dev", "build-faiss.sh")], { cwd: root });
    if (r.code === 0) return { status: "ok", detail: "faiss-node gebaut bzw. heruntergeladen" };
    return {
      status: "failed",
      detail: "faiss-node nicht verfügbar",
      todo: manualInstructions(platform, ctx.arch, ["faiss-node"]),
    };
  }
  if (ctx.env.SKIP_PREBUILT_DOWNLOAD !== "1") {
    ctx.log("faiss-node: lade die fertige Binärdatei (braucht Zugriff auf GitHub) …");
    const pkg = join(root, "node_modules", "faiss-node");
    const bin = join(root, "node_modules", "prebuild-install", "bin.js");
    await run(node, [bin, "--runtime", "napi"], { cwd: pkg, timeoutMs: 60_000 });
    if (await loads()) return { status: "ok", detail: "faiss-node: fertige Binärdatei installiert" };
  }
  return {
    status: "failed",
    detail: "faiss-node nicht verfügbar",
    todo: manualInstructions(platform, ctx.arch, ["faiss-node"]),
  };
}

async function stepOnnxruntime(ctx) {
  if (ctx.platform === "darwin" && ctx.arch === "x64") {
    return {
      status: "todo",
      detail: "onnxruntime-node: keine Binärdatei für Intel-Macs",
      todo: manualInstructions("darwin", "x64", ["onnxruntime-darwin-x64"]),
    };
  }
  return { status: "skipped", detail: "onnxruntime-node bringt seine Binärdatei mit" };
}

/** Registers the tslab kernel in the project-local prefix and makes sure notebooks/lib points at the built lib. */
async function stepKernel(ctx) {
  const { root, platform } = ctx;
  const kernelDir = join(root, ".jupyter-prefix", "share", "jupyter", "kernels", "tslab");
  mkdirSync(kernelDir, { recursive: true });
  // Windows: start tslab's JS entry with this Node (node_modules/.bin/tslab is a .cmd shim there). Linux: through
  // /bin/sh tslab-kernel.sh (no executable bit needed), from the V8 startup snapshot when it fits (kernelCommand in
  // scripts/apps/workshop/kernel-install.ts).
  const tail = ["kernel", "--config-path", "{connection_file}"];
  const argv =
    platform === "win32"
      ? [ctx.node, join(root, "node_modules", "tslab", "bin", "tslab"), ...tail]
      : platform === "linux"
        ? ["/bin/sh", join(root, "scripts", "apps", "workshop", "kernel-snapshot", "tslab-kernel.sh"), ...tail]
        : [join(root, "node_modules", ".bin", "tslab"), ...tail];
  // Same environment as scripts/apps/workshop/kernel-install.ts (KERNEL_ENV): less memory per kernel.
  const spec = {
    argv,
    display_name: "TypeScript (Workshop)",
    language: "typescript",
    env: { NODE_OPTIONS: "--max-semi-space-size=1 --v8-pool-size=1", MALLOC_ARENA_MAX: "2" },
  };
  writeFileSync(join(kernelDir, "kernel.json"), JSON.stringify(spec, null, 2) + "\n");
  // tslab only compiles files under the notebook's folder: notebooks/lib points at the built lib
  // (.cache/notebook-lib, made by the notebook-lib step below; dangling until then). Checkouts can lose
  // the link (zip download; Git for Windows writes it as a small text file): recreate it.
  const link = join(root, "notebooks", "lib");
  let note = "";
  const isLink = (() => {
    try {
      return lstatSync(link).isSymbolicLink() || statSync(link).isDirectory();
    } catch {
      return false;
    }
  })();
  if (!isLink) {
    rmSync(link, { force: true });
    const target = join(root, ".cache", "notebook-lib");
    if (platform === "win32") mkdirSync(target, { recursive: true }); // a junction needs its target
    symlinkSync(
      platform === "win32" ? target : join("..", ".cache", "notebook-lib"),
      link,
      platform === "win32" ? "junction" : "dir",
    );
    note = "; notebooks/lib → ../.cache/notebook-lib angelegt";
  }
  return { status: "ok", detail: `Kernel „TypeScript (Workshop)“ in .jupyter-prefix/ registriert${note}` };
}

/** Runs the kit's command `command` (scripts/kit.ts) once tsx is installed; skipped while `file`, its code, is missing. */
async function stepKitCommand(ctx, command, file, label) {
  if (!existsSync(join(ctx.root, file))) return { status: "skipped", detail: `${file} gibt es (noch) nicht` };
  const r = await ctx.run(ctx.node, ["--import", "tsx", join("scripts", "kit.ts"), command], { cwd: ctx.root });
  return r.code === 0
    ? { status: "ok", detail: label }
    : { status: "failed", detail: `npm run ${command} fehlgeschlagen (Ausgabe oben)` };
}

/**
 * Builds the kernel's V8 startup snapshot (.cache/kernel-snapshot, scripts/apps/workshop/kernel-snapshot/): a kernel
 * then starts with half the CPU. Without it kernels start the plain way, so a failure here is no failed setup.
 */
async function stepKernelSnapshot(ctx) {
  if (ctx.platform !== "linux") return { status: "skipped", detail: "Kernel-Schnellstart gibt es nur unter Linux" };
  const module = "./scripts/apps/workshop/kernel-snapshot/kernel-snapshot.ts";
  if (!existsSync(join(ctx.root, module))) return { status: "skipped", detail: `${module} gibt es (noch) nicht` };
  const code = `import(${JSON.stringify(module)}).then((m) => m.ensureKernelSnapshot(process.cwd())).then((r) => { console.log(r.detail); if (r.status === "unavailable") process.exitCode = 3; })`;
  const r = await ctx.run(ctx.node, ["--import", "tsx", "-e", code], { cwd: ctx.root, capture: true });
  const detail = (r.stdout ?? "").trim() || (r.stderr ?? "").trim() || "Kernel-Schnellstart nicht gebaut";
  return { status: r.code === 0 ? "ok" : "skipped", detail };
}

export const STEPS = [
  ["Node.js", stepNode],
  ["Systempakete", stepSystemPackages],
  ["Klassenraum-Hub (optional)", stepHub],
  ["npm-Abhängigkeiten", stepNpm],
  ["Patches (patch-package)", stepPatches],
  ["faiss-node (Teil 2)", stepFaiss],
  ["onnxruntime-node (Teil 2)", stepOnnxruntime],
  ["Jupyter-Kernel", stepKernel],
  [
    "Notebook-Bibliothek",
    (ctx) =>
      stepKitCommand(
        ctx,
        "build:notebook-lib",
        join("scripts", "dev", "build-notebook-lib.ts"),
        "lib für Notebooks übersetzt",
      ),
  ],
  ["Kernel-Schnellstart", stepKernelSnapshot],
  [
    "Winzige Testmodelle",
    (ctx) =>
      stepKitCommand(ctx, "models:tiny", join("scripts", "dev", "tiny-models", "main.ts"), "Testmodelle vorhanden"),
  ],
];

/**
 * Runs every step; returns the exit code (0: ready; 1: something failed or is left to do by hand).
 * Options (all injectable for tests): root, platform, arch, uid, env, nodeVersion, node (the node binary),
 * run (command runner), log.
 */
export async function setup(options = {}) {
  const ctx = {
    root: options.root ?? resolve(dirname(fileURLToPath(import.meta.url)), ".."),
    platform: options.platform ?? process.platform,
    arch: options.arch ?? process.arch,
    uid: options.uid ?? (process.getuid ? process.getuid() : undefined),
    env: options.env ?? process.env,
    nodeVersion: options.nodeVersion ?? process.versions.node,
    node: options.node ?? process.execPath,
    log: options.log ?? ((line) => console.log(line)),
  };
  ctx.run = options.run ?? realRunner(ctx.platform);
  const results = [];
  for (const [name, step] of STEPS) {
    ctx.log(`\n==> ${name}`);
    let result;
    try {
      result = await step(ctx);
    } catch (err) {
      // An unexpected error (permissions, a full disk) is reported like any failed step, without a stack trace.
      result = { status: "failed", detail: `unerwarteter Fehler: ${err instanceof Error ? err.message : String(err)}` };
    }
    results.push({ name, ...result });
    ctx.log(
      `${result.status === "ok" ? "✅" : result.status === "skipped" ? "➖" : result.status === "todo" ? "⚠️ " : "❌"} ${result.detail}`,
    );
    // Without a working Node.js or npm install nothing after this can work.
    if (result.status === "failed" && (name === "Node.js" || name === "npm-Abhängigkeiten")) break;
  }
  const open = results.filter((r) => r.status === "failed" || r.status === "todo");
  ctx.log("\n==> Ergebnis");
  if (open.length === 0) {
    ctx.log("✅ Einrichtung fertig. Weiter mit:");
    ctx.log("  npm run doctor        # prüft alles, was der Workshop-Tag braucht");
    ctx.log(
      "  npm run models:pull   # lädt Llama 3.1 8B (~4,9 GB) – oder die Datei vom USB-Stick nach models/ kopieren",
    );
    ctx.log("  npm test              # alle Prüfungen auf den winzigen Testmodellen");
    ctx.log("  npm run workshop      # öffnet die Notebooks in Jupyter");
  } else {
    ctx.log("Noch offen (danach npm run setup erneut ausführen):");
    for (const r of open) {
      ctx.log(`❌ ${r.name}: ${r.detail}`);
      for (const line of r.todo ?? []) ctx.log(`   ${line}`);
    }
  }
  return { code: open.length === 0 ? 0 : 1, results };
}

const SETUP_USAGE =
  "Aufruf: npm run setup\n" +
  "  richtet alles für den Workshop ein (Pakete, Kernel, Testmodelle); beliebig oft aufrufbar, keine Optionen\n" +
  "  -h, --help   diese Hilfe";

/**
 * The exit code for a command line setup refuses (the kit's usage rules, by hand: scripts/node/parse-args-german.ts
 * needs tsx, which setup installs); undefined for none.
 */
function setupArgsRefused(argv) {
  if (argv.length === 0) return undefined;
  if (argv.some((a) => a === "--help" || a === "-h")) {
    console.log(SETUP_USAGE);
    return 0;
  }
  console.error(
    `${argv[0].startsWith("-") ? `Unbekannte Option „${argv[0]}“.` : `Unerwartete Angabe „${argv[0]}“.`} npm run setup nimmt keine Optionen.\n\n${SETUP_USAGE}`,
  );
  return 2;
}

const invokedDirectly = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const refused = setupArgsRefused(process.argv.slice(2));
  process.exitCode = refused ?? (await setup()).code;
}
