// `npm run bench -- hub --tageslauf`: a participant's memory over a day of notebooks, with and without the
// clean-up cell. Two participants work through the same six notebooks (Teil and Aufgabe 1–3), each in a new tab
// while the old tabs stay open, as people do: in each notebook lib is imported and the travel server started.
// One runs every notebook's clean-up cell (`await endKernel()`, as the notebooks end), the other never does (the
// day before the clean-up cell ended its kernel). PSS over all of a participant's processes while each notebook
// is in use (after its work, before its clean-up cell).
// Idle culling (`--leerlauf`, default 30 min) would end the second one's old kernels too, but only after a while.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchChromium, logIn, openNotebook, runCell, startHubProcess } from "../test/helpers/hub-process.js";
import { runCommand } from "../test/helpers/run-script.js";
import { usageOf } from "./hub-day.js";
import { printMarkdownTable } from "./markdown-table.js";
import { reportNumericGoal } from "./summary.js";

const MB = 1024 * 1024;
const NOTEBOOKS = [
  "10-teil-1-lokales-llm.ipynb",
  "11-aufgabe-1-lokales-llm.ipynb",
  "20-teil-2-rag.ipynb",
  "21-aufgabe-2-rag.ipynb",
  "30-teil-3-mcp-werkzeuge.ipynb",
  "31-aufgabe-3-mcp-werkzeuge.ipynb",
];
const WORK =
  'import * as kit from "./lib/index";\nconst reise = await kit.startTravelServer();\nconsole.log("Reise-Server", reise.pid);';
const CLEAN_UP = 'import { endKernel } from "./lib/notebook/index";\nawait endKernel();';

export async function notebookDay(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "hub-notebook-day-"));
  chmodSync(dir, 0o755);
  const root = join(dir, "hub");
  const code = "tageslauf-7";
  const browser = await launchChromium();
  const hub = await startHubProcess(["--root", root, "--code", code, "--max", "2"], { TRAVEL_OFFLINE: "1" });
  try {
    const people = [
      { name: "Jana Aufräumerin", cleansUp: true },
      { name: "Till Liegenlasser", cleansUp: false },
    ].filter((p) => process.env.HUB_DAY_ONLY === undefined || p.name.startsWith(process.env.HUB_DAY_ONLY));
    const pssAfter = await Promise.all(
      people.map(async ({ name, cleansUp }) => {
        const context = await browser.newContext({ locale: "de-DE" });
        const first = await context.newPage();
        const error = await logIn(first, hub.url, name, code);
        if (error) throw new Error(`${name}: ${error}`);
        await first.waitForURL(/\/user\/[^/]+\/notebooks\//, { timeout: 10 * 60_000 });
        const userUrl = first.url().replace(/\/notebooks\/.*$/, "");
        const pss: number[] = [];
        for (const notebook of NOTEBOOKS) {
          const page = await context.newPage(); // the old tab stays open
          await openNotebook(page, userUrl, notebook, 10 * 60_000);
          const printed = await runCell(page, WORK, 10 * 60_000);
          if (!/Reise-Server \d+/.test(printed)) {
            const outputs = await page.evaluate("JSON.stringify(Jupyter.notebook.get_cell(0).output_area.outputs)");
            await page.screenshot({ path: join(tmpdir(), `hub-notebook-day-${cleansUp}.png`) });
            throw new Error(`${name}, ${notebook}: ${printed.slice(0, 300)} ${String(outputs).slice(0, 1500)}`);
          }
          pss.push(usageOf(`KURS_NAME=${name}`).pss); // while the notebook is in use: the day's peak is one of these
          if (cleansUp) await runCell(page, CLEAN_UP, 10 * 60_000);
        }
        return pss;
      }),
    );
    console.log(
      "\nA day of six notebooks (Teil and Aufgabe 1–3), old tabs left open: PSS of all the participant's processes while each is in use\n",
    );
    printMarkdownTable(
      ["notebook in use", ...people.map((p) => (p.cleansUp ? "with the clean-up cell" : "without it"))],
      NOTEBOOKS.map((nb, i) => [nb, ...pssAfter.map((pss) => `${Math.round(pss[i]! / MB)} MB`)]),
    );
    const [withCleanUp, without] = pssAfter.map((pss) => Math.max(...pss));
    reportNumericGoal(
      "hub --tageslauf: day's peak PSS with the clean-up cell / without",
      withCleanUp! / without!,
      0.5,
      {
        detail: `${Math.round(withCleanUp! / MB)} MB vs ${Math.round(without! / MB)} MB`,
      },
    );
  } finally {
    await browser.close();
    await hub.stop();
    if (process.getuid?.() === 0) await runCommand("hub", ["--aufraeumen", "--root", root]);
    rmSync(dir, { recursive: true, force: true });
  }
}
