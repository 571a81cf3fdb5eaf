// `npm run kernel:install` registers the kernel for the user (here: a throwaway Jupyter data folder)
// with the absolute tslab path, and says how to remove it again.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";

test("kernel:install writes a user kernel.json with the absolute tslab path and prints the removal", () => {
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
      { NODE_OPTIONS: "--max-semi-space-size=1" },
      "a small young generation: 12 % less memory per kernel",
    );
    assert.equal(spec.argv[0], join(root, "node_modules", ".bin", "tslab"));
    assert.ok(existsSync(spec.argv[0] ?? ""), "the registered tslab exists");
    assert.equal(spec.display_name, "TypeScript (Workshop)");
    assert.match(r.stdout, /jupyter kernelspec uninstall -y tslab/u);
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
});
