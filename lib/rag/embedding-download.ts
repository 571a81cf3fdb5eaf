// Downloading an embedding model from the Hugging Face hub with transformers.js: the lazily loaded
// module (it starts onnxruntime), the download progress printer and the serialised hub load the embedder
// and `pullEmbeddingModel` (embedding-pull.ts) use. Not in lib/rag/index.ts: its signatures carry
// transformers.js' types, which a notebook cell must not have to read.
import type { FeatureExtractionPipeline } from "@huggingface/transformers";
import { inNotebook } from "../notebook/output.js";
import { progressLine, type ProgressLine } from "../notebook/progress.js";
import { germanNumber, ignore } from "../util.js";
import type { EmbeddingDtype } from "./embedding-model.js";

type Transformers = typeof import("@huggingface/transformers");

let transformersModule: Promise<Transformers> | undefined;

/** transformers.js, imported once on first use. */
export function loadTransformers(): Promise<Transformers> {
  transformersModule ??= import("@huggingface/transformers");
  return transformersModule;
}

/** A download progress printer for transformers.js' progress_callback (bar in a terminal, lines otherwise). */
function downloadReporter(model: string) {
  const tty = Boolean(process.stderr.isTTY);
  const lastPercent = new Map<string, number>();
  const lines = new Map<string, ProgressLine | null>();
  const mb = (n: number | undefined) => germanNumber((n ?? 0) / 1e6, 1);
  return (info: { status: string; file?: string; progress?: number; loaded?: number; total?: number }) => {
    if (info.status !== "progress" || !info.file) return;
    if (inNotebook()) {
      // In a notebook: one line per file that updates in place.
      if (!lines.has(info.file)) lines.set(info.file, progressLine(`Lade ${model}/${info.file}`));
      const line = lines.get(info.file);
      const size = `${mb(info.loaded)} von ${mb(info.total)} MB`;
      if ((info.progress ?? 0) >= 100) line?.done(size);
      else line?.update((info.progress ?? 0) / 100, size);
      return;
    }
    const percent = Math.floor(info.progress ?? 0);
    const step = tty ? 1 : 25;
    const last = lastPercent.get(info.file) ?? -step;
    if (percent < last + step && percent < 100) return;
    if (percent === last) return;
    lastPercent.set(info.file, percent);
    const line = `Lade ${model}/${info.file}: ${percent} % (${mb(info.loaded)} von ${mb(info.total)} MB)`;
    if (tty) process.stderr.write(`\r${line}${percent >= 100 ? "\n" : ""}`);
    else process.stderr.write(line + "\n");
  };
}

let remoteLock: Promise<unknown> = Promise.resolve();

/**
 * Loads hub model `id` with transformers.js, downloading missing files into `<modelsDir>/<id>/` (the
 * folder resolveEmbeddingModel looks in). Calls are serialised: they change transformers.js' global env.
 */
export async function loadFromHub(
  id: string,
  o: { dtype: EmbeddingDtype; modelsDir: string; remoteHost?: string; progress: boolean; sessionOptions?: object },
): Promise<FeatureExtractionPipeline> {
  const { pipeline, env } = await loadTransformers();
  const load = async () => {
    const saved = { remoteHost: env.remoteHost, allowRemoteModels: env.allowRemoteModels };
    env.remoteHost = o.remoteHost ?? process.env.HF_ENDPOINT ?? saved.remoteHost;
    env.allowRemoteModels = true;
    try {
      return await pipeline("feature-extraction", id, {
        dtype: o.dtype,
        device: "cpu",
        cache_dir: o.modelsDir,
        session_options: o.sessionOptions,
        progress_callback: o.progress ? downloadReporter(id) : undefined,
      });
    } finally {
      env.remoteHost = saved.remoteHost;
      env.allowRemoteModels = saved.allowRemoteModels;
    }
  };
  const next = remoteLock.then(load, load);
  remoteLock = next.catch(ignore("the caller gets this load's failure; the next load runs anyway"));
  return next;
}
