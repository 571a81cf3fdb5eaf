// Vocabulary of the tiny BERT-style test model: special tokens, every single character a German
// text needs (as word start and as `##` continuation, so no word becomes [UNK]), common German
// word pieces and words. All entries are lowercase and NFC, because the tokenizer lowercases and
// composes before WordPiece runs.

export const SPECIAL_TOKENS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] as const;

const LETTERS = "abcdefghijklmnopqrstuvwxyzäöüß";
/** Letters of names and loanwords from neighbouring languages (Café, České Budějovice, Łódź). */
const FOREIGN_LETTERS = "àáâãåæçèéêëìíîïñòóôõøœùúûýÿčďěňřšťůžąćęłńśźżőűğış";
const DIGITS = "0123456789";
/** Punctuation and symbols; which of them BertPreTokenizer splits off is decided below. */
const SYMBOLS = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~„“”‚‘’«»–—…·•§°€£¥©®×÷²³½µ";

/** Words that carry little meaning; the model gives them short vectors. */
export const STOP_WORDS: readonly string[] = words(`
  der die das den dem des ein eine einer eines einem einen und oder aber denn doch sondern als wie
  wenn weil dass ob bis seit während nach vor mit ohne für gegen um durch über unter zwischen neben
  bei von zu zum zur im in am an auf aus ins vom beim ich du er sie es wir ihr man mich mir dich dir
  sich uns euch ihn ihm ihnen mein meine meinen dein deine sein seine seinen ihre ihren unser unsere
  kein keine keinen nicht auch noch schon nur sehr so hier dort da dann ist sind war waren bin bist
  seid hat haben hatte hatten habe hast wird werden wurde wurden kann können konnte muss müssen soll
  sollen will wollen darf dürfen möchte mag dies diese dieser dieses diesem diesen jede jeder jedes
  alle alles viel viele mehr wenig etwas nichts was wer wo wann warum wohin woher welche welcher
  welches ja nein bitte danke denn also sowie sodass damit dabei dazu davon darauf
`);

const CONTENT_WORDS: readonly string[] = words(`
  reise reisen fahrt fahren fährt flug fliegen fliegt zug züge bahn bahnhof bus auto hotel zimmer
  stadt städte land länder meer strand berg berge see insel urlaub ferien ticket preis preise kosten
  kostet euro geld karte wetter regen sonne sonnig wind schnee temperatur grad warm kalt heiß kühl
  wolken gewitter sturm himmel frühling sommer herbst winter januar februar märz april mai juni juli
  august september oktober november dezember montag dienstag mittwoch donnerstag freitag samstag
  sonntag tag tage woche wochen monat monate jahr jahre stunde stunden minute minuten uhr zeit datum
  morgen abend nacht mittag heute gestern jetzt immer nie oft früh spät straße weg platz museum
  kirche schloss park garten blumen markt restaurant café essen trinken kaffee tee wasser bier wein
  brot käse frühstück küche deutschland österreich schweiz europa berlin münchen hamburg köln wien
  zürich paris rom madrid barcelona london mensch menschen leute kind kinder frau mann familie freund
  freunde gast gäste modell modelle sprachmodell daten text texte satz sätze wort wörter frage fragen
  antwort antworten werkzeug werkzeuge agent agenten plan pläne schritt schritte ergebnis ergebnisse
  aufgabe aufgaben lösung beispiel dokument dokumente suche suchen finden information informationen
  wissen kontext prompt system nutzer computer programm code funktion fehler server anfrage liste
  zahl zahlen seite teil gehen geht kommen kommt sehen sieht machen macht sagen sagt geben gibt
  nehmen nimmt bleiben bleibt findet steht stehen liegt liegen lesen liest schreiben schreibt
  sprechen spricht fragt antwortet helfen hilft brauchen braucht kaufen kauft bezahlen buchen bucht
  besuchen besucht wohnen wohnt arbeiten arbeitet lernen lernt lerne spielen spielt laufen läuft isst
  trinkt schlafen schläft kochen kocht öffnen öffnet schließen schließt beginnen beginnt zeigen
  zeigt erklären erklärt verstehen versteht denken denkt glauben weiß kennen kennt heißen heißt
  blühen blüht regnet scheint gut gute guten besser beste schlecht groß große großen klein kleine
  kleinen neu neue neuen alt alte schön schöne lang lange kurz schnell langsam hoch weit nah billig
  teuer günstig einfach schwer leicht wichtig richtig falsch klar voll leer offen geschlossen frei
  möglich nächste letzte erste zweite andere anderen ganz genau gern gerne wirklich vielleicht
  wieder zusammen null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf zwanzig
  hundert tausend hallo
`);

/** Word-start pieces (prefixes) and `##` continuations (suffixes, infixes, compound heads). */
const PIECES: readonly string[] = words(`
  ver be ge ent zer un miss ab vor haupt
  ##en ##er ##e ##n ##s ##es ##em ##t ##te ##ten ##st ##et ##ung ##ungen ##heit ##keit ##lich
  ##liche ##lichen ##isch ##ische ##ig ##ige ##igen ##bar ##los ##sam ##schaft ##chen ##tion
  ##tionen ##ieren ##iert ##ität ##ie ##ei ##au ##äu ##eu ##ch ##sch ##ck ##ng ##nd ##nt ##ll ##mm
  ##nn ##ss ##tt ##ff ##rr ##ge ##be ##ver ##an ##ar ##at ##al ##el ##il ##in ##on ##or ##ur ##um
  ##us ##ra ##re ##ri ##ro ##la ##le ##li ##lo ##ma ##me ##mi ##na ##ne ##ni ##no ##ta ##ti ##to
  ##de ##di ##do ##ha ##he ##hi ##ho ##ka ##ke ##ki ##ko ##zeit ##stadt ##haus ##bahn ##hof ##zug
  ##reise ##platz ##straße ##weg ##tag ##land ##berg ##see ##karte ##plan ##modell ##daten ##text
  ##wort ##frage ##teil ##punkt ##zahl ##werk ##arbeit ##gang ##fahrt ##flug ##wasser ##essen ##buch
  ##zimmer ##preis
`);

function words(block: string): string[] {
  return block.split(/\s+/).filter((w) => w.length > 0);
}

/** Characters BertPreTokenizer splits off as separate tokens (mirrors its punctuation class). */
export function isSplitPunctuation(ch: string): boolean {
  return /^[\p{P}\u0021-\u002F\u003A-\u0040\u005B-\u0060\u007B-\u007E]$/u.test(ch);
}

/** The full vocabulary in id order: specials, characters, pieces, words; no duplicates. */
export function tinyBertVocabulary(): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (token: string): void => {
    const t = token.normalize("NFC");
    if (!seen.has(t)) {
      seen.add(t);
      out.push(t);
    }
  };
  SPECIAL_TOKENS.forEach(add);
  for (const ch of [...LETTERS, ...FOREIGN_LETTERS, ...DIGITS]) add(ch);
  for (const ch of SYMBOLS) add(ch);
  for (const ch of [...LETTERS, ...FOREIGN_LETTERS, ...DIGITS, ...SYMBOLS]) {
    if (!isSplitPunctuation(ch)) add(`##${ch}`);
  }
  PIECES.forEach(add);
  STOP_WORDS.forEach(add);
  CONTENT_WORDS.forEach(add);
  return out;
}
