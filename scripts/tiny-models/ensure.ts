// Makes sure the tiny offline test models exist (no downloads): a random-weight Llama GGUF for
// node-llama-cpp and a tiny BERT-style ONNX model for transformers.js. Files that exist with the
// current generator version are kept.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tinyModelPaths } from "../../lib/config.js";
import { writeTinyBert } from "./tiny-bert.js";
import { writeTinyLlamaGguf } from "./tiny-llama.js";

/** Bump when a generator changes so existing files are regenerated. */
const GENERATOR_VERSION = "1";

export async function ensureTinyModels(options: { force?: boolean; log?: (line: string) => void } = {}) {
  const log = options.log ?? (() => {});
  const paths = tinyModelPaths();
  const stamp = join(dirname(paths.gguf), "VERSION");
  const current = existsSync(stamp) && readFileSync(stamp, "utf8").trim() === GENERATOR_VERSION;
  mkdirSync(dirname(paths.gguf), { recursive: true });
  if (options.force || !current || !existsSync(paths.gguf)) {
    const t = performance.now();
    await writeTinyLlamaGguf(paths.gguf);
    log(`tiny GGUF written: ${paths.gguf} (${Math.round(performance.now() - t)} ms)`);
  }
  if (options.force || !current || !existsSync(join(paths.embeddingDir, "onnx", "model.onnx"))) {
    const t = performance.now();
    await writeTinyBert(paths.embeddingDir);
    log(`tiny ONNX embedding model written: ${paths.embeddingDir} (${Math.round(performance.now() - t)} ms)`);
  }
  writeFileSync(stamp, GENERATOR_VERSION + "\n");
  return paths;
}
