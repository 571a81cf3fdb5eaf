// Chunking: examples with the Python original's semantics, and fast-check properties of the invariants.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { chunkDocuments, chunkText, RagInputError, type Chunk } from "../../lib/rag/index.js";
import { splitSentencesWithOffsets } from "../../lib/rag/sentences.js";

test("a paragraph that fits is one chunk; a longer one is packed sentence by sentence with overlap", () => {
  const short = "Kurzer Absatz. Noch ein Satz.";
  const long = "Erster Satz ist hier. Zweiter Satz folgt. Dritter Satz kommt. Vierter Satz endet.";
  const chunks = chunkText(`${short}\n\n${long}`, { maxChars: 45, overlapSentences: 1 });
  assert.deepEqual(
    chunks.map((c) => c.text),
    [
      short,
      "Erster Satz ist hier. Zweiter Satz folgt.",
      "Zweiter Satz folgt. Dritter Satz kommt.",
      "Dritter Satz kommt. Vierter Satz endet.",
    ],
  );
  assert.deepEqual(
    chunks.map((c) => c.metadata.paragraph),
    [0, 1, 1, 1],
  );
  const noOverlap = chunkText(long, { maxChars: 45, overlapSentences: 0 });
  assert.deepEqual(
    noOverlap.map((c) => c.text),
    ["Erster Satz ist hier. Zweiter Satz folgt.", "Dritter Satz kommt. Vierter Satz endet."],
  );
});

test("the overlap shrinks instead of exceeding maxChars", () => {
  const text = "Ein recht langer erster Satz steht hier. Kurz. Noch ein ziemlich langer Satz am Ende.";
  const chunks = chunkText(text, { maxChars: 50, overlapSentences: 2 });
  for (const c of chunks) assert.ok(c.text.length <= 50, c.text);
  assert.deepEqual(
    chunks.map((c) => c.text),
    ["Ein recht langer erster Satz steht hier. Kurz.", "Kurz. Noch ein ziemlich langer Satz am Ende."],
  );
});

test("a sentence longer than maxChars is cut at word boundaries, an over-long word hard", () => {
  const sentence = "Dieser Satz ist mit Absicht viel zu lang für einen einzigen Chunk geschrieben worden.";
  const chunks = chunkText(sentence, { maxChars: 30, overlapSentences: 0 });
  assert.ok(chunks.length > 1);
  for (const c of chunks) {
    assert.ok(c.text.length <= 30);
    assert.equal(sentence.slice(c.metadata.start, c.metadata.end), c.text);
    assert.ok(c.metadata.start === 0 || sentence[c.metadata.start - 1] === " ", `cut inside a word before "${c.text}"`);
  }
  assert.equal(chunks.map((c) => c.text).join(" "), sentence);
  const word = "Donaudampfschifffahrtsgesellschaftskapitän";
  const hard = chunkText(word, { maxChars: 10 });
  assert.deepEqual(hard.map((c) => c.text).join(""), word);
  for (const c of hard) assert.ok(c.text.length <= 10);
});

test("Markdown headings become metadata, never chunks of their own", () => {
  const text =
    "# Der Nebelfuchs\n\n## Aussehen\nDas Fell ist grau.\n\nEr wiegt ca. 3,5 kg.\n\n## Nahrung\n\nEr frisst Käfer.\n\n## Leer\n";
  const chunks = chunkText(text, { maxChars: 200, document: "nebelfuchs.md" });
  assert.deepEqual(
    chunks.map((c) => [c.text, c.metadata.headings, c.metadata.paragraph, c.metadata.index]),
    [
      ["Das Fell ist grau.", ["Der Nebelfuchs", "Aussehen"], 0, 0],
      ["Er wiegt ca. 3,5 kg.", ["Der Nebelfuchs", "Aussehen"], 1, 1],
      ["Er frisst Käfer.", ["Der Nebelfuchs", "Nahrung"], 2, 2],
    ],
  );
  for (const c of chunks) assert.equal(c.metadata.document, "nebelfuchs.md");
});

test("chunkDocuments keeps each document's name and numbering", () => {
  const chunks = chunkDocuments(
    [
      { name: "a.md", text: "Satz eins.\n\nSatz zwei." },
      { name: "b.md", text: "Satz drei." },
    ],
    { maxChars: 100 },
  );
  assert.deepEqual(
    chunks.map((c) => [c.metadata.document, c.metadata.index]),
    [
      ["a.md", 0],
      ["a.md", 1],
      ["b.md", 0],
    ],
  );
});

test("invalid options and input give RagInputError", () => {
  assert.throws(() => chunkText("Text.", { maxChars: 0 }), RagInputError);
  assert.throws(() => chunkText("Text.", { maxChars: 12.5 }), RagInputError);
  assert.throws(() => chunkText("Text.", { overlapSentences: -1 }), RagInputError);
  assert.throws(() => chunkText(42 as unknown as string), RagInputError);
  assert.deepEqual(chunkText("   \n\n  "), []);
});

// ---- properties ------------------------------------------------------------------------------

const WORDS = [
  "Tier",
  "lebt",
  "im",
  "Wald",
  "und",
  "frisst",
  "Käfer",
  "z. B.",
  "u. a.",
  "d. h.",
  "ca.",
  "bzw.",
  "3,5",
  "kg",
  "am 3. Mai",
  "Nr. 5",
  "Dr. Vidal",
  "grüne",
  "Moose",
  "Nebelfuchs",
  "Ufer",
  "Isar",
  "nachts",
  "gern",
  "über",
  "Straße",
  "Beobachtung",
  "im 19. Jahrhundert",
  "selten",
  "sehr",
];
const CAPITALS = ["Das", "Der", "Im", "Am", "Es", "Er", "Viele", "Beobachter", "Heute", "Oft"];

/** Sentences of German-like words; with `longWords`, now and then a word of 12–70 letters. */
function sentenceArb(longWords: boolean, maxWords: number) {
  const word = longWords
    ? fc.oneof(
        { weight: 20, arbitrary: fc.constantFrom(...WORDS) },
        { weight: 1, arbitrary: fc.integer({ min: 12, max: 70 }).map((n) => "x".repeat(n)) },
      )
    : fc.constantFrom(...WORDS);
  return fc
    .tuple(
      fc.constantFrom(...CAPITALS),
      fc.array(word, { minLength: 1, maxLength: maxWords }),
      fc.constantFrom(".", ".", ".", "!", "?"),
    )
    .map(([first, rest, end]) => `${first} ${rest.join(" ")}${end}`);
}

function documentArb(longWords: boolean, maxWords: number, maxSentences: number) {
  const paragraph = fc
    .array(fc.tuple(sentenceArb(longWords, maxWords), fc.constantFrom(" ", " ", " ", "  ", "\n")), {
      minLength: 1,
      maxLength: maxSentences,
    })
    .map((parts) => parts.map(([s, sep], i) => (i === 0 ? s : sep + s)).join(""));
  return fc
    .array(
      fc.tuple(
        fc.option(fc.constantFrom("## Aussehen", "## Lebensraum", "### Details"), { nil: undefined }),
        paragraph,
      ),
      {
        minLength: 1,
        maxLength: 5,
      },
    )
    .map((blocks) => "# Titel\n\n" + blocks.map(([h, p]) => (h ? `${h}\n\n${p}` : p)).join("\n\n") + "\n");
}

const anyDocument = documentArb(true, 22, 7);
const optionsArb = fc.record({
  maxChars: fc.integer({ min: 8, max: 260 }),
  overlapSentences: fc.integer({ min: 0, max: 3 }),
});
/** Sentences that fit into maxChars, so that every chunk boundary is a sentence boundary. */
const fittingDocument = documentArb(false, 6, 14);
const fittingOptions = fc.record({
  maxChars: fc.integer({ min: 130, max: 300 }),
  overlapSentences: fc.integer({ min: 0, max: 3 }),
});

function contentSentences(text: string) {
  return splitSentencesWithOffsets(text).filter((s) => !s.text.startsWith("#"));
}

function isSpace(ch: string | undefined): boolean {
  return ch === undefined || /\s/u.test(ch);
}

test("property: chunks are exact, trimmed slices of the source within maxChars", () => {
  fc.assert(
    fc.property(anyDocument, optionsArb, (text, options) => {
      const chunks = chunkText(text, options);
      assert.ok(chunks.length > 0);
      chunks.forEach((c, i) => {
        assert.equal(text.slice(c.metadata.start, c.metadata.end), c.text);
        assert.ok(c.text.length >= 1 && c.text.length <= options.maxChars);
        assert.equal(c.text, c.text.trim());
        assert.equal(c.metadata.index, i);
        assert.ok(!c.text.startsWith("#"));
      });
    }),
    { numRuns: 150 },
  );
});

test("property: every sentence is covered; sentences that fit lie whole inside a chunk", () => {
  fc.assert(
    fc.property(anyDocument, optionsArb, (text, options) => {
      const chunks = chunkText(text, options);
      for (const s of contentSentences(text)) {
        if (s.end - s.start <= options.maxChars) {
          assert.ok(
            chunks.some((c) => c.metadata.start <= s.start && s.end <= c.metadata.end),
            `sentence not inside one chunk: ${s.text}`,
          );
        }
        for (let i = s.start; i < s.end; i++) {
          if (isSpace(text[i])) continue;
          assert.ok(
            chunks.some((c) => c.metadata.start <= i && i < c.metadata.end),
            `character ${i} of "${s.text}" not covered`,
          );
        }
      }
    }),
    { numRuns: 150 },
  );
});

test("property: chunks cut inside a sentence only when it exceeds maxChars, and then between words", () => {
  fc.assert(
    fc.property(anyDocument, optionsArb, (text, options) => {
      const sentences = contentSentences(text);
      for (const c of chunkText(text, options)) {
        for (const p of [c.metadata.start, c.metadata.end]) {
          const inside = sentences.find((s) => s.start < p && p < s.end);
          if (!inside) continue;
          assert.ok(inside.end - inside.start > options.maxChars, `cut inside a fitting sentence: ${inside.text}`);
          if (!isSpace(text[p - 1]) && !isSpace(text[p])) {
            // Only a word longer than maxChars may be cut without a boundary.
            let a = p;
            let b = p;
            while (a > 0 && !isSpace(text[a - 1])) a--;
            while (b < text.length && !isSpace(text[b])) b++;
            assert.ok(b - a > options.maxChars, `cut inside the word "${text.slice(a, b)}"`);
          }
        }
      }
    }),
    { numRuns: 150 },
  );
});

test("property: overlap repeats at most N whole sentences, as many as fit, and packing is greedy", () => {
  fc.assert(
    fc.property(fittingDocument, fittingOptions, (text, options) => {
      const { maxChars, overlapSentences: n } = options;
      const chunks = chunkText(text, options);
      const sentences = contentSentences(text);
      const pairs: Array<[Chunk, Chunk]> = [];
      for (let i = 1; i < chunks.length; i++) {
        const a = chunks[i - 1];
        const b = chunks[i];
        if (a && b && a.metadata.paragraph === b.metadata.paragraph) pairs.push([a, b]);
      }
      for (const [a, b] of pairs) {
        assert.ok(b.metadata.start >= a.metadata.start && b.metadata.end > a.metadata.end, "chunks move forward");
        const para = sentences.filter((s) => s.start < b.metadata.end && s.end > a.metadata.start);
        assert.ok(para.every((s) => s.end - s.start <= maxChars));
        if (n === 0) assert.ok(b.metadata.start >= a.metadata.end, "no overlap expected");
        const shared = para.filter((s) => s.start >= b.metadata.start && s.end <= a.metadata.end);
        assert.ok(shared.length <= n, `overlap of ${shared.length} > ${n}`);
        assert.ok(
          para.some((s) => s.start === b.metadata.start),
          "chunk starts at a sentence",
        );
        const before = para.filter((s) => s.start >= a.metadata.start && s.end <= b.metadata.start);
        const previous = before[before.length - 1];
        if (shared.length < n && previous) {
          assert.ok(b.metadata.end - previous.start > maxChars, "one more overlap sentence would have fit");
        }
        const next = sentences.find((s) => s.start >= a.metadata.end);
        if (next) assert.ok(next.end - a.metadata.start > maxChars, "the next sentence would have fit into the chunk");
      }
    }),
    { numRuns: 150 },
  );
});
