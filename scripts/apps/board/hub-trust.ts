// The Klassenraum-Hub's own channel to the board. All kernels on the hub post from 127.0.0.1, so the board
// cannot tell participants apart by address: the hub puts a participant on the board with the board's hub
// key (a file beside the board's data, mode 600, readable by root and the instructor only), which skips the
// per-address limit for new names; and each kernel gets a token for its participant's name only
// (HMAC of the key and the name's key), so a kernel cannot post under another participant's name. Names
// the hub put on the board need their token from then on (kept in hub-namen.json beside the data).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../../../lib/files.js";
import { ignore } from "../../../lib/util.js";

export function hubKeyPath(boardData: string): string {
  return join(dirname(boardData), "hub-schluessel");
}

/** The board's hub key: the stored one, else a new one (written with mode 600). */
export function ensureHubKey(boardData: string): string {
  const path = hubKeyPath(boardData);
  if (existsSync(path)) {
    const stored = readFileSync(path, "utf8").trim();
    if (/^[0-9a-f]{32,}$/.test(stored)) return stored;
  }
  const key = randomBytes(32).toString("hex");
  writeFileSync(path, `${key}\n`, { mode: 0o600 });
  return key;
}

/** The hub key if the board beside `boardData` made one (the hub reads it; undefined: no trusted join). */
export function readHubKey(boardData: string): string | undefined {
  try {
    const key = readFileSync(hubKeyPath(boardData), "utf8").trim();
    return /^[0-9a-f]{32,}$/.test(key) ? key : undefined;
  } catch {
    return undefined;
  }
}

/** The token of one participant (by participantKey): what their kernel sends as BOARD_TOKEN_HEADER. */
export function participantToken(hubKey: string, key: string): string {
  return createHmac("sha256", hubKey).update(`kurs-board:${key}`).digest("hex").slice(0, 32);
}

export function sameSecret(given: unknown, expected: string): boolean {
  const a = Buffer.from(typeof given === "string" ? given : "");
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The names (participantKey) the hub put on the board, kept beside the board's data. */
export class HubNames {
  private readonly keys: Set<string>;
  private readonly path: string;

  constructor(boardData: string) {
    this.path = join(dirname(boardData), "hub-namen.json");
    let stored: unknown = [];
    try {
      stored = JSON.parse(readFileSync(this.path, "utf8"));
    } catch {
      // none yet (or unreadable: the hub adds them again at the next login)
    }
    this.keys = new Set(Array.isArray(stored) ? stored.filter((k): k is string => typeof k === "string") : []);
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }

  add(key: string): void {
    if (this.keys.has(key)) return;
    this.keys.add(key);
    void writeFileAtomic(this.path, `${JSON.stringify([...this.keys])}\n`, { mode: 0o600 }).catch(
      ignore("the key stays trusted in memory; the next new key writes the file again"),
    );
  }
}
