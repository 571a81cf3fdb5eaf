// A small typed wrapper around faiss-node: cosine similarity as inner product on unit vectors
// (IndexFlatIP), the Python original's squared L2 (IndexFlatL2), or an approximate HNSW graph.
// For unit vectors ‖a − b‖² = 2 − 2·a·b, so L2 and inner product give the same ranking.
//
// HNSW search breadth (efSearch): faiss-node has no setter for it, but FAISS stores it in the
// serialised index, so it is set by patching that field in the index's buffer (see hnsw-layout.ts).
import { existsSync, readFileSync } from "node:fs";
import faiss from "faiss-node";
import { appendFlat, flatLayoutMatches } from "./flat-layout.js";
import { bufferReader, efSearchInFile, efSearchOffset } from "./hnsw-layout.js";
import { DimensionMismatchError, IndexStoreError, RagError, RagFileNotFoundError, RagInputError } from "./errors.js";

/** "flat": exact search over all vectors; "hnsw": approximate graph search (HNSW32) for large corpora. */
export type IndexKind = "flat" | "hnsw";
/** "ip": inner product (cosine on unit vectors, higher = closer); "l2": squared L2 distance (lower = closer). */
export type IndexMetric = "ip" | "l2";

export interface VectorIndexOptions {
  kind?: IndexKind;
  metric?: IndexMetric;
  /** Neighbours per node of the HNSW graph (default 32). */
  hnswM?: number;
  /**
   * HNSW only: candidates kept while searching (default {@link DEFAULT_HNSW_EF_SEARCH}); higher = better
   * recall, slower queries. FAISS' own default, 16, misses many true neighbours on large corpora.
   */
  efSearch?: number;
}

/**
 * Default HNSW efSearch. bench/rag-faiss.bench.ts on 100k synthetic 384-d vectors (50 queries,
 * recall@5 against exact search, two runs): FAISS' default 16 → 0.81, 64 → 0.94, 128 → 0.98, at 0.6–0.7 ms
 * per query (100–140× the JS loop). On workshop-sized corpora the extra cost is well under a millisecond.
 */
export const DEFAULT_HNSW_EF_SEARCH = 128;

export interface SearchHit {
  /** Position of the vector in insertion order. */
  id: number;
  /** Inner product (ip) or squared L2 distance (l2), as FAISS reports it. */
  score: number;
}

type FaissIndex = InstanceType<typeof faiss.Index>;

function checkEfSearch(ef: unknown): number {
  if (typeof ef !== "number" || !Number.isInteger(ef) || ef < 1) {
    throw new RagInputError(`efSearch muss eine ganze Zahl ≥ 1 sein, erhalten: ${String(ef)}. / efSearch must be an integer ≥ 1.`, ef);
  }
  return ef;
}

function checkDimension(d: number): number {
  if (!Number.isInteger(d) || d < 1) throw new RagInputError(`Die Dimension muss eine ganze Zahl ≥ 1 sein, erhalten: ${String(d)}.`, d);
  return d;
}

export class VectorIndex {
  private constructor(
    private index: FaissIndex,
    readonly dimension: number,
    readonly kind: IndexKind,
    readonly metric: IndexMetric,
    private ef: number | undefined,
  ) {}

  /** HNSW: the efSearch in force (undefined for flat indexes or an unrecognised HNSW file layout). */
  get efSearch(): number | undefined {
    return this.ef;
  }

  /**
   * HNSW: changes efSearch (a serialise–patch–deserialise round trip, so it costs about as much as
   * save + load). Throws RagInputError for flat indexes.
   */
  setEfSearch(efSearch: number): void {
    const ef = checkEfSearch(efSearch);
    if (this.kind !== "hnsw") throw new RagInputError("efSearch gibt es nur beim HNSW-Index. / efSearch applies to HNSW indexes only.", efSearch);
    const buf = this.index.toBuffer();
    const at = efSearchOffset(bufferReader(buf), buf.length);
    if (at === undefined) throw new RagError("efSearch nicht setzbar: unbekanntes FAISS-Format des HNSW-Index.");
    buf.writeInt32LE(ef, at);
    this.index = faiss.Index.fromBuffer(buf);
    this.ef = ef;
  }

  static create(dimension: number, options: VectorIndexOptions = {}): VectorIndex {
    const d = checkDimension(dimension);
    const kind = options.kind ?? "flat";
    const metric = options.metric ?? "ip";
    if (kind !== "flat" && kind !== "hnsw") throw new RagInputError(`Unbekannte Index-Art "${String(kind)}" (erlaubt: flat, hnsw).`, kind);
    if (metric !== "ip" && metric !== "l2") throw new RagInputError(`Unbekannte Metrik "${String(metric)}" (erlaubt: ip, l2).`, metric);
    const m = options.hnswM ?? 32;
    if (!Number.isInteger(m) || m < 2) throw new RagInputError(`hnswM muss eine ganze Zahl ≥ 2 sein, erhalten: ${String(m)}.`, m);
    if (options.efSearch !== undefined) checkEfSearch(options.efSearch);
    if (options.efSearch !== undefined && kind !== "hnsw") throw new RagInputError("efSearch gibt es nur beim HNSW-Index. / efSearch applies to HNSW indexes only.", options.efSearch);
    if (kind === "hnsw") {
      const faissMetric = metric === "ip" ? faiss.MetricType.METRIC_INNER_PRODUCT : faiss.MetricType.METRIC_L2;
      const index = new VectorIndex(faiss.Index.fromFactory(d, `HNSW${m}`, faissMetric), d, kind, metric, undefined);
      // Still empty, so the round trip is cheap. An explicit efSearch must take effect; the default is
      // skipped (FAISS keeps 16) if a future FAISS changes the file layout.
      const empty = index.index.toBuffer();
      if (options.efSearch !== undefined || efSearchOffset(bufferReader(empty), empty.length) !== undefined) {
        index.setEfSearch(options.efSearch ?? DEFAULT_HNSW_EF_SEARCH);
      }
      return index;
    }
    return new VectorIndex(metric === "ip" ? new faiss.IndexFlatIP(d) : new faiss.IndexFlatL2(d), d, kind, metric, undefined);
  }

  /**
   * Reads an index written by {@link save}; `kind` and `metric` come from the caller's manifest.
   * An HNSW file keeps the efSearch it was saved with unless `efSearch` is given.
   */
  static load(file: string, options: { kind: IndexKind; metric: IndexMetric; dimension?: number; efSearch?: number }): VectorIndex {
    if (!existsSync(file)) throw new RagFileNotFoundError(file, "Index-Datei");
    if (options.efSearch !== undefined) checkEfSearch(options.efSearch);
    if (options.efSearch !== undefined && options.kind !== "hnsw") throw new RagInputError("efSearch gibt es nur beim HNSW-Index. / efSearch applies to HNSW indexes only.", options.efSearch);
    let index: FaissIndex;
    let ef: number | undefined;
    try {
      if (options.efSearch === undefined) {
        index = faiss.Index.read(file);
        ef = options.kind === "hnsw" ? efSearchInFile(file) : undefined;
      } else {
        // Patch the stored efSearch before FAISS reads the index.
        const buf = readFileSync(file);
        const at = efSearchOffset(bufferReader(buf), buf.length);
        if (at !== undefined) buf.writeInt32LE(options.efSearch, at);
        ef = at === undefined ? undefined : options.efSearch;
        index = faiss.Index.fromBuffer(buf);
      }
    } catch (error) {
      throw new IndexStoreError(file, error instanceof Error ? error.message : String(error));
    }
    if (options.kind === "hnsw" && options.efSearch !== undefined && ef === undefined) {
      throw new IndexStoreError(file, "kein HNSW-Index in bekanntem Format, efSearch nicht setzbar / not an HNSW index in a known layout");
    }
    const d = index.getDimension();
    if (options.dimension !== undefined && d !== options.dimension) throw new DimensionMismatchError(options.dimension, d, `Index-Datei ${file}`);
    return new VectorIndex(index, d, options.kind, options.metric, options.kind === "hnsw" ? ef : undefined);
  }

  get size(): number {
    return this.index.ntotal();
  }

  /** Higher score = closer for "ip"; lower = closer for "l2". */
  get higherIsBetter(): boolean {
    return this.metric === "ip";
  }

  /** All vectors, checked, in one row-major array: a new number[] (the addon's array path) or `into`. */
  private flatten(vectors: ReadonlyArray<ArrayLike<number>>, context: string, into?: Float32Array): number[] | Float32Array {
    const flat = into ?? new Array<number>(vectors.length * this.dimension);
    vectors.forEach((v, i) => {
      if (v.length !== this.dimension) throw new DimensionMismatchError(this.dimension, v.length, `${context}, Vektor ${i}`);
      for (let j = 0; j < v.length; j++) {
        const x = v[j] ?? Number.NaN;
        if (!Number.isFinite(x)) throw new RagInputError(`${context}: Vektor ${i} enthält einen ungültigen Wert (${x}) an Stelle ${j}.`, v);
        flat[i * this.dimension + j] = x;
      }
    });
    return flat;
  }

  /**
   * Appends vectors; their ids continue from the current size. Flat indexes take a typed-array path
   * (see flat-layout.ts: about 50× faster than faiss-node's number-by-number `add`), which copies the
   * stored vectors once per call: add large batches, not one vector at a time.
   */
  add(vectors: ReadonlyArray<ArrayLike<number>>): void {
    if (vectors.length === 0) return;
    if (this.kind === "flat" && flatLayoutMatches(this.metric)) {
      this.index = appendFlat(this.index, this.metric, vectors.length, (rows) => this.flatten(vectors, "add", rows));
      return;
    }
    this.index.add(this.flatten(vectors, "add") as number[]);
  }

  /** The k closest vectors, best first (fewer if the index holds fewer). */
  search(query: ArrayLike<number>, k: number): SearchHit[] {
    return this.searchMany([query], k)[0] ?? [];
  }

  /** Batched search: one result list per query. */
  searchMany(queries: ReadonlyArray<ArrayLike<number>>, k: number): SearchHit[][] {
    if (!Number.isInteger(k) || k < 1) throw new RagInputError(`k muss eine ganze Zahl ≥ 1 sein, erhalten: ${String(k)}.`, k);
    const flat = this.flatten(queries, "search") as number[];
    const n = Math.min(k, this.size);
    if (n === 0 || queries.length === 0) return queries.map(() => []);
    const { distances, labels } = this.index.search(flat, n);
    return queries.map((_, q) => {
      const hits: SearchHit[] = [];
      for (let i = q * n; i < (q + 1) * n; i++) {
        const id = labels[i] ?? -1;
        if (id >= 0) hits.push({ id, score: distances[i] ?? Number.NaN });
      }
      return hits;
    });
  }

  save(file: string): void {
    this.index.write(file);
  }

  toBuffer(): Buffer {
    return this.index.toBuffer();
  }
}
