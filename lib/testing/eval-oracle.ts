// Scripted planners for the evaluation: the oracle (each task's own correct plan, answer filled from the
// real tool results), scripted mistakes derived from it, and a noisy planner that is right with
// probability p per run (seeded). They prove the checkers; no model is involved.
import type { AgentEvent } from "../agent/trace.js";
import { ScriptedLlm } from "./scripted-llm.js";
import { isPlainObject, seededRandom } from "../util.js";
import type { EvalTask, OracleStep, TaskOracle } from "../eval/tasks.js";

/** A planner for one run: the model, and optionally a listener for the run's events. */
export interface PlannerRun {
  /** The scripted planner of this run. */
  llm: ScriptedLlm;
  /** Feeds the run's events back to the script (tool results fill the oracle's answer). */
  onEvent: (event: AgentEvent) => void;
}

/** The scripted mistakes the checkers must catch (withMistake turns a task's oracle into one). */
export const MISTAKES = [
  "wrong-city",
  "guessed-coordinates",
  "tool-where-none-fits",
  "unapproved-write",
  "invented-fact",
  "missing-ref",
] as const;
export type Mistake = (typeof MISTAKES)[number];

const at = (value: unknown, path: string[]): unknown =>
  path.reduce<unknown>(
    (v, key) => (isPlainObject(v) || Array.isArray(v) ? (v as Record<string, unknown>)[key] : undefined),
    value,
  );

/** The answer template with every `{id.path}` replaced by that tool result's value; numbers as Germans write them ("52,52"). */
export function fillAnswer(template: string, results: ReadonlyMap<string, unknown>): string {
  const shown = (value: unknown) =>
    typeof value === "number" ? value.toLocaleString("de-DE", { maximumFractionDigits: 10 }) : String(value ?? "?");
  return template.replace(/\{([\w-]+)\.([\w.]+)\}/g, (_, id: string, path: string) =>
    shown(at(results.get(id), path.split("."))),
  );
}

/** A planner that sends `oracle`'s plan until each of its calls has settled, then the filled answer. */
export function oraclePlanner(oracle: TaskOracle): PlannerRun {
  const results = new Map<string, unknown>();
  const settled = new Set<string>();
  const ids = oracle.steps.flatMap((s) => s.tools.map((t) => t.id));
  const llm = new ScriptedLlm(
    [
      () =>
        ids.every((id) => settled.has(id))
          ? { steps: [], final: fillAnswer(oracle.answer, results) }
          : { steps: oracle.steps, final: null },
    ],
    { whenExhausted: "repeat-last" },
  );
  const onEvent = (event: AgentEvent) => {
    if (event.type === "tool_result") results.set(event.toolId, event.result);
    if (event.type === "tool_result" || event.type === "tool_error") settled.add(event.toolId);
  };
  return { llm, onEvent };
}

const mapCalls = (
  steps: OracleStep[],
  f: (call: OracleStep["tools"][number]) => OracleStep["tools"][number],
): OracleStep[] => steps.map((s) => ({ ...s, tools: s.tools.map(f) }));

const hasRef = (value: unknown): boolean => isPlainObject(value) && typeof value.$ref === "string";

function wrongCity(o: TaskOracle): TaskOracle | null {
  const literal = o.steps.some((s) =>
    s.tools.some((t) => t.name === "geocode" && typeof t.arguments.destination === "string"),
  );
  if (!literal) return null;
  const swap = (city: unknown) => (city === "Madrid" ? "Oslo" : "Madrid");
  return {
    ...o,
    steps: mapCalls(o.steps, (t) =>
      t.name === "geocode" && typeof t.arguments.destination === "string"
        ? { ...t, arguments: { destination: swap(t.arguments.destination) } }
        : t,
    ),
  };
}

/** Coordinates guessed instead of looked up: no geocode, lat/lon 50/10 (the middle of Germany). */
function guessedCoordinates(o: TaskOracle): TaskOracle | null {
  const usesGeo = o.steps.some((s) => s.tools.some((t) => hasRef(t.arguments.lat)));
  if (!usesGeo) return null;
  const steps = mapCalls(o.steps, (t) =>
    hasRef(t.arguments.lat) ? { ...t, arguments: { ...t.arguments, lat: 50, lon: 10 } } : t,
  )
    .map((s) => ({ ...s, tools: s.tools.filter((t) => t.name !== "geocode") }))
    .filter((s) => s.tools.length > 0);
  return { ...o, steps };
}

function toolWhereNoneFits(o: TaskOracle, task: EvalTask): TaskOracle | null {
  if (!task.expect.noTools) return null;
  return {
    ...o,
    steps: [
      { description: "Ort suchen", tools: [{ id: "geo", name: "geocode", arguments: { destination: "Berlin" } }] },
    ],
  };
}

function unapprovedWrite(o: TaskOracle, task: EvalTask): TaskOracle | null {
  if (task.category === "schreiben") return null;
  const save = {
    id: "ungefragt",
    name: "save_trip_plan",
    arguments: { file_name: "ungefragt.md", title: "Ungefragt", content: "Nicht erbeten." },
  };
  return { ...o, steps: [...o.steps, { description: "Ungefragt speichern", tools: [save] }] };
}

function inventedFact(o: TaskOracle): TaskOracle | null {
  if (!/\{[\w-]+\.[\w.]+\}/.test(o.answer)) return null;
  return { ...o, answer: o.answer.replace(/\{[\w-]+\.[\w.]+\}/g, "87,3") };
}

function missingRef(o: TaskOracle): TaskOracle | null {
  let done = false;
  const breakRefs = (args: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(args).map(([k, v]) => {
        if (done || !hasRef(v)) return [k, v];
        done = true;
        return [k, { $ref: `gibt_es_nicht.${k}` }];
      }),
    );
  const steps = mapCalls(o.steps, (t) => ({ ...t, arguments: breakRefs(t.arguments) }));
  return done ? { ...o, steps } : null;
}

/** The oracle with one mistake, or null when the mistake does not apply to this task. */
export function withMistake(task: EvalTask, mistake: Mistake): TaskOracle | null {
  const o = task.oracle;
  switch (mistake) {
    case "wrong-city":
      return wrongCity(o);
    case "guessed-coordinates":
      return guessedCoordinates(o);
    case "tool-where-none-fits":
      return toolWhereNoneFits(o, task);
    case "unapproved-write":
      return unapprovedWrite(o, task);
    case "invented-fact":
      return inventedFact(o);
    case "missing-ref":
      return missingRef(o);
  }
}

/** Right with probability p per run (seeded), else the first mistake that applies to the task. */
export function noisyOracle(task: EvalTask, seed: number, p: number): { planner: PlannerRun; correct: boolean } {
  const random = seededRandom(Math.imul(seed + 1, 0x9e3779b1));
  if (random() < p) return { planner: oraclePlanner(task.oracle), correct: true };
  const wrong = (["invented-fact", "tool-where-none-fits", "unapproved-write"] as const)
    .map((m) => withMistake(task, m))
    .find((o) => o !== null);
  // Every task has one: invented-fact fits all answers with a tool value, tool-where-none-fits the others.
  if (!wrong) throw new RangeError(`noisyOracle: keine passende Fehlerart für Aufgabe ${task.id}.`);
  return { planner: oraclePlanner(wrong), correct: false };
}
