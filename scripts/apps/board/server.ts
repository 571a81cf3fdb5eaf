// The class board's HTTP server: the page (/), the state as JSON (/api/state), the join (BOARD_JOIN_PATH:
// `npm run workshop` checks the code and puts the name on the board) and the one post that participants'
// kernels send (BOARD_POST_PATH). Loopback only unless --host, then an explicit Host list as
// with the MCP servers (bind.ts; the Host check as the SDK's hostHeaderValidation, in German). A post needs the join code (compared
// in constant time), a body of at most BOARD_BODY_LIMIT_BYTES and exactly the record's fields. Wrong codes
// are limited per address and for the whole board, but a right code always gets through (join-code.ts says
// why the code's length, not the limit, keeps guessers out); each participant and each address adding new
// names has a rate limit too. Every refusal is a short German JSON message, never a stack.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type NextFunction, type Request, type Response } from "express";
import { BindError, DEFAULT_ALLOWED_HOSTS, hostForUrl, isLoopback, planBind } from "../../node/bind.js";
import { z } from "zod";
import {
  BOARD_BODY_LIMIT_BYTES,
  BOARD_CODE_HEADER,
  BOARD_HELP_PATH,
  BOARD_HUB_HEADER,
  BOARD_JOIN_PATH,
  BOARD_NAME_MAX,
  BOARD_POST_PATH,
  BOARD_QUESTION_MAX,
  BOARD_TOKEN_HEADER,
  boardNameProblem,
} from "../../../lib/exercises/board-record.js";
import { participantToken, sameSecret, type HubNames } from "./hub-trust.js";
import { addressKey, JoinCodeGate, TokenBuckets } from "./limits.js";
import { boardPage, joinHtml, joinQrSvg, PAGE_CSP, type BoardPageOptions } from "./page.js";
import { BOARD_INSTRUCTOR_HEADER, BOARD_JOIN_INFO_PATH, instructorBlock, instructorLink } from "./instructor.js";
import { loopbackWarning } from "./reach.js";
import { boardView, participantKey, recordProblem, recordSchema, type BoardState } from "./state.js";

/** A participant may send this many records at once, then one per PER_PARTICIPANT_REFILL_MS. */
export const PER_PARTICIPANT_BURST = 20;
export const PER_PARTICIPANT_REFILL_MS = 1000;
/** New names from one address (a Klassenraum-Hub sends a whole room's): this many, then one per NEW_NAME_REFILL_MS. */
export const NEW_NAMES_PER_ADDRESS_BURST = 60;
export const NEW_NAME_REFILL_MS = 10_000;
/** Hands raised by one participant while none of theirs is up: this many, then one per HAND_REFILL_MS
 * (calling hilfe() again while the hand is up only changes the question, no limit); hands of names new to
 * the board without a participant token, per address: HANDS_PER_ADDRESS_BURST, then one per HAND_REFILL_MS. */
export const HANDS_PER_PARTICIPANT_BURST = 3;
export const HANDS_PER_ADDRESS_BURST = 10;
export const HAND_REFILL_MS = 20_000;
/** The instructor's page: lower a raised hand, set the class's Aufgabe (see `instructorOnly`). */
export const BOARD_LOWER_PATH = "/api/hilfe-erledigt";
export const BOARD_CLASS_PATH = "/api/klassen-aufgabe";
/** The board takes at most this many participants. */
export const MAX_PARTICIPANTS = 300;
export { GLOBAL_WRONG_CODE_BURST, WRONG_CODE_BURST } from "./limits.js";

export interface BoardServerOptions {
  host: string;
  port: number;
  allowedHosts?: string[];
  state: BoardState;
  /** Called after every accepted record (the caller saves the state). */
  onChange: () => void;
  log: (line: string) => void;
  now?: () => number;
  /** Minutes without a ✅ after which a participant counts as stuck (progress.ts). */
  stuckAfterMin?: number;
  /** The Klassenraum-Hub's channel (hub-trust.ts): its key and the names it put on the board. */
  hub?: { key: string; names: HubNames };
  /** Klassenraum mode: the hub's login page, where participants join (shown with its QR code instead of the
   * board's own address; the board then stays on loopback without a warning). */
  roomUrl?: string;
}

export interface RunningBoard {
  /** The URL for the projector (loopback names stay reachable on the instructor's laptop). */
  url: string;
  /** The URL participants give to `--kurs`. */
  joinUrl: string;
  port: number;
  close(): Promise<void>;
}

/** What joining sends: the name, or nothing (only the code is checked). */
const joinSchema = z
  .object({
    name: z
      .string()
      .max(BOARD_NAME_MAX * 4)
      .optional(),
  })
  .strict();
/** A raised hand: the name and a short question (may be empty). */
const helpSchema = z
  .object({ name: z.string().max(BOARD_NAME_MAX * 4), frage: z.string().max(BOARD_QUESTION_MAX * 4) })
  .strict();
/** The instructor's page (loopback): lower a hand, set the class's Aufgabe (null: the majority's). */
const lowerSchema = z.object({ name: z.string().max(BOARD_NAME_MAX * 4) }).strict();
const classAufgabeSchema = z
  .object({ aufgabe: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.null()]) })
  .strict();

/** A question as the board shows it: one line, no control characters, at most BOARD_QUESTION_MAX characters. */
export function cleanQuestion(raw: string): string {
  const line = raw
    .normalize("NFC")
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, " ")
    .replace(/\s+/gu, " ")
    .trim();
  const chars = [...line];
  return chars.length > BOARD_QUESTION_MAX ? `${chars.slice(0, BOARD_QUESTION_MAX - 1).join("")}…` : line;
}

function refuse(res: Response, status: number, fehler: string): void {
  res.status(status).json({ fehler });
}

function fromLoopback(req: Request): boolean {
  const address = (req.socket.remoteAddress ?? "").replace(/^::ffff:/, "");
  return isLoopback(address);
}

/** Rejects a post whose Origin names a host outside the list (a web page of someone else). */
function originCheck(allowed: string[]) {
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    if (origin === undefined) return next();
    let hostname = "";
    try {
      hostname = hostForUrl(new URL(origin).hostname);
    } catch {
      // an unreadable Origin is refused below
    }
    if (!allowed.includes(hostname)) return refuse(res, 403, "Herkunft (Origin) nicht erlaubt.");
    next();
  };
}

/** Refuses a request whose Host header names none of `allowed` (DNS rebinding), in German. */
function hostCheck(allowed: string[]) {
  return (req: Request, res: Response, next: NextFunction) => {
    let hostname = "";
    try {
      hostname = new URL(`http://${req.headers.host ?? ""}`).hostname;
    } catch {
      // an unreadable Host is refused below
    }
    if (!hostname || !allowed.includes(hostname))
      return refuse(res, 403, "Dieser Host-Name ist für das Klassen-Board nicht freigegeben (--allowed-host).");
    next();
  };
}

/**
 * Every error a request can cause (body too large, not JSON, compressed, a broken connection, a bug) as a
 * short German answer; the console gets one line, never a stack.
 */
function requestErrors(log: (line: string) => void) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    const { type, status } = (error ?? {}) as { type?: string; status?: number };
    if (type === "entity.too.large")
      return refuse(res, 413, `Die Meldung ist zu groß (höchstens ${BOARD_BODY_LIMIT_BYTES} Bytes).`);
    if (type === "encoding.unsupported")
      return refuse(res, 415, "Das Board nimmt nur unkomprimierte Meldungen an (ohne Content-Encoding).");
    if (type === "entity.parse.failed" || type === "charset.unsupported")
      return refuse(res, 400, "Die Meldung ist kein gültiges JSON.");
    if (typeof status === "number" && status >= 400 && status < 500)
      return refuse(res, 400, "Die Meldung war nicht lesbar.");
    log(
      `Klassen-Board: eine Anfrage schlug fehl (${String((error as Error | undefined)?.message ?? error)
        .split("\n")[0]!
        .slice(0, 160)}).`,
    );
    if (!res.headersSent) refuse(res, 500, "Interner Fehler im Klassen-Board – bitte der Kursleitung sagen.");
  };
}

/** planBind (as the MCP servers) with the board's own German wording. */
function planBoardBind(host: string, allowedHosts: string[] | undefined): ReturnType<typeof planBind> {
  try {
    return planBind(host, allowedHosts, "Klassen-Board");
  } catch (error) {
    if (!(error instanceof BindError)) throw error;
    throw new BindError(
      `--host ${host} macht das Klassen-Board im ganzen Netz erreichbar. Gib dazu mit --allowed-host den Namen oder die ` +
        "Adresse an, unter der die Laptops diesen Rechner erreichen (z. B. --allowed-host kurs-pc.local oder " +
        "--allowed-host 192.168.1.20; mehrfach möglich), oder lass --host weg (nur dieser Rechner).",
    );
  }
}

export async function startBoardServer(options: BoardServerOptions): Promise<RunningBoard> {
  const now = options.now ?? Date.now;
  const bind = planBoardBind(options.host, options.allowedHosts);
  if (bind.warning)
    options.log(
      `WARNUNG: Das Klassen-Board ist unter ${options.host} für jedes Gerät im Netz erreichbar; melden kann nur, wer den Beitrittscode kennt. Erlaubte Host-Namen: ${bind.allowedHosts.join(", ")}.`,
    );
  const allowed = [...new Set([...bind.allowedHosts, ...DEFAULT_ALLOWED_HOSTS])];
  const perParticipant = new TokenBuckets(PER_PARTICIPANT_BURST, PER_PARTICIPANT_REFILL_MS);
  const codeGate = new JoinCodeGate(options.log);
  const newNames = new TokenBuckets(NEW_NAMES_PER_ADDRESS_BURST, NEW_NAME_REFILL_MS);
  const handsOfParticipant = new TokenBuckets(HANDS_PER_PARTICIPANT_BURST, HAND_REFILL_MS);
  const handsOfAddress = new TokenBuckets(HANDS_PER_ADDRESS_BURST, HAND_REFILL_MS);
  const { state } = options;
  let joinUrl = "";
  let joinQr = "";
  const { roomUrl } = options;
  const loopback: BoardPageOptions["loopback"] =
    isLoopback(options.host) && !roomUrl ? loopbackWarning(options.host) : undefined;
  // This machine's own browser is the instructor's — but not in Klassenraum mode, where the participants'
  // kernels run on this machine too: there only the instructor's link counts. The same once a hub's kernel
  // has posted with its participant token (a hub started alone with --board on this machine): hub mode.
  const localHostOf = () => (isLoopback(options.host) ? bind.urlHost : "127.0.0.1");
  const portOf = () => (server.address() as AddressInfo).port;
  let hubSeen = false;
  const trustedLoopback = (req: Request) => !roomUrl && !hubSeen && fromLoopback(req);
  const noteHub = () => {
    if (hubSeen || roomUrl) return;
    hubSeen = true;
    options.log(
      [
        "Klassenraum-Hub erkannt: Die Kernel der Teilnehmenden erreichen das Board über diesen Rechner. Hände senken und",
        "Aufgabe festlegen geht ab jetzt nur noch über den Kursleitungs-Link (auch im Browser dieses Rechners).",
        ...instructorBlock(instructorLink(`http://${hostForUrl(localHostOf())}:${portOf()}/`, state.instructorKey), 19),
      ].join("\n"),
    );
  };
  const joinInfo = () => ({ url: roomUrl ?? joinUrl, code: state.joinCode, qrSvg: joinQr, hub: Boolean(roomUrl) });

  const app = express();
  app.disable("x-powered-by");
  app.use(hostCheck(allowed));

  app.get("/", (req, res) => {
    res.set({ "content-security-policy": PAGE_CSP, "cache-control": "no-store", "x-content-type-options": "nosniff" });
    const join = fromLoopback(req) ? joinInfo() : undefined;
    res
      .type("html")
      .send(boardPage({ join, loopback, instructor: trustedLoopback(req), klassenraum: Boolean(roomUrl) }));
  });

  app.get("/api/state", (_req, res) => {
    res.set("cache-control", "no-store").json(boardView(state, now(), options.stuckAfterMin));
  });

  // A right code always passes: limits here only count wrong ones (per address and for everyone).
  const checkCode = (req: Request, res: Response, next: NextFunction) => {
    const verdict = codeGate.check(req.headers[BOARD_CODE_HEADER], state.joinCode, req.socket.remoteAddress, now());
    if (verdict === "right") return next();
    if (verdict === "too-many-wrong")
      return refuse(res, 429, "Zu viele falsche Beitrittscodes – bitte eine Minute warten und den Code prüfen.");
    refuse(res, 403, "Beitrittscode fehlt oder ist falsch.");
  };

  /** Why `name`, not yet on the board, may not join now (look-alike, full, too many new names from this
   * address); undefined when it may or is there already. The name itself must be checked before. */
  const newNameRefusal = (
    name: string,
    req: Request,
    trusted = false,
  ): { status: number; fehler: string } | undefined => {
    if (state.has(name)) return undefined;
    const twin = state.lookAlikeOf(name);
    if (twin)
      return {
        status: 409,
        fehler: `Der Name sieht aus wie „${twin}“, der schon auf dem Board steht – bitte einen deutlich anderen Namen wählen.`,
      };
    if (state.size >= MAX_PARTICIPANTS)
      return {
        status: 409,
        fehler: `Das Board ist voll (${MAX_PARTICIPANTS} Teilnehmende). Kursleitung: npm run board -- --entfernen NAME`,
      };
    if (!trusted && !newNames.take(addressKey(req.socket.remoteAddress), now()))
      return { status: 429, fehler: "Zu viele neue Namen von diesem Rechner in kurzer Zeit – bitte etwas warten." };
    return undefined;
  };

  /** A kernel of the hub posts only under its own participant's name (a name the hub put on the board needs
   * its token); false when the request's token is not that name's. */
  const ownName = (req: Request, name: string): boolean => {
    const token = req.headers[BOARD_TOKEN_HEADER];
    const key = participantKey(name);
    if (!options.hub) return true;
    const valid = sameSecret(token, participantToken(options.hub.key, key));
    if (valid) noteHub();
    return valid || (token === undefined && !options.hub.names.has(key));
  };

  const accept = (req: Request, res: Response) => {
    const parsed = recordSchema.safeParse(req.body);
    if (!parsed.success)
      return refuse(res, 400, "Die Meldung hat nicht die erwartete Form (name, aufgabe, check, passed, failed, at).");
    const record = parsed.data;
    const problem = recordProblem(record);
    if (problem) return refuse(res, 400, problem);
    if (!ownName(req, record.name))
      return refuse(res, 403, "Diese Meldung gehört nicht zu deinem Namen – jede:r meldet nur eigene Ergebnisse.");
    const refusal = newNameRefusal(record.name, req);
    if (refusal) return refuse(res, refusal.status, refusal.fehler);
    if (!perParticipant.take(participantKey(record.name), now()))
      return refuse(res, 429, "Zu viele Meldungen in kurzer Zeit – diese wird ausgelassen.");
    state.apply(record, now());
    options.onChange();
    res.status(200).json({ ok: true });
  };

  // `npm run workshop` asks this once at start: is the board there, is the code right — and, with a body
  // {"name": …}, puts the participant on the board as "nicht begonnen" (the same checks as a first result).
  // Without a body (an older kit) it only checks the code.
  const join = (req: Request, res: Response) => {
    const parsed = joinSchema.safeParse(req.body ?? {});
    if (!parsed.success) return refuse(res, 400, "Die Anmeldung hat nicht die erwartete Form (nur name).");
    const { name } = parsed.data;
    if (name === undefined) return void res.json({ ok: true });
    const problem = boardNameProblem(name);
    if (problem) return refuse(res, 400, problem);
    // The hub's own join (its key): a room's logins all come from the hub's address, so no per-address limit.
    const fromHub = options.hub !== undefined && sameSecret(req.headers[BOARD_HUB_HEADER], options.hub.key);
    const refusal = newNameRefusal(name, req, fromHub);
    if (refusal) return refuse(res, refusal.status, refusal.fehler);
    const joined = state.join(name, now());
    if (fromHub) {
      options.hub!.names.add(participantKey(name));
      noteHub();
    }
    if (joined.added) options.onChange();
    res.json({ ok: true, name: joined.name, neu: joined.added });
  };

  const jsonBody = express.json({ limit: BOARD_BODY_LIMIT_BYTES, type: () => true, inflate: false });
  // `hilfe("…")` in a notebook: the participant's hand goes up on the board (joining them if needed).
  const raiseHand = (req: Request, res: Response) => {
    const parsed = helpSchema.safeParse(req.body);
    if (!parsed.success) return refuse(res, 400, "Die Meldung hat nicht die erwartete Form (name, frage).");
    const problem = boardNameProblem(parsed.data.name);
    if (problem) return refuse(res, 400, problem);
    // The same credential as a result (join code, and in the hub the participant's token), and a limit of its own.
    if (!ownName(req, parsed.data.name))
      return refuse(res, 403, "Diese Hand gehört nicht zu deinem Namen – jede:r hebt nur die eigene Hand.");
    const { name } = parsed.data;
    const question = cleanQuestion(parsed.data.frage);
    const answer = () => {
      const { position } = state.raiseHand(state.join(name, now()).name, question, now());
      options.onChange();
      res.json({ ok: true, platz: position });
    };
    // A hand already up only gets its new question: no limit (hilfe() called again is no new hand).
    if (state.handRaised(name)) return answer();
    const isNew = !state.has(name);
    const refusal = newNameRefusal(name, req);
    if (refusal) return refuse(res, refusal.status, refusal.fehler);
    // Per address only for names new to the board: a room behind one address (NAT) raises many hands.
    const tokened = options.hub !== undefined && req.headers[BOARD_TOKEN_HEADER] !== undefined;
    if (isNew && !tokened && !handsOfAddress.take(addressKey(req.socket.remoteAddress), now()))
      return refuse(
        res,
        429,
        "Deine Hand ist NICHT oben: zu viele neue Namen von diesem Rechner in kurzer Zeit – bitte kurz warten und hilfe(…) noch einmal aufrufen.",
      );
    if (!handsOfParticipant.take(participantKey(name), now()))
      return refuse(
        res,
        429,
        `Deine Hand ist NICHT oben: zu oft in kurzer Zeit gehoben – bitte etwa ${HAND_REFILL_MS / 1000} Sekunden warten und hilfe(…) noch einmal aufrufen.`,
      );
    answer();
  };

  // Only the instructor may lower hands and set the class's Aufgabe: with the key of the instructor's link
  // (printed in the board's terminal), or from this machine's own browser (trustedLoopback).
  const instructorOnly = (req: Request, res: Response, next: NextFunction) => {
    if (trustedLoopback(req) || sameSecret(req.headers[BOARD_INSTRUCTOR_HEADER], state.instructorKey)) return next();
    refuse(
      res,
      403,
      "Nur die Kursleitung kann das – mit dem Kursleitungs-Link aus dem Terminal des Boards (Zeile „Kursleitung:“).",
    );
  };
  const lowerHand = (req: Request, res: Response) => {
    const parsed = lowerSchema.safeParse(req.body);
    if (!parsed.success) return refuse(res, 400, "Die Meldung hat nicht die erwartete Form (name).");
    const lowered = state.lowerHand(parsed.data.name);
    if (lowered) options.onChange();
    res.json({ ok: true, gesenkt: lowered });
  };
  const setClassAufgabe = (req: Request, res: Response) => {
    const parsed = classAufgabeSchema.safeParse(req.body);
    if (!parsed.success) return refuse(res, 400, "Aufgabe 1 bis 4 oder null (automatisch).");
    state.classAufgabe = parsed.data.aufgabe;
    options.onChange();
    res.json({ ok: true, aufgabe: state.classAufgabe });
  };

  app.post(BOARD_JOIN_PATH, originCheck(allowed), checkCode, jsonBody, join);
  app.post(BOARD_POST_PATH, originCheck(allowed), checkCode, jsonBody, accept);
  app.post(BOARD_HELP_PATH, originCheck(allowed), checkCode, jsonBody, raiseHand);
  app.get(BOARD_JOIN_INFO_PATH, instructorOnly, (_req, res) => {
    res.set("cache-control", "no-store").json(joinHtml(joinInfo()));
  });
  app.post(BOARD_LOWER_PATH, originCheck(allowed), instructorOnly, jsonBody, lowerHand);
  app.post(BOARD_CLASS_PATH, originCheck(allowed), instructorOnly, jsonBody, setClassAufgabe);
  app.use((_req: Request, res: Response) => refuse(res, 404, "Nicht gefunden."));
  app.use(requestErrors(options.log));

  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(options.port, options.host, () => resolve(s));
    s.once("error", reject);
  });
  const port = (server.address() as AddressInfo).port;
  const localHost = localHostOf();
  joinUrl = `http://${bind.urlHost}:${port}`;
  joinQr = await joinQrSvg(roomUrl ?? joinUrl);
  return {
    url: `http://${hostForUrl(localHost)}:${port}/`,
    joinUrl,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
