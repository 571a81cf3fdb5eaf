// The real Llama 3.1 vocabulary (128,256 tokens, 280,147 merges) for generated test models and
// speed twins, taken offline from npm's llama3-tokenizer-js. Its special tokens (ids ≥ 128000)
// already carry Llama 3.1's names (<|eom_id|> = 128008, <|eot_id|> = 128009, …).
import llama3Tokenizer from "llama3-tokenizer-js";
import { gguf, type GgufValue } from "./gguf-writer.js";
import {
  fromByteLevel,
  isValidUtf8Token,
  TINY_LLAMA_CHAT_TEMPLATE,
  TokenType,
  type TinyVocab,
} from "./tiny-llama-vocab.js";

/** First id of the special (control) tokens. */
export const LLAMA3_FIRST_SPECIAL_ID = 128000;
export const LLAMA3_VOCAB_SIZE = 128256;

let cached: TinyVocab | undefined;

/** Llama 3.1's vocabulary in GGUF form: byte-level token strings, token types, merges in rank order. */
export function buildLlama3Vocab(): TinyVocab {
  if (cached) return cached;
  const tokens = [...llama3Tokenizer.vocabById];
  if (tokens.length !== LLAMA3_VOCAB_SIZE) {
    throw new Error(`llama3-tokenizer-js has ${tokens.length} tokens, expected ${LLAMA3_VOCAB_SIZE}`);
  }
  const tokenTypes = tokens.map((_, id) => (id < LLAMA3_FIRST_SPECIAL_ID ? TokenType.NORMAL : TokenType.CONTROL));
  const merges = [...llama3Tokenizer.merges.entries()].sort((a, b) => a[1] - b[1]).map(([pair]) => pair);
  const texts = tokens.map((t, id) => {
    if (id >= LLAMA3_FIRST_SPECIAL_ID) return t;
    return isValidUtf8Token(t)
      ? fromByteLevel(t).toString("utf8")
      : `<0x${fromByteLevel(t).toString("hex").toUpperCase()}>`;
  });
  const textIndex = new Map<string, number>();
  texts.forEach((t, id) => {
    if (!textIndex.has(t)) textIndex.set(t, id);
  });
  cached = {
    tokens,
    tokenTypes,
    merges,
    texts,
    idOf(text: string): number {
      const id = textIndex.get(text);
      if (id === undefined) throw new Error(`Llama 3 vocabulary has no token for ${JSON.stringify(text)}`);
      return id;
    },
  };
  return cached;
}

/** The reference tokenizer's ids for `text` (no BOS/EOS): what a Llama 3 GGUF must give. */
export function llama3ReferenceIds(text: string): number[] {
  return llama3Tokenizer.encode(text, { bos: false, eos: false });
}

/** The `tokenizer.*` GGUF metadata for `vocab`: byte-level BPE as Llama 3, BOS, end-of-turn as EOS, the chat template. */
export function llama3TokenizerMetadata(vocab: TinyVocab): Record<string, GgufValue> {
  return {
    "tokenizer.ggml.model": gguf.str("gpt2"),
    "tokenizer.ggml.pre": gguf.str("llama-bpe"),
    "tokenizer.ggml.tokens": gguf.strings(vocab.tokens),
    "tokenizer.ggml.token_type": gguf.i32s(vocab.tokenTypes),
    "tokenizer.ggml.merges": gguf.strings(vocab.merges),
    "tokenizer.ggml.bos_token_id": gguf.u32(vocab.idOf("<|begin_of_text|>")),
    "tokenizer.ggml.eos_token_id": gguf.u32(vocab.idOf("<|eot_id|>")),
    "tokenizer.ggml.padding_token_id": gguf.u32(vocab.idOf("<|finetune_right_pad_id|>")),
    "tokenizer.ggml.add_bos_token": gguf.bool(true),
    "tokenizer.chat_template": gguf.str(TINY_LLAMA_CHAT_TEMPLATE),
  };
}
