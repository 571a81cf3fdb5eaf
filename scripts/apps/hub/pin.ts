// Each participant's personal PIN (issue 43): the class code only makes a new participant; the PIN chosen
// at the first login is what lets the same name in again (names stand on the projected board, so a name
// alone proves nothing). Stored salted and hashed with scrypt, one file per participant in the hub's state
// (`<state>/pins/<sha256 of the participant key>.json`, mode 600), so the login check writes and the
// instructor's `--pin-vergessen` deletes without a shared file to race on.
import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TokenBuckets } from "../board/limits.js";

export const PIN_MIN_LENGTH = 4;
export const PIN_MAX_LENGTH = 12;
/** Wrong PINs for one participant (from any address): this many, then one per PIN_WRONG_REFILL_MS. */
export const PIN_WRONG_BURST = 5;
export const PIN_WRONG_REFILL_MS = 120_000;

const SCRYPT: ScryptOptions = { N: 16384, r: 8, p: 1 };
const HASH_BYTES = 32;

interface StoredPin {
  salt: string;
  hash: string;
  N: number;
  r: number;
  p: number;
}

/** German reason a chosen PIN is not usable, or undefined. */
export function pinProblem(pin: string): string | undefined {
  const length = [...pin].length;
  if (length < PIN_MIN_LENGTH || length > PIN_MAX_LENGTH)
    return `Bitte eine PIN mit ${PIN_MIN_LENGTH} bis ${PIN_MAX_LENGTH} Zeichen wählen – du brauchst sie bei jeder weiteren Anmeldung.`;
  if (pin.trim() !== pin) return "Die PIN darf nicht mit Leerzeichen beginnen oder enden.";
  return undefined;
}

function derive(pin: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(pin.normalize("NFC"), salt, HASH_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export class PinStore {
  constructor(private readonly stateDir: string) {}

  private file(key: string): string {
    return join(this.stateDir, "pins", `${createHash("sha256").update(key, "utf8").digest("hex")}.json`);
  }

  has(key: string): boolean {
    return existsSync(this.file(key));
  }

  async set(key: string, pin: string): Promise<void> {
    const { file, tmp } = await this.written(key, pin);
    renameSync(tmp, file);
  }

  /**
   * Stores the first PIN of a name only if none is there (two logins with one new name at once: the first
   * wins, the other must then know it); false when a PIN was there already.
   */
  async setFirst(key: string, pin: string): Promise<boolean> {
    const { file, tmp } = await this.written(key, pin);
    try {
      linkSync(tmp, file); // atomic and exclusive: EEXIST when another login chose first
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw error;
    } finally {
      rmSync(tmp, { force: true });
    }
  }

  /** The hashed PIN in a file of its own beside its place. */
  private async written(key: string, pin: string): Promise<{ file: string; tmp: string }> {
    const salt = randomBytes(16);
    const hash = await derive(pin, salt, SCRYPT);
    const stored: StoredPin = {
      salt: salt.toString("hex"),
      hash: hash.toString("hex"),
      N: SCRYPT.N!,
      r: SCRYPT.r!,
      p: SCRYPT.p!,
    };
    mkdirSync(join(this.stateDir, "pins"), { recursive: true, mode: 0o700 });
    const file = this.file(key);
    const tmp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
    writeFileSync(tmp, JSON.stringify(stored), { mode: 0o600, flag: "wx" });
    return { file, tmp };
  }

  /** True when `pin` is the participant's PIN (false also when none is stored). */
  async matches(key: string, pin: string): Promise<boolean> {
    let stored: StoredPin;
    try {
      stored = JSON.parse(readFileSync(this.file(key), "utf8")) as StoredPin;
    } catch {
      return false;
    }
    const hash = await derive(pin, Buffer.from(stored.salt, "hex"), { N: stored.N, r: stored.r, p: stored.p });
    const expected = Buffer.from(stored.hash, "hex");
    return expected.length === hash.length && timingSafeEqual(hash, expected);
  }

  /** Forgets the participant's PIN (the next login chooses a new one); false when none was stored. */
  reset(key: string): boolean {
    if (!this.has(key)) return false;
    rmSync(this.file(key), { force: true });
    return true;
  }
}

/**
 * Wrong PINs per participant, from any address: PIN_WRONG_BURST, then one per PIN_WRONG_REFILL_MS. A 4-digit
 * PIN then takes days to guess for one name (5,000 tries on average ≈ 7 days) and hours for "anyone of 30".
 */
export class PinLimits {
  private readonly perParticipant = new TokenBuckets(PIN_WRONG_BURST, PIN_WRONG_REFILL_MS);

  blocked(key: string, now: number): boolean {
    return !this.perParticipant.available(key, now);
  }

  /** Counts a wrong PIN; true when this one used up the participant's tries. */
  countWrong(key: string, now: number): boolean {
    this.perParticipant.take(key, now);
    return this.blocked(key, now);
  }
}
