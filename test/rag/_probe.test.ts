import fc from "fast-check";
import { test } from "node:test";
import { chunkText } from "../../lib/rag/index.js";
const WORDS = [
  "Tier", "lebt", "im", "Wald", "und", "frisst", "Käfer", "z. B.", "u. a.", "d. h.", "ca.", "bzw.", "3,5", "kg",
  "am 3. Mai", "Nr. 5", "Dr. Vidal", "grüne", "Moose", "Nebelfuchs", "Ufer", "Isar", "nachts", "gern", "über",
  "Straße", "Beobachtung", "im 19. Jahrhundert", "selten", "sehr",
];
const CAPITALS = ["Das", "Der", "Im", "Am", "Es", "Er", "Viele", "Beobachter", "Heute", "Oft"];

/** Sentences of German-like words; with `longWords`, now and then a word of 12–70 letters. */
function sentenceArb(longWords: boolean, maxWords: number) {
  const word = longWords
    ? fc.oneof({ weight: 20, arbitrary: fc.constantFrom(...WORDS) }, { weight: 1, arbitrary: fc.integer({ min: 12, max: 70 }).map((n) => "x".repeat(n)) })
    : fc.constantFrom(...WORDS);
  return fc
    .tuple(fc.constantFrom(...CAPITALS), fc.array(word, { minLength: 1, maxLength: maxWords }), fc.constantFrom(".", ".", ".", "!", "?"))
    .map(([first, rest, end]) => `${first} ${rest.join(" ")}${end}`);
}

function documentArb(longWords: boolean, maxWords: number, maxSentences: number) {
  const paragraph = fc
    .array(fc.tuple(sentenceArb(longWords, maxWords), fc.constantFrom(" ", " ", " ", "  ", "\n")), { minLength: 1, maxLength: maxSentences })
    .map((parts) => parts.map(([s, sep], i) => (i === 0 ? s : sep + s)).join(""));
  return fc
    .array(fc.tuple(fc.option(fc.constantFrom("## Aussehen", "## Lebensraum", "### Details"), { nil: undefined }), paragraph), {
      minLength: 1,
      maxLength: 5,
    })
    .map((blocks) => "# Titel\n\n" + blocks.map(([h, p]) => (h ? `${h}\n\n${p}` : p)).join("\n\n") + "\n");
}

const anyDocument = documentArb(true, 22, 7);
const optionsArb = fc.record({ maxChars: fc.integer({ min: 8, max: 260 }), overlapSentences: fc.integer({ min: 0, max: 3 }) });
/** Sentences that fit into maxChars, so that every chunk boundary is a sentence boundary. */
const fittingDocument = documentArb(false, 6, 14);
const fittingOptions = fc.record({ maxChars: fc.integer({ min: 130, max: 300 }), overlapSentences: fc.integer({ min: 0, max: 3 }) });
test("probe", () => {
  let pairs = 0, shared = 0;
  fc.assert(fc.property(fittingDocument, fittingOptions, (text, o) => {
    const chunks = chunkText(text, o);
    for (let i=1;i<chunks.length;i++){ const a=chunks[i-1]!, b=chunks[i]!; if (a.metadata.paragraph!==b.metadata.paragraph) continue; pairs++; if (b.metadata.start<a.metadata.end) shared++; }
  }), {numRuns:150, seed: 3});
  console.log({pairs, shared});
});
