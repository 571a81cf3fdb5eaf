// The instructor's link: lowering hands and setting the class's Aufgabe from a browser that is not on the
// board's machine (or, in Klassenraum mode, where the participants' kernels share that machine). The board
// prints `http://…/#kursleitung=<key>` in its terminal; the page takes the key from the fragment (never sent
// in a request line, so never in a log), keeps it for the tab and removes it from the address bar (the
// projector shows that bar), and sends it in a header with the instructor's posts. Participants know the
// join code, not this key.
import { randomBytes } from "node:crypto";

export const BOARD_INSTRUCTOR_HEADER = "x-kursleitung";
export const INSTRUCTOR_FRAGMENT = "kursleitung";
/** The join line and QR code for the instructor's page on another machine (GET, with the key). */
export const BOARD_JOIN_INFO_PATH = "/api/beitritt";
/** 24 random bytes, URL-safe. */
export const INSTRUCTOR_KEY_PATTERN = /^[A-Za-z0-9_-]{32}$/;

export const newInstructorKey = (): string => randomBytes(24).toString("base64url");

/** The board's address with the key in the fragment. */
export const instructorLink = (url: string, key: string): string =>
  `${url.replace(/\/?$/, "/")}#${INSTRUCTOR_FRAGMENT}=${key}`;

/**
 * The terminal lines with the instructor's link, meant to stand apart from the lines for the room (those are
 * often shown on the projector): a German warning first. `width`: the column where the link starts.
 */
export const instructorBlock = (link: string, width: number): string[] => [
  "",
  "NUR FÜR DICH – NICHT AUF DEM BEAMER ZEIGEN (wer diesen Link hat, kann Hände senken und die Aufgabe festlegen):",
  `  ${"Kursleitung:".padEnd(width - 2)}${link}`,
  `  ${" ".repeat(width - 2)}(das Board über diesen Link öffnen – die Seite nimmt ihn dann aus der Adresszeile)`,
];
