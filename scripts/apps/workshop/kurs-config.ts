// The participant's class-board setting for `npm run workshop -- --kurs <url> --name <Name> --code <Code>`:
// stored once in .cache/kurs.json, passed to the Jupyter kernel as KURS_BOARD, KURS_NAME, KURS_CODE
// (variables already set in the environment win). `--kurs aus` removes it; without it nothing is sent.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { z } from "zod";
import {
  BOARD_CODE_HEADER,
  BOARD_JOIN_PATH,
  boardNameProblem,
  boardRefusalText,
  cleanBoardName,
} from "../../../lib/exercises/board-record.js";
import { writeFileAtomic } from "../../../lib/files.js";
import { KitError } from "../../../lib/errors.js";

export interface KursConfig {
  board: string;
  name: string;
  code: string;
}

const configSchema = z.object({
  board: z.string(),
  name: z.string(),
  code: z.string(),
}) satisfies z.ZodType<KursConfig>;

export const KURS_FLAGS = ["--kurs", "--name", "--code"] as const;
const OFF = ["aus", "off"];

export function kursFile(root: string): string {
  return join(root, ".cache", "kurs.json");
}

export class KursError extends KitError {
  override name = "KursError";
}

/** Splits `--kurs X --name Y --code Z` (also `--kurs=X`) off the other arguments. */
export function splitKursArgs(args: string[]): {
  flags: Partial<Record<"kurs" | "name" | "code", string>>;
  rest: string[];
} {
  const flags: Partial<Record<"kurs" | "name" | "code", string>> = {};
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const flag = KURS_FLAGS.find((f) => arg === f || arg.startsWith(`${f}=`));
    if (!flag) {
      rest.push(arg);
      continue;
    }
    const value = arg.includes("=") ? arg.slice(flag.length + 1) : args[++i];
    if (value === undefined)
      throw new KursError(
        `${flag} braucht einen Wert, z. B. ${flag === "--kurs" ? "--kurs http://192.168.1.20:8790" : `${flag} Anna`}.`,
      );
    flags[flag.slice(2) as "kurs" | "name" | "code"] = value;
  }
  return { flags, rest };
}

export function readKursConfig(root: string): KursConfig | undefined {
  const file = kursFile(root);
  if (!existsSync(file)) return undefined;
  const parsed = configSchema.safeParse(
    (() => {
      try {
        return JSON.parse(readFileSync(file, "utf8")) as unknown;
      } catch {
        return undefined;
      }
    })(),
  );
  return parsed.success ? parsed.data : undefined;
}

function checkedUrl(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url.trim());
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
    throw new KursError(`--kurs braucht die Adresse des Boards, z. B. http://192.168.1.20:8790 (nicht „${url}“).`);
  }
  return parsed.origin;
}

/** Applies the flags to the stored setting: saves, updates or removes it; returns the setting now in force. */
export async function updateKursConfig(
  root: string,
  flags: Partial<Record<"kurs" | "name" | "code", string>>,
): Promise<KursConfig | undefined> {
  const stored = readKursConfig(root);
  if (flags.kurs !== undefined && OFF.includes(flags.kurs.trim().toLowerCase())) {
    rmSync(kursFile(root), { force: true });
    return undefined;
  }
  if (flags.kurs === undefined && flags.name === undefined && flags.code === undefined) return stored;
  const board = flags.kurs !== undefined ? checkedUrl(flags.kurs) : stored?.board;
  if (!board)
    throw new KursError(
      "--name und --code gehören zu --kurs <Adresse des Boards>, z. B. --kurs http://192.168.1.20:8790 --name Anna --code k7mq-2xhp-9dta.",
    );
  const rawName = flags.name ?? stored?.name ?? "";
  const name = cleanBoardName(rawName);
  if (!rawName.trim())
    throw new KursError("Mit --kurs bitte auch --name angeben (1 bis 40 Zeichen, z. B. --name Anna).");
  if (!name) throw new KursError(`--name: ${boardNameProblem(rawName)}`);
  const config: KursConfig = { board, name, code: (flags.code ?? stored?.code ?? "").trim() };
  await mkdir(dirname(kursFile(root)), { recursive: true });
  await writeFileAtomic(kursFile(root), `${JSON.stringify(config, null, 2)}\n`);
  return config;
}

/** The kernel's environment: KURS_* from the stored setting, unless KURS_BOARD is already set. */
export function kursEnvironment(env: NodeJS.ProcessEnv, config: KursConfig | undefined): NodeJS.ProcessEnv {
  if (env.KURS_BOARD !== undefined || !config) return env;
  return { ...env, KURS_BOARD: config.board, KURS_NAME: config.name, KURS_CODE: config.code };
}

/** The board's answer to the join, in German (an older board answers only `{ ok: true }`). */
async function joinAnswer(response: Response): Promise<string> {
  const body = (await response.json().catch(() => ({}))) as { name?: unknown; neu?: unknown };
  if (response.ok) {
    const name = typeof body.name === "string" ? cleanBoardName(body.name) : undefined;
    if (name === undefined) return "Board erreichbar, Code stimmt ✅";
    return body.neu === true
      ? `Board erreichbar, Code stimmt ✅ – „${name}“ steht jetzt auf dem Board (nicht begonnen)`
      : `Board erreichbar, Code stimmt ✅ – „${name}“ steht schon auf dem Board (bist du das nicht, bitte mit --name einen anderen Namen wählen)`;
  }
  if (response.status === 403) return "❌ Beitrittscode falsch – neu setzen mit --code <Code>";
  const fehler = boardRefusalText(body);
  if (!fehler) return `❌ Board antwortet mit HTTP ${response.status}`;
  const reason = fehler.replace(/\.$/, "");
  if (response.status === 429)
    return `⚠️ Board gerade ausgelastet (${reason}) – dein Name erscheint mit deinem ersten Selbsttest`;
  if (/^Der Name/.test(fehler)) return `❌ Name nicht angenommen: ${reason} – neu setzen mit --name <Name>`;
  return `❌ Nicht auf dem Board: ${reason}`;
}

/**
 * Joins the class board and says so in one German line: what is sent where, whether the board answers to
 * this code, and whether the name now stands on the board ("nicht begonnen" until the first result) or
 * was refused (look-alike, board full, too many new names; 1.5 s at most).
 */
export async function kursStatusLine(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const board = env.KURS_BOARD?.trim();
  if (!board) return undefined;
  const what = `Klassen-Board: Selbsttests melden an ${board} als „${env.KURS_NAME ?? ""}“ (nur Name, Aufgabe, Selbsttest, ✅/❌-Zahlen, Uhrzeit).`;
  let answer: string;
  try {
    const name = env.KURS_NAME?.trim();
    const response = await fetch(new URL(BOARD_JOIN_PATH, board), {
      method: "POST",
      headers: { [BOARD_CODE_HEADER]: env.KURS_CODE ?? "", "content-type": "application/json" },
      body: JSON.stringify(name ? { name } : {}),
      signal: AbortSignal.timeout(1500),
    });
    answer = await joinAnswer(response);
  } catch {
    answer =
      "⚠️ Board gerade nicht erreichbar – die Notebooks laufen trotzdem, gemeldet wird, sobald es erreichbar ist";
  }
  return `${what}\n  ${answer}. Abschalten: npm run workshop -- --kurs aus`;
}
