// How long does a notebook's first cell wait? An import-only cell (`import … from "./lib/index"`)
// against a trivial cell, each in a fresh tslab kernel (jupyter nbconvert --execute), median of N runs.
// With the built lib (.cache/notebook-lib, see scripts/dev/build-notebook-lib.ts) the target is ≤ 1.0 s;
// --sources measures the old way (tslab compiling lib/*.ts) for comparison.
// Run: npx tsx bench/notebook-import.bench.ts [--runs 5] [--sources]
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { findProjectRoot } from "../lib/config.js";
import { ensureNotebookLib, packagesReadByCell } from "../scripts/dev/build-notebook-lib.js";
import { testEnvironment } from "../scripts/dev/test-env.js";
import { printMarkdownTable } from "./markdown-table.js";
import { reportNumericGoal } from "./summary.js";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "5" }, sources: { type: "boolean", default: false } },
});
const RUNS = Math.max(1, Number(values.runs));
const root = findProjectRoot();

const CELLS = {
  import: 'import { parsePlan, loadLlm } from "./lib/index";',
  trivial: "const x = 1 + 1;",
};

interface NbCell {
  metadata?: { execution?: Record<string, string> };
}

/** Seconds from the kernel's "busy" to its "idle" status per cell, as nbclient records them (tslab dates its
 * execute_reply when the request arrives, so that timestamp cannot be used). */
function cellSeconds(executed: string): number[] {
  const nb = JSON.parse(readFileSync(executed, "utf8")) as { cells: NbCell[] };
  return nb.cells.map((c) => {
    const ex = c.metadata?.execution ?? {};
    const from = Date.parse(ex["iopub.status.busy"] ?? "");
    const to = Date.parse(ex["iopub.status.idle"] ?? "");
    if (!Number.isFinite(from) || !Number.isFinite(to)) throw new Error("nbconvert recorded no cell timing");
    return (to - from) / 1000;
  });
}

function notebook(order: (keyof typeof CELLS)[]): string {
  return JSON.stringify({
    cells: order.map((k) => ({
      cell_type: "code",
      execution_count: null,
      metadata: {},
      outputs: [],
      source: CELLS[k],
    })),
    metadata: { kernelspec: { name: "tslab", display_name: "TypeScript", language: "typescript" } },
    nbformat: 4,
    nbformat_minor: 5,
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

async function main(): Promise<void> {
  console.log(ensureNotebookLib());
  const env = await testEnvironment({ tinyModels: false });
  // A scratch folder like notebooks/, inside the project (tslab keeps symlinked paths, so packages
  // resolve from there): the lib link is what differs between the two variants.
  mkdirSync(join(root, ".cache"), { recursive: true });
  const dir = mkdtempSync(join(root, ".cache", "import-bench-"));
  symlinkSync(values.sources ? join(root, "lib") : join(root, ".cache", "notebook-lib"), join(dir, "lib"));
  const results: Record<string, number[]> = { import: [], trivial: [] };
  try {
    for (const first of ["import", "trivial"] as const) {
      writeFileSync(join(dir, `${first}.ipynb`), notebook([first]));
      for (let i = 0; i < RUNS; i++) {
        const out = join(dir, "out");
        const r = spawnSync(
          "jupyter",
          [
            "nbconvert",
            "--to",
            "notebook",
            "--execute",
            "--ExecutePreprocessor.kernel_name=tslab",
            "--ExecutePreprocessor.record_timing=True",
            "--output-dir",
            out,
            join(dir, `${first}.ipynb`),
          ],
          { cwd: dir, env: { ...env, WORKSHOP_ROOT: root }, encoding: "utf8" },
        );
        if (r.status !== 0) throw new Error(`nbconvert failed: ${r.stderr.slice(-2000)}`);
        results[first]!.push(cellSeconds(join(out, `${first}.ipynb`))[0] as number);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `\nFirst cell of a fresh tslab kernel (${values.sources ? "lib sources" : "built lib"}), ${RUNS} kernels each:\n`,
  );
  printMarkdownTable(
    ["cell", "median s", "min s", "max s"],
    Object.entries(results).map(([name, xs]) => [
      name,
      median(xs).toFixed(2),
      Math.min(...xs).toFixed(2),
      Math.max(...xs).toFixed(2),
    ]),
  );
  const importMedian = median(results.import ?? []);
  const packages = values.sources ? [] : packagesReadByCell();
  console.log(
    `\nPackage declarations a lib import makes the kernel parse (beyond Node's): ${packages.join(", ") || "none"}`,
  );
  reportNumericGoal(
    `first notebook cell importing lib (${values.sources ? "lib sources" : "built lib"}), median of ${RUNS}`,
    importMedian,
    1.0,
    {
      unit: " s",
      digits: 2,
      detail: `trivial cell ${median(results.trivial ?? []).toFixed(2)} s`,
    },
  );
}

await main();
