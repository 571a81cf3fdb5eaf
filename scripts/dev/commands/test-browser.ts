// `npm run test:browser`: the notebooks in Chromium (scripts/dev/browser-check.ts).
import { resolve } from "node:path";
import { defineCommand } from "../../node/command.js";
import { formatBrowserResult, runBrowserCheck } from "../browser-check.js";

export const command = defineCommand({
  name: "test:browser",
  invocation: "npm run test:browser --",
  summary:
    "Öffnet die Notebooks in Chromium und prüft, was man sieht; NAMENSTEIL: nur Notebooks, deren Name das enthält; " +
    "sprache: nur die Sprachprüfung (npm run workshop mit deutschem und englischem Browser).",
  options: { dir: { type: "string", value: "ORDNER", help: "Notebooks aus diesem Ordner (Standard notebooks)" } },
  positionals: "[NAMENSTEIL … | sprache]",
  run: async ({ values, positionals }) => {
    const r = await runBrowserCheck(positionals, {
      notebooksDir: values.dir === undefined ? undefined : resolve(values.dir),
    });
    console.log(formatBrowserResult(r));
    return r.skipped || r.results.some((n) => !n.ok) ? 1 : 0;
  },
});
