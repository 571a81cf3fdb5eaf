// scripts/setup.mjs per platform, with an injected platform and a fake command runner in a scratch
// project folder (the real Linux path runs in CI: `.ci/run` = `npm run setup` then `npm test`).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import {
  APT_PACKAGES,
  HUB_APT_PACKAGE,
  npmHonoursAllowScripts,
  setup,
  type RunOptions,
  type RunResult,
  type SetupOptions,
} from "../../scripts/setup.mjs";
import { KERNEL_ENV, kernelSpec } from "../../scripts/apps/workshop/kernel-install.js";

interface Call {
  command: string;
  args: string[];
  options: RunOptions;
}

/** Fake machine: `answer` decides each command's result; every call is recorded. */
function fakeRunner(answer: (line: string, call: Call) => Partial<RunResult> | undefined) {
  const calls: Call[] = [];
  const run = async (command: string, args: string[], options: RunOptions = {}): Promise<RunResult> => {
    const call = { command, args, options };
    calls.push(call);
    const line = [command === NODE ? "node" : command, ...args].join(" ");
    return { code: 0, stdout: "", stderr: "", ...answer(line, call) };
  };
  const lines = () => calls.map((c) => [c.command === NODE ? "node" : c.command, ...c.args].join(" "));
  return { run, calls, lines };
}

const NODE = "/opt/node/bin/node";
const scratch: string[] = [];
after(() => scratch.forEach((d) => rmSync(d, { recursive: true, force: true })));

function project(extra: { patches?: boolean; notebookLib?: boolean } = {}): string {
  const root = mkdtempSync(join(tmpdir(), "setup-test-"));
  scratch.push(root);
  mkdirSync(join(root, "notebooks"));
  mkdirSync(join(root, "lib"));
  mkdirSync(join(root, "scripts"));
  mkdirSync(join(root, "node_modules"));
  writeFileSync(join(root, "package-lock.json"), '{"lockfileVersion":3}\n');
  mkdirSync(join(root, "scripts", "dev", "tiny-models"), { recursive: true });
  writeFileSync(join(root, "scripts", "kit.ts"), "");
  writeFileSync(join(root, "scripts", "dev", "tiny-models", "main.ts"), "");
  // The kernel snapshot's module: setup's step runs only where the kit has it.
  mkdirSync(join(root, "scripts", "apps", "workshop", "kernel-snapshot"), { recursive: true });
  writeFileSync(join(root, "scripts", "apps", "workshop", "kernel-snapshot", "kernel-snapshot.ts"), "");
  if (extra.patches) {
    mkdirSync(join(root, "patches"));
    writeFileSync(join(root, "patches", "tslab+1.0.22.patch"), "diff\n");
  }
  if (extra.notebookLib) writeFileSync(join(root, "scripts", "dev", "build-notebook-lib.ts"), "");
  return root;
}

function options(
  root: string,
  platform: NodeJS.Platform,
  run: SetupOptions["run"],
  more: Partial<SetupOptions> = {},
): SetupOptions {
  return {
    root,
    platform,
    arch: "x64",
    uid: 1000,
    env: { PATH: "/usr/bin" },
    nodeVersion: "20.20.0",
    node: NODE,
    run,
    log: () => {},
    ...more,
  };
}

/** A Debian machine with apt, npm 11.19, faiss-node loading, and the given apt packages missing. */
function debian(missing: string[]) {
  return fakeRunner((line) => {
    if (line.startsWith("dpkg-query -W")) {
      const pkg = line.split(" ").at(-1)!;
      return missing.includes(pkg) ? { code: 1, stdout: "" } : { stdout: "install ok installed" };
    }
    if (line === "npm --version") return { stdout: "11.19.0\n" };
    return undefined;
  });
}

test("npm versions: allowScripts is honoured from 11.16 on", () => {
  assert.equal(npmHonoursAllowScripts("11.19.0"), true);
  assert.equal(npmHonoursAllowScripts("12.0.1"), true);
  assert.equal(npmHonoursAllowScripts("11.15.9"), false);
  assert.equal(npmHonoursAllowScripts("10.9.2"), false);
});

test("Debian as a normal user: missing apt packages via sudo, npm ci without CUDA download, kernel, tiny models", async () => {
  const root = project();
  const fake = debian(["chromium", "fonts-noto-color-emoji"]);
  const { code, results } = await setup(options(root, "linux", fake.run));
  assert.equal(code, 0, JSON.stringify(results));
  const lines = fake.lines();
  assert.ok(
    APT_PACKAGES.includes("chromium") &&
      APT_PACKAGES.includes("fonts-noto-color-emoji") &&
      APT_PACKAGES.includes("libfaiss-dev"),
  );
  assert.ok(lines.includes("sudo apt-get update -qq"));
  assert.ok(
    lines.includes("sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-color-emoji"),
    lines.join("\n"),
  );
  const ci = fake.calls.find((c) => c.command === "npm" && c.args[0] === "ci")!;
  assert.deepEqual(ci.args, ["ci", "--no-audit", "--no-fund"]);
  assert.equal(ci.options.env?.ONNXRUNTIME_NODE_INSTALL, "skip");
  const lockHash = createHash("sha256")
    .update(readFileSync(join(root, "package-lock.json")))
    .digest("hex");
  assert.equal(readFileSync(join(root, "node_modules", ".setup-lock-hash"), "utf8").trim(), lockHash);
  // faiss-node already loads → no build; tiny models through tsx
  assert.ok(!lines.some((l) => l.includes("build-faiss")));
  assert.ok(lines.includes(`node --import tsx ${join("scripts", "kit.ts")} models:tiny`));
  const kernel = JSON.parse(
    readFileSync(join(root, ".jupyter-prefix/share/jupyter/kernels/tslab/kernel.json"), "utf8"),
  );
  // On Linux through the launcher that starts from the V8 snapshot when it fits; the same as kernel:install writes.
  assert.deepEqual(kernel.argv, [
    "/bin/sh",
    join(root, "scripts/apps/workshop/kernel-snapshot/tslab-kernel.sh"),
    "kernel",
    "--config-path",
    "{connection_file}",
  ]);
  assert.deepEqual(kernel, kernelSpec(root), "kernel:install writes the same kernel.json");
  assert.deepEqual(kernel.env, KERNEL_ENV, "the kernel's memory flags, as kernel:install writes them");
  // The snapshot is built after tsx is installed, through the kit's own module.
  assert.ok(lines.some((l) => l.startsWith("node --import tsx -e ") && l.includes("ensureKernelSnapshot")));
  // notebooks/lib points at the built lib; the link is dangling until the build step ran and must stay so.
  assert.equal(readlinkSync(join(root, "notebooks", "lib")), join("..", ".cache", "notebook-lib"));
  // Order: system packages before npm, npm before the native addon check, models last.
  const idx = (p: (l: string) => boolean) => lines.findIndex(p);
  assert.ok(idx((l) => l.includes("apt-get install")) < idx((l) => l.startsWith("npm ci")));
  assert.ok(idx((l) => l.startsWith("npm ci")) < idx((l) => l.includes("faiss-node")));
  assert.ok(idx((l) => l.includes("faiss-node")) < idx((l) => l.includes("models:tiny")));

  // Idempotent: a second run installs nothing and leaves the same kernel and link.
  const again = debian([]);
  const second = await setup(options(root, "linux", again.run));
  assert.equal(second.code, 0);
  assert.ok(
    !again.lines().some((l) => l.includes("apt-get install") || l.startsWith("npm ci")),
    again.lines().join("\n"),
  );
  assert.match(second.results.find((r) => r.name === "npm-Abhängigkeiten")!.detail, /aktuell/);
  assert.equal(readlinkSync(join(root, "notebooks", "lib")), join("..", ".cache", "notebook-lib"));
});

test("Debian as root: apt-get without sudo; faiss-node that does not load is built by build-faiss.sh", async () => {
  const root = project();
  let built = false;
  const fake = fakeRunner((line) => {
    if (line.startsWith("dpkg-query -W"))
      return line.endsWith(" chromium") ? { code: 1 } : { stdout: "install ok installed" };
    if (line === "npm --version") return { stdout: "11.19.0" };
    if (line.includes("require('faiss-node')")) return { code: built ? 0 : 1 };
    if (line === `bash ${join("scripts", "dev", "build-faiss.sh")}`) {
      built = true;
      return { code: 0 };
    }
    return undefined;
  });
  const { code } = await setup(options(root, "linux", fake.run, { uid: 0 }));
  assert.equal(code, 0);
  const lines = fake.lines();
  assert.ok(lines.includes("env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium"), lines.join("\n"));
  assert.ok(!lines.some((l) => l.startsWith("sudo")));
  assert.ok(built);
});

test("npm older than 11.16: install without scripts, then only esbuild's", async () => {
  const root = project();
  const fake = fakeRunner((line) =>
    line === "npm --version"
      ? { stdout: "10.9.2" }
      : line.startsWith("dpkg-query -W")
        ? { stdout: "install ok installed" }
        : undefined,
  );
  assert.equal((await setup(options(root, "linux", fake.run))).code, 0);
  const npmLines = fake.lines().filter((l) => l.startsWith("npm ") && l !== "npm --version");
  assert.deepEqual(npmLines, ["npm ci --no-audit --no-fund --ignore-scripts", "npm rebuild esbuild"]);
});

test("patches/ and scripts/dev/build-notebook-lib.ts run when present, after npm ci", async () => {
  const root = project({ patches: true, notebookLib: true });
  const fake = debian([]);
  assert.equal((await setup(options(root, "linux", fake.run))).code, 0);
  const lines = fake.lines();
  const patch = lines.indexOf(`node ${join(root, "node_modules", "patch-package", "index.js")}`);
  assert.ok(patch > lines.findIndex((l) => l.startsWith("npm ci")), lines.join("\n"));
  assert.ok(lines.includes(`node --import tsx ${join("scripts", "kit.ts")} build:notebook-lib`));
  // without them: skipped, not called
  const bare = debian([]);
  const { results } = await setup(options(project(), "linux", bare.run));
  assert.equal(results.find((r) => r.name === "Patches (patch-package)")!.status, "skipped");
  assert.ok(!bare.lines().some((l) => l.includes("patch-package") || l.includes("build:notebook-lib")));
});

test("a node_modules link (shared worktree) is never replaced by npm ci", async () => {
  const root = project();
  rmSync(join(root, "node_modules"), { recursive: true });
  const shared = mkdtempSync(join(tmpdir(), "setup-shared-"));
  scratch.push(shared);
  symlinkSync(shared, join(root, "node_modules"));
  const fake = debian([]);
  const { results } = await setup(options(root, "linux", fake.run));
  assert.ok(!fake.lines().some((l) => l.startsWith("npm ci")));
  assert.equal(results.find((r) => r.name === "npm-Abhängigkeiten")!.status, "skipped");
});

test("macOS without Jupyter: no apt, German instructions (brew or pip), faiss prebuilt download tried", async () => {
  const root = project();
  const fake = fakeRunner((line) => {
    if (line === "jupyter --version") return { code: 127 };
    if (line === "npm --version") return { stdout: "11.19.0" };
    if (line.includes("require('faiss-node')")) return { code: 1 };
    return undefined;
  });
  const log: string[] = [];
  const { code, results } = await setup(options(root, "darwin", fake.run, { arch: "arm64", log: (l) => log.push(l) }));
  assert.equal(code, 1, "open items make the exit code non-zero");
  const lines = fake.lines();
  assert.ok(!lines.some((l) => l.includes("apt-get") || l.startsWith("sudo")));
  const download = fake.calls.find((c) => c.args[0]?.endsWith(join("prebuild-install", "bin.js")))!;
  assert.equal(download.options.cwd, join(root, "node_modules", "faiss-node"));
  const text = log.join("\n");
  assert.match(text, /Jupyter fehlt/);
  assert.match(text, /brew install jupyterlab/);
  assert.match(text, /python3 -m pip install --user notebook nbconvert/);
  assert.match(text, /xcode-select --install && brew install cmake libomp/);
  assert.equal(
    results.find((r) => r.name === "onnxruntime-node (Teil 2)")!.status,
    "skipped",
    "Apple silicon has a binary",
  );
  // The rest still ran: kernel registered, tiny models made.
  assert.ok(existsSync(join(root, ".jupyter-prefix/share/jupyter/kernels/tslab/kernel.json")));
  assert.ok(lines.some((l) => l.includes("models:tiny")));
});

test("Intel Mac: onnxruntime-node has no binary, said in German", async () => {
  const fake = fakeRunner((line) => (line === "npm --version" ? { stdout: "11.19.0" } : undefined));
  const log: string[] = [];
  const { results } = await setup(options(project(), "darwin", fake.run, { arch: "x64", log: (l) => log.push(l) }));
  assert.equal(results.find((r) => r.name === "onnxruntime-node (Teil 2)")!.status, "todo");
  assert.match(log.join("\n"), /keine Binärdatei für Intel-Macs/);
});

test("Windows: py -m pip instructions, kernel started with node + tslab's JS, text-file notebooks/lib replaced", async () => {
  const root = project();
  writeFileSync(join(root, "notebooks", "lib"), "../lib"); // what Git for Windows writes without symlink support
  const noJupyter = fakeRunner((line) =>
    line === "jupyter --version" ? { code: 1 } : line === "npm --version" ? { stdout: "11.19.0" } : undefined,
  );
  const log: string[] = [];
  const first = await setup(options(root, "win32", noJupyter.run, { log: (l) => log.push(l) }));
  assert.equal(first.code, 1);
  assert.match(log.join("\n"), /py -m pip install notebook nbconvert/);
  assert.match(log.join("\n"), /Miniforge oder Anaconda/);
  assert.ok(!noJupyter.lines().some((l) => l.includes("apt-get") || l.includes("build-faiss")));

  const withJupyter = fakeRunner((line) => (line === "npm --version" ? { stdout: "11.19.0" } : undefined));
  assert.equal((await setup(options(root, "win32", withJupyter.run))).code, 0);
  const kernel = JSON.parse(
    readFileSync(join(root, ".jupyter-prefix/share/jupyter/kernels/tslab/kernel.json"), "utf8"),
  );
  assert.deepEqual(kernel.argv.slice(0, 3), [NODE, join(root, "node_modules", "tslab", "bin", "tslab"), "kernel"]);
  assert.ok(lstatSync(join(root, "notebooks", "lib")).isSymbolicLink());
});

test("Node.js older than 20.19 stops at once with what to install", async () => {
  const fake = fakeRunner(() => undefined);
  const log: string[] = [];
  const { code, results } = await setup(
    options(project(), "linux", fake.run, { nodeVersion: "18.20.4", log: (l) => log.push(l) }),
  );
  assert.equal(code, 1);
  assert.equal(results.length, 1);
  assert.equal(fake.calls.length, 0);
  assert.match(log.join("\n"), /Node\.js 18\.20\.4 ist zu alt.*20\.19/);
});

test("an unexpected error in a step is reported as ❌ with its message; later steps still run", async () => {
  const fake = fakeRunner((line) => {
    if (line.startsWith("dpkg-query -W")) throw new Error("EACCES: permission denied");
    return line === "npm --version" ? { stdout: "11.19.0" } : undefined;
  });
  const log: string[] = [];
  const { code, results } = await setup(options(project(), "linux", fake.run, { log: (l) => log.push(l) }));
  assert.equal(code, 1);
  assert.match(results.find((r) => r.name === "Systempakete")!.detail, /unerwarteter Fehler: EACCES/);
  assert.equal(results.find((r) => r.name === "Jupyter-Kernel")!.status, "ok");
  assert.ok(!log.join("\n").includes("    at "), "no stack trace");
});

test("Klassenraum-Hub: Debian installs jupyterhub with apt; a failed install or another OS never fails the set-up", async () => {
  const withoutHub = (installWorks: boolean) =>
    fakeRunner((line) => {
      if (line.startsWith("dpkg-query -W")) return { stdout: "install ok installed" };
      if (line === "npm --version") return { stdout: "11.19.0" };
      if (line === "jupyterhub --version") return { code: 127 };
      if (line.endsWith(`apt-get install -y -qq ${HUB_APT_PACKAGE}`)) return { code: installWorks ? 0 : 100 };
      return undefined;
    });
  const debianOk = withoutHub(true);
  const first = await setup(options(project(), "linux", debianOk.run));
  assert.equal(first.code, 0);
  assert.ok(
    debianOk.lines().includes(`sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${HUB_APT_PACKAGE}`),
    debianOk.lines().join("\n"),
  );
  assert.equal(first.results.find((r) => r.name === "Klassenraum-Hub (optional)")!.status, "ok");

  const debianFails = withoutHub(false);
  const second = await setup(options(project(), "linux", debianFails.run));
  assert.equal(second.code, 0, "a participant's set-up never fails for lack of the hub");
  assert.match(
    second.results.find((r) => r.name === "Klassenraum-Hub (optional)")!.detail,
    /sudo apt-get install jupyterhub/,
  );

  const mac = fakeRunner((line) =>
    line === "jupyterhub --version" ? { code: 127 } : line === "npm --version" ? { stdout: "11.19.0" } : undefined,
  );
  const third = await setup(options(project(), "darwin", mac.run, { arch: "arm64" }));
  const hub = third.results.find((r) => r.name === "Klassenraum-Hub (optional)")!;
  assert.equal(hub.status, "skipped");
  assert.match(hub.detail, /python3 -m pip install jupyterhub notebook/);
  assert.ok(!mac.lines().some((l) => l.includes("apt-get")));
});
