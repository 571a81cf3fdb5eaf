// The board's join code: 12 characters in three groups of four ("k7mq-2xhp-9dta"), drawn with crypto
// randomness from 31 characters that cannot be mistaken for each other on a projector (no i, l, o, 0, 1).
//
// Strength: 31^12 ≈ 7.9·10^17 codes (≈ 2^59.5). The server compares every code it is given (a right code
// is never refused because of someone else's wrong tries, limits.ts), so the limits on wrong codes do not
// bound guessing — the board's own speed does. Even at 20,000 requests a second, far more than one Node
// process on a laptop answers, a whole day is 1.73·10^9 guesses: a chance of 1.73·10^9 / 7.9·10^17
// ≈ 2.2·10^-9 of hitting the code. (The old "fuchs-wolke-47" had 57,600 codes: found in seconds.)
import { randomInt } from "node:crypto";

const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
const GROUPS = 3;
const GROUP_LENGTH = 4;

/** What --code and a stored code must look like (an instructor may choose any code of this form). */
export const JOIN_CODE_PATTERN = /^[A-Za-z0-9._-]{4,64}$/;

/** Codes a generated code is drawn from: ALPHABET.length ** (GROUPS * GROUP_LENGTH). */
export const JOIN_CODE_SPACE = ALPHABET.length ** (GROUPS * GROUP_LENGTH);

export function randomJoinCode(): string {
  const group = () => Array.from({ length: GROUP_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
  return Array.from({ length: GROUPS }, group).join("-");
}

/**
 * True for a code that is easy to guess: shorter than a generated one, or in the old "fuchs-wolke-47"
 * form (two words and two digits) that boards before this one generated and stored.
 */
export function weakJoinCode(code: string): boolean {
  return code.length < GROUPS * (GROUP_LENGTH + 1) - 1 || /^[a-zäöü]+-[a-zäöü]+-\d{2}$/i.test(code);
}
