// A small typed wrapper around two vector-search libraries: exact search with FAISS (cosine similarity
// as inner product on unit vectors, IndexFlatIP, or squared L2 distance, IndexFlatL2) and
// an approximate HNSW graph with USearch (hnsw-usearch.ts says why not FAISS' HNSW).
// For unit vectors ‖a − b‖² = 2 − 2·a·b, so L2 and inner product give the same ranking.
import { existsSync } from "node:fs";
import {
  DimensionMismatchError,
  HnswUnavailableError,
  IndexStoreError,
  RagFileNotFoundError,
  RagInputError,
} from "./errors.js";
import { FaissFlat } from "./faiss-flat.js";
import { HNSW_DEFAULTS, UsearchHnsw, type HnswSettings } from "./hnsw-usearch.js";
import type { SearchHit } from "./index-backend.js";
import { errorText } from "../util.js";

export type { SearchHit } from "./index-backend.js";

/** "flat": exact search over all vectors (FAISS); "hnsw": approximate graph search (USearch). */
export type IndexKind = "flat" | "hnsw";
/** "ip": inner product (cosine on unit vectors, higher = closer); "l2": squared L2 distance (lower = closer). */
export type IndexMetric = "ip" | "l2";

export interface VectorIndexOptions {
  /** "flat" (exact) or "hnsw" (approximate, for large corpora). Default "flat". */
  kind?: IndexKind;
  /** "ip" (inner product: cosine on unit vectors, higher is closer) or "l2" (squared distance, lower is closer). Default "ip". */
  metric?: IndexMetric;
  /** HNSW: neighbours per node of the graph (default 32). */
  hnswM?: number;
  /** HNSW: candidates kept while searching (default 64): more gives better recall and slower searches. */
  efSearch?: number;
}

/** Largest efSearch accepted: beyond a few hundred it only costs time. */
const MAX_EF_SEARCH = 4096;

function checkDimension(d: number): number {
  if (!Number.isInteger(d) || d < 1)
    throw new RagInputError(`Die Dimension muss eine ganze Zahl ≥ 1 sein, erhalten: ${String(d)}.`, d);
  return d;
}

function checkKindAndMetric(kind: IndexKind, metric: IndexMetric): void {
  if (kind !== "flat" && kind !== "hnsw")
    throw new RagInputError(`Unbekannte Index-Art "${String(kind)}" (erlaubt: flat, hnsw).`, kind);
  if (metric !== "ip" && metric !== "l2")
    throw new RagInputError(`Unbekannte Metrik "${String(metric)}" (erlaubt: ip, l2).`, metric);
}

function checkEfSearch(ef: number): number {
  if (!Number.isInteger(ef) || ef < 1 || ef > MAX_EF_SEARCH) {
    throw new RagInputError(
      `efSearch muss eine ganze Zahl von 1 bis ${MAX_EF_SEARCH} sein, erhalten: ${String(ef)}.`,
      ef,
    );
  }
  return ef;
}

/** HNSW settings from the options (checked); refuses HNSW options on a flat index. */
function hnswSettings(
  kind: IndexKind,
  metric: IndexMetric,
  options: Pick<VectorIndexOptions, "hnswM" | "efSearch">,
): HnswSettings {
  if (kind !== "hnsw" && options.efSearch !== undefined)
    throw new RagInputError('efSearch gilt nur für HNSW-Indexe (kind: "hnsw").', options.efSearch);
  const m = options.hnswM ?? HNSW_DEFAULTS.m;
  if (!Number.isInteger(m) || m < 2)
    throw new RagInputError(`hnswM muss eine ganze Zahl ≥ 2 sein, erhalten: ${String(m)}.`, m);
  return { metric, m, efSearch: checkEfSearch(options.efSearch ?? HNSW_DEFAULTS.efSearch) };
}

/** Vectors searchable by similarity: exact (FAISS flat) or approximate (USearch HNSW); saved to and loaded from a file. */
export class VectorIndex {
  private constructor(
    private readonly backend: FaissFlat | UsearchHnsw,
    readonly dimension: number,
    readonly kind: IndexKind,
    readonly metric: IndexMetric,
  ) {}

  /** An empty index for vectors of `dimension` (whole number ≥ 1) numbers. */
  static create(dimension: number, options: VectorIndexOptions = {}): VectorIndex {
    const d = checkDimension(dimension);
    const kind = options.kind ?? "flat";
    const metric = options.metric ?? "ip";
    checkKindAndMetric(kind, metric);
    const settings = hnswSettings(kind, metric, options);
    const backend = kind === "hnsw" ? UsearchHnsw.create(d, settings) : FaissFlat.create(d, metric);
    return new VectorIndex(backend, d, kind, metric);
  }

  /**
   * Reads an index written by {@link save}; `kind` and `metric` come from the caller's manifest.
   * HNSW files do not keep efSearch: it is an option here (default 64).
   */
  static load(
    file: string,
    options: { kind: IndexKind; metric: IndexMetric; dimension?: number; efSearch?: number },
  ): VectorIndex {
    checkKindAndMetric(options.kind, options.metric);
    const settings = hnswSettings(options.kind, options.metric, options);
    if (!existsSync(file)) throw new RagFileNotFoundError(file, "Index-Datei");
    let backend: FaissFlat | UsearchHnsw;
    try {
      backend = options.kind === "hnsw" ? UsearchHnsw.read(file, settings) : FaissFlat.read(file, options.metric);
    } catch (error) {
      if (error instanceof HnswUnavailableError) throw error;
      throw new IndexStoreError(file, errorText(error));
    }
    const d = backend.dimension;
    if (options.dimension !== undefined && d !== options.dimension)
      throw new DimensionMismatchError(options.dimension, d, `Index-Datei ${file}`);
    return new VectorIndex(backend, d, options.kind, options.metric);
  }

  /** Number of vectors added. */
  get size(): number {
    return this.backend.size();
  }

  /** Higher score = closer for "ip"; lower = closer for "l2". */
  get higherIsBetter(): boolean {
    return this.metric === "ip";
  }

  /** HNSW only: candidates kept while searching. */
  get efSearch(): number {
    if (!(this.backend instanceof UsearchHnsw))
      throw new RagInputError('efSearch gibt es nur bei HNSW-Indexen (kind: "hnsw").', this.kind);
    return this.backend.efSearch;
  }

  /**
   * HNSW only: searches from now on keep `ef` candidates (recall up, speed down). The graph is saved and
   * read back once (about a second at 100k vectors): set it when creating the index, not per query.
   */
  setEfSearch(ef: number): void {
    if (!(this.backend instanceof UsearchHnsw))
      throw new RagInputError('efSearch gilt nur für HNSW-Indexe (kind: "hnsw").', ef);
    this.backend.setEfSearch(checkEfSearch(ef));
  }

  /** Checks every vector and writes it, row-major, into `rows` (a float32 array of vectors.length × d). */
  private fill(vectors: ReadonlyArray<ArrayLike<number>>, context: string, rows: Float32Array): void {
    vectors.forEach((v, i) => {
      if (v.length !== this.dimension)
        throw new DimensionMismatchError(this.dimension, v.length, `${context}, Vektor ${i}`);
      for (let j = 0; j < v.length; j++) {
        const x = v[j] ?? Number.NaN;
        if (!Number.isFinite(x))
          throw new RagInputError(`${context}: Vektor ${i} enthält einen ungültigen Wert (${x}) an Stelle ${j}.`, v);
        rows[i * this.dimension + j] = x;
      }
    });
  }

  /**
   * Appends vectors; their ids continue from the current size. The flat index copies its stored vectors
   * once per call (flat-layout.ts): add large batches, not one vector at a time.
   */
  add(vectors: ReadonlyArray<ArrayLike<number>>): void {
    if (vectors.length === 0) return;
    this.backend.add(vectors.length, (rows) => this.fill(vectors, "add", rows));
  }

  /** The k closest vectors, best first (fewer if the index holds fewer). */
  search(query: ArrayLike<number>, k: number): SearchHit[] {
    return this.searchMany([query], k)[0] ?? [];
  }

  /** Batched search: one result list per query. */
  searchMany(queries: ReadonlyArray<ArrayLike<number>>, k: number): SearchHit[][] {
    if (!Number.isInteger(k) || k < 1)
      throw new RagInputError(`k muss eine ganze Zahl ≥ 1 sein, erhalten: ${String(k)}.`, k);
    const rows = new Float32Array(queries.length * this.dimension);
    this.fill(queries, "search", rows);
    const n = Math.min(k, this.size);
    if (n === 0 || queries.length === 0) return queries.map(() => []);
    return this.backend.search(rows, queries.length, n);
  }

  /** Writes the index to `file` (VectorIndex.load reads it back). */
  save(file: string): void {
    this.backend.save(file);
  }
}
