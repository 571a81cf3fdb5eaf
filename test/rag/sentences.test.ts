// German sentence splitting: abbreviations, dates and decimals stay inside sentences; real ends split.
import assert from "node:assert/strict";
import { test } from "node:test";
import { splitSentences } from "../../lib/rag/index.js";
import { splitSentencesWithOffsets } from "../../lib/rag/sentences.js";

const cases: Array<[string, string[]]> = [
  ["Das Tier lebt z. B. in Parks. Es ist scheu.", ["Das Tier lebt z. B. in Parks.", "Es ist scheu."]],
  ["Es lebt z.B. in Parks. Es ist scheu.", ["Es lebt z.B. in Parks.", "Es ist scheu."]],
  ["Es frisst u. a. Käfer und Schnecken. Danach ruht es.", ["Es frisst u. a. Käfer und Schnecken.", "Danach ruht es."]],
  [
    "Das Fell ist grau, d. h. im Mondlicht wirkt es hell. Die Ohren sind rund.",
    ["Das Fell ist grau, d. h. im Mondlicht wirkt es hell.", "Die Ohren sind rund."],
  ],
  ["Man sieht es bzw. Hört es selten. Gut so.", ["Man sieht es bzw. Hört es selten.", "Gut so."]],
  ["Es wiegt ca. Drei Kilogramm. Das ist viel.", ["Es wiegt ca. Drei Kilogramm.", "Das ist viel."]],
  [
    "Es frisst Käfer, Würmer usw. und ruht dann. Später jagt es.",
    ["Es frisst Käfer, Würmer usw. und ruht dann.", "Später jagt es."],
  ],
  ["Es frisst Käfer, Würmer usw. Danach schläft es.", ["Es frisst Käfer, Würmer usw.", "Danach schläft es."]],
  ["Nehmen Sie ggf. Eine Jacke mit. Es wird kalt.", ["Nehmen Sie ggf. Eine Jacke mit.", "Es wird kalt."]],
  ["Das steht im Heft, vgl. Kapitel 3. Lesen Sie es.", ["Das steht im Heft, vgl. Kapitel 3.", "Lesen Sie es."]],
  ["Siehe Meldebogen Nr. 14 im Anhang. Er ist kurz.", ["Siehe Meldebogen Nr. 14 im Anhang.", "Er ist kurz."]],
  ["Dr. Vidal hat es beschrieben. Sie war Geologin.", ["Dr. Vidal hat es beschrieben.", "Sie war Geologin."]],
  [
    "Die Meldestelle ist in der Balmes Str. 4 in Barcelona. Sie ist werktags offen.",
    ["Die Meldestelle ist in der Balmes Str. 4 in Barcelona.", "Sie ist werktags offen."],
  ],
  [
    "Die Meldestelle ist in der Böhmstr. 4 in Neuschönau. Sie ist werktags offen.",
    ["Die Meldestelle ist in der Böhmstr. 4 in Neuschönau.", "Sie ist werktags offen."],
  ],
  ["Am 3. Mai beginnt die Schonzeit. Sie endet im Juli.", ["Am 3. Mai beginnt die Schonzeit.", "Sie endet im Juli."]],
  ["Im 19. Jahrhundert war es häufig. Heute nicht.", ["Im 19. Jahrhundert war es häufig.", "Heute nicht."]],
  ["Es wiegt 3,5 kg. Der Schwanz misst 12,5 cm.", ["Es wiegt 3,5 kg.", "Der Schwanz misst 12,5 cm."]],
  ["Ist es scheu? Ja! Sehr sogar.", ["Ist es scheu?", "Ja!", "Sehr sogar."]],
  ["Die letzte Zählung war 2023. Seitdem fehlen Daten.", ["Die letzte Zählung war 2023.", "Seitdem fehlen Daten."]],
  ["Sie erschien in Heft Nr. 27. Danach folgten weitere.", ["Sie erschien in Heft Nr. 27.", "Danach folgten weitere."]],
  ["Er rief: „Da ist es. Schnell!“ Dann war es weg.", ["Er rief: „Da ist es. Schnell!“", "Dann war es weg."]],
  ["Er zögerte … und ging weiter. Ende.", ["Er zögerte … und ging weiter.", "Ende."]],
];

test("German abbreviations, dates, ordinals and decimals stay inside sentences; real ends split", () => {
  for (const [text, expected] of cases) assert.deepEqual(splitSentences(text), expected, text);
});

test("a number before a sentence-starting function word ends the sentence", () => {
  const ends: Array<[string, string[]]> = [
    ["Ein Wurf umfasst meist 4. Die Jungen sind blind.", ["Ein Wurf umfasst meist 4.", "Die Jungen sind blind."]],
    ["Im Nest lagen 3. Sie waren winzig.", ["Im Nest lagen 3.", "Sie waren winzig."]],
    ["Es gab nur 12. Im Jahr darauf waren es 15.", ["Es gab nur 12.", "Im Jahr darauf waren es 15."]],
    ["Gehen Sie zu Schritt 2. Dann weiter.", ["Gehen Sie zu Schritt 2.", "Dann weiter."]],
    ["Die Zahl stieg auf 7, dann auf 9. Aber nicht lange.", ["Die Zahl stieg auf 7, dann auf 9.", "Aber nicht lange."]],
  ];
  for (const [text, expected] of ends) assert.deepEqual(splitSentences(text), expected, text);
});

test("ordinals before nouns and adjectives stay inside the sentence; list numbers are not cut off", () => {
  const ordinals: Array<[string, string[]]> = [
    ["Am 3. Mai beginnt die Schonzeit. Sie endet im Juli.", ["Am 3. Mai beginnt die Schonzeit.", "Sie endet im Juli."]],
    ["Er belegte den 2. Platz im Lauf. Das freute ihn.", ["Er belegte den 2. Platz im Lauf.", "Das freute ihn."]],
    ["Zum 1. Mal kam es am 14. Juli. Danach nie wieder.", ["Zum 1. Mal kam es am 14. Juli.", "Danach nie wieder."]],
    ["Das war der 3. Große Preis. Er war toll.", ["Das war der 3. Große Preis.", "Er war toll."]],
    ["Wir hören die 5. Es-Dur-Sinfonie. Sie ist lang.", ["Wir hören die 5. Es-Dur-Sinfonie.", "Sie ist lang."]],
    [
      "Der Treff ist jeden 1. So. im Monat. Dann geht es los.",
      ["Der Treff ist jeden 1. So. im Monat.", "Dann geht es los."],
    ],
    ["1. Die Jungen sind blind.", ["1. Die Jungen sind blind."]],
    ["- 3. Die Jungen sind blind.\n- 4. Sie sehen nichts.", ["- 3. Die Jungen sind blind.", "- 4. Sie sehen nichts."]],
  ];
  for (const [text, expected] of ordinals) assert.deepEqual(splitSentences(text), expected, text);
});

test("enumerations, brackets and quotes keep a number before a function word inside the sentence", () => {
  const kept: Array<[string, string[]]> = [
    ["Schritte: 1. Den Ofen vorheizen, 2. Den Teig kneten.", ["Schritte: 1. Den Ofen vorheizen, 2. Den Teig kneten."]],
    [
      "Die Route (Etappe 3. Die steile) ist lang. Sie lohnt sich.",
      ["Die Route (Etappe 3. Die steile) ist lang.", "Sie lohnt sich."],
    ],
    [
      "Er sagte: „Wir waren 3. Die anderen kamen später.“ Dann ging er.",
      ["Er sagte: „Wir waren 3. Die anderen kamen später.“", "Dann ging er."],
    ],
  ];
  for (const [text, expected] of kept) assert.deepEqual(splitSentences(text), expected, text);
  // A year still ends a sentence wherever it stands.
  assert.deepEqual(splitSentences("1958. Danach kam die Wende."), ["1958.", "Danach kam die Wende."]);
});

test("blank lines, headings and list items end sentences; a single line break does not", () => {
  const text =
    "# Titel\n\n## Lebensraum\nDas Tier lebt\nim Wald. Es ist scheu\n\n- erster Punkt\n- zweiter Punkt. Noch einer.";
  assert.deepEqual(splitSentences(text), [
    "# Titel",
    "## Lebensraum",
    "Das Tier lebt\nim Wald.",
    "Es ist scheu",
    "- erster Punkt",
    "- zweiter Punkt.",
    "Noch einer.",
  ]);
});

test("offsets map every sentence back to the source, in order and without overlap", () => {
  const text = "  Erster Satz z. B. mit Abkürzung.   Zweiter Satz!\n\nDritter Satz am 3. Mai.  ";
  const spans = splitSentencesWithOffsets(text);
  assert.equal(spans.length, 3);
  let previousEnd = 0;
  for (const s of spans) {
    assert.equal(text.slice(s.start, s.end), s.text);
    assert.ok(s.start >= previousEnd);
    assert.equal(s.text, s.text.trim());
    previousEnd = s.end;
  }
});

test("empty and whitespace-only text give no sentences", () => {
  assert.deepEqual(splitSentences(""), []);
  assert.deepEqual(splitSentences(" \n\n\t "), []);
});
