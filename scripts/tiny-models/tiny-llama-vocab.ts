// Vocabulary of the tiny test Llama: a Llama-3-style byte-level BPE tokenizer ("gpt2" model,
// "llama-bpe" pre-tokenizer). Ids 0–255 are the GPT-2 byte alphabet (id = byte value), so any
// UTF-8 text can be encoded; then merges for umlauts, common German words and JSON fragments;
// then the Llama 3 control tokens.

/** llama.cpp token types (llama_token_type). */
export const TokenType = { NORMAL: 1, CONTROL: 3 } as const;

/** GPT-2 byte → printable unicode char mapping (bytes_to_unicode). */
function byteAlphabet(): string[] {
  const printable: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) printable.push(b);
  for (let b = 0xa1; b <= 0xac; b++) printable.push(b);
  for (let b = 0xae; b <= 0xff; b++) printable.push(b);
  const map: string[] = new Array<string>(256);
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    map[b] = printable.includes(b) ? String.fromCodePoint(b) : String.fromCodePoint(256 + extra++);
  }
  return map;
}

export const BYTE_CHARS: readonly string[] = byteAlphabet();
const CHAR_TO_BYTE = new Map(BYTE_CHARS.map((c, b) => [c, b]));

/** Natural text → byte-level token string (one mapped char per UTF-8 byte). */
export function toByteLevel(text: string): string {
  return [...Buffer.from(text, "utf8")].map((b) => BYTE_CHARS[b]).join("");
}

/** Byte-level token string → raw bytes. */
export function fromByteLevel(token: string): Buffer {
  return Buffer.from([...token].map((c) => CHAR_TO_BYTE.get(c) ?? 0x3f));
}

export const SPECIAL_TOKENS = [
  "<|begin_of_text|>",
  "<|end_of_text|>",
  "<|reserved_special_token_0|>",
  "<|reserved_special_token_1|>",
  "<|finetune_right_pad_id|>",
  "<|reserved_special_token_2|>",
  "<|start_header_id|>",
  "<|end_header_id|>",
  "<|eom_id|>",
  "<|eot_id|>",
  "<|python_tag|>",
] as const;

/**
 * Words the model "says": a sentence is one starter, one verb, one adjective, then "." or "!".
 * The weights (tiny-llama.ts) make this chain, followed by end-of-turn (or a closing quote inside
 * a JSON string), the most likely continuation.
 */
export const SENTENCE_WORDS = {
  starters: ["Das", "Hier", "Heute", "Alles", "Gern"],
  verbs: [" ist", " wird", " bleibt", " klingt", " wäre"],
  adjectives: [" schön", " gut", " möglich", " günstig", " fertig", " gemütlich"],
  endings: [".", "!"],
} as const;

const GERMAN_WORDS = [
  "der", "die", "das", "und", "ist", "ein", "eine", "nicht", "mit", "von", "zu", "auf", "für", "im", "in",
  "den", "dem", "des", "sich", "es", "ich", "wir", "sie", "Sie", "er", "auch", "als", "an", "bei", "nach",
  "aus", "über", "unter", "wie", "was", "wo", "wann", "oder", "aber", "noch", "nur", "schon", "sehr",
  "Reise", "Reisen", "Zug", "Flug", "Hotel", "Stadt", "Preis", "Tag", "Tage", "Uhr", "Euro", "Wetter",
  "Berlin", "München", "Hamburg", "Köln", "Frankfurt", "Wien", "Zürich", "Düsseldorf", "Nürnberg",
  "Straße", "groß", "klein", "heute", "morgen", "Frühstück", "Grüße", "Hallo", "Danke", "bitte", "ja",
  "nein", "Mädchen", "Äpfel", "Öl", "Übung", "Größe", "Fußball", "schön", "gut", "möglich", "günstig",
  "fertig", "Antwort", "Frage", "Buchung", "Zimmer", "Nacht", "Nächte", "Woche", "Bahnhof", "Flughafen",
  "Essen", "Museum", "Ausflug", "Ziel", "Dauer", "Kosten",
];

const CHAT_WORDS = ["system", "user", "assistant", "ipython"];

const JSON_FRAGMENTS = [
  "{\"", "\":", "\":\"", "\",", "\",\"", "\"}", "\"]", "},", "}]", "[{", "\":[", "\":{", "\"},", "[\"",
  "\"],", "},{", "\": \"", "\", \"", "true", "false", "null",
];

const WHITESPACE = ["\n\n", "\n\n\n", "\n\n\n\n", "  ", "    "];

/** Every non-ASCII character used by the word lists: each gets a merge of its UTF-8 bytes first. */
const UMLAUTS = ["ä", "ö", "ü", "Ä", "Ö", "Ü", "ß"];

export interface TinyVocab {
  /** Byte-level token strings, index = token id. */
  tokens: string[];
  tokenTypes: number[];
  /** BPE merges "A B" in rank order. */
  merges: string[];
  /** Decoded text of each token (control tokens: their literal name). */
  texts: string[];
  idOf(text: string): number;
}

export function buildTinyVocab(): TinyVocab {
  const tokens: string[] = [...BYTE_CHARS];
  const merges: string[] = [];
  const known = new Map(tokens.map((t, i) => [t, i]));

  // Builds `text` from whole characters left to right: (c1 c2) → c1c2, (c1c2 c3) → …
  const addWord = (text: string): void => {
    const units = [...text].map(toByteLevel);
    let current = units[0] ?? "";
    for (const unit of units.slice(1)) {
      const next = current + unit;
      if (!known.has(next)) {
        merges.push(`${current} ${unit}`);
        known.set(next, tokens.length);
        tokens.push(next);
      }
      current = next;
    }
  };
  // Multi-byte characters first, merged byte by byte.
  for (const ch of UMLAUTS) {
    const bytes = [...toByteLevel(ch)];
    let current = bytes[0] ?? "";
    for (const b of bytes.slice(1)) {
      const next = current + b;
      if (!known.has(next)) {
        merges.push(`${current} ${b}`);
        known.set(next, tokens.length);
        tokens.push(next);
      }
      current = next;
    }
  }
  for (const w of WHITESPACE) addWord(w);
  for (const w of GERMAN_WORDS) {
    addWord(w);
    addWord(" " + w);
  }
  for (const list of Object.values(SENTENCE_WORDS)) for (const w of list) addWord(w);
  for (const w of CHAT_WORDS) addWord(w);
  for (const w of JSON_FRAGMENTS) addWord(w);

  const tokenTypes: number[] = tokens.map(() => TokenType.NORMAL);
  // Natural text; tokens that are not complete UTF-8 (lone high bytes) get a "<0xE4>"-style name.
  const texts = tokens.map((t) =>
    isValidUtf8Token(t) ? fromByteLevel(t).toString("utf8") : `<0x${fromByteLevel(t).toString("hex").toUpperCase()}>`,
  );
  for (const special of SPECIAL_TOKENS) {
    tokens.push(special);
    tokenTypes.push(TokenType.CONTROL);
    texts.push(special);
  }
  const textIndex = new Map<string, number>();
  texts.forEach((t, i) => {
    if (!textIndex.has(t)) textIndex.set(t, i);
  });
  return {
    tokens,
    tokenTypes,
    merges,
    texts,
    idOf(text: string): number {
      const id = textIndex.get(text);
      if (id === undefined) throw new Error(`tiny vocab has no token for ${JSON.stringify(text)}`);
      return id;
    },
  };
}

/** True when the token's bytes are complete, valid UTF-8 (single high bytes are not). */
export function isValidUtf8Token(token: string): boolean {
  const bytes = fromByteLevel(token);
  return Buffer.from(bytes.toString("utf8"), "utf8").equals(bytes);
}

/**
 * A Llama-3.1-style chat template (written for this project): one system block carrying the
 * knowledge cut-off and today's date, then one header-delimited block per message.
 */
export const TINY_LLAMA_CHAT_TEMPLATE = [
  "{{- bos_token }}",
  "{%- if date_string is not defined %}{%- set date_string = \"26 Jul 2024\" %}{%- endif %}",
  "{%- if messages[0]['role'] == 'system' %}",
  "    {%- set system_text = messages[0]['content'] | trim %}",
  "    {%- set rest = messages[1:] %}",
  "{%- else %}",
  "    {%- set system_text = \"\" %}",
  "    {%- set rest = messages %}",
  "{%- endif %}",
  "{{- '<|start_header_id|>system<|end_header_id|>\\n\\n' }}",
  "{{- 'Cutting Knowledge Date: December 2023\\nToday Date: ' + date_string + '\\n\\n' }}",
  "{{- system_text + '<|eot_id|>' }}",
  "{%- for message in rest %}",
  "    {{- '<|start_header_id|>' + message['role'] + '<|end_header_id|>\\n\\n' + (message['content'] | trim) + '<|eot_id|>' }}",
  "{%- endfor %}",
  "{%- if add_generation_prompt %}",
  "    {{- '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}",
  "{%- endif %}",
].join("\n");
