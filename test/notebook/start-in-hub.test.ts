// 00-start in the Klassenraum-Hub: the participant signed in with a browser, so the first cell says the notebook
// runs in the hub on the instructor's machine (the text above it: `npm run …` and the USB stick are not theirs).
// The cell's own code, run with the environment the hub gives each kernel (KURS_HUB_ID, LLM_BACKEND=openai) and
// without it.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";

const root = findProjectRoot();
const dir = mkdtempSync(join(root, ".cache", "start-in-hub-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the first code cell of notebooks/00-start.ipynb with `env` and returns what it prints. */
function firstCell(env: Record<string, string>): string {
  const notebook = JSON.parse(readFileSync(join(root, "notebooks", "00-start.ipynb"), "utf8")) as {
    cells: { cell_type: string; source: string[] }[];
  };
  const code = notebook.cells.find((c) => c.cell_type === "code")!.source.join("");
  const file = join(dir, "cell.ts");
  writeFileSync(file, code.replace('"./lib/index"', JSON.stringify(join(root, "lib", "index.ts"))));
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(KURS_|LLM_|WORKSHOP_)/.test(k)),
  ) as Record<string, string>;
  return execFileSync(process.execPath, ["--import", "tsx", file], {
    cwd: root,
    env: { ...clean, ...env },
    encoding: "utf8",
  });
}

test("in the hub the first cell of 00-start says where it runs; on a laptop it does not", () => {
  const hub = firstCell({ KURS_HUB_ID: "abc123", LLM_BACKEND: "openai", LLM_BASE_URL: "http://127.0.0.1:8080/v1" });
  assert.match(hub, /Umgebung:\s+Klassenraum-Hub auf dem Rechner der Kursleitung/);
  assert.match(hub, /Sprachmodell:\s+Klassen-Server http:\/\/127\.0\.0\.1:8080\/v1/);
  assert.doesNotMatch(firstCell({}), /Klassenraum-Hub/);
});
