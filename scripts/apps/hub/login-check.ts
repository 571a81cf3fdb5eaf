// The hub's login, decided by the board's own code: JupyterHub's authenticator (Python, jupyterhub_config.py)
// asks this small loopback endpoint of `npm run hub` for every login instead of copying the rules —
// the join code as the board checks it (limits.ts: a right code always passes, wrong ones are limited per
// address and overall), the name as the board checks it (boardNameProblem, cleanBoardName, participantKey),
// a name that looks like a participant's already there is refused (look-alike.ts), at most `max`
// participants; with a board, the participant is put on it at once ("nicht begonnen", board-join.ts).
import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { boardNameProblem, cleanBoardName } from "../../../lib/exercises/board-record.js";
import { JoinCodeGate } from "../board/limits.js";
import { lookAlikeSkeleton } from "../board/look-alike.js";
import { participantKey } from "../board/state.js";
import { joinBoard } from "./board-join.js";
import type { HubParticipant } from "./participants.js";
import { PinLimits, pinProblem, type PinStore } from "./pin.js";

/** What the endpoint answers for one login: the participant's name and key, or why not (German). */
export type LoginAnswer = { name: string; key: string } | { problem: string };

/** What the authenticator sends: the form's fields and the address the login came from. */
export interface LoginRequest {
  name: string;
  code: string;
  /** The participant's personal PIN: chosen at the first login, needed at every later one. */
  pin: string;
  address: string;
}

export interface LoginRules {
  code: string;
  max: number;
  /** The participants the hub knows now (teilnehmende.json). */
  participants: () => HubParticipant[];
  /** The participants' PINs (pin.ts). */
  pins: PinStore;
  /** The class board's URL (--board): participants are put on it at login. */
  boardUrl?: string;
  /** The board's hub key (board/hub-trust.ts): the hub's own join, past the per-address limit. */
  boardHubKey?: string;
  /** The instructor's console. */
  log: (line: string) => void;
  now?: () => number;
}

export function checkName(raw: string): LoginAnswer {
  const problem = boardNameProblem(raw);
  if (problem !== undefined) return { problem };
  const name = cleanBoardName(raw)!;
  return { name, key: participantKey(name) };
}

/** The participant (not `name` itself) whose name looks like `name` on the projector, e.g. "Anna" for "Аnna". */
export function lookAlikeOf(name: string, known: HubParticipant[]): string | undefined {
  const key = participantKey(name);
  const skeleton = lookAlikeSkeleton(name);
  return known.find((p) => participantKey(p.name) !== key && lookAlikeSkeleton(p.name) === skeleton)?.name;
}

/** How long a granted seat counts before the hub's participant list shows it (the hub writes it at once). */
export const SEAT_HOLD_MS = 60_000;

export class LoginCheck {
  private readonly gate: JoinCodeGate;
  private readonly pinLimits = new PinLimits();
  /**
   * Seats granted to new participants that the participant list may not show yet (key → when): logins are
   * checked concurrently, so --max counts these too.
   */
  private readonly seats = new Map<string, number>();
  /** Board problems already on the console (each once, until the board takes a name again). */
  private readonly boardWarnings = new Set<string>();

  constructor(private readonly rules: LoginRules) {
    this.gate = new JoinCodeGate(rules.log);
  }

  async decide(request: LoginRequest): Promise<LoginAnswer> {
    const now = this.now();
    const verdict = this.gate.check(request.code, this.rules.code, request.address, now);
    if (verdict === "too-many-wrong")
      return {
        problem: "Zu viele falsche Codes – bitte eine Minute warten und den Code genau von der Tafel abschreiben.",
      };
    if (verdict === "wrong")
      return { problem: "Der Beitrittscode stimmt nicht – er steht an der Tafel bzw. auf dem Beamer." };
    const checked = checkName(request.name);
    if ("problem" in checked) return checked;
    const participants = this.rules.participants();
    const known = participants.find((p) => participantKey(p.name) === checked.key);
    if (!known && !this.seats.has(checked.key)) {
      const twin = lookAlikeOf(checked.name, participants);
      if (twin)
        return {
          problem: `Der Name sieht aus wie „${twin}“, der schon angemeldet ist – bitte einen deutlich anderen Namen wählen (oder, falls du das bist, genau so schreiben wie beim ersten Mal).`,
        };
      if (this.seatsTaken(participants) >= this.rules.max)
        return { problem: `Der Kurs ist voll (${this.rules.max} Teilnehmende). Bitte bei der Kursleitung melden.` };
      this.seats.set(checked.key, this.now());
    }
    const name = known?.name ?? checked.name;
    // A name without a stored PIN chooses one; with one (also while the hub has not listed the name yet) it must match.
    const choosing = !this.rules.pins.has(checked.key);
    const pinRefusal = choosing ? pinProblem(request.pin) : await this.checkPin(name, checked.key, request, now);
    if (pinRefusal) return { problem: pinRefusal };
    const refusal = await this.putOnBoard(name, !known);
    if (refusal) {
      this.seats.delete(checked.key);
      return { problem: refusal };
    }
    if (choosing && !(await this.rules.pins.setFirst(checked.key, request.pin))) {
      // Another login with this new name chose its PIN a moment ago: that one counts.
      const wrong = await this.checkPin(name, checked.key, request, now);
      if (wrong) return { problem: wrong };
    }
    return { name, key: checked.key };
  }

  /** A known participant's PIN: refused in German when missing or wrong; wrong ones count per participant (and as wrong tries of the address). */
  private async checkPin(name: string, key: string, request: LoginRequest, now: number): Promise<string | undefined> {
    if (request.pin === "")
      return `„${name}“ ist schon angemeldet – bitte deine PIN eingeben. Vergessen? Die Kursleitung kann sie zurücksetzen.`;
    // Limited per participant, not per address: the whole room may come from one address, and one guesser
    // there must not lock everybody out; the PIN is not even checked while the limit holds (no oracle).
    if (this.pinLimits.blocked(key, now)) {
      return "Zu viele falsche PINs für diesen Namen – bitte zwei Minuten warten. PIN vergessen? Die Kursleitung kann sie zurücksetzen.";
    }
    if (await this.rules.pins.matches(key, request.pin)) return undefined;
    this.gate.countWrong(request.address, now); // wrong PINs also use up the address's wrong tries (codes)
    if (this.pinLimits.countWrong(key, now))
      this.rules.log(
        `WARNUNG: Viele falsche PINs für „${name}“ – rät jemand? Weitere Versuche für diesen Namen werden gebremst.`,
      );
    return `Die PIN für „${name}“ stimmt nicht. Vergessen? Die Kursleitung kann sie zurücksetzen.`;
  }

  private now(): number {
    return (this.rules.now ?? Date.now)();
  }

  /** Participants on the list plus seats granted meanwhile (dropped once listed or after SEAT_HOLD_MS). */
  private seatsTaken(participants: HubParticipant[]): number {
    const listed = new Set(participants.map((p) => participantKey(p.name)));
    for (const [key, at] of this.seats) if (listed.has(key) || this.now() - at > SEAT_HOLD_MS) this.seats.delete(key);
    return listed.size + this.seats.size;
  }

  /** Joins the board (if one runs); returns the board's reason when it refuses a new participant's name. */
  private async putOnBoard(name: string, isNew: boolean): Promise<string | undefined> {
    if (!this.rules.boardUrl) return undefined;
    const joined = await joinBoard(this.rules.boardUrl, this.rules.code, name, this.rules.boardHubKey);
    if (joined.outcome === "on-board") {
      this.boardWarnings.clear();
      return undefined;
    }
    if (joined.outcome === "name-refused" && isNew) return joined.reason;
    if (!this.boardWarnings.has(joined.reason)) {
      this.boardWarnings.add(joined.reason);
      this.rules.log(
        `Klassen-Board: „${name}“ steht noch nicht darauf (${joined.reason.replace(/\.$/, "")}); der Name erscheint mit dem ersten Selbsttest.`,
      );
    }
    return undefined;
  }
}

export interface LoginCheckServer {
  url: string;
  /** Sent in `x-kurs-token`; only the hub (settings file, mode 600) knows it. */
  token: string;
  close(): Promise<void>;
}

function loginRequest(body: string): LoginRequest {
  let parsed: Record<string, unknown> = {};
  try {
    parsed = (JSON.parse(body) as Record<string, unknown> | null) ?? {};
  } catch {
    // empty fields are refused by the checks
  }
  const text = (key: string) => (typeof parsed[key] === "string" ? (parsed[key] as string) : "");
  return { name: text("name"), code: text("code"), pin: text("pin"), address: text("address") };
}

export function startLoginCheck(rules: LoginRules): Promise<LoginCheckServer> {
  const check = new LoginCheck(rules);
  const token = randomBytes(16).toString("hex");
  const server = createServer((req, res) => {
    const given = Buffer.from(String(req.headers["x-kurs-token"] ?? ""));
    if (req.method !== "POST" || given.length !== token.length || !timingSafeEqual(given, Buffer.from(token))) {
      res.writeHead(403).end();
      return;
    }
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
      if (body.length > 4096) req.destroy();
    });
    req.on("end", () => {
      void check.decide(loginRequest(body)).then(
        (answer) =>
          res.writeHead(200, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(answer)),
        (error: unknown) => {
          rules.log(
            `Hub: eine Anmeldung ließ sich nicht prüfen (${String((error as Error | undefined)?.message ?? error).slice(0, 160)}).`,
          );
          res.writeHead(500).end();
        },
      );
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/login`,
        token,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}
