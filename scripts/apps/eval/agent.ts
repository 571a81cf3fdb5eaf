// `npm run eval:agent` — the Modell-Check: runs the agent task set (data/eval/agent-tasks.json) against the
// configured backend (local GGUF from the usual settings, or the class server with LLM_BACKEND=openai),
// each task k times with different seeds, and reports pass@1, pass^k and more per category and overall.
// `--vergleich A.json B.json …` (also --compare) puts reports written with --json side by side on one page
// with a recommendation. Usage errors exit 2 with a German message; the output paths are checked first.
// Ctrl+C stops after the current run; the finished tasks' results are written.
import { statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, isAbsolute, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../../../lib/config.js";
import { writeFileAtomic } from "../../../lib/files.js";
import { loadConfiguredLlm, type Llm } from "../../../lib/llm/index.js";
import { McpToolClient, startMathServer, startTravelServer, type ServerHandle } from "../../../lib/mcp/index.js";
import {
  comparedRun,
  loadReportFile,
  loadTaskSet,
  machineInfo,
  recommendation,
  ReportFileError,
  reportText,
  runEvaluation,
  selectionText,
  selectTasks,
  SELF_TEST_LABEL,
  TaskSetError,
  type Ablation,
  type EvalReport,
  type EvalStyle,
  type PlannerFor,
} from "../../../lib/eval/index.js";
import { evalReportPage, smallRunNote } from "../../../lib/display/eval.js";
import { evalComparePage } from "../../../lib/display/eval-compare.js";
import { oraclePlanner } from "../../../lib/testing/index.js";
import { errorText, ignore } from "../../../lib/util.js";
import { OutputPathError, prepareOutputFile } from "../../node/output-file.js";
import { KitError } from "../../../lib/errors.js";
import { defineCommand } from "../../node/command.js";
import { germanParseArgsMessage, UsageError } from "../../node/parse-args-german.js";

/** More runs per task say little more about a model for the workshop and cost hours. */
const MAX_K = 10;
const MAX_ROUNDS = 20;

interface Options {
  style: EvalStyle;
  k: number;
  limit?: number;
  category?: string;
  tasks: string;
  json?: string;
  html: string;
  oracle: boolean;
  ablation?: Ablation;
  model?: string;
  seed: number;
  maxRounds?: number;
}

interface CompareOptions {
  files: string[];
  html: string;
}

function intOption(
  name: string,
  value: string | undefined,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < min)
    throw new UsageError(`--${name} erwartet eine ganze Zahl ≥ ${min}, erhalten: "${value}".`);
  if (n > max) throw new UsageError(`--${name} erwartet höchstens ${max}, erhalten: ${value}.`);
  return n;
}

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`--${name} erwartet ${allowed.join(" oder ")}, erhalten: "${value}".`);
  return value as T;
}

const OPTIONS = {
  style: { type: "string", value: "S", help: "plan (Standard), half oder native" },
  k: { type: "string", value: "N", help: `Versuche je Aufgabe (Standard 3, höchstens ${MAX_K})` },
  limit: { type: "string", value: "N", help: "höchstens N Aufgaben je Kategorie (z. B. 2: 18 der 45 Aufgaben)" },
  category: { type: "string", value: "KAT", help: "nur eine Kategorie, z. B. kette" },
  tasks: { type: "string", value: "DATEI", help: "Aufgaben aus dieser Datei statt der mitgelieferten" },
  json: { type: "string", value: "DATEI", help: "Bericht als JSON (für --vergleich)" },
  html: {
    type: "string",
    value: "DATEI",
    help: "Seite (Standard .cache/eval-agent/report.html, beim Vergleich .cache/eval-agent/vergleich.html)",
  },
  oracle: { type: "boolean", default: false, help: "Selbsttest des Prüfstands (kein Modell): prüft die Prüfungen" },
  ablation: { type: "string", value: "A", help: "feedback, grammar oder vote (nur mit --style plan)" },
  model: { type: "string", value: "DATEI", help: "GGUF-Datei statt der eingestellten" },
  seed: { type: "string", value: "N", help: "Startwert des Zufalls" },
  "max-rounds": { type: "string", value: "N", help: `höchstens N Planungsrunden je Versuch (höchstens ${MAX_ROUNDS})` },
  vergleich: {
    type: "boolean",
    default: false,
    help: "Berichte (--json) nebeneinander, mit Empfehlung (auch --compare)",
  },
  compare: { type: "boolean", default: false },
} as const;

export const command = defineCommand({
  name: "eval:agent",
  invocation: "npm run eval:agent --",
  summary: "Der Prüfstand der Agenten: Aufgaben mit Prüfungen, k Versuche je Aufgabe, Bericht als Seite und JSON.",
  options: OPTIONS,
  positionals: "[A.json B.json … mit --vergleich]",
  // The first Ctrl+C lets the running attempt end and saves the finished tasks; a second one ends at once.
  stopGraceMs: Infinity,
  run: ({ argv, signal }) => run(argv, signal),
});
const USAGE = command.usage;

const RUN_ONLY = [
  "style",
  "k",
  "limit",
  "category",
  "tasks",
  "json",
  "oracle",
  "ablation",
  "model",
  "seed",
  "max-rounds",
] as const;

function parse(argv: string[], root: string): Options | CompareOptions {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: command.options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(
      `${germanParseArgsMessage(error, Object.keys(command.options), USAGE) ?? errorText(error)}\n\n${USAGE}`,
    );
  }
  const { values, positionals } = parsed;
  if (values.vergleich || values.compare) {
    const extra = RUN_ONLY.filter((name) => values[name] !== undefined && values[name] !== false);
    if (extra.length)
      throw new UsageError(
        `--vergleich liest nur fertige Berichte; ${extra.map((n) => `--${n}`).join(", ")} gehört zu einem Lauf.\n\n${USAGE}`,
      );
    if (positionals.length < 2)
      throw new UsageError(
        `--vergleich braucht mindestens zwei Berichte (geschrieben mit --json), z. B. --vergleich llama.json qwen.json.`,
      );
    const files = positionals.map((f) => resolve(f));
    const html = resolve(values.html ?? join(root, ".cache", "eval-agent", "vergleich.html"));
    if (files.includes(html))
      throw new UsageError(
        `--html ${html} ist einer der Berichte: die Seite braucht eine eigene Datei, z. B. --html vergleich.html.`,
      );
    return { files, html };
  }
  if (positionals.length)
    throw new UsageError(
      `Unerwartete Angabe „${positionals[0]}“: Werte gehören hinter ihre Option, z. B. --k 3; Berichte vergleichen mit --vergleich.\n\n${USAGE}`,
    );
  const style = oneOf("style", values.style, ["plan", "half", "native"] as const) ?? "plan";
  const ablation = oneOf("ablation", values.ablation, ["feedback", "grammar", "vote"] as const);
  if (ablation && style !== "plan") throw new UsageError(`--ablation gibt es nur mit --style plan.`);
  if (values.oracle && style !== "plan") throw new UsageError(`--oracle gibt es nur mit --style plan.`);
  const o: Options = {
    style,
    k: intOption("k", values.k, 1, MAX_K) ?? 3,
    limit: intOption("limit", values.limit, 1),
    category: values.category,
    tasks: resolve(root, values.tasks ?? join("data", "eval", "agent-tasks.json")),
    json: values.json === undefined ? undefined : resolve(values.json),
    html: resolve(values.html ?? join(root, ".cache", "eval-agent", "report.html")),
    oracle: values.oracle,
    ablation,
    model: values.model,
    seed: intOption("seed", values.seed, 0) ?? 1,
    maxRounds: intOption("max-rounds", values["max-rounds"], 1, MAX_ROUNDS),
  };
  if (o.json === o.html)
    throw new UsageError(`--json und --html nennen dieselbe Datei (${o.html}): zwei verschiedene Dateien angeben.`);
  return o;
}

async function writeReport(o: Options, report: EvalReport): Promise<void> {
  if (o.json) await writeFileAtomic(o.json, JSON.stringify(report, null, 2) + "\n");
  await writeFileAtomic(o.html, evalReportPage(report));
}

/** A path inside the kit relative to it ("models/x.gguf"), any other as it is. */
function shownPath(root: string, path: string): string {
  const inside = relative(root, path);
  return inside && !inside.startsWith("..") && !isAbsolute(inside) ? inside : path;
}

async function compare(o: CompareOptions): Promise<void> {
  const runs = o.files.map((file) => comparedRun(loadReportFile(file)));
  // Two runs of the same model (other settings, other machine) keep apart by their file names.
  const twice = new Set(runs.map((r) => r.label).filter((label, i, all) => all.indexOf(label) !== i));
  runs.forEach((run, i) => {
    if (twice.has(run.label)) run.label = `${run.label} (${basename(o.files[i]!)})`;
  });
  await prepareOutputFile(o.html, "--html", ".cache/eval-agent/vergleich.html");
  await writeFileAtomic(o.html, evalComparePage(runs));
  console.log(recommendation(runs).text);
  const small = smallRunNote(runs);
  if (small) console.log(`\n⚠️ ${small}`);
  console.log(`\nVergleich: ${o.html}`);
}

async function main(argv: string[], signal: AbortSignal): Promise<number> {
  const config = loadConfig();
  const parsed = parse(argv, config.root);
  if ("files" in parsed) {
    await compare(parsed);
    return 0;
  }
  const o = parsed;
  if (config.probeMode && !o.oracle && !o.model) {
    throw new UsageError(
      "Im Probelauf (WORKSHOP_PROBE=1) gibt es kein Modell zu prüfen: die Antworten der Notebooks sind vorgespielt.\n" +
        "  Den Prüfstand selbst prüfen:  npm run eval:agent -- --oracle\n" +
        "  Ein Modell prüfen:            ohne WORKSHOP_PROBE, mit einer Modelldatei (npm run models:pull) oder --model DATEI.gguf",
      1,
    );
  }
  const set = loadTaskSet(o.tasks);
  const selection = { category: o.category, limit: o.limit };
  const tasks = selectTasks(set, selection);
  if (o.json) await prepareOutputFile(o.json, "--json", ".cache/eval-agent/bericht.json");
  await prepareOutputFile(o.html, "--html", ".cache/eval-agent/report.html");
  const startedAt = new Date().toISOString();
  const stopping = new AbortController();
  signal.addEventListener("abort", () => {
    console.error(
      "\nAbbruch: der laufende Versuch endet, die fertigen Aufgaben werden gespeichert (noch einmal Strg+C: sofort beenden).",
    );
    stopping.abort();
  });

  const workspace = await mkdtemp(join(tmpdir(), "eval-agent-"));
  const env = { TRAVEL_TODAY: set.today, TRAVEL_WORKSPACE_DIR: workspace };
  const servers: ServerHandle[] = [];
  const clients: McpToolClient[] = [];
  let llm: Llm | undefined;
  try {
    const travel = await startTravelServer({ offline: true, env });
    servers.push(travel);
    const reise = await McpToolClient.connect(travel.url);
    clients.push(reise);
    let mathe: McpToolClient | undefined;
    if (tasks.some((t) => t.servers?.includes("mathe"))) {
      const math = await startMathServer();
      servers.push(math);
      mathe = await McpToolClient.connect(math.url);
      clients.push(mathe);
    }
    let planner: PlannerFor;
    let who: { backend: string; selfTest?: boolean; model?: string; modelBytes?: number; accelerator?: string } = {
      backend: "oracle",
      selfTest: true,
    };
    if (o.oracle) planner = (task) => oraclePlanner(task.oracle);
    else {
      const model = await loadConfiguredLlm(o.model ? { modelPath: o.model } : {});
      llm = model;
      const info = model.info;
      who =
        info.backend === "openai-compatible"
          ? { backend: info.backend, model: info.modelName, accelerator: `Klassen-Server ${info.serverUrl}` }
          : {
              backend: info.backend,
              model: info.modelPath ? shownPath(config.root, info.modelPath) : info.modelName,
              ...(info.modelPath ? { modelBytes: statSync(info.modelPath, { throwIfNoEntry: false })?.size } : {}),
              accelerator: info.gpu,
            };
      planner = () => ({ llm: model });
    }
    const chosen = selectionText(set, tasks, selection);
    const plannerName = who.selfTest ? SELF_TEST_LABEL : (who.model ?? who.backend);
    console.error(
      `Modell-Check: ${chosen}, je ${o.k === 1 ? "1 Versuch" : `${o.k} Versuche`}, Stil ${o.style}${o.ablation ? `, Ablation ${o.ablation}` : ""}, Planer: ${plannerName}`,
    );
    // One write after another, so that an earlier (partial) report never replaces a later one.
    let writing = Promise.resolve();
    let writeFailed = false;
    const queueWrite = (report: EvalReport) =>
      (writing = writing
        .then(() => writeReport(o, report))
        .catch((error: unknown) => {
          writeFailed = true;
          console.error(`Bericht nicht geschrieben: ${errorText(error)}`);
        }));
    let done = 0;
    const total = tasks.length * o.k;
    const report = await runEvaluation({
      set,
      tasks,
      k: o.k,
      style: o.style,
      tools: { reise, ...(mathe ? { mathe } : {}) },
      planner,
      ablation: o.ablation,
      baseSeed: o.seed,
      maxRounds: o.maxRounds,
      signal: stopping.signal,
      meta: {
        backend: who.backend,
        ...(who.selfTest ? { selfTest: true } : {}),
        ...(who.model ? { model: who.model } : {}),
        ...(who.modelBytes ? { modelBytes: who.modelBytes } : {}),
        machine: machineInfo(who.accelerator),
        startedAt,
        selection: chosen,
        seed: o.seed,
        ...(o.maxRounds ? { maxRounds: o.maxRounds } : {}),
        tasksFile: shownPath(config.root, o.tasks),
        today: set.today,
      },
      onRun: (task, run, check) => {
        done++;
        const reason = check.pass ? "" : ` — ${check.failures[0] ?? ""}`;
        console.error(
          `[${done}/${total}] ${task.id} Versuch ${run + 1}: ${check.pass ? "bestanden" : "nicht bestanden"}${reason}`,
        );
      },
      onTask: (partial) => void queueWrite(partial),
    });
    await queueWrite(report);
    console.log(reportText(report));
    if (!report.meta.complete)
      console.log(`\nAbgebrochen: ${report.summary.tasks} von ${tasks.length} Aufgaben fertig.`);
    console.log(`\nBericht: ${o.html}${o.json ? `\nJSON: ${o.json}` : ""}`);
    return !report.meta.complete ? 130 : writeFailed ? 1 : 0;
  } finally {
    await llm?.dispose().catch(ignore("freeing a model on the way out"));
    for (const c of clients) await c.close().catch(ignore("closing a client that is already gone"));
    for (const s of servers) await s.stop().catch(ignore("stopping a server that has already exited"));
    await rm(workspace, { recursive: true, force: true });
  }
}

const USAGE_ERRORS = [TaskSetError, ReportFileError, OutputPathError];

async function run(argv: string[], signal: AbortSignal): Promise<number> {
  try {
    return await main(argv, signal);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (USAGE_ERRORS.some((E) => error instanceof E)) {
      console.error((error as Error).message);
      return 2;
    }
    console.error(`Fehler: ${errorText(error, { withName: !(error instanceof KitError) })}`);
    return 1;
  }
}
