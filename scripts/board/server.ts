// The class board's HTTP server: the page (/), the state as JSON (/api/state) and the one post that
// participants' kernels send (BOARD_POST_PATH). Loopback only unless --host, then an explicit Host list as
// with the MCP servers (bind.ts + the SDK's hostHeaderValidation). A post needs the join code (compared
// in constant time), a body of at most BOARD_BODY_LIMIT_BYTES and exactly the record's fields; each
// participant and each address that sends wrong codes has a rate limit.
import { createHash, timingSafeEqual } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type NextFunction, type Request, type Response } from "express";
import { hostHeaderValidation } from "@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js";
import { BindError, DEFAULT_ALLOWED_HOSTS, hostForUrl, isLoopback, planBind } from "../../mcp-server-travel/src/transports/bind.js";
import { BOARD_BODY_LIMIT_BYTES, BOARD_CODE_HEADER, BOARD_POST_PATH } from "../../lib/exercises/board-record.js";
import { boardPage, joinQrSvg, PAGE_CSP, type BoardPageOptions } from "./page.js";
import { loopbackWarning } from "./reach.js";
import { boardView, participantKey, recordProblem, recordSchema, type BoardState } from "./state.js";

/** A participant may send this many records at once, then one per PER_PARTICIPANT_REFILL_MS. */
export const PER_PARTICIPANT_BURST = 20;
export const PER_PARTICIPANT_REFILL_MS = 1000;
/** Wrong join codes from one address: this many, then one per WRONG_CODE_REFILL_MS. */
export const WRONG_CODE_BURST = 10;
export const WRONG_CODE_REFILL_MS = 6000;
/** The board takes at most this many participants. */
export const MAX_PARTICIPANTS = 300;

/** Token buckets by key; full buckets are forgotten when the map grows large. */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly burst: number,
    private readonly refillMs: number,
  ) {}

  private refreshed(key: string, now: number): { tokens: number; at: number } {
    const b = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    b.tokens = Math.min(this.burst, b.tokens + (now - b.at) / this.refillMs);
    b.at = now;
    this.buckets.set(key, b);
    if (this.buckets.size > 5000) for (const [k, v] of this.buckets) if (v.tokens >= this.burst) this.buckets.delete(k);
    return b;
  }

  /** True when `key` may go ahead now (and uses up one token). */
  take(key: string, now: number): boolean {
    const b = this.refreshed(key, now);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  /** True when `key` has no token left (without using one). */
  exhausted(key: string, now: number): boolean {
    return this.refreshed(key, now).tokens < 1;
  }
}

/** Constant-time comparison of a given code with the join code (equal-length digests). */
export function codeMatches(given: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(given), digest(expected));
}

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
}

export interface RunningBoard {
  /** The URL for the projector (loopback names stay reachable on the instructor's laptop). */
  url: string;
  /** The URL participants give to `--kurs`. */
  joinUrl: string;
  port: number;
  close(): Promise<void>;
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

function bodyErrors(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  const type = (error as { type?: string } | undefined)?.type;
  if (type === "entity.too.large") return refuse(res, 413, `Die Meldung ist zu groß (höchstens ${BOARD_BODY_LIMIT_BYTES} Bytes).`);
  if (type === "entity.parse.failed" || type === "encoding.unsupported" || type === "charset.unsupported") {
    return refuse(res, 400, "Die Meldung ist kein gültiges JSON.");
  }
  next(error);
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
  if (bind.warning) options.log(`WARNUNG: Das Klassen-Board ist unter ${options.host} für jedes Gerät im Netz erreichbar; melden kann nur, wer den Beitrittscode kennt. Erlaubte Host-Namen: ${bind.allowedHosts.join(", ")}.`);
  const allowed = [...new Set([...bind.allowedHosts, ...DEFAULT_ALLOWED_HOSTS])];
  const perParticipant = new RateLimiter(PER_PARTICIPANT_BURST, PER_PARTICIPANT_REFILL_MS);
  const wrongCodes = new RateLimiter(WRONG_CODE_BURST, WRONG_CODE_REFILL_MS);
  const { state } = options;
  let joinUrl = "";
  let joinQr = "";
  const loopback: BoardPageOptions["loopback"] = isLoopback(options.host) ? loopbackWarning(options.host) : undefined;

  const app = express();
  app.disable("x-powered-by");
  app.use(hostHeaderValidation(allowed));

  app.get("/", (req, res) => {
    res.set({ "content-security-policy": PAGE_CSP, "cache-control": "no-store", "x-content-type-options": "nosniff" });
    const join = fromLoopback(req) ? { url: joinUrl, code: state.joinCode, qrSvg: joinQr } : undefined;
    res.type("html").send(boardPage({ join, loopback }));
  });

  app.get("/api/state", (_req, res) => {
    res.set("cache-control", "no-store").json(boardView(state, now(), options.stuckAfterMin));
  });

  const checkCode = (req: Request, res: Response, next: NextFunction) => {
    const address = req.socket.remoteAddress ?? "?";
    if (wrongCodes.exhausted(address, now())) return refuse(res, 429, "Zu viele falsche Beitrittscodes – bitte eine Minute warten.");
    const given = req.headers[BOARD_CODE_HEADER];
    if (typeof given === "string" && codeMatches(given, state.joinCode)) return next();
    wrongCodes.take(address, now());
    refuse(res, 403, "Beitrittscode fehlt oder ist falsch.");
  };

  const accept = (req: Request, res: Response) => {
    const parsed = recordSchema.safeParse(req.body);
    if (!parsed.success) return refuse(res, 400, "Die Meldung hat nicht die erwartete Form (name, aufgabe, check, passed, failed, at).");
    const record = parsed.data;
    const problem = recordProblem(record);
    if (problem) return refuse(res, 400, problem);
    if (!state.has(record.name) && state.size >= MAX_PARTICIPANTS) return refuse(res, 409, `Das Board ist voll (${MAX_PARTICIPANTS} Teilnehmende).`);
    if (!perParticipant.take(participantKey(record.name), now())) return refuse(res, 429, "Zu viele Meldungen in kurzer Zeit – diese wird ausgelassen.");
    state.apply(record, now());
    options.onChange();
    res.status(200).json({ ok: true });
  };

  // `npm run workshop` asks this once at start: is the board there, and is the code right?
  app.post("/api/pruefen", originCheck(allowed), checkCode, (_req: Request, res: Response) => void res.json({ ok: true }));
  app.post(BOARD_POST_PATH, originCheck(allowed), checkCode, express.json({ limit: BOARD_BODY_LIMIT_BYTES, type: () => true }), accept);
  app.use(bodyErrors);
  app.use((_req: Request, res: Response) => refuse(res, 404, "Nicht gefunden."));

  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(options.port, options.host, () => resolve(s));
    s.once("error", reject);
  });
  const port = (server.address() as AddressInfo).port;
  const localHost = isLoopback(options.host) ? bind.urlHost : "127.0.0.1";
  joinUrl = `http://${bind.urlHost}:${port}`;
  joinQr = await joinQrSvg(joinUrl);
  return {
    url: `http://${hostForUrl(localHost)}:${port}/`,
    joinUrl,
    port,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
