// Byte-level BPE helpers and the vocabulary shape of the tiny test Llama ("gpt2" model, "llama-bpe"
// pre-tokenizer): GPT-2's byte alphabet, token types, the TinyVocab shape that llama3-vocab.ts
// fills with Llama 3.1's real vocabulary, and the chat template.

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
  '{%- if date_string is not defined %}{%- set date_string = "26 Jul 2024" %}{%- endif %}',
  "{%- if messages[0]['role'] == 'system' %}",
  "    {%- set system_text = messages[0]['content'] | trim %}",
  "    {%- set rest = messages[1:] %}",
  "{%- else %}",
  '    {%- set system_text = "" %}',
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
