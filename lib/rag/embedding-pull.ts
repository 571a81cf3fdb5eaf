// `pullEmbeddingModel` behind `npm run models:pull`: the embedding model complete in its folder, downloaded
// with transformers.js (embedding-download.ts) when files are missing and the hub may be asked.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { FeatureExtractionPipeline } from "@huggingface/transformers";
import { loadConfig } from "../config.js";
import { errorText } from "../util.js";
import { loadFromHub } from "./embedding-download.js";
import { embeddingModelFiles, type EmbeddingDtype, type EmbeddingModelFiles } from "./embedding-model.js";
import { EmbeddingModelLoadError, EmbeddingModelNotFoundError } from "./errors.js";

/**
 * Makes sure the embedding model is complete in its folder: downloads the missing files of a hub model
 * into `<MODELS_DIR>/<id>/` (with progress on stderr unless `progress: false`), where createEmbedder
 * finds them afterwards without network. Returns the state before the download.
 * Throws EmbeddingModelNotFoundError when files are missing and cannot be downloaded (a local folder,
 * or offline: MODELS_OFFLINE=1 / `offline: true`), EmbeddingModelLoadError when the download fails.
 */
export async function pullEmbeddingModel(
  options: {
    model?: string;
    dtype?: EmbeddingDtype;
    modelsDir?: string;
    offline?: boolean;
    remoteHost?: string;
    progress?: boolean;
  } = {},
): Promise<EmbeddingModelFiles> {
  const config = loadConfig();
  const files = embeddingModelFiles(options);
  if (files.missing.length === 0) return files;
  const missing = `es fehlt: ${files.missing.join(", ")}`;
  if (!files.downloadable)
    throw new EmbeddingModelNotFoundError(
      files.model,
      [files.dir],
      `${missing} (lokaler Ordner, wird nicht heruntergeladen)`,
    );
  if (options.offline ?? config.modelsOffline)
    throw new EmbeddingModelNotFoundError(files.model, [files.dir], `${missing}, und MODELS_OFFLINE=1`);
  const modelsDir = options.modelsDir ? resolve(config.root, options.modelsDir) : config.modelsDir;
  let extractor: FeatureExtractionPipeline;
  try {
    extractor = await loadFromHub(files.model, {
      dtype: files.dtype,
      modelsDir,
      remoteHost: options.remoteHost,
      progress: options.progress !== false,
    });
  } catch (error) {
    throw new EmbeddingModelLoadError(files.model, errorText(error));
  }
  await extractor.dispose();
  const still = files.required.filter((f) => !existsSync(join(files.dir, f)));
  if (still.length > 0)
    throw new EmbeddingModelLoadError(
      files.model,
      `nach dem Download fehlt noch: ${still.join(", ")} (in ${files.dir})`,
    );
  return files;
}
