// Typed errors of lib/rag. Each message says what to do, in German (participants read them).
import { KitError } from "../errors.js";

/** The base of lib/rag's typed errors (catch this for any of them). */
export class RagError extends KitError {
  override name = "RagError";
}

/** An argument is out of range or of the wrong kind (maxChars ≤ 0, k < 1, a NaN in a vector …). */
export class RagInputError extends RagError {
  override name = "RagInputError";
  constructor(
    message: string,
    readonly input: unknown,
  ) {
    super(message);
  }
}

/** There is nothing to index: no documents, or only empty ones. */
export class EmptyCorpusError extends RagError {
  override name = "EmptyCorpusError";
  constructor(readonly source: string) {
    super(
      `Der Korpus ist leer (${source}): keine Dokumente mit Text gefunden.\n` +
        `  → Markdown-Dateien (*.md) mit Text in den Korpus-Ordner legen (z. B. data/corpus/) oder andere Dokumente übergeben.`,
    );
  }
}

/** A file or folder the RAG code needs does not exist. */
export class RagFileNotFoundError extends RagError {
  override name = "RagFileNotFoundError";
  constructor(
    readonly path: string,
    readonly what: string,
  ) {
    super(`${what} nicht gefunden: ${path}\n  → Pfad prüfen (relativ zum Projektordner) oder die Datei anlegen.`);
  }
}

/** A vector does not have the dimension of the index or model. */
export class DimensionMismatchError extends RagError {
  override name = "DimensionMismatchError";
  constructor(
    readonly expected: number,
    readonly actual: number,
    readonly context: string,
  ) {
    super(
      `Falsche Vektor-Dimension (${context}): erwartet ${expected}, erhalten ${actual}.\n` +
        `  → Index und Anfrage müssen mit demselben Embedding-Modell erzeugt werden; ggf. den Index neu bauen.`,
    );
  }
}

/** The embedding model is neither in the models folder nor downloadable (offline, or wrong id/path). */
export class EmbeddingModelNotFoundError extends RagError {
  override name = "EmbeddingModelNotFoundError";
  constructor(
    readonly model: string,
    readonly searched: string[],
    readonly reason: string,
  ) {
    const where = searched.map((p) => `    ${p}`).join("\n");
    super(
      `Embedding-Modell "${model}" nicht gefunden: ${reason}\n  Gesucht in:\n${where}\n` +
        `  → Modellordner mit config.json, tokenizer.json, tokenizer_config.json und onnx/model.onnx ` +
        `(bzw. onnx/model_quantized.onnx für dtype q8) nach ${searched[0] ?? "models/<id>"} kopieren,\n` +
        `  → oder EMBEDDING_MODEL auf einen lokalen Modellordner setzen,\n` +
        `  → oder mit Internet MODELS_OFFLINE nicht setzen, dann wird das Modell heruntergeladen.`,
    );
  }
}

/** transformers.js / onnxruntime could not load the model (download failed, corrupt file …). */
export class EmbeddingModelLoadError extends RagError {
  override name = "EmbeddingModelLoadError";
  constructor(
    readonly model: string,
    readonly reason: string,
  ) {
    super(
      `Embedding-Modell "${model}" konnte nicht geladen werden: ${reason}\n` +
        `  → Ohne Internet: MODELS_OFFLINE=1 setzen und die Dateien lokal ablegen; bei defekten Dateien den ` +
        `Modellordner löschen und neu laden.`,
    );
  }
}

/** A persisted index or chunk store cannot be used (corrupt, other format, other model). */
export class IndexStoreError extends RagError {
  override name = "IndexStoreError";
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(
      `Gespeicherter Index unbrauchbar: ${path}\n  Grund: ${reason}\n` +
        `  → Den Ordner löschen bzw. mit { rebuild: true } neu bauen.`,
    );
  }
}

/** The HNSW index needs the npm package usearch, and it does not load on this machine. */
export class HnswUnavailableError extends RagError {
  override name = "HnswUnavailableError";
  constructor(readonly detail: string) {
    super(
      `Der HNSW-Index ist nicht verfügbar: das Paket usearch lädt nicht (${detail}).\n` +
        `  → npm run setup erneut ausführen, oder den exakten Index nehmen (kind: "flat", der Standard).`,
    );
  }
}

/** The embedding model was released (dispose(), e.g. a notebook's cleanup cell) and is used again. */
export class EmbedderClosedError extends RagError {
  override name = "EmbedderClosedError";
  constructor() {
    super("Das Embedding-Modell wurde geschlossen – führe die Set-up-Zelle oben noch einmal aus.");
  }
}

/**
 * FAISS wrote or read a flat index other than flat-layout.ts expects (a faiss-node version the kit does
 * not know). flatLayoutMatches catches this up front, so it means the addon changed while running.
 */
export class FaissLayoutError extends RagError {
  override name = "FaissLayoutError";
  constructor(readonly detail: string) {
    super(
      `Der FAISS-Index hat ein unerwartetes Format (${detail}). Die installierte faiss-node-Version passt nicht zum Kit.\n  → npm ci ausführen und den Index mit { rebuild: true } neu bauen.`,
    );
  }
}
