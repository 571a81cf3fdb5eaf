// Approximate search on an HNSW graph with USearch (npm "usearch"). Its npm package carries prebuilt
// binaries for Linux, macOS and Windows, so nothing is compiled or downloaded from GitHub, and its
// search breadth (efSearch, "expansion_search") can be chosen, which faiss-node does not allow
// (FAISS' HNSW stays at efSearch 16: recall@5 was 0.87 at 100k vectors in bench/rag-faiss.bench.ts).
// Scores follow FAISS' conventions: "ip" gives the inner product (USearch reports 1 − ip), "l2" the
// squared L2 distance. USearch keeps efSearch out of its files: it is a setting of the loaded index.
// The package is required on first use, so importing lib/rag does not load it.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { findProjectRoot } from "../config.js";
import { errorText } from "../util.js";
import { withTempFile } from "./temp-file.js";
import { HnswUnavailableError } from "./errors.js";
import type { IndexBackend, SearchHit } from "./index-backend.js";

export type HnswMetric = "ip" | "l2";

/** Defaults: 32 neighbours per node, 128 candidates while building, 64 while searching (recall@5 0.996 at 100k). */
export const HNSW_DEFAULTS = { m: 32, efConstruction: 128, efSearch: 64 } as const;

/** The part of usearch's Index this module uses. */
interface UsearchIndex {
  add(keys: BigUint64Array, vectors: Float32Array, threads?: number): void;
  search(vectors: Float32Array, k: number, threads: number): UsearchMatches | { get(i: number): UsearchMatches };
  size(): number;
  dimensions(): number;
  save(path: string): void;
  load(path: string): void;
}

interface UsearchMatches {
  keys: BigUint64Array;
  distances: Float32Array;
}

interface UsearchConfig {
  dimensions: number;
  metric: "ip" | "l2sq";
  connectivity: number;
  expansion_add: number;
  expansion_search: number;
}

type UsearchModule = { Index: new (config: UsearchConfig) => UsearchIndex };

let usearch: UsearchModule | undefined;

function usearchModule(): UsearchModule {
  try {
    usearch ??= createRequire(join(findProjectRoot(), "package.json"))("usearch") as UsearchModule;
    return usearch;
  } catch (error) {
    throw new HnswUnavailableError(errorText(error).split("\n")[0] ?? "");
  }
}

const MAGIC = "usearch";

/**
 * Throws unless `file` has USearch's index header where USearch looks for it: at the start, or after a
 * vector block whose size (rows × bytes per row, as two uint32 or two uint64) the first bytes give.
 * usearch itself aborts the process (std::bad_alloc) on some foreign files, e.g. a FAISS index.
 */
function checkUsearchFile(file: string): void {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    const at = (position: bigint, length: number): Buffer | undefined => {
      if (position < 0n || position + BigInt(length) > BigInt(size)) return undefined;
      const buf = Buffer.alloc(length);
      return readSync(fd, buf, 0, length, Number(position)) === length ? buf : undefined;
    };
    const head = at(0n, 16);
    const magicAt = (position: bigint) => at(position, 64)?.toString("latin1", 0, MAGIC.length) === MAGIC;
    const afterU32 = head ? 8n + BigInt(head.readUInt32LE(0)) * BigInt(head.readUInt32LE(4)) : -1n;
    const afterU64 = head ? 16n + head.readBigUInt64LE(0) * head.readBigUInt64LE(8) : -1n;
    if (!(magicAt(0n) || magicAt(afterU32) || magicAt(afterU64)))
      throw new Error("keine USearch-Indexdatei (Kopf nicht gefunden)");
  } finally {
    closeSync(fd);
  }
}

export interface HnswSettings {
  metric: HnswMetric;
  m: number;
  efSearch: number;
}

export class UsearchHnsw implements IndexBackend {
  private constructor(
    private index: UsearchIndex,
    private settings: HnswSettings,
  ) {}

  private static newIndex(dimension: number, s: HnswSettings): UsearchIndex {
    return new (usearchModule().Index)({
      dimensions: dimension,
      metric: s.metric === "ip" ? "ip" : "l2sq",
      connectivity: s.m,
      expansion_add: HNSW_DEFAULTS.efConstruction,
      expansion_search: s.efSearch,
    });
  }

  static create(dimension: number, settings: HnswSettings): UsearchHnsw {
    return new UsearchHnsw(UsearchHnsw.newIndex(dimension, settings), settings);
  }

  /** Reads a file written by {@link save}; dimension, metric and graph come from the file. */
  static read(file: string, settings: HnswSettings): UsearchHnsw {
    checkUsearchFile(file);
    const index = UsearchHnsw.newIndex(1, settings);
    index.load(file);
    return new UsearchHnsw(index, settings);
  }

  get dimension(): number {
    return this.index.dimensions();
  }

  get efSearch(): number {
    return this.settings.efSearch;
  }

  /** A new search breadth: the graph is saved and read back into an index with that setting. */
  setEfSearch(efSearch: number): void {
    const settings = { ...this.settings, efSearch };
    this.index = withTempFile("hnsw-", "index.usearch", (file) => {
      this.save(file);
      return UsearchHnsw.read(file, settings).index;
    });
    this.settings = settings;
  }

  size(): number {
    return this.index.size();
  }

  add(count: number, fill: (rows: Float32Array) => void): void {
    const rows = new Float32Array(count * this.dimension);
    fill(rows);
    const first = this.size();
    this.index.add(
      BigUint64Array.from({ length: count }, (_, i) => BigInt(first + i)),
      rows,
      0,
    );
  }

  search(queries: Float32Array, count: number, k: number): SearchHit[][] {
    const result = this.index.search(queries, k, 0);
    const toScore = this.settings.metric === "ip" ? (d: number) => 1 - d : (d: number) => d;
    return Array.from({ length: count }, (_, q) => {
      const matches = "get" in result ? result.get(q) : result;
      return Array.from(matches.keys, (key, i) => ({
        id: Number(key),
        score: toScore(matches.distances[i] ?? Number.NaN),
      }));
    });
  }

  save(file: string): void {
    this.index.save(file);
  }
}
