// `npm run kernel:install` registers the kernel for the user (here: a throwaway Jupyter data folder)
// with the absolute kernel command (the snapshot launcher on Linux), and says how to remove it again.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";

test("kernel:install writes a user kernel.json with the absolute kernel command and prints the removal", () => {
  const root = findProjectRoot();
  const data = mkdtempSync(join(tmpdir(), "kit-jupyter-data-"));
  try {
    const r = spawnSync(process.execPath, ["--import", "tsx", join(root, "scripts", "kit.ts"), "kernel:install"], {
      cwd: root,
      env: { ...process.env, JUPYTER_DATA_DIR: data },
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
    const spec = JSON.parse(readFileSync(join(data, "kernels", "tslab", "kernel.json"), "utf8")) as {
      argv: string[];
      display_name: string;
      env: Record<string, string>;
    };
    assert.deepEqual(
      spec.env,
      { NODE_OPTIONS: "--max-semi-space-size=1 --v8-pool-size=1", MALLOC_ARENA_MAX: "2" },
      "a small young generation, one V8 worker thread, two malloc arenas: less memory per kernel",
    );
    // On Linux the launcher (V8 snapshot when it fits, else plain tslab) through /bin/sh; elsewhere tslab itself.
    const launcher = join(root, "scripts", "apps", "workshop", "kernel-snapshot", "tslab-kernel.sh");
    const expected =
      process.platform === "linux" ? ["/bin/sh", launcher] : [join(root, "node_modules", ".bin", "tslab")];
    assert.deepEqual(spec.argv.slice(0, expected.length), expected);
    assert.ok(existsSync(spec.argv[expected.length - 1] ?? ""), "the registered command exists");
    assert.equal(spec.display_name, "TypeScript (Workshop)");
    assert.match(r.stdout, /jupyter kernelspec uninstall -y tslab/u);
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
});
