// Reports each self-check run to the class board (`npm run board` on the instructor's laptop) — only when
// the participant set it up: KURS_BOARD (the board's URL), KURS_NAME, KURS_CODE (the join code), which
// `npm run workshop -- --kurs <url> --name <Name> --code <Code>` passes to the kernel. One small record
// (board-record.ts) per run, fire and forget: a run waits at most REPORT_GRACE_MS for the answer, a
// request gives up after REPORT_TIMEOUT_MS, and any problem is one German hint per kernel, never an error.
import {
  BOARD_CODE_HEADER,
  BOARD_POST_PATH,
  BOARD_TOKEN_HEADER,
  boardNameProblem,
  boardRefusalText,
  cleanBoardName,
  partOfCheck,
  type BoardRecord,
} from "./board-record.js";
import { ignore } from "../util.js";

/** Longest time one report may take before it is dropped. */
export const REPORT_TIMEOUT_MS = 2000;
/** Longest time a self-check run waits for its report (a quick refusal still gets its hint in this cell). */
export const REPORT_GRACE_MS = 100;
/** Reports still open beyond this many are skipped (a board that hangs never piles up requests). */
const MAX_IN_FLIGHT = 4;

export interface BoardSettings {
  /** The board's base URL, e.g. http://192.168.1.20:8790. */
  url: string;
  name: string;
  /** The join code; the board refuses records without the right one. */
  code: string;
  /** In the Klassenraum-Hub: this participant's board token (KURS_BOARD_TOKEN), so only they post under their name. */
  token?: string;
}

/** What a finished run reports: its check and its counts. */
export interface RunCounts {
  functionName: string;
  passed: number;
  failed: number;
  /** The run's cases; those whose function still threw NotSolvedError are reported as open, not failed. */
  cases?: readonly { notSolved?: true }[];
}

const ONCE = "(Dieser Hinweis erscheint nur einmal.)";

/** Settings from KURS_BOARD, KURS_NAME, KURS_CODE: undefined when KURS_BOARD is unset or empty (nothing is
 * sent); a German problem text when it is set but incomplete. */
export function boardSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): BoardSettings | string | undefined {
  const url = env.KURS_BOARD?.trim();
  if (!url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    parsed = new URL("invalid:");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return `ℹ️ KURS_BOARD ist keine http-Adresse („${url}“) – es wird nichts gemeldet. Richtig wäre z. B. http://192.168.1.20:8790.`;
  }
  const name = cleanBoardName(env.KURS_NAME ?? "");
  if (!name) {
    const why = env.KURS_NAME?.trim() ? `KURS_NAME: ${boardNameProblem(env.KURS_NAME)}` : "KURS_NAME fehlt.";
    return `ℹ️ Klassen-Board: ${why} Es wird nichts gemeldet. ${ONCE}`;
  }
  const token = env.KURS_BOARD_TOKEN?.trim();
  return { url: parsed.href, name, code: env.KURS_CODE?.trim() ?? "", ...(token ? { token } : {}) };
}

/** The hint for a refused record: the board's own German reason (`fehler`) when it gave one. */
function statusHint(status: number, settings: BoardSettings, fehler: string): string | undefined {
  if (status === 403 && !/nicht zu deinem Namen/.test(fehler)) {
    return (
      "ℹ️ Klassen-Board: Beitrittscode abgelehnt – frag die Kursleitung nach dem Code und starte Jupyter neu mit " +
      `npm run workshop -- --kurs ${settings.url} --name "${settings.name}" --code <Code>. ${ONCE}`
    );
  }
  if (status === 429) return undefined; // too many runs in a row: this one is simply not shown
  if (status >= 400)
    return `ℹ️ Klassen-Board: Meldung abgelehnt (${fehler.replace(/\.$/, "") || `HTTP ${status}`}) – deine Selbsttests laufen normal weiter. ${ONCE}`;
  return undefined;
}

/** One kernel's reports to the board: the settings, the one hint, the open requests. */
export class BoardReporter {
  private hint: string | undefined;
  private hintShown = false;
  private inFlight = 0;

  constructor(readonly settings: BoardSettings | string | undefined) {}

  /** Sends the record of one run; resolves after the answer or REPORT_GRACE_MS; never throws. */
  async report(run: RunCounts, log: (line: string) => void): Promise<void> {
    const part = partOfCheck(run.functionName);
    if (this.settings === undefined || part === undefined) return;
    if (typeof this.settings === "string") this.note(this.settings);
    else if (this.inFlight < MAX_IN_FLIGHT)
      await this.waitBriefly(this.send(this.settings, this.recordOf(run, part, this.settings)));
    this.flushHint(log);
  }

  private recordOf(run: RunCounts, part: BoardRecord["aufgabe"], settings: BoardSettings): BoardRecord {
    const open = run.cases?.filter((c) => c.notSolved === true).length ?? 0;
    const record: BoardRecord = {
      name: settings.name,
      aufgabe: part,
      check: run.functionName,
      passed: run.passed,
      failed: run.failed - open,
      at: new Date().toISOString(),
    };
    return open > 0 ? { ...record, open } : record;
  }

  private async send(settings: BoardSettings, record: BoardRecord): Promise<void> {
    this.inFlight++;
    try {
      const response = await fetch(new URL(BOARD_POST_PATH, settings.url), {
        method: "POST",
        headers: {
          "content-type": "application/json",
          [BOARD_CODE_HEADER]: settings.code,
          ...(settings.token ? { [BOARD_TOKEN_HEADER]: settings.token } : {}),
        },
        body: JSON.stringify(record),
        signal: AbortSignal.timeout(REPORT_TIMEOUT_MS),
      });
      const fehler = response.ok
        ? ""
        : boardRefusalText(
            await response.json().catch(ignore("a refusal without a JSON body: the generic text is used")),
          );
      await response.body?.cancel().catch(ignore("the rest of the answer is not needed"));
      const hint = statusHint(response.status, settings, fehler);
      if (hint) this.note(hint);
    } catch {
      this.note(
        `ℹ️ Klassen-Board ${settings.url} nicht erreichbar – deine Selbsttests laufen normal weiter, nur die Meldung an die Kursleitung fehlt. ${ONCE}`,
      );
    } finally {
      this.inFlight--;
    }
  }

  private async waitBriefly(sending: Promise<void>): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, REPORT_GRACE_MS)));
    await Promise.race([sending, grace]);
    clearTimeout(timer);
  }

  private note(hint: string): void {
    this.hint ??= hint;
  }

  /** Prints the hint once per reporter: in this run, or in the next one when the answer came late. */
  private flushHint(log: (line: string) => void): void {
    if (this.hint === undefined || this.hintShown) return;
    this.hintShown = true;
    log(this.hint);
  }
}

let kernelReporter: BoardReporter | undefined;

/** The reporter of this process (a notebook kernel), made from its environment on first use. */
export function kernelBoardReporter(): BoardReporter {
  kernelReporter ??= new BoardReporter(boardSettingsFromEnv());
  return kernelReporter;
}
