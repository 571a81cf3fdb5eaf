// The agent evaluation's task set (data/eval/agent-tasks.json): its interfaces, the zod shape that
// checks a file read from disk, and the loader with typed German errors that name task and field.
// Pure: no model, no server; the file is read with node:fs only in loadTaskSet.
import { readFileSync } from "node:fs";
import * as z from "zod";
import { errorText } from "../util.js";
import { KitError } from "../errors.js";

/** The categories of the issue, in report order (German ids, as in the file). */
export const TASK_CATEGORIES = [
  "ein-werkzeug",
  "kette",
  "parallel",
  "zwei-server",
  "kein-werkzeug",
  "rueckfrage",
  "schreiben",
  "folgefrage",
  "rag",
] as const;
export type TaskCategory = (typeof TASK_CATEGORIES)[number];

/** German labels for tables. */
export const CATEGORY_LABELS: Record<TaskCategory, string> = {
  "ein-werkzeug": "Ein Werkzeug",
  kette: "Kette ($ref)",
  parallel: "Parallel",
  "zwei-server": "Zwei Server",
  "kein-werkzeug": "Kein Werkzeug passt",
  rueckfrage: "Rückfrage",
  schreiben: "Schreiben mit Freigabe",
  folgefrage: "Folgefrage",
  rag: "RAG-Kontext",
};

/** One argument constraint: a number near a value (± tolerance °), a date relative to today, a value, a pattern. */
export type ArgConstraint =
  { near: number; tol?: number } | { date: number } | { equals: unknown } | { matches: string };

export interface RequiredCall {
  /** Tool name, or alternatives separated by "|" (e.g. "multiplikation|rechne"). */
  tool: string;
  args?: Record<string, ArgConstraint>;
  /** Also counts when the call was attempted but not successful (e.g. a rejected write). */
  settled?: boolean;
}

/** A fact the answer must contain: a value from a tool result (nth successful call of `tool`, `path`) or a text. */
export type Fact = { tool: string; path: string; call?: number } | { text: string };

export interface TaskExpectation {
  calls?: RequiredCall[];
  /** Tools that must not even be attempted. */
  forbidden?: string[];
  /** No tool call at all (ask_user included). */
  noTools?: boolean;
  /** The first call must be this tool (e.g. ask_user before any guess). */
  firstCall?: string;
  /** true: a committed save_trip_plan; false: none. */
  written?: boolean;
  facts?: Fact[];
  /** Case-insensitive regular expression the answer must match (e.g. a polite refusal). */
  answerMatches?: string;
  maxRounds?: number;
  /** No groundedness warning (default true). */
  grounded?: boolean;
}

export interface OracleStep {
  description: string;
  tools: { id: string; name: string; arguments: Record<string, unknown> }[];
}

/** How a correct planner behaves: its plan, and its answer with `{id.path}` filled from the tool results. */
export interface TaskOracle {
  steps: OracleStep[];
  answer: string;
}

export interface EvalTask {
  id: string;
  category: TaskCategory;
  question: string;
  /** Servers the task needs: "reise" (default), "mathe". */
  servers?: ("reise" | "mathe")[];
  /** Earlier turns of the session (follow-up questions). */
  history?: { role: "user" | "assistant"; content: string }[];
  /** Retrieved context (RAG), sent as the agent's context. */
  context?: string;
  /** What the person answers to ask_user. */
  askUserAnswer?: string;
  /** Whether the person approves writes (default false). */
  approve?: boolean;
  expect: TaskExpectation;
  oracle: TaskOracle;
}

export interface TaskSet {
  version: 1;
  /** TRAVEL_TODAY for the server and the prompt (YYYY-MM-DD). */
  today: string;
  description?: string;
  coordinateToleranceDeg: number;
  tasks: EvalTask[];
}

/** A task file that cannot be used: which task and field, and what to do. */
export class TaskSetError extends KitError {
  override name = "TaskSetError";
  constructor(
    message: string,
    readonly file: string,
    readonly taskId?: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

const constraint = z.union([
  z.strictObject({ near: z.number(), tol: z.number().positive().optional() }),
  z.strictObject({ date: z.number().int() }),
  z.strictObject({ equals: z.unknown() }),
  z.strictObject({ matches: z.string() }),
]) satisfies z.ZodType<ArgConstraint>;

const fact = z.union([
  z.strictObject({ tool: z.string().min(1), path: z.string().min(1), call: z.number().int().min(1).optional() }),
  z.strictObject({ text: z.string().min(1) }),
]) satisfies z.ZodType<Fact>;

const expectation = z.strictObject({
  calls: z
    .array(
      z.strictObject({
        tool: z.string().min(1),
        args: z.record(z.string(), constraint).optional(),
        settled: z.boolean().optional(),
      }),
    )
    .optional(),
  forbidden: z.array(z.string()).optional(),
  noTools: z.boolean().optional(),
  firstCall: z.string().optional(),
  written: z.boolean().optional(),
  facts: z.array(fact).optional(),
  answerMatches: z.string().optional(),
  maxRounds: z.number().int().min(1).optional(),
  grounded: z.boolean().optional(),
}) satisfies z.ZodType<TaskExpectation>;

const task = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/, "nur Kleinbuchstaben, Ziffern und Bindestriche"),
  category: z.string(),
  question: z.string().min(1),
  servers: z.array(z.enum(["reise", "mathe"])).optional(),
  history: z.array(z.strictObject({ role: z.enum(["user", "assistant"]), content: z.string() })).optional(),
  context: z.string().optional(),
  askUserAnswer: z.string().optional(),
  approve: z.boolean().optional(),
  expect: expectation,
  oracle: z.strictObject({
    steps: z.array(
      z.strictObject({
        description: z.string(),
        tools: z.array(
          z.strictObject({ id: z.string(), name: z.string(), arguments: z.record(z.string(), z.unknown()) }),
        ),
      }),
    ),
    answer: z.string().min(1),
  }),
});

const taskSet = z.strictObject({
  version: z.literal(1),
  today: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Datum im Format JJJJ-MM-TT"),
  description: z.string().optional(),
  coordinateToleranceDeg: z.number().positive().default(0.3),
  tasks: z.array(z.unknown()).min(1, "mindestens eine Aufgabe"),
});

const germanErrors = z.locales.de().localeError;

const isCategory = (c: string): c is TaskCategory => (TASK_CATEGORIES as readonly string[]).includes(c);

function issueText(error: z.ZodError): { field: string; message: string } {
  const issue = error.issues[0];
  return { field: issue?.path.join(".") || "(Wurzel)", message: issue?.message ?? "ungültig" };
}

function checkRegex(pattern: string, file: string, id: string, field: string): void {
  try {
    new RegExp(pattern, "iu");
  } catch (error) {
    throw new TaskSetError(
      `Aufgabe „${id}“, Feld ${field}: kein gültiger regulärer Ausdruck (${errorText(error)}).`,
      file,
      id,
      field,
    );
  }
}

/** Checks a parsed task file; `file` names it in the errors. */
export function parseTaskSet(value: unknown, file: string): TaskSet {
  const head = taskSet.safeParse(value, { error: germanErrors });
  if (!head.success) {
    const { field, message } = issueText(head.error);
    throw new TaskSetError(
      `Aufgabendatei ${file}, Feld ${field}: ${message}.\n  → Datei nach dem Muster von data/eval/agent-tasks.json korrigieren.`,
      file,
      undefined,
      field,
    );
  }
  const seen = new Set<string>();
  const tasks = head.data.tasks.map((raw, index): EvalTask => {
    const id = typeof (raw as { id?: unknown })?.id === "string" ? (raw as { id: string }).id : `#${index + 1}`;
    const parsed = task.safeParse(raw, { error: germanErrors });
    if (!parsed.success) {
      const { field, message } = issueText(parsed.error);
      throw new TaskSetError(
        `Aufgabe „${id}“, Feld ${field}: ${message}.\n  → Die Aufgabe in ${file} korrigieren.`,
        file,
        id,
        field,
      );
    }
    const t = parsed.data;
    if (!isCategory(t.category)) {
      throw new TaskSetError(
        `Aufgabe „${id}“, Feld category: unbekannte Kategorie „${t.category}“. Erlaubt: ${TASK_CATEGORIES.join(", ")}.`,
        file,
        id,
        "category",
      );
    }
    if (seen.has(t.id)) throw new TaskSetError(`Aufgabe „${id}“, Feld id: die Id kommt doppelt vor.`, file, id, "id");
    seen.add(t.id);
    if (t.expect.answerMatches !== undefined) checkRegex(t.expect.answerMatches, file, id, "expect.answerMatches");
    t.expect.calls?.forEach((c, i) =>
      Object.entries(c.args ?? {}).forEach(
        ([k, v]) => "matches" in v && checkRegex(v.matches, file, id, `expect.calls.${i}.args.${k}.matches`),
      ),
    );
    return { ...t, category: t.category };
  });
  return { ...head.data, version: 1, tasks };
}

/** Reads and checks a task file. */
export function loadTaskSet(file: string): TaskSet {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new TaskSetError(
      `Aufgabendatei nicht lesbar: ${file} (${errorText(error)}).\n  → Pfad prüfen, z. B. data/eval/agent-tasks.json.`,
      file,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new TaskSetError(`Aufgabendatei ${file} ist kein gültiges JSON: ${errorText(error)}.`, file);
  }
  return parseTaskSet(value, file);
}

export interface TaskSelection {
  category?: string;
  /** At most this many tasks of each category (the first ones in the file). */
  limit?: number;
}

/** The tasks of `category` (checked; default all), at most `limit` per category, in file order. */
export function selectTasks(set: TaskSet, options: TaskSelection = {}): EvalTask[] {
  const { category, limit } = options;
  if (category !== undefined && !isCategory(category)) {
    throw new TaskSetError(
      `Unbekannte Kategorie „${category}“. Erlaubt: ${TASK_CATEGORIES.join(", ")}.`,
      "--category",
      undefined,
      "category",
    );
  }
  const taken = new Map<string, number>();
  return set.tasks.filter((t) => {
    if (category !== undefined && t.category !== category) return false;
    const n = taken.get(t.category) ?? 0;
    if (limit !== undefined && n >= limit) return false;
    taken.set(t.category, n + 1);
    return true;
  });
}

/** What `selectTasks` took, in German: "je 2 Aufgaben aus jeder der 9 Kategorien (18 von 45)". */
export function selectionText(set: TaskSet, tasks: readonly EvalTask[], options: TaskSelection = {}): string {
  const categories = new Set(tasks.map((t) => t.category));
  const of = `${tasks.length} von ${set.tasks.length}`;
  const tasksWord = (n: number) => (n === 1 ? "1 Aufgabe" : `${n} Aufgaben`);
  if (options.category !== undefined && isCategory(options.category)) {
    const all = set.tasks.filter((t) => t.category === options.category).length;
    return `Kategorie „${CATEGORY_LABELS[options.category]}“: ${tasks.length === all ? `alle ${tasksWord(all)}` : `${tasks.length} von ${tasksWord(all)}`}`;
  }
  if (options.limit === undefined || tasks.length === set.tasks.length)
    return `alle ${tasksWord(tasks.length)} aus ${categories.size} Kategorien`;
  return `je höchstens ${tasksWord(options.limit)} aus jeder der ${categories.size} Kategorien (${of})`;
}
