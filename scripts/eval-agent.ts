// `npm run eval:agent` — the Modell-Check: runs the agent task set (data/eval/agent-tasks.json) against the
// configured backend (local GGUF from the usual settings, or the class server with LLM_BACKEND=openai),
// each task k times with different seeds, and reports pass@1, pass^k and more per category and overall.
//
// Options: --style plan|half|native (plan) --k <n> (3) --limit <n> --category <id> --tasks <file>
//          --json <file> (report as JSON, written after every task, atomically) --html <file>
//          (.cache/eval-agent/report.html) --oracle (a scripted correct planner instead of a model)
//          --ablation feedback|grammar|vote --model <path> --seed <n> (1) --max-rounds <n> (runAgent's 8)
// Ctrl+C stops after the current run; the finished tasks' results are written.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../lib/config.js";
import { writeFileAtomic } from "../lib/files.js";
import { loadLlm } from "../lib/llm/load.js";
import type { Llm } from "../lib/llm/types.js";
import { McpToolClient, startMathServer, startTravelServer, type ServerHandle } from "../lib/mcp/index.js";
import { loadTaskSet, runEvaluation, reportText, selectTasks, TaskSetError, type Ablation, type EvalReport, type EvalStyle, type PlannerFor } from "../lib/eval/index.js";
import { evalReportPage } from "../lib/display/eval.js";
import { oraclePlanner } from "../lib/testing/eval-oracle.js";
import { errorText } from "../lib/util.js";

class EvalUsageError extends Error {
  override name = "EvalUsageError";
}

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

function intOption(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < min) throw new EvalUsageError(`--${name} erwartet eine ganze Zahl ≥ ${min}, erhalten: "${value}".`);
  return n;
}

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new EvalUsageError(`--${name} erwartet ${allowed.join(" oder ")}, erhalten: "${value}".`);
  return value as T;
}

function parse(argv: string[], root: string): Options {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        style: { type: "string" },
        k: { type: "string" },
        limit: { type: "string" },
        category: { type: "string" },
        tasks: { type: "string" },
        json: { type: "string" },
        html: { type: "string" },
        oracle: { type: "boolean", default: false },
        ablation: { type: "string" },
        model: { type: "string" },
        seed: { type: "string" },
        "max-rounds": { type: "string" },
      },
    }));
  } catch (error) {
    throw new EvalUsageError(`Ungültige Option: ${errorText(error)}`);
  }
  const style = oneOf("style", values.style, ["plan", "half", "native"] as const) ?? "plan";
  const ablation = oneOf("ablation", values.ablation, ["feedback", "grammar", "vote"] as const);
  if (ablation && style !== "plan") throw new EvalUsageError(`--ablation gibt es nur mit --style plan.`);
  if (values.oracle && style !== "plan") throw new EvalUsageError(`--oracle gibt es nur mit --style plan.`);
  return {
    style,
    k: intOption("k", values.k, 1) ?? 3,
    limit: intOption("limit", values.limit, 1),
    category: values.category,
    tasks: resolve(root, values.tasks ?? join("data", "eval", "agent-tasks.json")),
    json: values.json === undefined ? undefined : resolve(values.json),
    html: resolve(values.html ?? join(root, ".cache", "eval-agent", "report.html")),
    oracle: values.oracle,
    ablation,
    model: values.model,
    seed: intOption("seed", values.seed, 0) ?? 1,
    maxRounds: intOption("max-rounds", values["max-rounds"], 1),
  };
}

async function writeReport(o: Options, report: EvalReport): Promise<void> {
  if (o.json) {
    await mkdir(dirname(o.json), { recursive: true });
    await writeFileAtomic(o.json, JSON.stringify(report, null, 2) + "\n");
  }
  await mkdir(dirname(o.html), { recursive: true });
  await writeFileAtomic(o.html, evalReportPage(report));
}

async function main(): Promise<void> {
  const config = loadConfig();
  const o = parse(process.argv.slice(2), config.root);
  const set = loadTaskSet(o.tasks);
  const tasks = selectTasks(set, { category: o.category, limit: o.limit });
  const stopping = new AbortController();
  process.on("SIGINT", () => {
    if (stopping.signal.aborted) process.exit(130);
    console.error("\nAbbruch: der laufende Versuch endet, die fertigen Aufgaben werden gespeichert (noch einmal Strg+C: sofort beenden).");
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
    let backend = "oracle";
    if (o.oracle) planner = (task) => oraclePlanner(task.oracle);
    else {
      const model = await loadLlm(o.model ? { modelPath: o.model } : {});
      llm = model;
      backend = `${model.info.backend}${"modelPath" in model.info ? ` ${String(model.info.modelPath)}` : ""}`;
      planner = () => ({ llm: model });
    }
    console.error(`Modell-Check: ${tasks.length} Aufgaben × k = ${o.k}, Stil ${o.style}${o.ablation ? `, Ablation ${o.ablation}` : ""}, Planer: ${backend}`);
    // One write after another, so that an earlier (partial) report never replaces a later one.
    let writing = Promise.resolve();
    const queueWrite = (report: EvalReport) =>
      (writing = writing.then(() => writeReport(o, report)).catch((error: unknown) => console.error(`Bericht nicht geschrieben: ${errorText(error)}`)));
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
      meta: { backend, tasksFile: o.tasks, today: set.today },
      onRun: (task, run, check) => {
        done++;
        const reason = check.pass ? "" : ` — ${check.failures[0] ?? ""}`;
        console.error(`[${done}/${total}] ${task.id} Versuch ${run + 1}: ${check.pass ? "bestanden" : "nicht bestanden"}${reason}`);
      },
      onTask: (partial) => void queueWrite(partial),
    });
    await queueWrite(report);
    console.log(reportText(report));
    if (!report.meta.complete) console.log(`\nAbgebrochen: ${report.summary.tasks} von ${tasks.length} Aufgaben fertig.`);
    console.log(`\nBericht: ${o.html}${o.json ? `\nJSON: ${o.json}` : ""}`);
    if (!report.meta.complete) process.exitCode = 130;
  } finally {
    await llm?.dispose().catch(() => {});
    for (const c of clients) await c.close().catch(() => {});
    for (const s of servers) await s.stop().catch(() => {});
    await rm(workspace, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  if (error instanceof EvalUsageError || error instanceof TaskSetError) console.error(`${error.name}: ${error.message}`);
  else console.error(`Fehler: ${errorText(error, { withName: true })}`);
  process.exitCode = 1;
});
