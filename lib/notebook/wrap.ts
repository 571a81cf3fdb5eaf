// Text output that fits the notebook cell. Jupyter Notebook breaks a stream line that is wider than the
// cell anywhere (`word-break: break-all`), mid-word; so inside a kernel every line written to stdout or
// stderr is wrapped at word boundaries first, continuation lines indented. One place for every front
// end and every print, the kit's and the participant's.

/**
 * Characters per output line. A cell at 1280 px in Notebook 6.4 shows 114 (967 px of 14 px monospace,
 * 8.43 px a character; scripts/dev/browser-check.ts measures it and fails if this constant is too large).
 */
export const OUTPUT_COLUMNS = 112;

/** Set to "0" by `npm run slides`: the deck wraps outputs at the slide's own width, so the kernel must not. */
export const OUTPUT_WRAP_ENV = "WORKSHOP_OUTPUT_WRAP";

/** Whether a kernel started with `env` wraps its text output (wrap.ts); off only for the slide decks. */
export function outputWrapOn(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[OUTPUT_WRAP_ENV] !== "0";
}

const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}]/u;
const WIDE = /[\p{Emoji_Presentation}\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]/u;

/** Columns `text` takes in a monospace font (emoji and East Asian wide characters count twice). */
export function displayWidth(text: string): number {
  let width = 0;
  // U+FE0F turns the character before it into a (wide) emoji, e.g. "⚠️".
  for (const c of text) width += c === "\ufe0f" ? 1 : ZERO_WIDTH.test(c) ? 0 : WIDE.test(c) ? 2 : 1;
  return width;
}

/** Where a line may break: after a space, a comma or a semicolon (JSON, lists). */
const BREAK_AFTER = /[ ,;]/;

/** `line` as lines of at most `width` columns, broken after spaces and punctuation; a longer word is cut. */
export function wrapLine(line: string, width = OUTPUT_COLUMNS, startColumn = 0): string[] {
  if (startColumn + displayWidth(line) <= width) return [line];
  const lead = /^\s*/.exec(line)?.[0] ?? "";
  const indent = " ".repeat(Math.min(displayWidth(lead) + 2, Math.floor(width / 3)));
  const lines: string[] = [];
  let rest = line;
  let room = width - startColumn;
  while (displayWidth(rest) > room) {
    const chars = [...rest];
    let fit = 0;
    let used = 0;
    while (fit < chars.length && used + displayWidth(chars[fit]!) <= room) used += displayWidth(chars[fit++]!);
    let cut = fit;
    while (cut > 0 && !BREAK_AFTER.test(chars[cut - 1]!) && !(chars[cut] === " ")) cut--;
    if (cut <= indent.length) cut = Math.max(1, fit); // one word longer than the line: cut it
    lines.push(chars.slice(0, cut).join("").trimEnd());
    rest = indent + chars.slice(cut).join("").trimStart();
    room = width;
  }
  lines.push(rest);
  return lines;
}

/** Every line of `text` wrapped (see wrapLine); `startColumn` is where its first line begins. */
export function wrapText(text: string, width = OUTPUT_COLUMNS, startColumn = 0): string {
  return text
    .split("\n")
    .map((line, i) => wrapLine(line, width, i === 0 ? startColumn : 0).join("\n"))
    .join("\n");
}

type Write = (chunk: unknown, ...rest: unknown[]) => boolean;
const INSTALLED = Symbol.for("workshop-kit.output-wrap");

/**
 * Inside a tslab kernel: wraps what is written to process.stdout and process.stderr from now on. tslab
 * assigns a new `write` for every cell, so the property becomes an accessor that wraps what it is given.
 * Chunks with carriage returns or escape sequences (progress bars, colours) pass unchanged.
 */
export function installOutputWrap(width = OUTPUT_COLUMNS): void {
  for (const stream of [process.stdout, process.stderr]) {
    const target = stream as unknown as Record<PropertyKey, unknown>;
    if (target[INSTALLED]) continue;
    let inner = stream.write.bind(stream) as Write;
    let column = 0;
    const wrapped: Write = (chunk, ...rest) => {
      if (typeof chunk !== "string" || chunk.includes("\r") || chunk.includes("\u001b")) return inner(chunk, ...rest);
      const text = wrapText(chunk, width, column);
      const tail = text.slice(text.lastIndexOf("\n") + 1);
      column = text.includes("\n") ? displayWidth(tail) : column + displayWidth(tail);
      return inner(text, ...rest);
    };
    Object.defineProperty(stream, "write", {
      configurable: true,
      get: () => wrapped,
      set: (write: Write) => {
        inner = write;
        column = 0;
      },
    });
    target[INSTALLED] = true;
  }
}
