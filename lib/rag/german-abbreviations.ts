// German abbreviation rules for sentence-splitter's AbbrMarker (which ships English rules only).
//
// How sentence-splitter uses the lists (see node_modules/sentence-splitter/src/parser/AbbrMarker.ts):
// - PREPOSITIVE_ABBREVIATIONS: the word never ends a sentence. Used for German abbreviations that are
//   usually followed by a capitalised noun or a name ("ca. Mitte Mai", "Nr. 5", "Dr. Vidal").
// - ABBREVIATIONS: the word ends a sentence only if the next word is capitalised ("usw. Danach …").
// - Matching ignores case and compares whole whitespace-separated words. One-letter entries ("d.")
//   would also swallow real sentence ends after "D.", so multi-part abbreviations such as "z. B."
//   are not listed letter by letter; sentences.ts merges them with MULTI_PART_ABBREVIATIONS instead.
import { DefaultAbbrMarkerOptions } from "sentence-splitter";

type Language = NonNullable<typeof DefaultAbbrMarkerOptions.language>;

const GERMAN_PREPOSITIVE = [
  "Abb.",
  "Abs.",
  "Anm.",
  "Aufl.",
  "Bd.",
  "Bde.",
  "bspw.",
  "bzgl.",
  "bzw.",
  "ca.",
  "Dipl.",
  "dt.",
  "evtl.",
  "exkl.",
  "Fr.",
  "geb.",
  "gem.",
  "ggf.",
  "ggü.",
  "Hbf.",
  "Hr.",
  "Hrn.",
  "Hrsg.",
  "inkl.",
  "insb.",
  "Kap.",
  "lt.",
  "Mio.",
  "Mrd.",
  "Nr.",
  "Nrn.",
  "Prof.",
  "sog.",
  "Std.",
  "Str.",
  "Tel.",
  "Tsd.",
  "vgl.",
  "zzgl.",
];

const GERMAN_ABBREVIATIONS = [
  "Jh.",
  "Jhd.",
  "Jhs.",
  "etc.",
  "usw.",
  "usf.",
  "S.",
  "Tab.",
  "Min.",
  "Sek.",
  "Mo.",
  "Di.",
  "Mi.",
  "Do.",
  "Sa.",
  "So.",
  "Jan.",
  "Feb.",
  "Aug.",
  "Sept.",
  "Okt.",
  "Nov.",
  "Dez.",
];

function unique(words: string[]): string[] {
  return [...new Set(words)];
}

const english = DefaultAbbrMarkerOptions.language as Language;

/** English lists plus German abbreviations, in sentence-splitter's `Language` shape. */
export const GERMAN_LANGUAGE: Language = {
  ABBREVIATIONS: unique([...english.ABBREVIATIONS, ...GERMAN_ABBREVIATIONS]),
  PREPOSITIVE_ABBREVIATIONS: unique([...english.PREPOSITIVE_ABBREVIATIONS, ...GERMAN_PREPOSITIVE]),
  EXCLAMATION_WORDS: [...english.EXCLAMATION_WORDS],
};

/**
 * Abbreviations written as several dotted parts ("z. B.", also without the space: "z.B.").
 * `endsSentence: false`: never the last word of a sentence (the next word may still be capitalised:
 * "u. a. Käfer"). `true`: may end a sentence; then only a capitalised next word starts a new one.
 */
export const MULTI_PART_ABBREVIATIONS: ReadonlyArray<{ parts: readonly string[]; endsSentence: boolean }> = [
  { parts: ["z", "B"], endsSentence: false },
  { parts: ["u", "a"], endsSentence: false },
  { parts: ["d", "h"], endsSentence: false },
  { parts: ["v", "a"], endsSentence: false },
  { parts: ["u", "U"], endsSentence: false },
  { parts: ["i", "d", "R"], endsSentence: false },
  { parts: ["z", "T"], endsSentence: false },
  { parts: ["m", "E"], endsSentence: false },
  { parts: ["o", "g"], endsSentence: false },
  { parts: ["i", "A"], endsSentence: false },
  { parts: ["z", "Hd"], endsSentence: false },
  { parts: ["o", "ä"], endsSentence: true },
  { parts: ["o", "Ä"], endsSentence: true },
  { parts: ["u", "ä"], endsSentence: true },
  { parts: ["u", "Ä"], endsSentence: true },
  { parts: ["u", "v", "m"], endsSentence: true },
  { parts: ["s", "o"], endsSentence: true },
  { parts: ["s", "u"], endsSentence: true },
  { parts: ["v", "Chr"], endsSentence: true },
  { parts: ["n", "Chr"], endsSentence: true },
];

/**
 * Words before a number that make "<word> 27." a number, not an ordinal ("Heft Nr. 27. Danach …").
 * Street names ("Hauptstraße 12.") are recognised by STREET_SUFFIX.
 */
export const NUMBER_LABELS: readonly string[] = [
  "Nr.",
  "Nr",
  "Nrn.",
  "S.",
  "Seite",
  "Bd.",
  "Band",
  "Heft",
  "Kap.",
  "Kapitel",
  "Abs.",
  "Abschnitt",
  "Abb.",
  "Abbildung",
  "Tab.",
  "Tabelle",
  "Str.",
  "Linie",
  "Gleis",
  "Zimmer",
];

/**
 * Capitalised function words that start sentences but never follow a German ordinal: an ordinal is
 * followed by a noun or an adjective ("am 3. Mai", "der 2. Platz", "im 19. Jahrhundert"), not by an
 * article, pronoun, preposition, conjunction or sentence adverb. So "meist 4. Die Jungen …" ends a
 * sentence after "4.". Left out on purpose: words that are also nouns or abbreviations after an
 * ordinal ("Aus" – "das 3. Aus", "So" – "jeden 1. So. im Monat", weekday abbreviations, "Ab", "Bis").
 * sentences.ts only uses a word when it stands alone (not "Es-Dur", not "In-Line").
 */
export const SENTENCE_START_WORDS: ReadonlySet<string> = new Set([
  // articles and demonstratives
  "Der",
  "Die",
  "Das",
  "Den",
  "Dem",
  "Des",
  "Ein",
  "Eine",
  "Einen",
  "Einem",
  "Einer",
  "Eines",
  "Dies",
  "Diese",
  "Dieser",
  "Dieses",
  "Diesen",
  "Diesem",
  "Jede",
  "Jeder",
  "Jedes",
  "Alle",
  "Beide",
  "Viele",
  "Manche",
  // personal and possessive pronouns
  "Ich",
  "Du",
  "Er",
  "Sie",
  "Es",
  "Wir",
  "Ihr",
  "Man",
  "Mein",
  "Meine",
  "Sein",
  "Seine",
  "Ihre",
  "Unser",
  "Unsere",
  // prepositions and their contractions with an article
  "Im",
  "Am",
  "Ins",
  "Ans",
  "Beim",
  "Vom",
  "Zum",
  "Zur",
  "In",
  "An",
  "Auf",
  "Bei",
  "Mit",
  "Nach",
  "Seit",
  "Von",
  "Vor",
  "Für",
  "Über",
  "Unter",
  "Um",
  "Durch",
  "Gegen",
  "Ohne",
  "Zwischen",
  "Während",
  // conjunctions, question words and sentence adverbs
  "Und",
  "Oder",
  "Aber",
  "Doch",
  "Denn",
  "Sondern",
  "Wenn",
  "Weil",
  "Als",
  "Ob",
  "Obwohl",
  "Dass",
  "Wie",
  "Was",
  "Wo",
  "Wann",
  "Warum",
  "Wer",
  "Welche",
  "Welcher",
  "Welches",
  "Dann",
  "Danach",
  "Davor",
  "Dabei",
  "Damit",
  "Darum",
  "Daher",
  "Deshalb",
  "Dazu",
  "Da",
  "Dort",
  "Hier",
  "Auch",
  "Nur",
  "Noch",
  "Schon",
  "Heute",
  "Jetzt",
  "Nun",
  "Später",
  "Seitdem",
  "Zuvor",
  "Zudem",
  "Außerdem",
  "Trotzdem",
  "Allerdings",
  "Jedoch",
  "Also",
  "Meist",
  "Oft",
  "Manchmal",
  "Immer",
  "Nie",
  "Kein",
  "Keine",
]);

/** Street words: "Hauptstraße 12." / "Balmesstr. 5." end with a house number, not an ordinal. */
export const STREET_SUFFIX = /(?:str\.|straße|strasse|weg|gasse|platz|allee|damm|ufer|ring)$/iu;
