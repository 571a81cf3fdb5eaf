// A throwaway notebook of code cells for the real tslab kernel (the tests' own notebooks, written to disk).
import { writeFileSync } from "node:fs";

/** Writes `cells` as an nbformat 4.5 notebook with the project's tslab kernel to `path`; returns `path`. */
export function writeCodeNotebook(path: string, cells: readonly string[]): string {
  const nb = {
    cells: cells.map((source, i) => ({
      cell_type: "code",
      id: `c${i}`,
      execution_count: null,
      metadata: {},
      outputs: [],
      source,
    })),
    metadata: { kernelspec: { display_name: "TypeScript", language: "typescript", name: "tslab" } },
    nbformat: 4,
    nbformat_minor: 5,
  };
  writeFileSync(path, JSON.stringify(nb));
  return path;
}
