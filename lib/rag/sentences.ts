// German sentence splitting: sentence-splitter with German abbreviation lists, plus a few German rules
// the library cannot express (multi-part abbreviations such as "z. B.", years and house numbers before
// a sentence end, sentence ends inside „…“ quotes). Every sentence is an exact slice of the input.
import { split } from "sentence-splitter";
import {
  GERMAN_LANGUAGE,
  MULTI_PART_ABBREVIATIONS,
  NUMBER_LABELS,
  SENTENCE_START_WORDS,
  STREET_SUFFIX,
} from "./german-abbreviations.js";

/** A sentence and where it is: `text === source.slice(start, end)`. */
export interface SentenceSpan {
  text: string;
  start: number;
  end: number;
}

export interface Range {
  start: number;
  end: number;
}

const SPLIT_OPTIONS = {
  AbbrMarker: { language: GERMAN_LANGUAGE },
  SeparatorParser: { separatorCharacters: [".", "?", "!", "…", "．", "。", "？", "！"] },
};

/** Lines that start a new block even without a blank line before them: headings and list items. */
const BLOCK_START = /^ {0,3}(?:#{1,6}(?:[ \t]|$)|[-*+][ \t]|\d{1,9}[.)][ \t])/u;
const HEADING_LINE = /^ {0,3}#{1,6}(?:[ \t]|$)/u;
const OPENING_MARKS = /^[„"»«‚'([]*/u;

/**
 * Splits German text into sentences. Blank lines, Markdown headings and list items always end a
 * sentence; a single line break inside a paragraph does not.
 */
export function splitSentences(text: string): string[] {
  return splitSentencesWithOffsets(text).map((s) => s.text);
}

/** Like {@link splitSentences}, with the character offsets of every sentence in `text`. */
export function splitSentencesWithOffsets(text: string): SentenceSpan[] {
  const out: SentenceSpan[] = [];
  for (const block of textBlocks(text)) {
    for (const r of sentencesOfBlock(text, block))
      out.push({ text: text.slice(r.start, r.end), start: r.start, end: r.end });
  }
  return out;
}

/** The lines of `text` (without "\n") with their offsets: `line === text.slice(start, end)`. */
export function* linesOf(text: string): Generator<{ line: string; start: number; end: number }> {
  let start = 0;
  for (;;) {
    const nl = text.indexOf("\n", start);
    const end = nl === -1 ? text.length : nl;
    yield { line: text.slice(start, end), start, end };
    if (nl === -1) return;
    start = nl + 1;
  }
}

/** Blocks of text that never share a sentence: separated by blank lines, headings and list items. */
export function textBlocks(text: string): Range[] {
  const blocks: Range[] = [];
  let start = -1;
  let end = -1;
  const close = () => {
    if (start !== -1) blocks.push({ start, end });
    start = -1;
  };
  for (const { line, start: lineStart, end: lineEnd } of linesOf(text)) {
    if (line.trim() === "") {
      close();
    } else {
      if (start !== -1 && BLOCK_START.test(line)) close();
      if (start === -1) start = lineStart;
      end = lineEnd;
      if (HEADING_LINE.test(line)) close();
    }
  }
  close();
  return blocks.map((b) => trimRange(text, b)).filter((b) => b.end > b.start);
}

/** `r` without leading and trailing white space. */
export function trimRange(text: string, r: Range): Range {
  let { start, end } = r;
  while (start < end && /\s/u.test(text[start] ?? "")) start++;
  while (end > start && /\s/u.test(text[end - 1] ?? "")) end--;
  return { start, end };
}

function sentencesOfBlock(text: string, block: Range): Range[] {
  const blockText = text.slice(block.start, block.end);
  const raw: Range[] = [];
  for (const node of split(blockText, SPLIT_OPTIONS)) {
    if (node.type !== "Sentence") continue;
    const r = trimRange(text, { start: block.start + node.range[0], end: block.start + node.range[1] });
    if (r.end > r.start) raw.push(r);
  }
  const keep = protectedRanges(text, block);
  const merged: Range[] = [];
  for (const next of raw) {
    const prev = merged[merged.length - 1];
    if (prev && shouldMerge(text, prev, next, keep)) prev.end = next.end;
    else merged.push({ ...next });
  }
  return merged.flatMap((r) => splitMissedEnds(text, r));
}

interface ProtectedRange extends Range {
  /** Whether a sentence may end right at `end` (only if the next word is capitalised). */
  mayEndSentence: boolean;
}

let multiPartPattern: RegExp | undefined;

function multiPartRegex(): RegExp {
  if (!multiPartPattern) {
    const alternatives = MULTI_PART_ABBREVIATIONS.map(({ parts }) => {
      const [first = "", ...rest] = parts;
      const head = `[${first.toLowerCase()}${first.toUpperCase()}]`;
      return [head, ...rest].join("\\.[ \\u00a0\\u202f]?") + "\\.";
    });
    multiPartPattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join("|")})`, "gu");
  }
  return multiPartPattern;
}

function protectedRanges(text: string, block: Range): ProtectedRange[] {
  const slice = text.slice(block.start, block.end);
  const ranges: ProtectedRange[] = [];
  for (const m of slice.matchAll(multiPartRegex())) {
    const letters = m[0].replace(/[.\s\u00a0\u202f]/gu, "").toLowerCase();
    const entry = MULTI_PART_ABBREVIATIONS.find((a) => a.parts.join("").toLowerCase() === letters);
    const start = block.start + (m.index ?? 0);
    ranges.push({ start, end: start + m[0].length, mayEndSentence: entry?.endsSentence ?? false });
  }
  // „…“ and »…« quotes: a sentence end inside a closed pair does not end the outer sentence.
  for (const [open, close] of [
    ["„", "“"],
    ["»", "«"],
  ] as const) {
    const stack: number[] = [];
    for (let i = 0; i < slice.length; i++) {
      if (slice[i] === open) stack.push(i);
      else if (slice[i] === close && stack.length > 0) {
        const s = stack.pop() ?? 0;
        ranges.push({ start: block.start + s, end: block.start + i + 1, mayEndSentence: true });
      }
    }
  }
  return ranges;
}

function firstLetter(text: string, r: Range): string {
  const s = text.slice(r.start, r.end).replace(OPENING_MARKS, "");
  return s.charAt(0);
}

function lastWord(text: string, end: number, start: number): string {
  const before = text.slice(start, end);
  const m = /(\S+)\s*$/u.exec(before);
  return m?.[1] ?? "";
}

function shouldMerge(text: string, prev: Range, next: Range, keep: ProtectedRange[]): boolean {
  const boundary = prev.end;
  const nextFirst = firstLetter(text, next);
  const nextIsCapital = /\p{Lu}/u.test(nextFirst);
  for (const r of keep) {
    if (r.start < boundary && boundary < r.end) return true;
    if (boundary === r.end && (!r.mayEndSentence || !nextIsCapital)) return true;
  }
  // German sentences start with a capital letter, a digit or a quote; a lowercase word continues.
  if (/\p{Ll}/u.test(nextFirst)) return true;
  // "Balmesstr. 12": a street abbreviation before a house number.
  if (/\p{N}/u.test(nextFirst) && STREET_SUFFIX.test(lastWord(text, prev.end, prev.start))) return true;
  return false;
}

const NUMBER_END = /(?<![\p{L}\p{N}.,])(\p{N}+)\.(?=\s+[„"»«([]?\p{Lu})/gu;
const CLOSING_MARK_END = /[.!?…]+["“”»«’')\]]+(?=\s+[„"»«([]?\p{Lu})/gu;

/** The word after a number's period, if it stands alone (followed by white space, punctuation or the end). */
const NEXT_WORD = /^\s+(\p{L}+)(?=[\s,;:.!?…]|$)/u;

/** Whether `before` leaves a bracket or a „…“ / »…« quote open (a cut there would split the pair). */
function insideOpenPair(before: string): boolean {
  const count = (ch: string) => before.split(ch).length - 1;
  return count("(") > count(")") || count("„") > count("“") || count("»") > count("«");
}

/**
 * Whether "<number>. <Word>" ends a sentence because <Word> starts sentences but never follows an
 * ordinal ("meist 4. Die Jungen …"). Not for a list item with nothing before it ("1. Die …"), inside
 * brackets or quotes, or in an enumeration (more than one "<number>. <Capital>" in the sentence:
 * "Schritte: 1. Den Ofen vorheizen, 2. Den Teig kneten.").
 */
function endsBeforeStartWord(slice: string, at: number, end: number, numberEnds: number): boolean {
  const nextWord = NEXT_WORD.exec(slice.slice(end))?.[1];
  if (nextWord === undefined || !SENTENCE_START_WORDS.has(nextWord)) return false;
  const before = slice.slice(0, at);
  return numberEnds === 1 && /[\p{L}\p{N}]/u.test(before) && !insideOpenPair(before);
}

/**
 * Splits where sentence-splitter keeps going: after a year, a labelled number ("… 1958. Danach",
 * "Heft Nr. 27. Sie …") or before a sentence-starting word (endsBeforeStartWord); other numbers
 * before a capital are ordinals ("am 3. Mai", "der 2. Platz"). Also splits after a sentence end
 * followed by a closing quote or bracket ("… geht.“ Dann …").
 */
function splitMissedEnds(text: string, r: Range): Range[] {
  const slice = text.slice(r.start, r.end);
  const cuts: number[] = [];
  const numberEnds = [...slice.matchAll(NUMBER_END)];
  for (const m of numberEnds) {
    const digits = m[1] ?? "";
    const at = m.index ?? 0;
    const end = at + m[0].length;
    const label = lastWord(slice, at, 0);
    const isYear = digits.length === 4;
    const isLabelled = NUMBER_LABELS.includes(label) || STREET_SUFFIX.test(label);
    if (isYear || isLabelled || endsBeforeStartWord(slice, at, end, numberEnds.length)) cuts.push(end);
  }
  for (const m of slice.matchAll(CLOSING_MARK_END)) cuts.push((m.index ?? 0) + m[0].length);
  if (cuts.length === 0) return [r];
  cuts.sort((a, b) => a - b);
  const pieces: Range[] = [];
  let from = r.start;
  for (const cut of cuts) {
    const piece = trimRange(text, { start: from, end: r.start + cut });
    if (piece.end > piece.start) pieces.push(piece);
    from = r.start + cut;
  }
  const last = trimRange(text, { start: from, end: r.end });
  if (last.end > last.start) pieces.push(last);
  return pieces;
}
