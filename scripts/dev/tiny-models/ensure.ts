// Makes sure the tiny offline test models exist (no downloads): a random-weight Llama GGUF for
// node-llama-cpp and a tiny BERT-style ONNX model for transformers.js. Existing files are kept unless
// the generator sources changed (their hash is stored in models/tiny/VERSION). The generators load only when
// a model is written: the Llama 3 vocabulary they build from costs every process that imports them ~0.35 CPU-s.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { findProjectRoot, tinyModelPaths } from "../../../lib/config.js";

/** Hash of the generator sources: when a generator changes, existing files are regenerated. */
function generatorVersion(): string {
  const dir = join(findProjectRoot(), "scripts", "dev", "tiny-models");
  const hash = createHash("sha256");
  for (const f of readdirSync(dir)
    .filter((n) => n.endsWith(".ts"))
    .sort())
    hash.update(f).update(readFileSync(join(dir, f)));
  return hash.digest("hex").slice(0, 16);
}

export async function ensureTinyModels(options: { force?: boolean; log?: (line: string) => void } = {}) {
  const log = options.log ?? (() => {});
  const paths = tinyModelPaths();
  const stamp = join(dirname(paths.gguf), "VERSION");
  const version = generatorVersion();
  const current = existsSync(stamp) && readFileSync(stamp, "utf8").trim() === version;
  mkdirSync(dirname(paths.gguf), { recursive: true });
  if (options.force || !current || !existsSync(paths.gguf)) {
    const t = performance.now();
    const { writeTinyLlamaGguf } = await import("./tiny-llama.js");
    await writeTinyLlamaGguf(paths.gguf);
    log(`tiny GGUF written: ${paths.gguf} (${Math.round(performance.now() - t)} ms)`);
  }
  if (options.force || !current || !existsSync(join(paths.embeddingDir, "onnx", "model.onnx"))) {
    const t = performance.now();
    const { writeTinyBert } = await import("./tiny-bert.js");
    await writeTinyBert(paths.embeddingDir);
    log(`tiny ONNX embedding model written: ${paths.embeddingDir} (${Math.round(performance.now() - t)} ms)`);
  }
  writeFileSync(stamp, version + "\n");
  return paths;
}
