// A raised hand from a notebook: `await hilfe("kurze Frage")` puts the participant in the class board's
// help queue (the board shows who waits and how long; the instructor lowers the hand with a click or the
// key H). Only the name and the question go out, with the join code (and in the Klassenraum-Hub the
// participant's board token, as with results) — nothing else. Without a board
// (`npm run workshop` without --kurs) it says so and sends nothing. Never throws.
import {
  BOARD_CODE_HEADER,
  BOARD_HELP_PATH,
  BOARD_QUESTION_MAX,
  BOARD_TOKEN_HEADER,
  boardRefusalText,
} from "./board-record.js";
import { boardSettingsFromEnv, type BoardSettings } from "./board-report.js";
import { ignore } from "../util.js";

/** Longest time the call waits for the board. */
export const HELP_TIMEOUT_MS = 3000;

/** What `hilfe` did, in German (also printed). */
export interface HelpResult {
  ok: boolean;
  text: string;
}

/**
 * Raises your hand on the class board: `await hilfe("Mein Retriever findet nichts")`. The question is one
 * line (at most BOARD_QUESTION_MAX characters); calling again only changes it. Prints what happened.
 */
export async function hilfe(
  frage = "",
  options: { settings?: BoardSettings | string; log?: (line: string) => void } = {},
): Promise<HelpResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  const settings = options.settings ?? boardSettingsFromEnv();
  const done = (ok: boolean, text: string): HelpResult => {
    log(text);
    const result = { ok, text };
    // a cell ending in `await hilfe(…)` shows the printed line only, not the object too
    return Object.defineProperty(result, Symbol.for("nodejs.util.inspect.custom"), {
      enumerable: false,
      value: () => "",
    });
  };
  if (settings === undefined) {
    return done(
      false,
      "ℹ️ Kein Klassen-Board eingerichtet (Jupyter wurde ohne --kurs gestartet) – melde dich einfach bei der Kursleitung.",
    );
  }
  if (typeof settings === "string")
    return done(false, `${settings.replace(/ \(Dieser Hinweis.*$/, "")} Melde dich einfach bei der Kursleitung.`);
  const question = String(frage).trim();
  try {
    const response = await fetch(new URL(BOARD_HELP_PATH, settings.url), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        [BOARD_CODE_HEADER]: settings.code,
        ...(settings.token ? { [BOARD_TOKEN_HEADER]: settings.token } : {}),
      },
      body: JSON.stringify({ name: settings.name, frage: [...question].slice(0, BOARD_QUESTION_MAX * 2).join("") }),
      signal: AbortSignal.timeout(HELP_TIMEOUT_MS),
    });
    const body = (await response.json().catch(ignore("a refusal without a JSON body: the generic text is used"))) as
      { platz?: number } | undefined;
    if (!response.ok) {
      const why = boardRefusalText(body).replace(/\.$/, "") || `HTTP ${response.status}`;
      return done(
        false,
        `⚠️ Das Board hat die Meldung abgelehnt (${why}) – melde dich bitte direkt bei der Kursleitung.`,
      );
    }
    const place = typeof body?.platz === "number" && body.platz > 1 ? ` – vor dir warten ${body.platz - 1}` : "";
    return done(
      true,
      `✋ Hand gehoben: Die Kursleitung sieht dich auf dem Board${place}. Arbeite ruhig weiter, bis jemand kommt.`,
    );
  } catch {
    return done(
      false,
      `⚠️ Das Klassen-Board (${settings.url}) ist nicht erreichbar – melde dich bitte direkt bei der Kursleitung.`,
    );
  }
}
