// What a participant sees, tested in a real browser: starts the workshop's Jupyter (classic Notebook 6.4)
// in practice mode on a free port, drives Debian's Chromium headless with playwright-core, opens
// notebooks, runs all cells and checks the rendered page: no error output, the expected pictures and
// tables, nothing wider than the cell at 1280 px, no text line the browser has to break (mid-word), no
// MathJax in any output. Then it runs one more cell after the notebook's cleanup cell, as a participant
// would after "Run All", and expects it to work (the model reloads, the client opens a new session).
// Screenshots go to .cache/browser/. And the language check: `npm run workshop -- --uebung` opened by a
// German browser (de-DE) lands in 00-start.ipynb and shows no English UI word on the notebook and the file
// list; an English browser (en-US) still gets English (screenshots 1366x768 in .cache/browser/sprache/).
// Without Chromium (or the classic Notebook) the result says "skipped: …" — never a silent pass.
// Usage: tsx scripts/dev/browser-check.ts [notebook-name-filter ...] [--dir <notebook folder>]
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { findProjectRoot } from "../../lib/config.js";
import { NOTEBOOK_ERROR_MARK, OUTPUT_COLUMNS } from "../../lib/notebook/index.js";
import { ensureNotebookLib } from "./build-notebook-lib.js";
import { ensureMcpBundles } from "./build-mcp-bundles.js";
import { languageProblems } from "./german-ui-check.js";
import { FIRST_NOTEBOOK } from "../apps/workshop/notebook-ui.js";
import { spawnNotebookServer } from "./notebook-server.js";
import { practiceEnvironment } from "../apps/models/model-help.js";
import { errorText, ignore } from "../../lib/util.js";

/** What one notebook must show after "Run All". */
export interface BrowserExpectation {
  /** Matches the notebook's file name (the first match in notebooks/ is used). */
  notebook: RegExp;
  /** Tool ids that must appear as node labels of at least one SVG diagram. */
  diagramIds?: string[];
  /** CSS selectors that must match at least one element in the outputs. */
  selectors?: string[];
  /** Texts (regex) that must appear in some output. */
  texts?: RegExp[];
  /** Texts (regex) that must appear in a rendered Markdown output (e.g. a table, MathJax left alone). */
  markdownTexts?: RegExp[];
  /** A cell run after "Run All" (after the cleanup cell): it must print `says` and no error. */
  afterRunAll?: { code: string; says: RegExp };
}

export const EXPECTATIONS: BrowserExpectation[] = [
  {
    notebook: /^(?:\d+-)?teil-3.*\.ipynb$/,
    selectors: ["table.kit-tool-catalog"],
    afterRunAll: { code: 'console.log((await client.listTools()).length, "Tools");', says: /^\d+ Tools$/m },
  },
  {
    notebook: /^(?:\d+-)?teil-4.*\.ipynb$/,
    diagramIds: ["geo_bcn", "wetter_bcn"],
    selectors: ["table.kit-trace-table", "svg.kit-timeline"],
    markdownTexts: [/\$ref-Plan \(runAgent\)\t/],
    afterRunAll: {
      code: 'const nachher = await llm.chat([{ role: "user", content: "Hallo" }], { maxTokens: 4 });\nconsole.log("Antwort:", nachher.meter.generatedTokens > 0);',
      says: /neu geladen[\s\S]*Antwort: true/,
    },
  },
  {
    notebook: /^(?:\d+-)?aufgabe-4.*\.ipynb$/,
    texts: [/Ergebnis: (?:alle \d+ Fälle bestanden|\d+ von \d+ Fällen bestanden)/],
    afterRunAll: { code: 'console.log((await kit.client.listTools()).length, "Tools");', says: /^\d+ Tools$/m },
  },
];

export interface BrowserNotebookResult {
  notebook: string;
  ok: boolean;
  seconds: number;
  problems: string[];
  screenshot?: string;
}

export interface BrowserCheckResult {
  skipped?: string;
  results: BrowserNotebookResult[];
  seconds: number;
}

const CHROMIUM_CANDIDATES = [
  process.env.CHROMIUM_PATH,
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
];
const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
const RUN_TIMEOUT_MS = 6 * 60_000;
const CLOSE_UPS: Record<string, string> = {
  diagram: "svg.kit-diagram",
  "trace-table": "table.kit-trace-table",
  timeline: "svg.kit-timeline",
  progress: ".kit-progress",
};

// Code run inside the page (as strings: this project compiles without the DOM library).
// Notebook 6.4 exposes window.Jupyter.notebook (see docs/ENVIRONMENT notes).
const IN_PAGE = {
  kernelReady: `Boolean(window.Jupyter?.notebook?.kernel?.is_connected()) &&
    document.querySelector("#kernel_indicator_icon.kernel_idle_icon") !== null`,
  keepFileUnchanged: `Jupyter.notebook.set_autosave_interval(0)`,
  // Done when no code cell is queued or running ("*") and the kernel is idle.
  allDone: `!Jupyter.notebook.get_cells().some((c) => c.cell_type === "code" && c.input_prompt_number === "*") &&
    document.querySelector("#kernel_indicator_icon.kernel_idle_icon") !== null`,
  cells: `Jupyter.notebook.get_cells().map((c, i) => ({
    index: i + 1,
    type: c.cell_type,
    prompt: c.input_prompt_number === undefined || c.input_prompt_number === null ? null : String(c.input_prompt_number),
    outputs: ((c.output_area && c.output_area.outputs) || []).map((o) => ({ ...o, text: Array.isArray(o.text) ? o.text.join("") : o.text })),
  }))`,
  svgLabels: `[...document.querySelectorAll(".output_svg svg")].map((s) => [...s.querySelectorAll("text")].map((t) => t.textContent || ""))`,
  contentHeight: `document.querySelector("#header").offsetHeight + document.querySelector("#notebook").scrollHeight + 40`,
  wideOutputs: `[...document.querySelectorAll(".output_subarea")].filter((el) => el.scrollWidth > el.clientWidth + 2)
    .map((el) => (el.innerText || "").trim().replace(/\\s+/g, " ").slice(0, 60))`,
  // Notebook 6 folds an output taller than about 100 lines into a small scroll box inside the page.
  scrolledOutputs: `[...document.querySelectorAll(".output_scroll")].map((el) => (el.innerText || "").trim().replace(/\\s+/g, " ").slice(0, 60))`,
  // Anything MathJax typeset inside an output (MathJax 2 in Notebook 6; mjx-container is MathJax 3).
  mathInOutputs: `[...document.querySelectorAll(".output_area")].flatMap((o) =>
    [...o.querySelectorAll(".MathJax, .MathJax_Display, .MathJax_Preview, mjx-container, script[type^='math/tex']")]
      .map((m) => (m.closest("table") ? "table: " : "") + (o.innerText || "").trim().slice(0, 60)))`,
  markdownOutputText: `[...document.querySelectorAll(".output_markdown")].map((el) => el.innerText).join("\\n")`,
  // Text lines the browser must break (it breaks anywhere, mid-word): each line measured unbroken in
  // its own <pre>. Also how many characters fit a line, to keep OUTPUT_COLUMNS honest.
  brokenLines: `(() => {
    const pres = [...document.querySelectorAll(".output_text pre, .output_stream pre")];
    const broken = [];
    let columns = Infinity;
    for (const pre of pres) {
      const probe = document.createElement("span");
      probe.style.cssText = "white-space:pre;position:absolute;visibility:hidden";
      pre.appendChild(probe);
      probe.textContent = "x".repeat(100);
      columns = Math.min(columns, Math.floor(pre.clientWidth / (probe.getBoundingClientRect().width / 100)));
      for (const line of (pre.textContent || "").split("\\n")) {
        probe.textContent = line;
        if (probe.getBoundingClientRect().width > pre.clientWidth + 1) broken.push(line.slice(0, 80));
      }
      probe.remove();
    }
    return { broken, columns };
  })()`,
};

interface CellReport {
  index: number;
  prompt: string | null;
  outputs: { output_type: string; name?: string; text?: string; ename?: string; evalue?: string }[];
}

/** Problems in one cell's outputs: error outputs, thrown errors (stderr with a stack), TS diagnostics, set-up errors. */
export function cellProblems(cell: CellReport): string[] {
  const problems: string[] = [];
  for (const out of cell.outputs) {
    if (out.output_type === "error") problems.push(`cell ${cell.index}: ${out.ename}: ${out.evalue}`);
    const text = out.output_type === "stream" && out.name === "stderr" ? (out.text ?? "") : "";
    if (/^\d+:\d+ - /m.test(text) || /^\s+at /m.test(text) || text.trimStart().startsWith(NOTEBOOK_ERROR_MARK)) {
      problems.push(`cell ${cell.index}: ${text.trim().split("\n").slice(0, 4).join(" | ")}`);
    }
  }
  return problems;
}

type Page = {
  evaluate(script: string): Promise<unknown>;
  waitForFunction(script: string, arg: undefined, options: { timeout: number; polling: number }): Promise<unknown>;
};

/** MathJax in outputs, Markdown texts, text lines the browser has to break. */
async function renderingProblems(page: Page, e: BrowserExpectation): Promise<string[]> {
  const problems: string[] = [];
  const maths = (await page.evaluate(IN_PAGE.mathInOutputs)) as string[];
  for (const m of maths.slice(0, 5)) problems.push(`MathJax rendered in an output (${m})`);
  const markdown = (await page.evaluate(IN_PAGE.markdownOutputText)) as string;
  for (const re of e.markdownTexts ?? []) if (!re.test(markdown)) problems.push(`no Markdown output matches ${re}`);
  const { broken, columns } = (await page.evaluate(IN_PAGE.brokenLines)) as { broken: string[]; columns: number };
  if (broken.length > 0)
    problems.push(`${broken.length} text line(s) wider than the cell, broken mid-word, e.g. "${broken[0]}…"`);
  if (columns < OUTPUT_COLUMNS)
    problems.push(`a text line holds ${columns} characters at 1280 px, OUTPUT_COLUMNS is ${OUTPUT_COLUMNS}`);
  return problems;
}

/** Runs `code` in a new last cell (after the cleanup cell): it must work, printing `says` and no error. */
async function afterRunAllProblems(page: Page, after: { code: string; says: RegExp }): Promise<string[]> {
  await page.evaluate(`(() => {
    const cell = Jupyter.notebook.insert_cell_at_bottom("code");
    cell.set_text(${JSON.stringify(after.code)});
    cell.execute();
  })()`);
  await page.waitForFunction(IN_PAGE.allDone, undefined, { timeout: 60_000, polling: 300 });
  const cells = (await page.evaluate(IN_PAGE.cells)) as CellReport[];
  const outputs = cells.at(-1)?.outputs ?? [];
  const printed = outputs
    .map((o) => o.text ?? `${o.ename ?? ""}: ${o.evalue ?? ""}`)
    .join("")
    .trim();
  const ok = outputs.every((o) => o.output_type !== "error" && o.name !== "stderr") && after.says.test(printed);
  return ok
    ? []
    : [`after Run All, "${after.code}" printed ${JSON.stringify(printed.slice(0, 300))}, expected ${after.says}`];
}

/** Why the browser check cannot run here (no Chromium, no Notebook 6), or undefined when it can. */
export function browserCheckMissing(): string | undefined {
  if (!CHROMIUM_CANDIDATES.some((p) => Boolean(p) && existsSync(p as string))) return "no Chromium";
  const version = spawnSync("jupyter", ["notebook", "--version"], { encoding: "utf8" });
  if (version.status !== 0 || !/^6\./.test(version.stdout.trim())) return "no classic Jupyter Notebook 6";
  return undefined;
}

/** The filter that selects the language check (`npm run test:browser -- sprache`). */
export const LANGUAGE_CHECK = "sprache";

type Launched = Awaited<ReturnType<(typeof import("playwright-core"))["chromium"]["launch"]>>;

/**
 * `npm run workshop` as a participant starts it, opened by a German and by an English browser: the first
 * screen is 00-start.ipynb, its menus and the file list speak the browser's language.
 */
async function languageCheck(browser: Launched, shots: string): Promise<BrowserNotebookResult> {
  const t = performance.now();
  const problems: string[] = [];
  const dir = join(shots, LANGUAGE_CHECK);
  mkdirSync(dir, { recursive: true });
  const server = await spawnNotebookServer(join(findProjectRoot(), "notebooks"), process.env, { viaWorkshop: true });
  try {
    await server.ready(120_000);
    for (const locale of ["de", "en"] as const) {
      const context = await browser.newContext({
        locale: locale === "de" ? "de-DE" : "en-US",
        viewport: { width: 1366, height: 768 },
      });
      const page = await context.newPage();
      try {
        // The first screen: Jupyter's start address (what the browser opens) leads to the day's first notebook.
        await page.goto(`${server.base}/?token=${server.token}`);
        if (!decodeURIComponent(page.url()).endsWith(`/notebooks/${FIRST_NOTEBOOK}`))
          problems.push(`${locale}: the first screen is ${page.url()}, not ${FIRST_NOTEBOOK}`);
        await page.waitForFunction(IN_PAGE.kernelReady, undefined, { timeout: 90_000 });
        await page.evaluate(IN_PAGE.keepFileUnchanged);
        await page.screenshot({ path: join(dir, `workshop-notebook-${locale}.png`) });
        problems.push(
          ...(await languageProblems(page, "notebook", locale, ["File", "Edit", "View", "Insert", "Cell", "Help"])),
        );
        await page.goto(`${server.base}/tree`);
        await page.waitForSelector("#notebook_list .list_item", { timeout: 30_000 });
        await page.screenshot({ path: join(dir, `workshop-dateiliste-${locale}.png`) });
        problems.push(
          ...(await languageProblems(page, "fileList", locale, ["Files", "Running", "Upload", "Last Modified"])),
        );
      } catch (error) {
        problems.push(`${locale}: ${errorText(error).split("\n")[0] ?? ""}`);
        await page
          .screenshot({ path: join(dir, `workshop-${locale}.failed.png`) })
          .catch(ignore("the failure is reported; its screenshot is only a help"));
      } finally {
        await context.close();
      }
    }
  } catch (error) {
    problems.push(errorText(error).split("\n")[0] ?? "", server.log().slice(-1500));
  } finally {
    await server.stop();
  }
  return {
    notebook: "Jupyter auf Deutsch (npm run workshop)",
    ok: problems.length === 0,
    seconds: (performance.now() - t) / 1000,
    problems,
    screenshot: dir,
  };
}

/** `notebooksDir` (default notebooks/) is served as Jupyter's notebook folder; it needs a lib link. */
export async function runBrowserCheck(
  filters: string[] = [],
  options: { notebooksDir?: string } = {},
): Promise<BrowserCheckResult> {
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  const missing = browserCheckMissing();
  if (missing) return { skipped: missing, results: [], seconds: elapsed() };
  const chromium = CHROMIUM_CANDIDATES.find((p): p is string => Boolean(p) && existsSync(p as string)) as string;

  const root = findProjectRoot();
  console.log(ensureNotebookLib());
  console.log(ensureMcpBundles());
  const notebooksDir = options.notebooksDir ?? join(root, "notebooks");
  const files = readdirSync(notebooksDir);
  const wanted = EXPECTATIONS.map((e) => ({ e, file: files.filter((f) => e.notebook.test(f)).sort()[0] })).filter(
    (w) => filters.length === 0 || filters.some((q) => w.file?.includes(q)),
  );
  const withLanguage = filters.length === 0 || filters.includes(LANGUAGE_CHECK);
  const shots = join(root, ".cache", "browser");
  mkdirSync(shots, { recursive: true });

  const server = await spawnNotebookServer(notebooksDir, await practiceEnvironment());
  const { base, token } = server;
  const { chromium: launcher } = await import("playwright-core");
  const results: BrowserNotebookResult[] = [];
  let browser: Awaited<ReturnType<typeof launcher.launch>> | undefined;
  try {
    await server.ready(30_000);
    browser = await launcher.launch({ executablePath: chromium, headless: true, args: CHROMIUM_FLAGS });
    if (withLanguage) results.push(await languageCheck(browser, shots));
    for (const { e, file } of wanted) {
      if (!file) {
        results.push({ notebook: String(e.notebook), ok: false, seconds: 0, problems: ["no notebook matches"] });
        continue;
      }
      const t = performance.now();
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const problems: string[] = [];
      let screenshot: string | undefined;
      try {
        await page.goto(`${base}/notebooks/${encodeURIComponent(file)}?token=${token}`);
        await page.waitForFunction(IN_PAGE.kernelReady, undefined, { timeout: 60_000 });
        await page.evaluate(IN_PAGE.keepFileUnchanged);
        await page.click("#celllink");
        await page.click("#run_all_cells");
        await page.waitForFunction(IN_PAGE.allDone, undefined, { timeout: RUN_TIMEOUT_MS, polling: 500 });
        const cells = (await page.evaluate(IN_PAGE.cells)) as (CellReport & { type: string })[];
        for (const cell of cells.filter((c) => c.type === "code")) {
          problems.push(...cellProblems(cell));
          if (cell.prompt === null || !/^\d+$/.test(cell.prompt))
            problems.push(`cell ${cell.index} did not run (prompt ${cell.prompt ?? "empty"})`);
        }
        if (e.diagramIds) {
          const labels = (await page.evaluate(IN_PAGE.svgLabels)) as string[][];
          if (!labels.some((l) => e.diagramIds!.every((id) => l.includes(id)))) {
            problems.push(`no SVG diagram with nodes ${e.diagramIds.join(", ")} (${labels.length} SVG outputs)`);
          }
        }
        for (const selector of e.selectors ?? []) {
          if ((await page.$$(`.output_area ${selector}`)).length === 0) problems.push(`no output matches ${selector}`);
        }
        const outputText = cells.flatMap((c) => c.outputs.map((o) => o.text ?? "")).join("\n");
        for (const re of e.texts ?? []) if (!re.test(outputText)) problems.push(`no output text matches ${re}`);
        const wide = (await page.evaluate(IN_PAGE.wideOutputs)) as string[];
        if (wide.length > 0)
          problems.push(
            `${wide.length} output(s) wider than the cell at 1280 px (horizontal scroll), e.g. "${wide[0]}"`,
          );
        const scrolled = (await page.evaluate(IN_PAGE.scrolledOutputs)) as string[];
        if (scrolled.length > 0)
          problems.push(`${scrolled.length} output(s) folded into a small scroll box, e.g. "${scrolled[0]}"`);
        problems.push(...(await renderingProblems(page, e)));
        if (e.afterRunAll) problems.push(...(await afterRunAllProblems(page, e.afterRunAll)));
        // Notebook 6 scrolls inside #site, so a "full page" shot needs a viewport as tall as the notebook.
        const height = (await page.evaluate(IN_PAGE.contentHeight)) as number;
        await page.setViewportSize({ width: 1280, height: Math.min(16_000, Math.max(900, Math.ceil(height))) });
        screenshot = join(shots, file.replace(/\.ipynb$/, ".png"));
        await page.screenshot({ path: screenshot, fullPage: true });
        // Close-ups for review: the first of each kind of picture and table.
        for (const [what, selector] of Object.entries(CLOSE_UPS)) {
          const element = await page.$(`.output_area ${selector}`);
          await element
            ?.screenshot({ path: join(shots, file.replace(/\.ipynb$/, `.${what}.png`)) })
            .catch(ignore("a missing screenshot must not hide the check's result"));
        }
      } catch (error) {
        problems.push(errorText(error).split("\n")[0] ?? "");
        screenshot = join(shots, file.replace(/\.ipynb$/, ".failed.png"));
        await page
          .screenshot({ path: screenshot, fullPage: true })
          .catch(ignore("a missing screenshot must not hide the check's result"));
      } finally {
        await page.close();
      }
      results.push({
        notebook: file,
        ok: problems.length === 0,
        seconds: (performance.now() - t) / 1000,
        problems,
        screenshot,
      });
    }
  } catch (error) {
    results.push({
      notebook: "(jupyter/browser)",
      ok: false,
      seconds: elapsed(),
      problems: [String(error), server.log().slice(-1500)],
    });
  } finally {
    await browser?.close().catch(ignore("closing a browser that is already gone"));
    await server.stop();
  }
  return { results, seconds: elapsed() };
}

/** One result line per notebook plus a summary line; "skipped: …" when the browser check could not run. */
export function formatBrowserResult(r: BrowserCheckResult): string {
  if (r.skipped) return `browser: skipped: ${r.skipped}`;
  const lines = r.results.map((n) =>
    [
      `${n.ok ? "ok  " : "FAIL"} ${n.notebook} (${n.seconds.toFixed(1)} s)${n.screenshot ? ` → ${n.screenshot}` : ""}`,
      ...n.problems.map((p) => `    ${p}`),
    ].join("\n"),
  );
  const failed = r.results.filter((n) => !n.ok).length;
  return [...lines, `browser: ${r.results.length - failed} passed, ${failed} failed (${r.seconds.toFixed(1)} s)`].join(
    "\n",
  );
}
