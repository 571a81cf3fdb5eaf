// Chunking by paragraphs and sentences: paragraphs (blank-line separated) that fit into
// maxChars become one chunk; longer paragraphs are packed sentence by sentence into chunks of at most
// maxChars, and each new chunk repeats the last `overlapSentences` sentences of the previous one.
//
// Details:
// - A chunk is always an exact slice of the source: `chunk.text === source.slice(start, end)`, and
//   `text.length <= maxChars` holds for every chunk, overlap included (the overlap shrinks until the
//   chunk fits).
// - Sentences are never cut, unless one sentence alone is longer than maxChars: then it is cut at word
//   boundaries (and a single word longer than maxChars is cut hard, the only case without a boundary).
// - Markdown headings ("# …" to "###### …") are not chunks of their own: they are removed from the
//   text and attached to the chunks below them as `metadata.headings` (outermost first), so a
//   retrieved chunk can be labelled with its section. Headings never count as paragraphs.
// - Overlap never crosses a paragraph boundary.
import { RagInputError } from "./errors.js";
import { linesOf, splitSentencesWithOffsets, trimRange, type SentenceSpan } from "./sentences.js";

export interface ChunkingOptions {
  /** Maximum characters per chunk (default 500). */
  maxChars?: number;
  /** Sentences repeated at the start of the next chunk of the same paragraph (default 1). */
  overlapSentences?: number;
  /** Name of the source document, copied into every chunk's metadata (default ""). */
  document?: string;
}

export interface ChunkMetadata {
  /** Source document (file name), "" when none was given. */
  document: string;
  /** 0-based index of the paragraph in the document (headings not counted). */
  paragraph: number;
  /** 0-based index of the chunk in the document. */
  index: number;
  /** Character offsets in the source text: `text === source.slice(start, end)`. */
  start: number;
  end: number;
  /** Markdown headings above the chunk, outermost first ([] for plain text). */
  headings: string[];
}

export interface Chunk {
  text: string;
  metadata: ChunkMetadata;
}

/** chunkText's defaults: chunks of at most 500 characters, one sentence shared with the next chunk. */
export const DEFAULT_CHUNKING = { maxChars: 500, overlapSentences: 1 } as const;

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/u;

interface Paragraph {
  start: number;
  end: number;
  headings: string[];
}

function checkOptions(options: ChunkingOptions): { maxChars: number; overlap: number; document: string } {
  const maxChars = options.maxChars ?? DEFAULT_CHUNKING.maxChars;
  const overlap = options.overlapSentences ?? DEFAULT_CHUNKING.overlapSentences;
  if (!Number.isInteger(maxChars) || maxChars < 1) {
    throw new RagInputError(`maxChars muss eine ganze Zahl ≥ 1 sein, erhalten: ${String(maxChars)}.`, maxChars);
  }
  if (!Number.isInteger(overlap) || overlap < 0) {
    throw new RagInputError(`overlapSentences muss eine ganze Zahl ≥ 0 sein, erhalten: ${String(overlap)}.`, overlap);
  }
  return { maxChars, overlap, document: options.document ?? "" };
}

/** Paragraphs of a (Markdown) text with the headings that are in force for each. */
export function paragraphsOf(text: string): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  const stack: Array<{ level: number; text: string }> = [];
  let start = -1;
  let end = -1;
  const close = () => {
    if (start !== -1) paragraphs.push({ start, end, headings: stack.map((h) => h.text) });
    start = -1;
  };
  for (const { line, start: lineStart, end: lineEnd } of linesOf(text)) {
    const heading = HEADING.exec(line.replace(/\r$/u, ""));
    if (line.trim() === "") {
      close();
    } else if (heading) {
      close();
      const level = heading[1]?.length ?? 1;
      while (stack.length > 0 && (stack[stack.length - 1]?.level ?? 0) >= level) stack.pop();
      const title = (heading[2] ?? "").trim();
      if (title) stack.push({ level, text: title });
    } else {
      if (start === -1) start = lineStart;
      end = lineEnd;
    }
  }
  close();
  return paragraphs.map((p) => ({ ...p, ...trimRange(text, p) })).filter((p) => p.end > p.start);
}

/** Cuts a sentence longer than maxChars at word boundaries (hard cut only inside an over-long word). */
function cutLongSentence(text: string, s: SentenceSpan, maxChars: number): SentenceSpan[] {
  const pieces: SentenceSpan[] = [];
  let start = s.start;
  while (start < s.end) {
    while (start < s.end && /\s/u.test(text[start] ?? "")) start++;
    if (start >= s.end) break;
    if (s.end - start <= maxChars) {
      pieces.push({ text: text.slice(start, s.end), start, end: s.end });
      break;
    }
    const limit = start + maxChars;
    // Last whitespace at or before the limit that leaves a non-empty piece.
    let cut = -1;
    for (let i = limit; i > start; i--) {
      if (/\s/u.test(text[i] ?? "")) {
        cut = i;
        break;
      }
    }
    let end: number;
    if (cut === -1) {
      end = limit;
      // Do not split a UTF-16 surrogate pair.
      if (/[\uDC00-\uDFFF]/u.test(text[end] ?? "") && end - 1 > start) end--;
    } else {
      end = cut;
      while (end > start && /\s/u.test(text[end - 1] ?? "")) end--;
    }
    pieces.push({ text: text.slice(start, end), start, end });
    start = end;
  }
  return pieces;
}

/**
 * Splits `text` into chunks of whole sentences, paragraph by paragraph (see the file comment).
 * `chunkText(text, { maxChars: 500, overlapSentences: 1, document: "tier.md" })`
 */
export function chunkText(text: string, options: ChunkingOptions = {}): Chunk[] {
  if (typeof text !== "string") throw new RagInputError("chunkText erwartet einen Text (string).", text);
  const { maxChars, overlap, document } = checkOptions(options);
  const chunks: Chunk[] = [];
  const emit = (paragraph: number, headings: string[], start: number, end: number) => {
    chunks.push({
      text: text.slice(start, end),
      metadata: { document, paragraph, index: chunks.length, start, end, headings: [...headings] },
    });
  };
  paragraphsOf(text).forEach((p, paragraph) => {
    if (p.end - p.start <= maxChars) {
      emit(paragraph, p.headings, p.start, p.end);
      return;
    }
    const units = splitSentencesWithOffsets(text.slice(p.start, p.end)).flatMap((s) => {
      const abs = { text: s.text, start: s.start + p.start, end: s.end + p.start };
      return abs.end - abs.start <= maxChars ? [abs] : cutLongSentence(text, abs, maxChars);
    });
    let buffer: SentenceSpan[] = [];
    for (const unit of units) {
      const first = buffer[0];
      if (!first || unit.end - first.start <= maxChars) {
        buffer.push(unit);
        continue;
      }
      emit(paragraph, p.headings, first.start, buffer[buffer.length - 1]?.end ?? first.end);
      let keep = Math.min(overlap, buffer.length);
      while (keep > 0 && unit.end - (buffer[buffer.length - keep]?.start ?? unit.start) > maxChars) keep--;
      buffer = [...buffer.slice(buffer.length - keep), unit];
    }
    const first = buffer[0];
    if (first) emit(paragraph, p.headings, first.start, buffer[buffer.length - 1]?.end ?? first.end);
  });
  return chunks;
}

/** A document of the corpus: a name (file name) and its text. */
export interface CorpusDocument {
  name: string;
  text: string;
}

/** Chunks several documents; chunk metadata carries each document's name. */
export function chunkDocuments(
  documents: readonly CorpusDocument[],
  options: Omit<ChunkingOptions, "document"> = {},
): Chunk[] {
  return documents.flatMap((d) => chunkText(d.text, { ...options, document: d.name }));
}
