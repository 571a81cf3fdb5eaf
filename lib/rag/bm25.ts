// A small Okapi BM25 ranking over the same chunks as the vector index: the lexical baseline for
// `npm run eval:rag`. German text is lower-cased, split into letter/digit runs, stripped of common
// function words and of a few inflection endings (a deliberately light stemmer).
import { RagInputError } from "./errors.js";

const STOP_WORDS = new Set(
  (
    "aber als am an auch auf aus bei bin bis bist da damit dann das dass dem den der des die dies diese dieser dieses doch " +
    "dort du durch ein eine einem einen einer eines er es für gibt hat hatte haben ich ihr im in ist ja kann man mit muss " +
    "nach nicht noch nur ob oder sein sich sie sind so über um und uns von vor war waren was welche welcher welches wenn " +
    "wer wie wird wo zu zum zur"
  ).split(" "),
);

const SUFFIXES = ["ern", "em", "en", "er", "es", "e", "s", "n"];

/** Light German normalisation of one lower-case word. */
export function stem(word: string): string {
  let w = word.replaceAll("ß", "ss");
  for (const suffix of SUFFIXES) {
    if (w.length - suffix.length >= 4 && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  return w;
}

/** Lower-cased, stemmed terms of a text without stop words. */
export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 1 && !STOP_WORDS.has(t))
    .map(stem);
}

export interface Bm25Options {
  /** Term-frequency saturation (default 1.2). */
  k1?: number;
  /** Length normalisation (default 0.75). */
  b?: number;
}

export interface Bm25Hit {
  id: number;
  score: number;
}

/** Okapi BM25 over a fixed list of texts: lexical search, the baseline the vector index is compared with. */
export class Bm25Index {
  private readonly termFreqs: Array<Map<string, number>>;
  private readonly lengths: number[];
  private readonly docFreq = new Map<string, number>();
  private readonly avgLength: number;
  private readonly k1: number;
  private readonly b: number;

  constructor(texts: readonly string[], options: Bm25Options = {}) {
    this.k1 = options.k1 ?? 1.2;
    this.b = options.b ?? 0.75;
    if (!(this.k1 >= 0) || !(this.b >= 0 && this.b <= 1))
      throw new RagInputError("BM25: k1 ≥ 0 und 0 ≤ b ≤ 1 erwartet.", options);
    this.termFreqs = texts.map((text) => {
      const tf = new Map<string, number>();
      for (const term of tokenize(text)) tf.set(term, (tf.get(term) ?? 0) + 1);
      for (const term of tf.keys()) this.docFreq.set(term, (this.docFreq.get(term) ?? 0) + 1);
      return tf;
    });
    this.lengths = this.termFreqs.map((tf) => [...tf.values()].reduce((a, b) => a + b, 0));
    this.avgLength = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, this.lengths.length);
  }

  /** Number of indexed texts. */
  get size(): number {
    return this.termFreqs.length;
  }

  /** The k best-scoring texts for `query` (only those sharing at least one term), best first. */
  search(query: string, k: number): Bm25Hit[] {
    if (!Number.isInteger(k) || k < 1)
      throw new RagInputError(`k muss eine ganze Zahl ≥ 1 sein, erhalten: ${String(k)}.`, k);
    const n = this.termFreqs.length;
    const terms = [...new Set(tokenize(query))];
    const hits: Bm25Hit[] = [];
    this.termFreqs.forEach((tf, id) => {
      let score = 0;
      const norm = this.k1 * (1 - this.b + (this.b * (this.lengths[id] ?? 0)) / (this.avgLength || 1));
      for (const term of terms) {
        const f = tf.get(term);
        if (!f) continue;
        const df = this.docFreq.get(term) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * f * (this.k1 + 1)) / (f + norm);
      }
      if (score > 0) hits.push({ id, score });
    });
    return hits.sort((a, b) => b.score - a.score || a.id - b.id).slice(0, k);
  }
}
