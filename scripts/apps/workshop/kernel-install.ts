// `npm run kernel:install` — registers the workshop's TypeScript kernel for the current user, so that
// VS Code's Jupyter extension and any `jupyter notebook`/`jupyter lab` find it (not only
// `npm run workshop`, which uses the project-local copy in .jupyter-prefix/). Undo with the printed command.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findProjectRoot } from "../../../lib/config.js";
import { defineCommand } from "../../node/command.js";
import { KERNEL_ENV, KERNEL_NODE_OPTIONS } from "./kernel-snapshot/kernel-snapshot.js";

export { KERNEL_ENV, KERNEL_NODE_OPTIONS };
export const KERNEL_NAME = "tslab";

/**
 * The kernel.json for this checkout: absolute paths, so no PATH set-up is needed. On Linux tslab starts through
 * kernel-snapshot/tslab-kernel.sh (from the V8 startup snapshot when it fits, else the plain tslab).
 */
export function kernelSpec(root: string): {
  argv: string[];
  display_name: string;
  language: string;
  env: Record<string, string>;
} {
  return {
    argv: [...kernelCommand(root), "kernel", "--config-path", "{connection_file}"],
    display_name: "TypeScript (Workshop)",
    language: "typescript",
    env: { ...KERNEL_ENV },
  };
}

/**
 * What kernel.json starts (scripts/setup.mjs writes the same). On Linux the launcher runs through /bin/sh, so a
 * checkout whose unzip dropped the executable bit still starts kernels.
 */
export function kernelCommand(root: string, platform: NodeJS.Platform = process.platform): string[] {
  return platform === "linux"
    ? ["/bin/sh", join(root, "scripts", "apps", "workshop", "kernel-snapshot", "tslab-kernel.sh")]
    : [join(root, "node_modules", ".bin", "tslab")];
}

function main(): number {
  const root = findProjectRoot();
  const tslab = join(root, "node_modules", ".bin", "tslab");
  if (!existsSync(tslab)) {
    console.error(`tslab fehlt (${tslab}): bitte zuerst 'npm run setup' ausführen.`);
    return 1;
  }
  const dir = mkdtempSync(join(tmpdir(), "kit-kernel-"));
  const specDir = join(dir, KERNEL_NAME);
  try {
    mkdirSync(specDir, { recursive: true });
    writeFileSync(join(specDir, "kernel.json"), `${JSON.stringify(kernelSpec(root), null, 2)}\n`);
    const r = spawnSync("jupyter", ["kernelspec", "install", "--user", "--replace", "--name", KERNEL_NAME, specDir], {
      encoding: "utf8",
    });
    if (r.error || r.status !== 0) {
      const why = r.error ? String(r.error.message) : (r.stderr || r.stdout).trim();
      console.error(`Kernel nicht registriert: 'jupyter kernelspec install' ist fehlgeschlagen.\n${why}`);
      console.error("Ist Jupyter installiert? (Debian/Ubuntu: 'sudo apt-get install jupyter-notebook')");
      return 1;
    }
    console.log(`Kernel „TypeScript (Workshop)“ (${KERNEL_NAME}) für deinen Benutzer registriert.`);
    console.log(`Er startet tslab aus ${root}; VS Code und jedes Jupyter finden ihn jetzt.`);
    console.log(`Wieder entfernen: jupyter kernelspec uninstall -y ${KERNEL_NAME}`);
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const command = defineCommand({
  name: "kernel:install",
  invocation: "npm run kernel:install",
  summary:
    "Registriert den Kernel „TypeScript (Workshop)“ für deinen Benutzer (VS Code, jedes Jupyter); keine Optionen.",
  options: {},
  run: main,
});
