// A conversation across questions: AgentSession keeps the earlier turns (question, answer, a short
// line of tool facts) and hands them to runAgent as history, so „Und morgen?" works. What is sent
// stays bounded: only the newest `maxTurns` turns are kept, and runAgent's window (window.ts) drops
// more when the model's context is tight. Sessions save to and load from JSON; a damaged file or a
// failed save gives a SessionFileError saying what is wrong and what to do.
import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import * as z from "zod";
import type { ChatMessage } from "../llm/types.js";
import { compactJson } from "../plan/json.js";
import { runAgent, type AgentRunResult, type RunAgentOptions } from "./loop.js";
import type { RunStatus } from "./trace.js";
import { jsonSyntaxErrorText } from "../schema/json-syntax-error.js";
import { writeFileAtomic } from "../files.js";
import { KitError } from "../errors.js";

export const SESSION_FILE_VERSION = 1;

export interface SessionTurn {
  question: string;
  answer: string;
  status: RunStatus;
  /** Compact JSON of the turn's tool results (cut to `factsChars`), "" without tools. */
  facts: string;
  /** Groundedness and other warnings of that turn. */
  warnings: string[];
}

export interface AgentSessionOptions extends Omit<RunAgentOptions, "question" | "history"> {
  /** Earlier turns sent along (default 6); older ones are forgotten. */
  maxTurns?: number;
  /** Longest facts line per turn in characters (default 600). */
  factsChars?: number;
}

const TurnSchema = z.object({
  question: z.string(),
  answer: z.string(),
  status: z.enum(["answered", "max_iterations", "aborted", "llm_error"]),
  facts: z.string(),
  warnings: z.array(z.string()),
});

/** What a saved session file holds (the interface is public; the schema checks a file read back). */
export interface SessionFile {
  version: typeof SESSION_FILE_VERSION;
  savedAt: string;
  turns: SessionTurn[];
}

const SessionFileSchema = z.object({
  version: z.literal(SESSION_FILE_VERSION),
  savedAt: z.string(),
  turns: z.array(TurnSchema),
}) satisfies z.ZodType<SessionFile>;

export type SessionFileErrorKind = "unreadable" | "not_json" | "invalid" | "unwritable";

/** A session file that cannot be loaded or saved; the message says which file and what to do. */
export class SessionFileError extends KitError {
  override name = "SessionFileError";
  constructor(
    readonly kind: SessionFileErrorKind,
    readonly path: string,
    detail: string,
  ) {
    super(
      kind === "unwritable"
        ? `Die Sitzung kann nicht in „${path}" gespeichert werden: ${detail}.`
        : `Die Sitzungsdatei „${path}" ist ${kind === "unreadable" ? "nicht lesbar" : "beschädigt"}: ${detail}. Lösche sie oder starte eine neue Sitzung.`,
    );
  }
}

/** Why a save failed, in German with what to do; undefined for errors that are not the file system's. */
function saveProblem(error: unknown, path: string): string | undefined {
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case "ENOENT":
      return `der Ordner „${dirname(path)}" existiert nicht. Lege ihn an oder wähle einen anderen Pfad`;
    case "ENOTDIR":
      return `„${dirname(path)}" ist kein Ordner. Wähle einen anderen Pfad`;
    case "EISDIR":
      return 'dort liegt ein Ordner. Wähle einen Dateinamen wie „sitzung.json"';
    case "EACCES":
    case "EPERM":
    case "EROFS":
      return "keine Schreibrechte dort. Wähle einen Ordner, in den du schreiben darfst";
    case "ENOSPC":
    case "EDQUOT":
      return "der Datenträger ist voll. Schaffe Platz und speichere noch einmal";
    default:
      return undefined;
  }
}

/** The history messages for earlier turns: question, then answer (plus the facts it rested on). */
export function turnsToHistory(turns: readonly SessionTurn[]): ChatMessage[] {
  return turns.flatMap((t) => [
    { role: "user" as const, content: t.question },
    { role: "assistant" as const, content: t.facts ? `${t.answer}\n\n(Werkzeug-Fakten dazu: ${t.facts})` : t.answer },
  ]);
}

/** A conversation: ask() runs runAgent with the earlier turns as history and keeps the new turn; save/load as JSON. */
export class AgentSession {
  readonly options: AgentSessionOptions;
  #turns: SessionTurn[] = [];

  constructor(options: AgentSessionOptions, turns: readonly SessionTurn[] = []) {
    this.options = options;
    this.#turns = turns.map((t) => ({ ...t, warnings: [...t.warnings] }));
  }

  /** The turns kept so far, oldest first (at most `maxTurns`). */
  get turns(): readonly SessionTurn[] {
    return this.#turns;
  }

  /** The history the next question will be sent with. */
  history(): ChatMessage[] {
    return turnsToHistory(this.#turns.slice(-(this.options.maxTurns ?? 6)));
  }

  /** Runs the agent on `question` with the conversation so far and remembers the turn. */
  async ask(
    question: string,
    overrides: Partial<Omit<RunAgentOptions, "question" | "history">> = {},
  ): Promise<AgentRunResult> {
    const result = await runAgent({ ...this.options, ...overrides, question, history: this.history() });
    const facts =
      Object.keys(result.toolResults).length > 0 ? compactJson(result.toolResults, this.options.factsChars ?? 600) : "";
    this.#turns.push({ question, answer: result.final, status: result.status, facts, warnings: result.warnings });
    const max = this.options.maxTurns ?? 6;
    if (this.#turns.length > max) this.#turns = this.#turns.slice(-max);
    return result;
  }

  /** Forgets the conversation. */
  reset(): void {
    this.#turns = [];
  }

  /** The session as a SessionFile (what save() writes). */
  toJSON(): SessionFile {
    return {
      version: SESSION_FILE_VERSION,
      savedAt: new Date().toISOString(),
      turns: this.#turns.map((t) => ({ ...t })),
    };
  }

  /** Writes the session as JSON, atomically (lib/files.ts): a second save at the same moment never leaves half a file. */
  async save(path: string): Promise<void> {
    try {
      await writeFileAtomic(path, `${JSON.stringify(this.toJSON(), null, 2)}\n`);
    } catch (error) {
      const problem = saveProblem(error, path);
      throw problem ? new SessionFileError("unwritable", path, problem) : error;
    }
  }

  /** A session from saved JSON; `options` supplies the model, tools and settings (they are not saved). */
  static fromJSON(data: unknown, options: AgentSessionOptions, path = "(JSON)"): AgentSession {
    const parsed = SessionFileSchema.safeParse(data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? `Feld ${issue.path.join(".")}` : "Aufbau";
      throw new SessionFileError(
        "invalid",
        path,
        `${where} passt nicht (erwartet: version ${SESSION_FILE_VERSION} und eine Liste turns)`,
      );
    }
    return new AgentSession(options, parsed.data.turns);
  }

  /** A session from a file written by save(); a missing or damaged file is a SessionFileError. */
  static async load(path: string, options: AgentSessionOptions): Promise<AgentSession> {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      throw new SessionFileError(
        "unreadable",
        path,
        (error as NodeJS.ErrnoException).code === "ENOENT" ? "sie existiert nicht" : String(error),
      );
    }
    let data: unknown;
    try {
      data = JSON.parse(text.replace(/^\uFEFF/, "")); // editors on Windows may add a byte order mark
    } catch (error) {
      throw new SessionFileError("not_json", path, `kein gültiges JSON (${jsonSyntaxErrorText(error)})`);
    }
    return AgentSession.fromJSON(data, options, path);
  }
}
