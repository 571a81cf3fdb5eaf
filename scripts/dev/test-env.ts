// The environment tests and the notebook runner use: the project-local Jupyter kernel and,
// by default, the generated tiny models with offline travel data (no network, no real model).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { findProjectRoot } from "../../lib/config.js";
import { ensureTinyModels } from "./tiny-models/ensure.js";

export async function testEnvironment(options: { tinyModels: boolean }): Promise<NodeJS.ProcessEnv> {
  const root = findProjectRoot();
  const runtimeDir = join(root, ".cache", "jupyter-runtime");
  mkdirSync(runtimeDir, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    JUPYTER_PATH: join(root, ".jupyter-prefix", "share", "jupyter"),
    JUPYTER_RUNTIME_DIR: runtimeDir,
    PYDEVD_DISABLE_FILE_VALIDATION: "1",
  };
  if (!options.tinyModels) return env;
  const tiny = await ensureTinyModels({ log: console.log });
  return {
    ...env,
    LLM_MODEL_PATH: tiny.gguf,
    EMBEDDING_MODEL: tiny.embeddingDir,
    MODELS_OFFLINE: "1",
    TRAVEL_OFFLINE: "1",
    LLM_THREADS: "1",
    LLM_GPU: "cpu",
    LLM_CONTEXT_SIZE: "8192",
    LLM_BACKEND: "local",
  };
}
